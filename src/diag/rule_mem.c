/*
 * rule_mem.c - findings about GPU memory before anything starts: other
 * processes holding it (stopped, zombie or gone ones above all), and
 * little memory left free.
 *
 * Pure: reads facts only. A process that NVML lists but /proc does not
 * show is "gone" only outside a container: inside one, other containers'
 * processes are simply invisible to our pid namespace. Fixes print the
 * command; nothing is ever killed.
 */
#include "diag/fix.h"
#include "diag/rule.h"
#include "base/buf.h"
#include "base/str.h"

#include <string.h>
#include <strings.h>

static const struct gpu_facts *
gpu_of(const struct facts *f, const char *bus)
{
	const char *a, *b;
	int i;

	if (!bus[0])
		return NULL;
	/* NVML writes 00000000:01:00.0, sysfs 0000:01:00.0: compare the tails */
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		size_t la, lb;
		a = f->gpus[i].pci_bus_id;
		b = bus;
		la = strlen(a);
		lb = strlen(b);
		if (la >= 7 && lb >= 7 && !strcasecmp(a + la - 7, b + lb - 7))
			return &f->gpus[i];
	}
	return NULL;
}

static void
gpu_label(const struct facts *f, const char *bus, char *out, size_t size)
{
	const struct gpu_facts *g = gpu_of(f, bus);

	if (g && g->name[0])
		str_fmt(out, size, "%s (%s)", g->name, g->pci_bus_id);
	else if (bus[0])
		str_fmt(out, size, "the GPU at %s", bus);
	else
		str_copy(out, size, "the GPU");
}

static const char *
state_word(char s)
{
	switch (s) {
	case 'T':
	case 't':
		return "stopped";
	case 'Z':
		return "a zombie";
	case 'D':
		return "in uninterruptible sleep";
	case 'R':
		return "running";
	case 'S':
	case 'I':
		return "sleeping";
	default:
		return "";
	}
}

/* ---- mem.held_by_other_process ------------------------------------------------------- */

static void
check_holders(const struct facts *f, struct findings *out)
{
	const char *sudo = fix_sudo(f);
	struct finding *live = NULL;
	char label[F_NAME + 32];
	int i;

	for (i = 0; i < f->nprocs && i < MAX_PROCS; i++) {
		const struct proc_facts *p = &f->procs[i];
		bool known = p->used_mib != UINT64_MAX;
		bool stopped = p->alive && (p->state == 'T' || p->state == 't');
		bool zombie = p->alive && p->state == 'Z';
		bool gone = !p->alive && !f->host.container && f->host.valid;
		const char *name = p->name[0] ? p->name : "?";
		struct finding *fd;
		struct buf b;
		char mib[32];

		if (known && p->used_mib == 0)
			continue;
		if (known)
			STR_FMT(mib, "%llu MiB", (unsigned long long)p->used_mib);
		else
			STR_COPY(mib, "memory");
		gpu_label(f, p->gpu_bus_id, label, sizeof(label));
		if (!stopped && !zombie && !gone) {
			if (!live)
				live = findings_add(out, "mem.held_by_other_process", SEV_INFO,
						    "Other processes hold memory on the GPU");
			finding_evidence(live, "pid %u (%s) holds %s on %s%s%s", p->pid, name, mib, label,
					 state_word(p->state)[0] ? ", " : "", state_word(p->state));
			continue;
		}
		fd = findings_add(out, "mem.held_by_other_process", SEV_WARN,
				  "Process %u (%s) %s and holds %s on %s", p->pid,
				  name, gone ? "no longer exists" : stopped ? "is stopped" : "is a zombie", mib,
				  label);
		finding_evidence(fd, "NVML lists pid %u using %s (%s)", p->pid, mib,
				 p->type[0] ? p->type : "compute");
		if (gone)
			finding_evidence(fd, "/proc/%u does not exist", p->pid);
		else
			finding_evidence(fd, "/proc/%u/stat state %c (%s)", p->pid, p->state, state_word(p->state));
		buf_init(&b);
		if (stopped) {
			buf_addf(&b, "It was suspended (Ctrl-Z) and keeps its GPU memory. Resume it with fg "
				     "in its shell, or end it (prefix sudo if another user owns it):\n"
				     "kill %u; kill -CONT %u\n",
				 p->pid, p->pid);
		} else if (zombie) {
			buf_addf(&b, "It has exited but its parent has not collected it. Find and end the "
				     "parent:\nps -o ppid= -p %u\n",
				 p->pid);
		} else {
			buf_addf(&b, "The driver still accounts memory to a process that is gone. Find the "
				     "processes that really hold the device:\n%sfuser -v /dev/nvidia*\n",
				 sudo);
			buf_addf(&b, "If none does, reset the GPU (no process may use it): %snvidia-smi "
				     "--gpu-reset\n",
				 sudo);
		}
		finding_fix(fd, b.s);
		buf_release(&b);
	}
	if (live)
		finding_fixf(live, "Their memory is not available to you. If they are yours and finished "
				   "(a stale Jupyter kernel is common), end them; list the holders with "
				   "nvidia-smi or %sfuser -v /dev/nvidia*",
			     sudo);
}

/* ---- mem.low_free -------------------------------------------------------------------- */

static void
check_low_free(const struct facts *f, struct findings *out)
{
	char label[F_NAME + 32];
	int i, j;

	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		uint64_t total = g->memory_total_mib, free_mib = g->memory_free_mib;
		struct finding *fd;

		if (!g->nvml_valid || total == 0 || g->memory_used_mib + free_mib == 0)
			continue;
		if (free_mib >= 1024 && free_mib * 10 >= total)
			continue;
		/* a card with under 1 GiB in all is hw.low_vram's */
		if (total < 1024 && free_mib * 10 >= total)
			continue;
		if (g->name[0])
			STR_FMT(label, "%s (%s)", g->name, g->pci_bus_id);
		else
			STR_COPY(label, g->pci_bus_id);
		fd = findings_add(out, "mem.low_free", SEV_WARN, "Only %llu MiB of %llu MiB is free on %s",
				  (unsigned long long)free_mib, (unsigned long long)total, label);
		finding_evidence(fd, "NVML: %llu MiB used, %llu MiB free of %llu MiB (%llu%% free)",
				 (unsigned long long)g->memory_used_mib, (unsigned long long)free_mib,
				 (unsigned long long)total, (unsigned long long)(free_mib * 100 / total));
		for (j = 0; j < f->nprocs && j < MAX_PROCS; j++) {
			const struct proc_facts *p = &f->procs[j];
			if (gpu_of(f, p->gpu_bus_id) != g || p->used_mib == UINT64_MAX)
				continue;
			finding_evidence(fd, "pid %u (%s) holds %llu MiB", p->pid,
					 p->name[0] ? p->name : "?", (unsigned long long)p->used_mib);
		}
		finding_fixf(fd, "A job started now runs out of memory (CUDA_ERROR_OUT_OF_MEMORY, "
				 "\"Resource exhausted: OOM\"). Free the GPU (see the processes in "
				 "nvidia-smi or %sfuser -v /dev/nvidia*), or pick another GPU with "
				 "CUDA_VISIBLE_DEVICES.",
			     fix_sudo(f));
	}
}

void
rule_mem(const struct facts *f, struct findings *out)
{
	check_holders(f, out);
	check_low_free(f, out);
}
