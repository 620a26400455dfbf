/*
 * fuzz_libs.c - libFuzzer harness for the version readers of the CUDA
 * library probe (src/probe/libs.c): a wheel's dist-info directory name
 * and RECORD, the version headers next to a toolkit (cudart, cuDNN,
 * cuBLAS, NCCL, TensorRT macros), and a toolkit's version.json and
 * version.txt.
 *
 * The input is, joined by FUZZ_SEP (fuzz.h): the dist-info name without
 * ".dist-info" (e.g. "nvidia_cudnn_cu13-9.19.0.56"), its RECORD, the header
 * text, version.json, version.txt. They are placed in a private machine
 * tree next to a pip site-packages and a /usr/local/cuda-13.0 toolkit that
 * hold the libraries they describe, and probe_libs reads them through
 * root_set(), as `doctor --root` would.
 */
#include "facts.h"
#include "probe/probe.h"
#include "sys/root.h"

#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SITE "usr/lib/python3/dist-packages"
#define CUDA "usr/local/cuda-13.0"

static const char *const libfiles[] = {
	SITE "/nvidia/cudnn/lib/libcudnn.so.9",
	SITE "/nvidia/cudnn/lib/libcudnn_ops.so.9",
	SITE "/nvidia/cublas/lib/libcublas.so.13",
	SITE "/nvidia/cuda_runtime/lib/libcudart.so.13",
	SITE "/torch/lib/libnccl.so.2",
	CUDA "/lib64/libcudart.so.13",
	CUDA "/lib64/libcudnn.so.9",
	CUDA "/lib64/libcublas.so.13.1.0.3",
	CUDA "/lib64/libnccl.so.2",
	CUDA "/lib64/libnvinfer.so.10",
	CUDA "/lib64/libcufft.so.12",
	CUDA "/lib64/libnvrtc.so.13",
};

static const char *const headers[] = {
	CUDA "/include/cuda_runtime_api.h",
	CUDA "/include/cudnn_version_v9.h",
	CUDA "/include/cublas_api.h",
	CUDA "/include/nccl.h",
	CUDA "/include/NvInferVersion.h",
	CUDA "/include/cufft.h",
};

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	root_set(fuzz_tree_init("libs"));
	for (i = 0; i < sizeof(libfiles) / sizeof(libfiles[0]); i++)
		fuzz_put(libfiles[i], "\x7f" "ELF", 4);
	/* the environment is an input too: only the tree's sites count */
	setenv("PATH", "/usr/bin:/bin", 1);
	unsetenv("LD_LIBRARY_PATH");
	unsetenv("CUDA_HOME");
	unsetenv("CUDA_PATH");
	unsetenv("CONDA_PREFIX");
	unsetenv("VIRTUAL_ENV");
	unsetenv("HOME");
	return 0;
}

/* The dist-info directory named by the first segment, "" none. */
static void
distinfo_name(const struct fuzz_seg *s, char *out, size_t size)
{
	size_t i, n = s->len < 200 ? s->len : 200;

	for (i = 0; i < n && i + 1 < size; i++)
		out[i] = s->data[i] == '/' || s->data[i] == '\0' ? '_' : s->data[i];
	out[i] = '\0';
}

static void
rmdir_rel(const char *rel)
{
	char p[1024];

	snprintf(p, sizeof(p), "%s/%s", fuzz_tree, rel);
	rmdir(p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct facts f;
	static const struct probe_opts o = {.timeout_ms = 1000, .no_driver_calls = true};
	struct fuzz_seg segs[FUZZ_MAX_SEGS];
	char name[256], site_di[600], cuda_di[600], rel[700];
	int n = fuzz_split(data, size, segs, 5), i;
	size_t k;

	distinfo_name(&segs[0], name, sizeof(name));
	snprintf(site_di, sizeof(site_di), SITE "/%s.dist-info", name);
	snprintf(cuda_di, sizeof(cuda_di), CUDA "/dist-info/%s.dist-info", name);
	if (n > 1) {
		snprintf(rel, sizeof(rel), "%s/RECORD", site_di);
		fuzz_put(rel, segs[1].data, segs[1].len);
		snprintf(rel, sizeof(rel), "%s/RECORD", cuda_di);
		fuzz_put(rel, segs[1].data, segs[1].len);
	}
	for (k = 0; k < sizeof(headers) / sizeof(headers[0]); k++)
		fuzz_put_seg(headers[k], segs, n, 2);
	fuzz_put_seg(CUDA "/version.json", segs, n, 3);
	fuzz_put_seg(CUDA "/version.txt", segs, n, 4);

	facts_init(&f);
	probe_libs(&f, &o);
	if (f.nlibs < 0 || f.nlibs > MAX_LIBS)
		abort();
	for (i = 0; i < f.nlibs; i++)
		if (!memchr(f.libs[i].version, '\0', sizeof(f.libs[i].version)) ||
		    !memchr(f.libs[i].cuda_major, '\0', sizeof(f.libs[i].cuda_major)))
			abort();

	snprintf(rel, sizeof(rel), "%s/RECORD", site_di);
	fuzz_unlink(rel);
	snprintf(rel, sizeof(rel), "%s/RECORD", cuda_di);
	fuzz_unlink(rel);
	rmdir_rel(site_di);
	rmdir_rel(cuda_di);
	return 0;
}
