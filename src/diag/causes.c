/*
 * causes.c - a root cause before its consequences: when a finding that
 * explains others is present, those others are dropped from the report and
 * named in the cause's evidence instead ("also explains ..."), so a user
 * sees one problem with one fix, not five symptoms of it.
 *
 * The table is the whole policy; order does not matter, a finding that is
 * itself explained by another explains nothing further. A finding about
 * one Python environment (finding->env) explains only findings of the
 * same environment; a machine-wide one explains findings anywhere.
 */
#include "diag/rule.h"

#include <stdlib.h>
#include <string.h>

#define MAX_HIDES 8

struct cause {
	const char *id;
	const char *hides[MAX_HIDES];
};

static const struct cause causes[] = {
	/* nouveau holds the GPU: nvidia cannot load, nothing above it works */
	{"kmod.nouveau_loaded",
	 {"kmod.nvidia_not_loaded", "kmod.device_nodes_missing", "kmod.uvm_missing",
	  "driver.init_failed", "driver.no_visible_device", "driver.libcuda_missing"}},
	/* the unsigned module is refused: same chain */
	{"host.secure_boot_blocks_driver",
	 {"kmod.nvidia_not_loaded", "kmod.device_nodes_missing", "kmod.uvm_missing",
	  "driver.init_failed", "driver.no_visible_device"}},
	/* started without --gpus: no nodes, no driver libraries mounted */
	{"host.container_no_gpu",
	 {"kmod.device_nodes_missing", "kmod.uvm_missing", "driver.libcuda_missing",
	  "driver.init_failed", "driver.no_visible_device", "env.ld_library_path_stale"}},
	{"host.wsl_driver_missing", {"driver.libcuda_missing", "driver.init_failed", "driver.no_visible_device"}},
	{"kmod.nvidia_not_loaded",
	 {"kmod.device_nodes_missing", "kmod.uvm_missing", "driver.init_failed",
	  "driver.no_visible_device"}},
	{"kmod.device_nodes_missing", {"kmod.uvm_missing", "driver.init_failed", "driver.no_visible_device"}},
	{"kmod.uvm_missing", {"driver.init_failed", "driver.no_visible_device"}},
	{"driver.version_mismatch", {"driver.init_failed", "driver.no_visible_device"}},
	{"driver.probe_crashed", {"driver.init_failed"}},
	{"driver.probe_timeout", {"driver.init_failed"}},
	/* a TensorFlow >= 2.14 without its [and-cuda] wheels: one install
	 * brings every missing library */
	{"fw.and_cuda_missing",
	 {"lib.cudart_missing", "lib.cudnn_missing", "lib.cuda_lib_missing", "env.ld_library_path_stale"}},
};

static const struct cause *
cause_of(const char *id)
{
	size_t i;

	for (i = 0; i < sizeof(causes) / sizeof(causes[0]); i++)
		if (!strcmp(causes[i].id, id))
			return &causes[i];
	return NULL;
}

static bool
hides(const struct cause *c, const char *id)
{
	int k;

	for (k = 0; k < MAX_HIDES && c->hides[k]; k++)
		if (!strcmp(c->hides[k], id))
			return true;
	return false;
}

bool
finding_explains(const char *cause, const char *id)
{
	const struct cause *c = cause_of(cause);

	return c && hides(c, id);
}

/* Index of a present, not itself hidden, finding that explains fs->v[i];
 * -1 when none. `hidden` marks what is already known to be explained. */
static long
explainer(const struct findings *fs, size_t i, const bool *hidden)
{
	size_t j;

	for (j = 0; j < fs->n; j++) {
		const struct cause *c;
		if (j == i || hidden[j])
			continue;
		if (fs->v[j].env && (!fs->v[i].env || strcmp(fs->v[j].env, fs->v[i].env)))
			continue;
		c = cause_of(fs->v[j].id);
		if (c && hides(c, fs->v[i].id))
			return (long)j;
	}
	return -1;
}

void
findings_explain(struct findings *fs)
{
	bool *hidden, changed = true;
	long *by;
	size_t i, n = 0, rounds = 0;

	if (!fs->n)
		return;
	hidden = calloc(fs->n, sizeof(*hidden));
	by = calloc(fs->n, sizeof(*by));
	if (!hidden || !by) {
		free(hidden);
		free(by);
		return;
	}
	/* Iterate to a fixed point so chains resolve to the root (a finding
	 * hidden by another cause cannot hide anything itself). */
	while (changed && rounds++ <= fs->n) {
		changed = false;
		for (i = 0; i < fs->n; i++) {
			long j = explainer(fs, i, hidden);
			if ((j >= 0) != hidden[i]) {
				hidden[i] = j >= 0;
				changed = true;
			}
			by[i] = j;
		}
	}
	for (i = 0; i < fs->n; i++) {
		if (!hidden[i])
			continue;
		finding_evidence(&fs->v[by[i]], "also explains %s: %s", fs->v[i].id, fs->v[i].title);
	}
	/* drop the hidden ones, keeping order */
	for (i = 0; i < fs->n; i++) {
		if (hidden[i]) {
			finding_release(&fs->v[i]);
			continue;
		}
		fs->v[n++] = fs->v[i];
	}
	fs->n = n;
	free(hidden);
	free(by);
}
