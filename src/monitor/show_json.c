/*
 * show_json.c - a sample for scripts: one JSON object per sample and line
 * (`top --json`, schema gpudoctor/top/1 in docs/json.md), or CSV rows in
 * the manner of nvidia-smi --query-gpu (`top --csv`). Unknown values are
 * null in JSON and empty in CSV, never NVML's sentinels.
 */
#include "monitor/session.h"
#include "base/str.h"

#include <math.h>
#include <string.h>
#include <time.h>

static json_t *
opt_int(int64_t v)
{
	return v == MON_NA ? json_null() : json_integer((json_int_t)v);
}

static json_t *
opt_watts(int mw)
{
	return mw == MON_NA ? json_null() : json_real(mw / 1000.0);
}

static void
iso_time(double wall, char *out, size_t size)
{
	time_t t = (time_t)wall;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static json_t *
reasons_json(int64_t bits)
{
	json_t *a = json_array();
	int b;

	for (b = 0; bits != MON_NA && b < 9; b++)
		if ((unsigned long long)bits & MON_REASONS_REPORTED & (1ULL << b))
			json_array_append_new(a, json_string(mon_reason_name(b)));
	return a;
}

static const char *
state_name(int state)
{
	return state == MON_GPU_LOST ? "lost" : state == MON_GPU_ERROR ? "error" : "ok";
}

static json_t *
gpu_json(const struct mon_gpu *g)
{
	char err[64] = "";
	json_t *o;

	if (g->state != MON_GPU_OK)
		mon_nvml_error_name(g->error_rc, err, sizeof(err));
	o = json_pack("{s:i,s:s,s:s,s:s,s:s,s:s*}", "index", g->index, "name", g->name, "uuid", g->uuid, "bus_id",
		      g->bus_id, "state", state_name(g->state), "error", g->state != MON_GPU_OK ? err : NULL);
	json_object_set_new(o, "utilization", json_pack("{s:o,s:o}", "gpu_pct", opt_int(g->util_gpu), "memory_pct",
							  opt_int(g->util_mem)));
	json_object_set_new(o, "memory", json_pack("{s:o,s:o}", "used_mib", opt_int(g->mem_used_mib), "total_mib",
						     opt_int(g->mem_total_mib)));
	json_object_set_new(o, "temperature", json_pack("{s:o,s:o,s:o}", "gpu_c", opt_int(g->temp), "slowdown_c",
							  opt_int(g->temp_slowdown), "shutdown_c",
							  opt_int(g->temp_shutdown)));
	json_object_set_new(o, "power", json_pack("{s:o,s:o,s:o}", "draw_w", opt_watts(g->power_mw), "limit_w",
						    opt_watts(g->power_limit_mw), "energy_j",
						    g->energy_mj == MON_NA ? json_null()
									   : json_real((double)g->energy_mj / 1e3)));
	json_object_set_new(o, "fan_pct", opt_int(g->fan));
	json_object_set_new(o, "pstate", opt_int(g->pstate));
	json_object_set_new(o, "clocks", json_pack("{s:o,s:o,s:o,s:o}", "sm_mhz", opt_int(g->sm_clock), "mem_mhz",
						     opt_int(g->mem_clock), "sm_max_mhz", opt_int(g->sm_clock_max),
						     "mem_max_mhz", opt_int(g->mem_clock_max)));
	json_object_set_new(o, "clock_event_reasons",
			    json_pack("{s:o,s:o}", "mask", opt_int(g->reasons), "active", reasons_json(g->reasons)));
	json_object_set_new(o, "ecc", json_pack("{s:o,s:o}", "corrected_volatile", opt_int(g->ecc_corrected),
						  "uncorrected_volatile", opt_int(g->ecc_uncorrected)));
	json_object_set_new(o, "remapped_rows",
			    json_pack("{s:o,s:o,s:o,s:o}", "corrected", opt_int(g->remapped_corrected), "uncorrected",
				      opt_int(g->remapped_uncorrected), "pending",
				      g->remap_pending == MON_NA ? json_null() : json_boolean(g->remap_pending),
				      "failure", g->remap_failure == MON_NA ? json_null() : json_boolean(g->remap_failure)));
	json_object_set_new(o, "retired_pages", opt_int(g->retired_pages));
	json_object_set_new(o, "pcie", json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "gen", opt_int(g->pcie_gen), "width",
						   opt_int(g->pcie_width), "gen_max", opt_int(g->pcie_gen_max),
						   "width_max", opt_int(g->pcie_width_max), "tx_kib_s",
						   opt_int(g->pcie_tx_kib), "rx_kib_s", opt_int(g->pcie_rx_kib)));
	json_object_set_new(o, "mig", g->mig == MON_NA ? json_null() : json_boolean(g->mig));
	return o;
}

static json_t *
proc_json(const struct mon_sample *m, const struct mon_proc *p)
{
	char hint[300];

	mon_proc_hint(m, p, hint, sizeof(hint));
	return json_pack("{s:i,s:I,s:s,s:s,s:s,s:o,s:o,s:o,s:s,s:b,s:s*,s:s*}", "gpu",
			 p->gpu < m->ngpus ? m->gpus[p->gpu].index : p->gpu, "pid", (json_int_t)p->pid, "type",
			 p->kind == MON_PROC_GRAPHICS ? "graphics" : "compute", "user", p->user, "command", p->command,
			 "memory_mib", opt_int(p->mem_mib), "sm_pct", opt_int(p->sm_util), "cpu_pct",
			 p->cpu_pct == MON_NA ? json_null() : json_real(round(p->cpu_pct * 10) / 10), "state",
			 mon_proc_state_name(p->state), "stale", p->stale, "container",
			 p->container[0] ? p->container : NULL, "hint", hint[0] ? hint : NULL);
}

json_t *
mon_sample_json(const struct mon_session *s)
{
	const struct mon_sample *m = s->cur;
	json_t *o, *a;
	char when[32];
	int i;

	iso_time(m->wall, when, sizeof(when));
	o = json_pack("{s:s,s:s,s:s,s:I,s:f,s:s,s:f}", "schema", "gpudoctor/top/1", "time", when, "host",
		      s->hostname, "sample", (json_int_t)m->seq, "t_s", m->t_ms / 1e3, "driver", m->driver,
		      "sampler_cpu_ms", round(m->cpu_ms * 1000) / 1000);
	a = json_array();
	for (i = 0; i < m->ngpus; i++)
		json_array_append_new(a, gpu_json(&m->gpus[i]));
	json_object_set_new(o, "gpus", a);
	a = json_array();
	for (i = 0; i < m->nprocs; i++)
		json_array_append_new(a, proc_json(m, &m->procs[i]));
	json_object_set_new(o, "processes", a);
	json_object_set_new(o, "processes_cut", json_boolean(m->procs_cut));
	a = json_array();
	for (i = 0; i < s->nevents; i++)
		json_array_append_new(a, alert_event_json(s->alerts, &s->events[i], m, s->hostname));
	json_object_set_new(o, "alerts", a);
	a = json_array();
	for (i = 0; i < s->nnotes; i++)
		json_array_append_new(a, json_string(s->notes[i]));
	json_object_set_new(o, "notes", a);
	return o;
}

void
mon_csv_header(FILE *out)
{
	fputs("time,gpu,uuid,name,util_gpu_pct,util_mem_pct,mem_used_mib,mem_total_mib,temp_c,power_w,"
	      "power_limit_w,sm_mhz,mem_mhz,pstate,fan_pct,clock_event_reasons,ecc_uncorrected,pcie_gen,pcie_width,"
	      "processes,state\n",
	      out);
}

static void
csv_num(FILE *out, int64_t v)
{
	if (v != MON_NA)
		fprintf(out, "%lld", (long long)v);
	fputc(',', out);
}

/* A field that may hold a comma or a quote, quoted as RFC 4180 says. */
static void
csv_text(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputs("\",", out);
}

void
mon_csv_rows(FILE *out, const struct mon_session *s)
{
	const struct mon_sample *m = s->cur;
	char when[32], reasons[200];
	int i, j, n;

	iso_time(m->wall, when, sizeof(when));
	for (i = 0; i < m->ngpus; i++) {
		const struct mon_gpu *g = &m->gpus[i];
		fprintf(out, "%s,%d,", when, g->index);
		csv_text(out, g->uuid);
		csv_text(out, g->name);
		csv_num(out, g->util_gpu);
		csv_num(out, g->util_mem);
		csv_num(out, g->mem_used_mib);
		csv_num(out, g->mem_total_mib);
		csv_num(out, g->temp);
		if (g->power_mw != MON_NA)
			fprintf(out, "%.2f", g->power_mw / 1000.0);
		fputc(',', out);
		if (g->power_limit_mw != MON_NA)
			fprintf(out, "%.2f", g->power_limit_mw / 1000.0);
		fputc(',', out);
		csv_num(out, g->sm_clock);
		csv_num(out, g->mem_clock);
		if (g->pstate != MON_NA)
			fprintf(out, "P%d", g->pstate);
		fputc(',', out);
		csv_num(out, g->fan);
		mon_reasons_text(g->reasons, reasons, sizeof(reasons));
		csv_text(out, reasons);
		csv_num(out, g->ecc_uncorrected);
		csv_num(out, g->pcie_gen);
		csv_num(out, g->pcie_width);
		for (j = n = 0; j < m->nprocs; j++)
			n += m->procs[j].gpu == i;
		fprintf(out, "%d,%s\n", n, state_name(g->state));
	}
}
