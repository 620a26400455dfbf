/*
 * t_explain_rank.c - the order of `explain`'s answer, pinned on the real
 * pattern table: each test builds logs from the sample line of every row
 * (tests/explain/samples.tsv) and checks what must come first, so that a
 * change to the ranking (the lower layer first, errors before warnings, a
 * cause before its symptom) or to the folds (a root cause takes its
 * consequences) fails here, whatever the rest of the suite says.
 */
#include "unit.h"
#include "explain_run.h"

#include "diag/finding.h"
#include "explain/explain.h"
#include "explain/logread.h"
#include "kb/kb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SAMPLES 1024

static struct sample {
	char key[64];
	char line[1024];
} samples[MAX_SAMPLES];
static size_t nsamples;

static int
load_samples(void **state)
{
	FILE *fp = fopen("tests/explain/samples.tsv", "r");
	char buf[2048];

	(void)state;
	if (!fp)
		return -1;
	while (nsamples < MAX_SAMPLES && fgets(buf, sizeof(buf), fp)) {
		char *tab = strchr(buf, '\t');
		if (!tab || buf[0] == '#')
			continue;
		*tab = '\0';
		tab[1 + strcspn(tab + 1, "\n")] = '\0';
		if (strlen(buf) >= sizeof(samples[0].key) || strlen(tab + 1) >= sizeof(samples[0].line))
			continue;
		memcpy(samples[nsamples].key, buf, strlen(buf) + 1);
		memcpy(samples[nsamples].line, tab + 1, strlen(tab + 1) + 1);
		nsamples++;
	}
	fclose(fp);
	return nsamples ? 0 : -1;
}

static const char *
sample_of(const char *key)
{
	size_t i;

	for (i = 0; i < nsamples; i++)
		if (!strcmp(samples[i].key, key))
			return samples[i].line;
	return NULL;
}

/* The sample of the first row (by key) for finding id with this role and
 * severity, whose sample alone is answered with exactly that finding. */
static const char *
line_for(const char *id, const char *role, const char *severity);


static const char *
line_for(const char *id, const char *role, const char *severity)
{
	const struct kb_log_pattern *p;
	size_t n, i;

	p = kb_list_log_patterns(&n);
	for (i = 0; i < n; i++) {
		const char *line;
		struct explain x;
		bool alone;

		if (strcmp(p[i].finding, id) || strcmp(p[i].role, role) || strcmp(p[i].severity, severity))
			continue;
		if (!(line = sample_of(p[i].key)))
			continue;
		run_text(&x, line);
		alone = x.ncauses == 1 && !strcmp(x.causes[0].id, id);
		explain_release(&x);
		if (alone)
			return line;
	}
	return NULL;
}

static bool
visible(const struct explain *x, const char *id)
{
	size_t i;

	for (i = 0; i < x->ncauses; i++)
		if (!strcmp(x->causes[i].id, id))
			return true;
	return false;
}

static bool
folded(const struct explain_cause *c, const char *id)
{
	size_t i;

	for (i = 0; i < c->nfolded; i++)
		if (!strcmp(c->folded[i].id, id))
			return true;
	return false;
}

/* A root cause takes its consequences, whichever line comes first: the
 * intended folds of explain (rank.c) and of doctor (diag/causes.c) that a
 * log can show. */
static void
root_cause_takes_its_consequences(void **state)
{
	static const char *const folds[][2] = {
		{"mem.oom", "rt.cudnn_init_failed"},
		{"mem.oom", "rt.cublas_init_failed"},
		{"lib.cudnn_missing", "rt.cudnn_init_failed"},
		{"lib.cudnn_version_mismatch", "rt.cudnn_init_failed"},
		{"lib.cudnn_version_mismatch", "lib.cudnn_missing"},
		{"driver.libcuda_missing", "driver.init_failed"},
		{"driver.libcuda_missing", "driver.no_visible_device"},
		{"driver.too_old", "driver.init_failed"},
		{"driver.too_old", "lib.cuda_version_mismatch"},
		{"driver.version_mismatch", "kmod.nvidia_not_loaded"},
		{"driver.version_mismatch", "driver.init_failed"},
		{"driver.version_mismatch", "host.container_toolkit_missing"},
		{"driver.version_mismatch", "driver.forward_compat_unsupported"},
		{"kmod.nvidia_not_loaded", "host.container_toolkit_missing"},
		{"host.container_toolkit_missing", "driver.libcuda_missing"},
		{"host.container_toolkit_missing", "driver.no_visible_device"},
		{"rt.xid_error", "driver.init_failed"},
		{"rt.xid_error", "rt.kernel_fault"},
		{"kmod.nouveau_loaded", "kmod.nvidia_not_loaded"},
		{"kmod.nvidia_not_loaded", "driver.no_visible_device"},
		{"fw.cpu_only_build", "driver.no_visible_device"},
		{"host.windows_native_tf_gpu", "fw.cpu_only_build"},
	};
	size_t i;
	int order;

	(void)state;
	for (i = 0; i < sizeof(folds) / sizeof(folds[0]); i++) {
		const char *cause = line_for(folds[i][0], "cause", "error");
		const char *hidden = line_for(folds[i][1], "cause", "error");
		char text[2200];

		if (!hidden)
			hidden = line_for(folds[i][1], "symptom", "error");
		if (!cause || !hidden)
			fail_msg("no sample line answered alone with %s or %s", folds[i][0], folds[i][1]);
		for (order = 0; order < 2; order++) {
			struct explain x;

			snprintf(text, sizeof(text), "%s\n%s\n", order ? cause : hidden,
				 order ? hidden : cause);
			run_text(&x, text);
			if (strcmp(x.causes[0].id, folds[i][0]) || visible(&x, folds[i][1]) ||
			    !folded(&x.causes[0], folds[i][1]))
				fail_msg("%s should take %s (%s first): first is %s", folds[i][0], folds[i][1],
					 order ? "cause" : "consequence", x.causes[0].id);
			explain_release(&x);
		}
	}
}

/* Two errors that do not explain each other: the lower layer's first,
 * whatever their order in the log (a driver too old before the library
 * that could not load because of it). */
static void
lower_layer_first(void **state)
{
	static const char *const ids[] = {
		"host.container_toolkit_missing", "kmod.nvidia_not_loaded", "driver.too_old",
		"lib.cudnn_missing", "fw.arch_not_in_build", "mem.oom", "rt.nccl_error",
	};
	size_t a, b, checked = 0;

	(void)state;
	for (a = 0; a < sizeof(ids) / sizeof(ids[0]); a++) {
		for (b = a + 1; b < sizeof(ids) / sizeof(ids[0]); b++) {
			const char *low = line_for(ids[a], "cause", "error");
			const char *high = line_for(ids[b], "cause", "error");
			char text[2200];
			struct explain x;

			if (!low || !high)
				fail_msg("no sample line answered alone with %s or %s", ids[a], ids[b]);
			snprintf(text, sizeof(text), "%s\n%s\n", high, low);
			run_text(&x, text);
			if (visible(&x, ids[a]) && visible(&x, ids[b])) {
				if (strcmp(x.causes[0].id, ids[a]))
					fail_msg("%s (lower layer, line 2) should come before %s (line 1)",
						 ids[a], ids[b]);
				checked++;
			}
			explain_release(&x);
		}
	}
	assert_true(checked >= 20); /* 20 of the 21 pairs: one folds the other */
}

/* An error before a warning, even of a lower layer; a cause before a
 * symptom of the same weight; harmless lines last. */
static void
errors_before_warnings_and_symptoms(void **state)
{
	const char *warn = line_for("driver.forward_compat_unsupported", "cause", "warn");
	const char *error = line_for("mem.oom", "cause", "error");
	const char *benign = line_for("rt.benign_warning", "benign", "info");
	char text[4400];
	struct explain x;

	(void)state;
	if (!warn)
		warn = line_for("fw.arch_ptx_jit", "cause", "warn");
	assert_non_null(warn);
	assert_non_null(error);
	assert_non_null(benign);
	snprintf(text, sizeof(text), "%s\n%s\n%s\n", benign, warn, error);
	run_text(&x, text);
	assert_string_equal(x.causes[0].id, "mem.oom");
	assert_int_equal(x.causes[x.ncauses - 1].role, EXPLAIN_BENIGN);
	assert_true(x.ncauses == 3);
	assert_int_equal(x.causes[1].severity, SEV_WARN);
	explain_release(&x);
}

/* A wrapped line is joined to the one before only when the join spells
 * a longer message than the line holds alone: "... out of memory" and
 * "Error! Build of nvidia.ko failed for: ..." spell MemoryError across
 * the break, but the second line is a message of its own. */
static void
a_line_with_its_own_message_is_no_wrap(void **state)
{
	struct explain x;

	(void)state;
	run_text(&x, "RuntimeError: CUDA error: out of memory\n"
		     "Error! Build of nvidia.ko failed for: 6.8.0-45-generic (x86_64)\n");
	assert_int_equal(x.ncauses, 2);
	assert_string_equal(x.causes[0].id, "kmod.nvidia_not_loaded");
	assert_int_equal(x.causes[0].lines[0], 2);
	assert_string_equal(x.causes[1].id, "mem.oom");
	explain_release(&x);
}

/* TensorFlow's minimum-capability message: a GPU below every official
 * build is too old; the same message in a log that builds TensorFlow from
 * source with its own targets is that build leaving the GPU out. */
static void
a_source_build_chose_its_minimum(void **state)
{
	static const char gate[] = "Ignoring gpu device (device: 0, name: GRID K520, pci bus id: "
				   "0000:00:03.0) with Cuda compute capability 3.0. The minimum required "
				   "Cuda capability is 3.5.\n";
	char log[512];
	struct explain x;

	(void)state;
	run_text(&x, gate);
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "hw.arch_too_old");
	explain_release(&x);

	snprintf(log, sizeof(log), "$ export TF_CUDA_COMPUTE_CAPABILITIES=3.0\n$ bazel build "
				   "//tensorflow/tools/pip_package:build_pip_package\n%s", gate);
	run_text(&x, log);
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "fw.arch_not_in_build");
	assert_non_null(strstr(x.causes[0].title, "starts at compute capability 3.5"));
	explain_release(&x);
}

/* A cause read from words alone (a cue) comes after a known message of the
 * same weight, whatever their layers: the GPU off the bus before an
 * allocation failure that only sounds like memory running out. */
static void
known_message_before_cue(void **state)
{
	const char *row = sample_of("kern.fallen_off_bus"), *cue = sample_of("cue.gpu_oom");
	char text[2200];
	int order;

	(void)state;
	assert_non_null(row);
	assert_non_null(cue);
	for (order = 0; order < 2; order++) {
		struct explain x;

		snprintf(text, sizeof(text), "%s\n%s\n", order ? row : cue, order ? cue : row);
		run_text(&x, text);
		assert_true(x.ncauses >= 2);
		assert_string_equal(x.causes[0].id, "rt.xid_error");
		assert_true(visible(&x, "mem.oom"));
		explain_release(&x);
	}
}

/* On one line, a message that names a cause beats the note PyTorch appends
 * to every CUDA error; Windows' paging file too small takes the DLL it
 * could not load, named on its line or the next. */
static void
a_note_and_what_a_message_explains(void **state)
{
	struct explain x;

	(void)state;
	expect_first("RuntimeError: CUDA error: device-side assert triggered CUDA kernel errors might be "
		     "asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n", "rt.kernel_fault");

	run_text(&x, "OSError: [WinError 1455] The paging file is too small for this operation to complete\n"
		     "Error loading \"E:\\env\\lib\\site-packages\\torch\\lib\\cudnn_cnn_train64_8.dll\" or one of its "
		     "dependencies.\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "mem.host_oom");
	assert_true(folded(&x.causes[0], "lib.cuda_lib_missing") || folded(&x.causes[0], "lib.cudnn_missing"));
	explain_release(&x);
	/* a missing library further down is its own cause */
	run_text(&x, "OSError: [WinError 1455] The paging file is too small for this operation to complete\n"
		     "\n\nsomething else\n"
		     "Error loading \"E:\\env\\lib\\site-packages\\torch\\lib\\cudnn_cnn_train64_8.dll\" or one of its "
		     "dependencies.\n");
	assert_int_equal(x.ncauses, 2);
	explain_release(&x);
}

/* nvcc cannot target an architecture: which way it misses is the
 * architecture's history, not the message. */
static void
nvcc_architecture_direction(void **state)
{
	(void)state;
	/* Ada came with CUDA 11.8 and every CUDA since has it: nvcc is older */
	assert_string_equal(first_id("nvcc fatal   : Unsupported gpu architecture 'compute_89'\n"),
			    "lib.ptxas_missing");
	assert_string_equal(first_id("nvcc fatal   : Value 'sm_90' is not defined for option "
				     "'gpu-architecture'\n"), "lib.ptxas_missing");
	/* Kepler's 3.0 left with CUDA 11: nvcc is newer than the GPU */
	assert_string_equal(first_id("nvcc fatal   : Unsupported gpu architecture 'compute_30'\n"),
			    "hw.arch_too_old");
	assert_string_equal(first_id("nvcc fatal   : Value 'sm_35' is not defined for option "
				     "'gpu-architecture'\n"), "hw.arch_too_old");
}

/* A Slurm job step that asked for no GPU, then found none. */
static const char *
first_title(const char *text)
{
	static char title[256];
	struct explain x;

	run_text(&x, text);
	snprintf(title, sizeof(title), "%s", x.ncauses && x.causes[0].title ? x.causes[0].title : "none");
	explain_release(&x);
	return title;
}

static void
slurm_job_without_a_gpu(void **state)
{
	static const char *const no_gpu = "Traceback (most recent call last):\n"
					  "RuntimeError: No CUDA GPUs are available\n";
	static const char *const slurm = "The Slurm job asked for no GPU";
	char log[512];

	(void)state;
	snprintf(log, sizeof(log), "$ srun -p gpu python train.py\n%s", no_gpu);
	assert_string_equal(first_id(log), "driver.no_visible_device");
	assert_string_equal(first_title(log), slurm);
	/* the same job asking for one: the request is not the cause */
	snprintf(log, sizeof(log), "$ srun -p gpu --gres=gpu:1 python train.py\n%s", no_gpu);
	assert_string_not_equal(first_title(log), slurm);
	/* a script's header asked for one; its srun inherits it */
	snprintf(log, sizeof(log), "#SBATCH --gres=gpu:2\n#SBATCH --time=1:00:00\nsrun python train.py\n%s",
		 no_gpu);
	assert_string_not_equal(first_title(log), slurm);
	/* a word that only ends in "srun" starts no job */
	snprintf(log, sizeof(log), "$ mysrun python train.py\n%s", no_gpu);
	assert_string_not_equal(first_title(log), slurm);
	/* no job started at all */
	assert_string_not_equal(first_title(no_gpu), slurm);
}

/* pip's list of the releases this Python can install decides whether the
 * one asked for is outside this Python's range or does not exist. */
static void
pip_release_outside_the_list(void **state)
{
	(void)state;
	assert_string_equal(first_id("ERROR: Could not find a version that satisfies the requirement "
				     "tensorflow==1.5.0 (from versions: 1.13.0rc1, 1.13.1, 2.0.0b1)\n"),
			    "fw.python_unsupported");
	assert_string_equal(first_id("ERROR: Could not find a version that satisfies the requirement "
				     "torch==2.9.0 (from versions: 1.7.1, 1.8.0, 2.2.2)\n"),
			    "fw.python_unsupported");
	assert_string_equal(first_id("ERROR: Could not find a version that satisfies the requirement "
				     "torch==2.0.5 (from versions: 1.7.1, 1.8.0, 2.2.2)\n"),
			    "fw.not_installed");
	/* retyped: no colon, no blank, the parenthesis not closed */
	assert_string_equal(first_id("ERROR: could not find a version that satisfies the requirement "
				     "torch==2.9.0(from versions 1.7.1, 1.8.0, 2.2.2\n"),
			    "fw.python_unsupported");
	/* a CUDA build's local version is the index's question, not the Python's */
	assert_string_equal(first_id("ERROR: Could not find a version that satisfies the requirement "
				     "torch==2.1.0+cu121 (from versions: 2.2.0, 2.2.1, 2.3.0)\n"),
			    "fw.not_installed");
}

/* The driver's own failure to bring a GPU up, with or without its code,
 * and the open module refusing a GPU that is not a data-center one. */
static void
gpu_initialisation_in_the_kernel(void **state)
{
	(void)state;
	assert_string_equal(first_id("NVRM: GPU 0000:07:00.0: RmInitAdapter failed! (0x22:0x56:667)\n"),
			    "driver.init_failed");
	assert_string_equal(first_id("NVRM: GPU 0000:07:00.0: RmInitAdapter failed!\n"), "driver.init_failed");
	assert_string_equal(first_id("NVRM: Open nvidia.ko is only ready for use on Data Center GPUs.\n"
				     "NVRM: GPU 0000:07:00.0: RmInitAdapter failed!\n"), "kmod.nvidia_not_loaded");
}

/* A JetPack 4 image has its CUDA libraries mounted by the NVIDIA runtime:
 * one missing inside it is the runtime not used. */
static void
jetpack4_container_without_the_runtime(void **state)
{
	static const char *const missing = "OSError: libcublas.so.10: cannot open shared object file: No such "
					   "file or directory\n";
	char log[512];

	(void)state;
	snprintf(log, sizeof(log), "$ docker run -it nvcr.io/nvidia/l4t-pytorch:r32.7.1-pth1.10-py3\n%s",
		 missing);
	assert_string_equal(first_id(log), "host.container_no_gpu");
	/* the runtime was asked for */
	snprintf(log, sizeof(log), "$ docker run -it --runtime nvidia nvcr.io/nvidia/l4t-pytorch:r32.7.1-pth1.10-py3\n%s",
		 missing);
	assert_string_equal(first_id(log), "lib.cuda_lib_missing");
	/* JetPack 5 images carry their own CUDA */
	snprintf(log, sizeof(log), "$ docker run -it nvcr.io/nvidia/l4t-pytorch:r35.2.1-pth2.0-py3\n%s", missing);
	assert_string_not_equal(first_id(log), "host.container_no_gpu");
	assert_string_equal(first_id(missing), "lib.cuda_lib_missing");
	/* the driver's library is mounted from the host too */
	assert_string_equal(first_id("$ docker run -it nvcr.io/nvidia/l4t-base:r32.7.1\n"
				     "OSError: libcuda.so.1: cannot open shared object file: No such file or "
				     "directory\n"), "host.container_no_gpu");
}

/* An extension's undefined symbol in PyTorch's C++ namespaces is an
 * extension built for another torch; another library's is not. */
static void
extension_built_for_another_torch(void **state)
{
	(void)state;
	assert_string_equal(first_id("ImportError: /venv/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-"
				     "x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n"),
			    "fw.deprecated_gpu_package");
	assert_string_equal(first_id("OSError: /venv/lib/python3.10/site-packages/torchvision/_C.so: undefined "
				     "symbol: _ZNK3c1010TensorImpl36is_contiguous_nondefault_policy_implENS_12"
				     "MemoryFormatE\n"), "fw.deprecated_gpu_package");
	assert_string_equal(first_id("ImportError: libfoo.so: undefined symbol: _ZN4absl12lts_2023080212log_"
				     "internal9LogMessageC1EPKci\n"), "none");
}

/* An image build's steps have no GPU: a GPU missing in one is the build's,
 * in the classic builder's and BuildKit's words; a build that asks for a
 * GPU (the classic builder with nvidia-docker) is not read so. */
static void
image_build_step_without_a_gpu(void **state)
{
	static const char *const missing = "OSError: libcuda.so.1: cannot open shared object file: No such file "
					   "or directory\n";
	char log[512];

	(void)state;
	snprintf(log, sizeof(log), "Step 5/9 : RUN python setup.py install\n%sThe command '/bin/sh -c python "
		 "setup.py install' returned a non-zero code: 1\n", missing);
	assert_string_equal(first_id(log), "host.container_no_gpu");
	assert_string_equal(first_title(log), "An image build step ran without GPU access");
	snprintf(log, sizeof(log), "#9 [5/8] RUN python -c 'import torch; assert torch.cuda.is_available()'\n"
		 "#9 0.512 AssertionError\nERROR: process \"/bin/sh -c python\" did not complete successfully: "
		 "exit code: 1\nNo CUDA GPUs are available\n");
	assert_string_equal(first_id(log), "host.container_no_gpu");
	/* without the build's words the same line is the driver's library */
	assert_string_equal(first_id(missing), "driver.libcuda_missing");
	/* a build that asks for the GPU */
	snprintf(log, sizeof(log), "$ nvidia-docker build -t app .\n%sThe command '/bin/sh -c make' returned a "
		 "non-zero code: 1\n", missing);
	assert_string_not_equal(first_title(log), "An image build step ran without GPU access");
	/* another error in the build speaks for itself */
	snprintf(log, sizeof(log), "$ docker build .\nnvcc fatal : Unsupported gpu architecture 'compute_30'\n"
		 "The command '/bin/sh -c make' returned a non-zero code: 1\n");
	assert_string_not_equal(first_id(log), "host.container_no_gpu");
}

/* A hosted notebook's machine has a driver whenever a GPU is attached: no
 * driver there is a runtime without a GPU. Colab's directory counts only
 * as a path's start; a container of its own, or another error, speaks
 * instead. */
static void
notebook_runtime_without_a_gpu(void **state)
{
	static const char *const no_driver = "RuntimeError: Found no NVIDIA driver on your system. Please check "
					     "that you have an NVIDIA GPU and installed a driver\n";
	char log[512];

	(void)state;
	snprintf(log, sizeof(log), "%%cd /content/Fooocus\n!python entry_with_update.py --share\n%s", no_driver);
	assert_string_equal(first_id(log), "hw.no_nvidia_gpu");
	assert_string_equal(first_title(log), "The notebook's runtime has no GPU");
	snprintf(log, sizeof(log), "  File \"/kaggle/working/train.py\", line 3\n%s", no_driver);
	assert_string_equal(first_id(log), "hw.no_nvidia_gpu");
	/* not a notebook's directory */
	snprintf(log, sizeof(log), "GET /wp-content/uploads/a.png\n%s", no_driver);
	assert_string_equal(first_id(log), "driver.libcuda_missing");
	assert_string_equal(first_id(no_driver), "driver.libcuda_missing");
	/* a container started from the notebook */
	snprintf(log, sizeof(log), "%%cd /content\n!docker run -it img python a.py\n%s", no_driver);
	assert_string_equal(first_id(log), "host.container_no_gpu");
	/* another error */
	snprintf(log, sizeof(log), "%%cd /content\n%sRuntimeError: CUDA error: no kernel image is available for "
		 "execution on the device\n", no_driver);
	assert_string_not_equal(first_id(log), "hw.no_nvidia_gpu");
}

/* A wrap after the anchor, inside what the row's expression reads, is
 * joined when the expression that failed on the line matches the two as
 * one; a next line that does not complete it is read on its own. */
static void
wrap_inside_the_expression_is_joined(void **state)
{
	struct explain x;

	(void)state;
	run_text(&x, "RuntimeError: nms_impl: implementation for device cu\n"
		     "da:0 not found.\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "fw.cpu_only_build");
	assert_int_equal(x.causes[0].lines[0], 1);
	explain_release(&x);

	/* the same wrapped message again: a line shaped like one seen before
	 * is joined too */
	run_text(&x, "step 1\nRuntimeError: nms_impl: implementation for device cu\nda:0 not found.\n"
		     "step 2\nRuntimeError: nms_impl: implementation for device cu\nda:0 not found.\n");
	assert_int_equal(x.ncauses, 1);
	assert_int_equal(x.causes[0].count, 2);
	assert_int_equal(x.causes[0].lines[1], 5);
	explain_release(&x);

	/* an anchor in the log's own lines, that no next line completes, is
	 * not tried again after a few lines: a wrap after a few is joined, one
	 * after many is not */
	{
		char log[4096] = "";
		int k;

		for (k = 0; k < 5; k++)
			strcat(log, "the implementation for device 0 is fine\nepoch\n");
		strcat(log, "RuntimeError: nms_impl: implementation for device cu\nda:0 not found.\n");
		run_text(&x, log);
		assert_int_equal(x.ncauses, 1);
		explain_release(&x);
		for (k = 0; k < 10; k++)
			strcat(log, "the implementation for device 0 is fine\nepoch\n");
		strcat(log, "RuntimeError: nms_impl: implementation for device cu\nda:0 not found.\n");
		run_text(&x, log);
		assert_int_equal(x.ncauses, 1);
		assert_int_equal(x.causes[0].count, 1);
		explain_release(&x);
	}

	/* at a space */
	run_text(&x, "Downloading tensorflow-gpu-2.12.0.tar.gz\n(2.6 kB)\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "fw.deprecated_gpu_package");
	explain_release(&x);

	run_text(&x, "RuntimeError: nms_impl: implementation for device\n"
		     "Found no NVIDIA driver on your system.\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "driver.libcuda_missing");
	assert_int_equal(x.causes[0].lines[0], 2);
	explain_release(&x);
}

/* CUDA_VISIBLE_DEVICES as a shell or a script sets it: a quoted empty
 * value hides every GPU (the word after it is no value), a quoted list
 * names GPUs. */
static void
visible_devices_as_set(void **state)
{
	static const char *const none = "RuntimeError: No CUDA GPUs are available\n";
	char log[256];

	(void)state;
	snprintf(log, sizeof(log), "$ CUDA_VISIBLE_DEVICES='' julia --project\n%s", none);
	assert_string_equal(first_id(log), "env.visible_devices_hides_all");
	assert_string_equal(first_title(log), "CUDA_VISIBLE_DEVICES='' (empty) hides every GPU");
	snprintf(log, sizeof(log), "$ CUDA_VISIBLE_DEVICES=\"\" python train.py\n%s", none);
	assert_string_equal(first_id(log), "env.visible_devices_hides_all");
	snprintf(log, sizeof(log), "$ CUDA_VISIBLE_DEVICES=\"2,3\" python train.py\n%s", none);
	assert_string_equal(first_id(log), "env.visible_devices_invalid");
	snprintf(log, sizeof(log), "$ export CUDA_VISIBLE_DEVICES=-1\n%s", none);
	assert_string_equal(first_id(log), "env.visible_devices_hides_all");
}

/* A CUDA header a build cannot find is named by its file name alone, not
 * by a header whose name only ends like one; TensorRT skipping a tactic
 * for memory is harmless alone and never ranks above a real error. */
static void
headers_and_tactics(void **state)
{
	static const char *const tactic =
		"[TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::145] Error Code 2: OutOfMemory "
		"(no further information)\n"
		"[TRT] [W] Requested amount of GPU memory (17179869184 bytes) could not be allocated. There "
		"may not be enough free memory for allocation to succeed.\n"
		"[TRT] [W] Skipping tactic 8 due to insufficient memory on requested size of 17179869184 "
		"detected for tactic 0x000000000000003c.\n";
	char text[1024];
	struct explain x;

	(void)state;
	assert_string_equal(first_id("x.cu:1:10: fatal error: curand_kernel.h: No such file or directory\n"),
			    "lib.cuda_lib_missing");
	assert_string_equal(first_id("fatal error: cudnn.h: No such file or directory\n"), "lib.cudnn_missing");
	assert_string_equal(first_id("src/ops/custom_cuda.h: No such file or directory\n"), "none");
	assert_string_equal(first_id("fatal error: Python.h: No such file or directory\n"), "none");

	run_text(&x, tactic);
	assert_int_equal(x.ncauses, 3);
	assert_int_equal(x.causes[0].role, EXPLAIN_BENIGN);
	assert_int_equal(explain_worst(&x), SEV_INFO);
	explain_release(&x);
	snprintf(text, sizeof(text), "%sRuntimeError: CUDA error: out of memory\n", tactic);
	assert_string_equal(first_id(text), "mem.oom");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(root_cause_takes_its_consequences),
		cmocka_unit_test(headers_and_tactics),
		cmocka_unit_test(lower_layer_first),
		cmocka_unit_test(errors_before_warnings_and_symptoms),
		cmocka_unit_test(a_line_with_its_own_message_is_no_wrap),
		cmocka_unit_test(a_source_build_chose_its_minimum),
		cmocka_unit_test(known_message_before_cue),
		cmocka_unit_test(a_note_and_what_a_message_explains),
		cmocka_unit_test(nvcc_architecture_direction),
		cmocka_unit_test(slurm_job_without_a_gpu),
		cmocka_unit_test(pip_release_outside_the_list),
		cmocka_unit_test(gpu_initialisation_in_the_kernel),
		cmocka_unit_test(jetpack4_container_without_the_runtime),
		cmocka_unit_test(extension_built_for_another_torch),
		cmocka_unit_test(image_build_step_without_a_gpu),
		cmocka_unit_test(notebook_runtime_without_a_gpu),
		cmocka_unit_test(wrap_inside_the_expression_is_joined),
		cmocka_unit_test(visible_devices_as_set),
	};

	return cmocka_run_group_tests(tests, load_samples, NULL);
}
