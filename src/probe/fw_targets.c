/*
 * fw_targets.c - the GPU code a framework's CUDA libraries carry, read from
 * their fat binaries (sys/fatbin.c): which of the framework's libraries to
 * read, and the lists of the one that carries the most. Headers only, so
 * libtorch_cuda.so (450 MB) costs a few milliseconds.
 *
 *   torch       torch/lib/libtorch_cuda.so (1.5 on), libtorch_cuda_cu.so
 *               (1.9 to 1.12 split it), libcaffe2_gpu.so, libtorch.so (older)
 *   tensorflow  python/_pywrap_tensorflow_internal.so, libtensorflow_cc.so.2,
 *               libtensorflow_framework.so.2 / .1 (1.15 and 2.0: under
 *               tensorflow_core/)
 *   jax         jax_plugins/xla_cudaNN/xla_cuda_plugin.so, else the old
 *               jaxlib/xla_extension.so (the extension frameworks.c found)
 *   cupy        cupy/cuda/cub*.so, thrust*.so (the kernels it does not
 *               compile at run time with NVRTC)
 */
#include "probe/fw_targets.h"
#include "base/clock.h"
#include "base/str.h"
#include "sys/fatbin.h"
#include "sys/root.h"

#include <string.h>
#include <time.h>

#define MAX_CANDIDATES 8

/* A share of the most common target below which a target is left out of
 * the lists: a few kernels built for sm_90a only do not make a build. */
#define TARGET_SHARE 0.5
/* Time for the walk of one library. Warm, libtorch_cuda.so's 444 fat
 * binaries take 3 ms; with a cold page cache every header is a disk read
 * (220 ms on the H200 machine), and the first fat binaries, each built for
 * the whole target list, tell the same. */
#define WALK_BUDGET_MS 25.0

/* The first file in dir whose name starts with prefix and has ".so". */
static bool
first_so(const char *dir, const char *prefix, char *out, size_t size)
{
	char **names;
	int n, i;
	bool ok = false;

	n = root_list(dir, &names);
	for (i = 0; i < n && !ok; i++)
		if (str_starts(names[i], prefix) && strstr(names[i], ".so")) {
			str_fmt(out, size, "%s/%s", dir, names[i]);
			ok = true;
		}
	root_free_list(names, n);
	return ok;
}

void
probe_fw_targets(const struct python_env_facts *e, struct framework_facts *fw, const char *pkgdir)
{
	char cand[MAX_CANDIDATES][F_PATH], dir[F_PATH];
	int n = 0, i, best_blobs = -1;
	double t0 = clock_ms();
	struct targets_facts *t = &fw->targets;
	const char *site = e->site_packages;

	memset(t, 0, sizeof(*t));
#define ADD(...) \
	do { \
		if (n < MAX_CANDIDATES) \
			str_fmt(cand[n++], F_PATH, __VA_ARGS__); \
	} while (0)
	if (!strcmp(fw->name, "torch")) {
		ADD("%s/torch/lib/libtorch_cuda.so", site);
		ADD("%s/torch/lib/libtorch_cuda_cu.so", site);
		ADD("%s/torch/lib/libcaffe2_gpu.so", site);
		ADD("%s/torch/lib/libtorch.so", site);
	} else if (!strcmp(fw->name, "tensorflow")) {
		ADD("%s/%s/python/_pywrap_tensorflow_internal.so", site, pkgdir);
		ADD("%s/%s/libtensorflow_cc.so.2", site, pkgdir);
		ADD("%s/%s/libtensorflow_framework.so.2", site, pkgdir);
		ADD("%s/%s/libtensorflow_framework.so.1", site, pkgdir);
		ADD("%s/%s/libtensorflow_framework.so", site, pkgdir);
	} else if (!strcmp(fw->name, "jax")) {
		if (fw->extension[0])
			ADD("%s", fw->extension);
	} else if (!strcmp(fw->name, "cupy")) {
		str_fmt(dir, sizeof(dir), "%s/cupy/cuda", site);
		if (first_so(dir, "cub", cand[n], F_PATH))
			n++;
		if (first_so(dir, "thrust", cand[n], F_PATH))
			n++;
	}
#undef ADD
	for (i = 0; i < n; i++) {
		struct fatbin_info fi;

		if (fatbin_read(cand[i], &fi, WALK_BUDGET_MS) < 0 || !fi.has_section ||
		    (int)fi.nblobs <= best_blobs)
			continue;
		best_blobs = (int)fi.nblobs;
		fatbin_lists(&fi, TARGET_SHARE, t->sass, sizeof(t->sass), t->ptx, sizeof(t->ptx),
			     t->ptx_isa, sizeof(t->ptx_isa));
		STR_COPY(t->file, cand[i]);
		t->fat_binaries = fi.nblobs;
		t->truncated = fi.truncated;
		t->sampled = fi.sampled;
	}
	t->ms = clock_ms() - t0;
}
