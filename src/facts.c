/*
 * facts.c - initialisation and small lookups over struct facts; see facts.h.
 */
#include "facts.h"
#include "base/str.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

void
gpu_facts_init(struct gpu_facts *g)
{
	memset(g, 0, sizeof(*g));
	g->numa_node = -1;
	g->cuda_index = -1;
	g->temperature_c = -1;
	g->power_mw = -1;
	g->power_limit_mw = -1;
	g->persistence_mode = -1;
	g->compute_mode = -1;
	g->mig_mode = -1;
	g->utilization_gpu = -1;
	g->sm_clock_mhz = -1;
	g->sm_clock_max_mhz = -1;
	g->ecc_mode = -1;
	g->nvlink_up = -1;
	g->nvlink_down = -1;
}

void
facts_init(struct facts *f)
{
	int i;

	memset(f, 0, sizeof(*f));
	STR_COPY(f->schema, FACTS_SCHEMA);
	f->host.secure_boot = -1;
	f->driver.cuda_device_count = -1;
	f->driver.nvml_device_count = -1;
	for (i = 0; i < MAX_GPUS; i++)
		gpu_facts_init(&f->gpus[i]);
}

const struct env_var_facts *
facts_env(const struct facts *f, const char *name)
{
	int i;

	for (i = 0; i < f->env.nvars; i++)
		if (!strcmp(f->env.vars[i].name, name))
			return &f->env.vars[i];
	return NULL;
}

const char *
facts_env_value(const struct facts *f, const char *name)
{
	const struct env_var_facts *v = facts_env(f, name);

	return v && v->set ? v->value : NULL;
}

struct gpu_facts *
facts_gpu_by_bus(struct facts *f, const char *bus_id)
{
	int i;

	for (i = 0; i < f->ngpus; i++)
		if (!strcasecmp(f->gpus[i].pci_bus_id, bus_id))
			return &f->gpus[i];
	return NULL;
}

const struct devnode_facts *
facts_devnode(const struct facts *f, const char *path)
{
	int i;

	for (i = 0; i < f->kmod.ndevnodes; i++)
		if (!strcmp(f->kmod.devnodes[i].path, path))
			return &f->kmod.devnodes[i];
	return NULL;
}

bool
kmod_list_whole(const struct facts *f)
{
	return f->kmod.modules_readable && !f->kmod.modules_cut;
}

void
facts_note(struct facts *f, const char *probe, const char *fmt, ...)
{
	struct probe_note *n;
	va_list ap;

	if (f->nnotes >= MAX_PROBE_NOTES)
		return;
	n = &f->notes[f->nnotes++];
	STR_COPY(n->probe, probe);
	va_start(ap, fmt);
	vsnprintf(n->note, sizeof(n->note), fmt, ap);
	va_end(ap);
}

static const char *const origin_names[] = {
	[ORIGIN_OTHER] = "other",     [ORIGIN_TOOLKIT] = "toolkit",
	[ORIGIN_SYSTEM] = "system",   [ORIGIN_PIP] = "pip",
	[ORIGIN_CONDA] = "conda",     [ORIGIN_FRAMEWORK] = "framework",
	[ORIGIN_DRIVER] = "driver",
};

const char *
lib_origin_name(int origin)
{
	if (origin < 0 || origin > ORIGIN_DRIVER)
		return "other";
	return origin_names[origin];
}

int
lib_origin_parse(const char *s)
{
	int i;

	for (i = 0; i <= ORIGIN_DRIVER; i++)
		if (!strcmp(s, origin_names[i]))
			return i;
	return -1;
}

static const char *const child_names[] = {
	[CHILD_NOT_RUN] = "not_run", [CHILD_OK] = "ok",
	[CHILD_LOAD_FAILED] = "load_failed", [CHILD_CRASHED] = "crashed",
	[CHILD_TIMEOUT] = "timeout", [CHILD_FAILED] = "failed",
};

const char *
child_state_name(int state)
{
	if (state < 0 || state > CHILD_FAILED)
		return "failed";
	return child_names[state];
}

int
child_state_parse(const char *s)
{
	int i;

	for (i = 0; i <= CHILD_FAILED; i++)
		if (!strcmp(s, child_names[i]))
			return i;
	return -1;
}

const struct python_env_facts *
facts_active_env(const struct facts *f)
{
	int i;

	for (i = 0; i < f->npython; i++)
		if (f->python[i].active)
			return &f->python[i];
	return f->npython ? &f->python[0] : NULL;
}
