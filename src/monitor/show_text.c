/*
 * show_text.c - a sample as text for people: `top --once` (a block per
 * GPU, then the process table), the plain lines `top` prints when its
 * output is not a terminal (one per GPU and sample, in the manner of
 * nvidia-smi dmon), and watch's alert lines. Every name that came from
 * outside was cleaned where it was read (nvml_sampler.c, procinfo.c).
 */
#include "monitor/session.h"
#include "base/str.h"

#include <string.h>
#include <time.h>

#define RED(c) ((c) ? "\033[31m" : "")
#define YELLOW(c) ((c) ? "\033[33m" : "")
#define BOLD(c) ((c) ? "\033[1m" : "")
#define RESET(c) ((c) ? "\033[0m" : "")

void
mon_fmt_mib(int64_t mib, char *out, size_t size)
{
	if (mib == MON_NA)
		str_copy(out, size, "-");
	else if (mib >= 10240)
		str_fmt(out, size, "%.1f GiB", (double)mib / 1024.0);
	else
		str_fmt(out, size, "%lld MiB", (long long)mib);
}

static void
opt(char *out, size_t size, int64_t v, const char *unit)
{
	if (v == MON_NA)
		str_copy(out, size, "-");
	else
		str_fmt(out, size, "%lld%s", (long long)v, unit);
}

static void
local_time(double wall, char *out, size_t size)
{
	time_t t = (time_t)wall;
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(out, size, "%Y-%m-%d %H:%M:%S", &tm);
}

static void
gpu_block(FILE *out, const struct mon_gpu *g, bool color)
{
	char used[32], total[32], temp[16], slow[16], fan[16], sm[16], smmax[16], mem[16], util[16], mutil[16];
	char reasons[200], ecc[32], pcie[32];

	if (g->state != MON_GPU_OK) {
		char err[64];
		mon_nvml_error_name(g->error_rc, err, sizeof(err));
		fprintf(out, "%sGPU %d  %s  %s  %s: %s%s\n", RED(color), g->index, g->name[0] ? g->name : "?",
			g->bus_id, g->state == MON_GPU_LOST ? "LOST (fell off the bus)" : "not answering", err,
			RESET(color));
		if (g->state == MON_GPU_LOST)
			fprintf(out, "  the GPU no longer answers: see the Xid in the kernel log (sudo dmesg | grep -i xid);"
				" it needs a reset (sudo nvidia-smi --gpu-reset -i %d) or a reboot\n", g->index);
		return;
	}
	mon_fmt_mib(g->mem_used_mib, used, sizeof(used));
	mon_fmt_mib(g->mem_total_mib, total, sizeof(total));
	opt(util, sizeof(util), g->util_gpu, " %");
	opt(mutil, sizeof(mutil), g->util_mem, " %");
	opt(temp, sizeof(temp), g->temp, " C");
	opt(slow, sizeof(slow), g->temp_slowdown, " C");
	opt(fan, sizeof(fan), g->fan, " %");
	opt(sm, sizeof(sm), g->sm_clock, "");
	opt(smmax, sizeof(smmax), g->sm_clock_max, "");
	opt(mem, sizeof(mem), g->mem_clock, "");
	fprintf(out, "%sGPU %d  %s%s  %s", BOLD(color), g->index, g->name, RESET(color), g->bus_id);
	if (g->pstate != MON_NA)
		fprintf(out, "  P%d", g->pstate);
	if (g->mig == 1)
		fputs("  MIG on", out);
	fputc('\n', out);
	fprintf(out, "  util %s  memory util %s  memory %s / %s", util, mutil, used, total);
	if (g->mem_used_mib != MON_NA && g->mem_total_mib > 0)
		fprintf(out, " (%.0f %%)", 100.0 * (double)g->mem_used_mib / (double)g->mem_total_mib);
	fputc('\n', out);
	fprintf(out, "  temp %s (slowdown %s)  fan %s  power ", temp, slow, fan);
	if (g->power_mw != MON_NA)
		fprintf(out, "%.0f", g->power_mw / 1000.0);
	else
		fputc('-', out);
	if (g->power_limit_mw != MON_NA)
		fprintf(out, " / %.0f", g->power_limit_mw / 1000.0);
	fprintf(out, " W  clocks SM %s / %s MHz, memory %s MHz\n", sm, smmax, mem);
	mon_reasons_text(g->reasons, reasons, sizeof(reasons));
	opt(ecc, sizeof(ecc), g->ecc_uncorrected, "");
	if (g->pcie_gen != MON_NA && g->pcie_width != MON_NA)
		str_fmt(pcie, sizeof(pcie), "gen%d x%d", g->pcie_gen, g->pcie_width);
	else
		str_copy(pcie, sizeof(pcie), "-");
	fprintf(out, "  clock events %s%s%s  uncorrected ECC %s  PCIe %s\n",
		reasons[0] ? YELLOW(color) : "", reasons[0] ? reasons : "none", reasons[0] ? RESET(color) : "",
		ecc, pcie);
}

void
mon_text_snapshot(FILE *out, const struct mon_session *s, bool color)
{
	const struct mon_sample *m = s->cur;
	char when[32];
	int i;

	local_time(m->wall, when, sizeof(when));
	fprintf(out, "%s  driver %s  %s  %d GPU%s\n", s->hostname, m->driver[0] ? m->driver : "?", when, m->ngpus,
		m->ngpus == 1 ? "" : "s");
	for (i = 0; i < m->ngpus; i++) {
		fputc('\n', out);
		gpu_block(out, &m->gpus[i], color);
	}
	fputc('\n', out);
	if (!m->nprocs) {
		fputs("No process is using a GPU.\n", out);
	} else {
		fprintf(out, "%3s %8s %-10s %10s %4s %5s  %s\n", "GPU", "PID", "USER", "MEMORY", "SM%", "CPU%",
			"COMMAND");
		for (i = 0; i < m->nprocs; i++) {
			const struct mon_proc *p = &m->procs[i];
			char mem[32], sm[8], cpu[16], hint[300];
			mon_fmt_mib(p->mem_mib, mem, sizeof(mem));
			opt(sm, sizeof(sm), p->sm_util, "");
			if (p->cpu_pct == MON_NA)
				str_copy(cpu, sizeof(cpu), "-");
			else
				str_fmt(cpu, sizeof(cpu), "%.0f", p->cpu_pct);
			fprintf(out, "%3d %8u %-10.10s %10s %4s %5s  %s%s%s%.80s\n", m->gpus[p->gpu].index, p->pid,
				p->user[0] ? p->user : "-", mem, sm, cpu, p->stale ? RED(color) : "",
				p->stale ? "STALE " : "", p->stale ? RESET(color) : "", p->command);
			if (p->container[0])
				fprintf(out, "%36s container %s\n", "", p->container);
			mon_proc_hint(m, p, hint, sizeof(hint));
			if (hint[0])
				fprintf(out, "%36s %s\n", "", hint);
		}
		if (m->procs_cut)
			fprintf(out, "(more than %d processes: the rest not shown)\n", MON_MAX_PROCS);
	}
	for (i = 0; i < s->nevents; i++)
		mon_text_event(out, s, &s->events[i], color);
	for (i = 0; i < s->nnotes; i++)
		fprintf(out, "note: %s\n", s->notes[i]);
}

void
mon_text_lines(FILE *out, const struct mon_session *s, bool header)
{
	const struct mon_sample *m = s->cur;
	char when[32];
	int i;

	if (header)
		fprintf(out, "# %-19s %3s %5s %5s %9s %5s %6s %6s %s\n"
			     "# %-19s %3s %5s %5s %9s %5s %6s %6s\n",
			"time", "gpu", "util", "mutil", "mem", "temp", "power", "sm", "clock events",
			"", "idx", "%", "%", "MiB", "C", "W", "MHz");
	local_time(m->wall, when, sizeof(when));
	for (i = 0; i < m->ngpus; i++) {
		const struct mon_gpu *g = &m->gpus[i];
		char u[16], mu[16], mem[24], t[16], pw[16], sm[16], reasons[200];
		if (g->state != MON_GPU_OK) {
			fprintf(out, "  %-19s %3d %s\n", when, g->index, g->state == MON_GPU_LOST ? "LOST" : "ERROR");
			continue;
		}
		opt(u, sizeof(u), g->util_gpu, "");
		opt(mu, sizeof(mu), g->util_mem, "");
		opt(mem, sizeof(mem), g->mem_used_mib, "");
		opt(t, sizeof(t), g->temp, "");
		if (g->power_mw == MON_NA)
			str_copy(pw, sizeof(pw), "-");
		else
			str_fmt(pw, sizeof(pw), "%.0f", g->power_mw / 1000.0);
		opt(sm, sizeof(sm), g->sm_clock, "");
		mon_reasons_text(g->reasons, reasons, sizeof(reasons));
		fprintf(out, "  %-19s %3d %5s %5s %9s %5s %6s %6s %s\n", when, g->index, u, mu, mem, t, pw, sm,
			reasons[0] ? reasons : "-");
	}
	for (i = 0; i < m->nprocs; i++)
		if (m->procs[i].stale) {
			char hint[300];
			mon_proc_hint(m, &m->procs[i], hint, sizeof(hint));
			fprintf(out, "  STALE pid %u on GPU %d: %s\n", m->procs[i].pid, m->gpus[m->procs[i].gpu].index,
				hint);
		}
	for (i = 0; i < s->nevents; i++)
		mon_text_event(out, s, &s->events[i], false);
	for (i = 0; i < s->nnotes; i++)
		fprintf(out, "  note: %s\n", s->notes[i]);
}

void
mon_text_event(FILE *out, const struct mon_session *s, const struct alert_event *e, bool color)
{
	const struct alert_rule *r = &s->alerts->rules[e->rule];
	char when[32];

	local_time(s->cur->wall, when, sizeof(when));
	if (e->firing)
		fprintf(out, "%s %s%s%s [%s] %s: %s\n", when, r->severity >= ALERT_ERROR ? RED(color) : YELLOW(color),
			"FIRING", RESET(color), alert_severity_name(r->severity), r->text, e->message);
	else
		fprintf(out, "%s cleared [%s] %s: %s\n", when, alert_severity_name(r->severity), r->text, e->message);
}
