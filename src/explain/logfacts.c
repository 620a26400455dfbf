/*
 * logfacts.c - the statements of versions, builds and GPUs a log holds
 * (see logfacts.h), read where the line matcher finds their anchors.
 */
#include "explain/logfacts.h"
#include "base/clean.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"
#include "kb/kb_query.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum lf_kind {
	LF_DRIVER,       /* "Driver Version: 470.82.01", "kernel reported version is: 470.82.1" */
	LF_SMI,          /* "NVIDIA-SMI 470.82.01" */
	LF_NVRM,         /* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.82.01 ..." */
	LF_FW_VERSION,   /* "PyTorch version: 2.1.0+cu121" */
	LF_TORCH_CUDA,   /* "CUDA used to build PyTorch: 12.1" */
	LF_PACKAGE,      /* "torch==2.1.0+cu121", "torch   2.1.0+cu121", "torch-2.1.0+cu121-cp310..." */
	LF_GPU_INDEX,    /* "GPU 0: NVIDIA GeForce RTX 3090 (UUID: ...)" */
	LF_DEVICE_QUERY, /* "Device 0: \"Tesla K80\"" */
	LF_CC,           /* "compute capability: 6.1", "computeCapability: 7.5" */
	LF_CC_SM,        /* "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible" */
	LF_CC_MAJOR,     /* "name: GeForce GTX 1080 major: 6 minor: 1 memoryClockRate(GHz): 1.7" */
	LF_CC_QUERY,     /* "CUDA Capability Major/Minor version number:    3.7" */
	LF_PYTHON,       /* "Python version: 3.10.12 (main, ...)" */
	LF_WINDOWS,      /* a Windows path or wheel */
	LF_MACOS,        /* a macOS path, wheel, banner or platform */
	LF_NVCC,         /* nvcc --version: "Cuda compilation tools, release 9.1, V9.1.85" */
	LF_CUDA_DIR,     /* a CUDA installed: "/usr/local/cuda-11.8/lib64", "...\CUDA\v11.2\bin",
	                    a runtime file listed ("libcudart.so.12"), pip's nvidia-cuda-runtime-cu12 */
	LF_TF_DEVICE,    /* TensorFlow's device list: "PhysicalDevice(name='/physical_device:CPU:0'" */
	LF_NUM_GPUS,     /* the tutorial's print: "Num GPUs Available:  0" */
	LF_REPL,         /* ">>> torch.__version__" and its answer on the next line */
	LF_PIP_PYTHON,   /* "Using pip 22.0.4 from /usr/lib/python3/dist-packages/pip (python 3.8)" */
	LF_MEM_TOTAL,    /* TensorFlow's device properties: "Total memory: 7.92GiB" */
	LF_MEM_FREE,     /* "Free memory: 190.31MiB" */
	LF_CPU_FLAGS,    /* /proc/cpuinfo: "flags : fpu vme ... sse2 ... avx ..." */
	LF_SMI_MEMORY,   /* nvidia-smi's table: "|  15514MiB / 16130MiB |" */
	LF_OS_FIELD,     /* an issue form's operating system: "- OS Platform and Distribution: Windows 10",
	                    or a "### OS platform and distribution" heading with the answer below */
	LF_HEADING,      /* an issue form's "### TensorFlow version" heading, the answer below */
	LF_ARCHS,        /* the GPU code a build carries: ggml's "CUDA : ARCHS = 600,610,700",
	                    TensorFlow's build_info "'cuda_compute_capabilities': ['sm_35', 'compute_80']" */
};

static const struct {
	const char *anchor;
	enum lf_kind kind;
	const char *arg;         /* the framework or package it names */
} anchors[] = {
	{"driver version", LF_DRIVER, NULL},
	{"kernel reported version is", LF_DRIVER, NULL},
	{"libcuda reported version is", LF_DRIVER, NULL},
	{"nvidia-smi ", LF_SMI, NULL},
	{"nvrm version:", LF_NVRM, NULL},
	{"pytorch version:", LF_FW_VERSION, "torch"},
	{"torch version:", LF_FW_VERSION, "torch"},
	{"tensorflow version:", LF_FW_VERSION, "tensorflow"},
	{"cuda used to build pytorch:", LF_TORCH_CUDA, NULL},
	{"torch", LF_PACKAGE, "torch"},
	{"pytorch", LF_PACKAGE, "torch"},
	{"tensorflow", LF_PACKAGE, "tensorflow"},
	{"tensorflow-gpu", LF_PACKAGE, "tensorflow-gpu"},
	{"tensorflow-cpu", LF_PACKAGE, "tensorflow-cpu"},
	{"gpu 0: ", LF_GPU_INDEX, NULL},
	{"gpu 1: ", LF_GPU_INDEX, NULL},
	{"gpu 2: ", LF_GPU_INDEX, NULL},
	{"gpu 3: ", LF_GPU_INDEX, NULL},
	{"device 0: \"", LF_DEVICE_QUERY, NULL},
	{"compute capability: ", LF_CC, NULL},
	{"compute capability ", LF_CC, NULL},
	{"computecapability: ", LF_CC, NULL},
	{"cuda capability sm_", LF_CC_SM, NULL},
	{" major: ", LF_CC_MAJOR, NULL},
	{"capability major/minor version number:", LF_CC_QUERY, NULL},
	{"python version:", LF_PYTHON, NULL},
	{"torch.__version__", LF_REPL, "torch"},
	{"torch.version.cuda", LF_REPL, "torch.cuda"},
	{"tf.__version__", LF_REPL, "tensorflow"},
	{"tensorflow.__version__", LF_REPL, "tensorflow"},
	{"cuda.is_available()", LF_REPL, "available"},
	{"is cuda available:", LF_REPL, "available"},
	{"(python ", LF_PIP_PYTHON, NULL},
	{"total memory: ", LF_MEM_TOTAL, NULL},
	{"totalmemory: ", LF_MEM_TOTAL, NULL},
	{"free memory: ", LF_MEM_FREE, NULL},
	{"freememory: ", LF_MEM_FREE, NULL},
	{"flags", LF_CPU_FLAGS, NULL},
	{"mib / ", LF_SMI_MEMORY, NULL},
	{"\\site-packages\\", LF_WINDOWS, NULL},
	{"win_amd64", LF_WINDOWS, NULL},
	{":\\users\\", LF_WINDOWS, NULL},
	{"] on win32", LF_WINDOWS, NULL},      /* the Python REPL's banner */
	{"cuda compilation tools, release ", LF_NVCC, NULL},
	{"cuda runtime version:", LF_NVCC, NULL},     /* collect_env: the toolkit's runtime */
	{"/usr/local/cuda-", LF_CUDA_DIR, "dir"},
	{"\\cuda\\v", LF_CUDA_DIR, "dir"},            /* "NVIDIA GPU Computing Toolkit\CUDA\v11.2" */
	{"libcudart.so.", LF_CUDA_DIR, "file"},
	{"nvidia-cuda-runtime-cu", LF_CUDA_DIR, "pip"},
	{"/physical_device:cpu:", LF_TF_DEVICE, "cpu"},
	{"/physical_device:gpu:", LF_TF_DEVICE, "gpu"},
	{"/physical_device:xla_gpu:", LF_TF_DEVICE, "xla_gpu"},
	{"name: \"/device:cpu:0\"", LF_TF_DEVICE, "cpu"},   /* device_lib.list_local_devices() */
	{"device_type: \"gpu\"", LF_TF_DEVICE, "gpu"},
	{"num gpus available:", LF_NUM_GPUS, NULL},
	{"num gpus:", LF_NUM_GPUS, NULL},
	{"/users/", LF_MACOS, NULL},           /* "/Users/ann/...": a home on macOS */
	{" on darwin", LF_MACOS, NULL},        /* the Python REPL's banner */
	{"macosx_1", LF_MACOS, NULL},          /* a wheel's platform tag: macosx_11_0_arm64 */
	{"/opt/homebrew/", LF_MACOS, NULL},
	{"/python.framework/", LF_MACOS, NULL},
	{"platform: macos", LF_MACOS, NULL},   /* transformers' env: "Platform: macOS-14.2-arm64-arm-64bit" */
	{"os: macos", LF_MACOS, NULL},         /* collect_env: "OS: macOS 14.2 (arm64)" */
	/* what people paste from an issue form or an environment report:
	 * transformers' and diffusers' `env` ("- PyTorch version (GPU?): 2.0.1+cpu
	 * (False)", "- Platform: Windows-10-10.0.19045-SP0"), collect_env's "OS:
	 * Microsoft Windows 11 Home", TensorFlow's issue forms, old and new */
	{"pytorch version (gpu?):", LF_FW_VERSION, "torch"},
	{"tensorflow version (gpu?):", LF_FW_VERSION, "tensorflow"},
	{"tensorflow version (use command below):", LF_FW_VERSION, "tensorflow"},
	{"platform: windows", LF_OS_FIELD, "named"},    /* the anchor names the system */
	{"os: microsoft windows", LF_OS_FIELD, "named"},
	{"os platform and distribution", LF_OS_FIELD, NULL},
	{"### tensorflow version", LF_HEADING, "tensorflow"},
	{"archs = ", LF_ARCHS, "ggml"},
	{"cuda_compute_capabilities", LF_ARCHS, "tensorflow"},
};

#define NANCHORS (sizeof(anchors) / sizeof(anchors[0]))

/* Past the table above: the distributions that share a package with
 * others (the knowledge base's shared_packages), each its own anchor. */
static const struct kb_shared_package *
shared_anchor(size_t i)
{
	size_t n;
	const struct kb_shared_package *rows = kb_list_shared_packages(&n);

	return i >= NANCHORS && i - NANCHORS < n ? &rows[i - NANCHORS] : NULL;
}

const char *
logfacts_anchor(size_t i)
{
	const struct kb_shared_package *d;

	if (i < NANCHORS)
		return anchors[i].anchor;
	d = shared_anchor(i);
	return d ? d->distribution : NULL;
}

/* ---- reading a value ------------------------------------------------- */

static size_t
skip_blanks(const unsigned char *s, size_t len, size_t i)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* After a label: blanks, then ':' or '=' or "is", then blanks. */
static size_t
skip_label_end(const unsigned char *s, size_t len, size_t i)
{
	i = skip_blanks(s, len, i);
	if (i < len && (s[i] == ':' || s[i] == '='))
		i++;
	else if (i + 1 < len && tolower(s[i]) == 'i' && tolower(s[i + 1]) == 's')
		i += 2;
	i = skip_blanks(s, len, i);
	if (i < len && s[i] == ':')
		i = skip_blanks(s, len, i + 1);
	return i;
}

/* A version token at s[i]: digits, letters, '.', '+', '_' (a local tag:
 * 2.1.0+cu121); "" unless it starts with a digit. Returns its end. */
static size_t
read_version(const unsigned char *s, size_t len, size_t i, char *out, size_t size)
{
	size_t o = 0;

	out[0] = '\0';
	if (i >= len || !isdigit(s[i]))
		return i;
	while (i < len && o + 1 < size && (isalnum(s[i]) || s[i] == '.' || s[i] == '+' || s[i] == '_'))
		out[o++] = (char)s[i++];
	while (o && (out[o - 1] == '.' || out[o - 1] == '_'))
		o--;
	out[o] = '\0';
	return i;
}

/* A driver version: a major of three digits and a dot (470.82.01, 580.95). */
static bool
driver_like(const char *v)
{
	return strlen(v) >= 5 && isdigit((unsigned char)v[0]) && isdigit((unsigned char)v[1]) &&
	       isdigit((unsigned char)v[2]) && v[3] == '.' && isdigit((unsigned char)v[4]) &&
	       !strchr(v, '+');
}

/* Case-insensitive search for needle in s[from, len). */
static size_t
find_ci(const unsigned char *s, size_t len, size_t from, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = from; i + n <= len; i++)
		if (!strncasecmp((const char *)s + i, needle, n))
			return i;
	return SIZE_MAX;
}

/* "7.92GiB", "190.31MiB", "10.5 GiB" at s[i]: MiB, or -1. */
static double
read_mib(const unsigned char *s, size_t len, size_t i)
{
	char v[32];
	size_t o = 0, e = i;
	double x;

	while (e < len && o + 1 < sizeof(v) && (isdigit(s[e]) || s[e] == '.'))
		v[o++] = (char)s[e++];
	v[o] = '\0';
	if (!o || !isdigit((unsigned char)v[0]))
		return -1;
	x = strtod(v, NULL);
	e = skip_blanks(s, len, e);
	if (e + 2 > len)
		return -1;
	if (!strncasecmp((const char *)s + e, "GiB", 3) || !strncasecmp((const char *)s + e, "GB", 2))
		return x * 1024;
	if (!strncasecmp((const char *)s + e, "MiB", 3) || !strncasecmp((const char *)s + e, "MB", 2))
		return x;
	if (!strncasecmp((const char *)s + e, "KiB", 3) || !strncasecmp((const char *)s + e, "KB", 2))
		return x / 1024;
	return -1;
}

/* ---- recording ------------------------------------------------------- */

static void
set_driver(struct logfacts *lf, const char *v, const char *cuda, unsigned long line)
{
	if (!driver_like(v))
		return;
	lf->hit = true;
	if (lf->driver[0]) {
		if (vers_cmp(lf->driver, v) != 0)
			lf->driver_conflict = true;
		if (cuda && cuda[0] && !lf->driver_cuda[0])
			STR_COPY(lf->driver_cuda, cuda);
		return;
	}
	STR_COPY(lf->driver, v);
	if (cuda && cuda[0])
		STR_COPY(lf->driver_cuda, cuda);
	lf->driver_line = line;
}

/* "cu121" -> "12.1", "cu92" -> "9.2"; false when tag is no CUDA tag. */
static bool
cuda_of_tag(const char *tag, char *out, size_t size)
{
	size_t n = strspn(tag + 2, "0123456789");

	if (strncasecmp(tag, "cu", 2) || n < 2 || n > 3 || tag[2 + n])
		return false;
	str_fmt(out, size, "%.*s.%c", (int)n - 1, tag + 2, tag[1 + n]);
	return true;
}

static struct logfact_fw *
fw_slot(struct logfacts *lf, const char *name)
{
	int i;

	for (i = 0; i < lf->nfw; i++)
		if (!strcmp(lf->fw[i].name, name))
			return &lf->fw[i];
	if (lf->nfw == LOGFACTS_MAX_FW)
		return NULL;
	memset(&lf->fw[lf->nfw], 0, sizeof(lf->fw[0]));
	STR_COPY(lf->fw[lf->nfw].name, name);
	lf->fw[lf->nfw].cuda_build = -1;
	return &lf->fw[lf->nfw++];
}

/* A framework's version (with its local tag, when stated) and package. */
static void
set_fw(struct logfacts *lf, const char *package, const char *version, unsigned long line)
{
	const char *name = str_starts(package, "tensorflow") ? "tensorflow" : "torch";
	struct logfact_fw *fw = fw_slot(lf, name);
	const char *plus = strchr(version, '+');
	char rel_a[40], rel_b[40], cuda[16];

	if (!fw || !version[0])
		return;
	lf->hit = true;
	if (plus && !strncasecmp(plus + 1, "rocm", 4))
		return;          /* an AMD build: not NVIDIA's story */
	if (fw->version[0]) {
		vers_release(fw->version, rel_a, sizeof(rel_a));
		vers_release(version, rel_b, sizeof(rel_b));
		if (strcmp(rel_a, rel_b) || (plus && strchr(fw->version, '+') &&
					     strcmp(strchr(fw->version, '+'), plus))) {
			fw->conflict = true;
			return;
		}
		if (!plus || strchr(fw->version, '+'))
			return;  /* nothing the first statement lacked */
	} else {
		fw->line = line;
	}
	STR_COPY(fw->version, version);
	if (!fw->package[0] || strcmp(package, name))
		STR_COPY(fw->package, package);
	if (!strcmp(package, "tensorflow-cpu"))
		fw->cuda_build = 0;
	if (plus && !strcasecmp(plus + 1, "cpu"))
		fw->cuda_build = 0;
	else if (plus && cuda_of_tag(plus + 1, cuda, sizeof(cuda))) {
		fw->cuda_build = 1;
		STR_COPY(fw->built_cuda, cuda);
	}
}

/* conda's build string: py3.9_cuda11.3_cudnn8.3.2_0, cuda112py39h..., py3.8_cpu_0. */
static void
conda_build(struct logfacts *lf, const char *name, const unsigned char *s, size_t len, size_t i)
{
	struct logfact_fw *fw;
	char word[64];
	size_t o = 0, k;
	int v[2];

	i = skip_blanks(s, len, i);
	while (i < len && o + 1 < sizeof(word) && !isspace(s[i]))
		word[o++] = (char)tolower(s[i++]);
	word[o] = '\0';
	fw = fw_slot(lf, name);
	if (!fw || fw->conflict || strchr(fw->version, '+'))
		return;
	if (strstr(word, "_cpu") || str_starts(word, "cpu")) {
		fw->cuda_build = 0;
		return;
	}
	for (k = 0; word[k]; k++) {
		if (strncmp(word + k, "cuda", 4) || !isdigit((unsigned char)word[k + 4]))
			continue;
		if (vers_parse(word + k + 4, v, 2) == 2 && strchr(word + k + 4, '.') &&
		    strchr(word + k + 4, '.') - (word + k + 4) <= 2) {
			fw->cuda_build = 1;
			STR_FMT(fw->built_cuda, "%d.%d", v[0], v[1]);
		} else {
			size_t n = strspn(word + k + 4, "0123456789");
			char tag[8];
			STR_FMT(tag, "cu%.*s", (int)(n < 4 ? n : 3), word + k + 4);
			if (cuda_of_tag(tag, fw->built_cuda, sizeof(fw->built_cuda)))
				fw->cuda_build = 1;
		}
		return;
	}
}

/* Whether the anchor at [start, end) is a package name standing alone:
 * nothing of a longer name before it. */
static bool
word_start(const unsigned char *s, size_t start)
{
	return !start || !(isalnum(s[start - 1]) || s[start - 1] == '_' || s[start - 1] == '-' ||
			   s[start - 1] == '.' || s[start - 1] == '/');
}

/* Whether only a listing's decoration comes before start: blanks,
 * "[pip3]", "[conda]", a list's "- " or a table's "|". */
static bool
line_start(const unsigned char *s, size_t start)
{
	size_t i = 0;

	i = skip_blanks(s, start, i);
	if (i < start && s[i] == '[') {
		while (i < start && s[i] != ']')
			i++;
		i = skip_blanks(s, start, i + 1);
	}
	while (i < start && (s[i] == '-' || s[i] == '|' || s[i] == '*' || s[i] == ' '))
		i++;
	return i == start;
}

/* The version a package's anchor at [start, end) states: pip's
 * "name==2.1.0", a wheel's or pip's "name-2.1.0", a listing's "name  2.1.0"
 * (then *listed is set and *after is where the version ends). */
static bool
package_version(const unsigned char *s, size_t len, size_t start, size_t end, char *v, size_t size,
		bool *listed, size_t *after)
{
	size_t i = end;

	*listed = false;
	if (!word_start(s, start) || i >= len)
		return false;
	if (s[i] == '=' && i + 1 < len && s[i + 1] == '=') {
		/* torch==2.1.0+cu121 */
		read_version(s, len, i + 2, v, size);
	} else if (s[i] == '-' && i + 1 < len && isdigit(s[i + 1])) {
		/* torch-2.1.0+cu121-cp310-cp310-linux_x86_64.whl, "installed torch-2.1.0" */
		read_version(s, len, i + 1, v, size);
	} else if ((s[i] == ' ' || s[i] == '\t') && line_start(s, start)) {
		/* a listing: pip list, conda list, pip freeze's neighbours */
		i = skip_blanks(s, len, i);
		*after = read_version(s, len, i, v, size);
		if (*after < len && !isspace(s[*after]))
			return false;
		*listed = true;
	} else {
		return false;
	}
	return v[0] != '\0';
}

static void
package(struct logfacts *lf, const char *pkg, const unsigned char *s, size_t len, size_t start,
	size_t end, unsigned long line)
{
	char v[40];
	size_t after = 0;
	bool listed;

	if (!package_version(s, len, start, end, v, sizeof(v), &listed, &after))
		return;
	set_fw(lf, pkg, v, line);
	if (listed)
		conda_build(lf, str_starts(pkg, "tensorflow") ? "tensorflow" : "torch", s, len, after);
}

/* A distribution that shares its package with others (onnxruntime beside
 * onnxruntime-gpu): each named once; one stated with two versions is
 * dropped. */
static void
distribution(struct logfacts *lf, const char *name, const unsigned char *s, size_t len, size_t start,
	     size_t end, unsigned long line)
{
	struct logfact_dist *d = NULL;
	char v[40];
	size_t after = 0;
	bool listed;
	int i;

	if (!package_version(s, len, start, end, v, sizeof(v), &listed, &after))
		return;
	lf->hit = true;
	for (i = 0; i < lf->ndists; i++)
		if (!strcmp(lf->dists[i].name, name))
			d = &lf->dists[i];
	if (d) {
		if (strcmp(d->version, v))
			d->conflict = true;
		return;
	}
	if (lf->ndists == LOGFACTS_MAX_DISTS)
		return;
	d = &lf->dists[lf->ndists++];
	memset(d, 0, sizeof(*d));
	STR_COPY(d->name, name);
	STR_COPY(d->version, v);
	d->line = line;
}

/* A value a REPL or a print states: torch's version, torch.version.cuda. */
static void
stated_value(struct logfacts *lf, const char *what, const char *v, unsigned long line)
{
	struct logfact_fw *fw;
	int d[2];

	if (strcmp(what, "torch.cuda")) {
		set_fw(lf, what, v, line);
		return;
	}
	fw = fw_slot(lf, "torch");
	if (fw && !fw->built_cuda[0] && vers_parse(v, d, 2) == 2) {
		STR_FMT(fw->built_cuda, "%d.%d", d[0], d[1]);
		fw->cuda_build = 1;
		if (!fw->line)
			fw->line = line;
	}
}

/* ---- GPUs ------------------------------------------------------------ */

/* The compute capability of the GPU a name names: the one GPU lookup of
 * every command (kb_query.h), one model or nothing. */
static bool
kb_gpu_cc_by_name(const char *name, char *out, size_t size)
{
	struct kbq_gpu_match m;

	if (kbq_gpu_resolve(name, &m) != KBQ_GPU_FOUND || m.by_id || !m.gpu->compute_capability[0])
		return false;
	str_copy(out, size, m.gpu->compute_capability);
	return true;
}

static bool
same_name(const char *a, const char *b)
{
	if (!strncasecmp(a, "nvidia ", 7))
		a += 7;
	if (!strncasecmp(b, "nvidia ", 7))
		b += 7;
	for (; *a && *b; a++, b++) {
		char x = (char)tolower((unsigned char)*a), y = (char)tolower((unsigned char)*b);
		if (x == '-')
			x = ' ';
		if (y == '-')
			y = ' ';
		if (x != y)
			return false;
	}
	return !*a && !*b;
}

static struct logfact_gpu *
gpu_slot(struct logfacts *lf, const char *name, unsigned long line)
{
	int i;

	for (i = 0; i < lf->ngpus; i++)
		if ((name[0] && same_name(lf->gpus[i].name, name)) ||
		    (!name[0] && !lf->gpus[i].cc[0]) || (name[0] && !lf->gpus[i].name[0]))
			break;
	if (i == lf->ngpus) {
		if (lf->ngpus == LOGFACTS_MAX_GPUS)
			return NULL;
		memset(&lf->gpus[i], 0, sizeof(lf->gpus[i]));
		lf->gpus[i].line = line;
		lf->ngpus++;
	}
	if (name[0] && !lf->gpus[i].name[0])
		STR_COPY(lf->gpus[i].name, name);
	return &lf->gpus[i];
}

static void
set_gpu(struct logfacts *lf, const char *name, const char *cc, unsigned long line)
{
	struct logfact_gpu *g;

	if (!name[0] && !cc[0])
		return;
	lf->hit = true;
	g = gpu_slot(lf, name, line);
	if (g && cc[0] && !g->cc[0])
		STR_COPY(g->cc, cc);
}

/* Text from i up to one of the stop strings (or the end), trimmed. */
static void
read_name(const unsigned char *s, size_t len, size_t i, const char *const *stops, char *out, size_t size)
{
	size_t end = len, k, p;

	if (i >= len) {
		out[0] = '\0';
		return;
	}
	for (k = 0; stops[k]; k++) {
		p = find_ci(s, len, i, stops[k]);
		if (p < end)
			end = p;
	}
	/* a name from a log reaches titles and the terminal: no escape
	 * codes, no bytes that are not UTF-8 */
	text_clean(s + i, end - i, out, size);
	str_trim(out);
}

/* "6.1" at s[i]: a digit or two, a dot, a digit. */
static bool
read_cc(const unsigned char *s, size_t len, size_t i, char *out, size_t size)
{
	char v[16];

	read_version(s, len, i, v, sizeof(v));
	if (strlen(v) < 3 || strlen(v) > 4 || !strchr(v, '.') || strchr(v, '+'))
		return false;
	str_copy(out, size, v);
	return true;
}

/* The GPU named on a TensorFlow device line: "name: GeForce GTX 1080 Ti, pci ...". */
static void
tf_name(const unsigned char *s, size_t len, size_t before, char *out, size_t size)
{
	static const char *const stops[] = {",", " major:", " computecapability", " pci", NULL};
	size_t p = find_ci(s, before, 0, "name: ");

	out[0] = '\0';
	if (p != SIZE_MAX)
		read_name(s, before < len ? before : len, p + 6, stops, out, size);
}

/* w at the end of the space-separated list (size bytes), when it fits and
 * is not there yet. */
static void
add_word(char *list, size_t size, const char *w)
{
	size_t n = strlen(list), k = strlen(w);
	const char *p;

	for (p = list; (p = strstr(p, w)); p += k)
		if ((p == list || p[-1] == ' ') && (p[k] == ' ' || !p[k]))
			return;
	if (n + (n > 0) + k + 1 > size)
		return;
	if (n)
		list[n++] = ' ';
	memcpy(list + n, w, k + 1);
}

/* One architecture of a build's list at s[i] into "X.Y" (cc), and whether
 * it is PTX: "sm_86", "sm_90a", "compute_80", or ggml's __CUDA_ARCH_LIST__
 * number "860". Returns the token's end; i when it is none. */
static size_t
read_arch(const unsigned char *s, size_t len, size_t i, char *cc, size_t size, bool *ptx)
{
	size_t d, k = i;
	unsigned n = 0;

	*ptx = false;
	if (k + 3 < len && !strncasecmp((const char *)s + k, "sm_", 3))
		k += 3;
	else if (k + 8 < len && !strncasecmp((const char *)s + k, "compute_", 8)) {
		k += 8;
		*ptx = true;
	}
	for (d = k; d < len && isdigit(s[d]) && d - k < 4; d++)
		n = n * 10 + (unsigned)(s[d] - '0');
	if (k == i) {            /* a bare number: major * 100 + minor * 10 */
		if (d - k != 3 && d - k != 4)
			return i;
		str_fmt(cc, size, "%u.%u", n / 100, n / 10 % 10);
	} else {
		if (d - k != 2 && d - k != 3)
			return i;
		str_fmt(cc, size, "%u.%u", n / 10, n % 10);
	}
	/* an arch-specific or family cubin: "sm_90a", "sm_100f" */
	if (d < len && (s[d] == 'a' || s[d] == 'f') && !*ptx && k != i) {
		size_t l = strlen(cc);
		if (l + 1 < size) {
			cc[l] = (char)s[d];
			cc[l + 1] = '\0';
		}
		d++;
	}
	return d < len && isalnum(s[d]) ? i : d;
}

/* The list of architectures after a build's anchor: its machine code and
 * PTX, when at least one is read. */
static void
read_archs(struct logfacts *lf, const unsigned char *s, size_t len, size_t i, const char *what,
	   unsigned long line)
{
	char sass[sizeof(lf->archs_sass)] = "", ptx[sizeof(lf->archs_ptx)] = "", cc[8];
	bool is_ptx, any = false;
	size_t e;

	while (i < len && s[i] != '|' && s[i] != ']' && s[i] != '\n') {
		if (s[i] == ' ' || s[i] == ',' || s[i] == ';' || s[i] == '\'' || s[i] == '"' ||
		    s[i] == '[' || s[i] == ':' || s[i] == '=' || s[i] == '\t') {
			i++;
			continue;
		}
		if ((e = read_arch(s, len, i, cc, sizeof(cc), &is_ptx)) == i)
			break;
		add_word(is_ptx ? ptx : sass, is_ptx ? sizeof(ptx) : sizeof(sass), cc);
		any = true;
		i = e;
	}
	if (!any || lf->archs_line)
		return;
	STR_COPY(lf->archs_sass, sass);
	STR_COPY(lf->archs_ptx, ptx);
	lf->archs_what = what;
	lf->archs_line = line;
	lf->hit = true;
}

/* ---- one statement --------------------------------------------------- */

static void
set_macos(struct logfacts *lf, unsigned long line)
{
	lf->hit = true;
	if (!lf->macos_line)
		lf->macos_line = line;
}

/* An operating system's name as a form states it ("Windows 10", "Microsoft
 * Windows 11 Home", "Windows-10-10.0.19045-SP0", "macOS 14.2", "Mac OS X
 * 10.13"): native Windows, unless it says WSL, or macOS. Whether it named
 * one. */
static bool
os_named(struct logfacts *lf, const unsigned char *s, size_t len, unsigned long line)
{
	if (find_ci(s, len, 0, "macos") != SIZE_MAX || find_ci(s, len, 0, "mac os") != SIZE_MAX ||
	    find_ci(s, len, 0, "os x") != SIZE_MAX || find_ci(s, len, 0, "darwin") != SIZE_MAX) {
		set_macos(lf, line);
		return true;
	}
	if (find_ci(s, len, 0, "windows") == SIZE_MAX || find_ci(s, len, 0, "wsl") != SIZE_MAX ||
	    find_ci(s, len, 0, "subsystem for linux") != SIZE_MAX)
		return false;
	lf->windows = true;
	return true;
}

/* Whether a line says something is missing or failed: a library named
 * there is the one looked for, not one installed. */
static bool
says_missing(const unsigned char *s, size_t len)
{
	static const char *const words[] = {"cannot", "could not", "couldn't", "not found", "no such",
					    "error", "fail", "unable", "missing", "not load", NULL};
	int k;

	for (k = 0; words[k]; k++)
		if (find_ci(s, len, 0, words[k]) != SIZE_MAX)
			return true;
	return false;
}

/* A CUDA the log shows installed, by a toolkit directory, a runtime file
 * listed, or pip's runtime package: its name and major; two majors named
 * make it unknown. On a line that says something is missing, only a
 * directory of a search path counts (TensorFlow's "LD_LIBRARY_PATH:
 * /usr/local/cuda-10.1/lib64" after the library it did not find). */
static void
set_cuda_dir(struct logfacts *lf, const char *how, const unsigned char *s, size_t len, size_t start,
	     size_t end, unsigned long line)
{
	size_t i = end, n = 0;
	int major = 0;

	if (says_missing(s, len) &&
	    (strcmp(how, "dir") != 0 || find_ci(s, start, 0, "path") == SIZE_MAX))
		return;
	while (i + n < len && n < 3 && isdigit(s[i + n]))
		major = major * 10 + (s[i + n++] - '0');
	if (n == 0 || n > 2 || major < 7 || major > 20)
		return;
	while (i + n < len && (isdigit(s[i + n]) || s[i + n] == '.'))
		n++;
	while (s[i + n - 1] == '.')
		n--;
	lf->hit = true;
	if (!lf->cuda_dir[0]) {
		str_fmt(lf->cuda_dir, sizeof(lf->cuda_dir), "%.*s", (int)(i + n - start), (const char *)s + start);
		lf->cuda_dir_major = major;
		lf->cuda_dir_line = line;
	} else if (lf->cuda_dir_major != major) {
		lf->cuda_dir_conflict = true;
	}
}

bool
logfacts_line(struct logfacts *lf, size_t a, const unsigned char *s, size_t len, size_t end,
	      unsigned long line)
{
	static const char *const name_stops[] = {" (uuid", " (", ";", "\"", NULL};
	const struct kb_shared_package *shared = shared_anchor(a);
	size_t start, i, p;
	char v[40], cuda[16] = "", name[F_NAME] = "", cc[8] = "";

	lf->hit = false;
	if (shared) {
		distribution(lf, shared->distribution, s, len, end - strlen(shared->distribution), end, line);
		return lf->hit;
	}
	start = end - strlen(anchors[a].anchor);

	switch (anchors[a].kind) {
	case LF_DRIVER:
		i = skip_label_end(s, len, end);
		read_version(s, len, i, v, sizeof(v));
		/* nvidia-smi's banner states the CUDA the driver runs beside it */
		p = find_ci(s, len, end, "cuda version:");
		if (p != SIZE_MAX)
			read_version(s, len, skip_blanks(s, len, p + 13), cuda, sizeof(cuda));
		set_driver(lf, v, cuda, line);
		break;
	case LF_SMI:
		read_version(s, len, skip_blanks(s, len, end), v, sizeof(v));
		set_driver(lf, v, NULL, line);
		break;
	case LF_NVRM:
		for (i = end; i < len; i++) {
			if (!isdigit(s[i]) || s[i - 1] != ' ')
				continue;
			read_version(s, len, i, v, sizeof(v));
			if (driver_like(v)) {
				set_driver(lf, v, NULL, line);
				break;
			}
		}
		break;
	case LF_FW_VERSION:
		i = read_version(s, len, skip_label_end(s, len, end), v, sizeof(v));
		set_fw(lf, anchors[a].arg, v, line);
		/* an env report's "(GPU?)" answered: "2.1.1+cpu (False)" */
		if (v[0] && find_ci(s, end, start, "(gpu?)") != SIZE_MAX &&
		    find_ci(s, len, i, "(false)") != SIZE_MAX && !lf->unavailable_line)
			lf->unavailable_line = line;
		break;
	case LF_TORCH_CUDA: {
		struct logfact_fw *fw;
		i = skip_label_end(s, len, end);
		read_version(s, len, i, v, sizeof(v));
		if (!(fw = fw_slot(lf, "torch")))
			break;
		lf->hit = true;
		if (v[0] && !fw->built_cuda[0]) {
			int d[2];
			if (vers_parse(v, d, 2) == 2) {
				STR_FMT(fw->built_cuda, "%d.%d", d[0], d[1]);
				fw->cuda_build = 1;
			}
		} else if (!v[0] && ((i + 4 <= len && !strncasecmp((const char *)s + i, "none", 4)) ||
				     (i + 17 <= len &&
				      !strncasecmp((const char *)s + i, "could not collect", 17)))) {
			/* collect_env writes torch.version.cuda, None for a build
			 * without CUDA, as "None" (older) or "Could not collect" */
			fw->cuda_build = 0;
		}
		if (!fw->line)
			fw->line = line;
		break;
	}
	case LF_PACKAGE:
		package(lf, anchors[a].arg, s, len, start, end, line);
		break;
	case LF_GPU_INDEX:
		read_name(s, len, end, name_stops, name, sizeof(name));
		/* only a name the knowledge base knows: "GPU 0: out of memory" names none */
		if (name[0] && kb_gpu_cc_by_name(name, cc, sizeof(cc)))
			set_gpu(lf, name, cc, line);
		break;
	case LF_DEVICE_QUERY:
		read_name(s, len, end, name_stops, name, sizeof(name));
		kb_gpu_cc_by_name(name, cc, sizeof(cc));
		set_gpu(lf, name, cc, line);
		break;
	case LF_CC:
		if (!read_cc(s, len, end, cc, sizeof(cc)))
			break;
		tf_name(s, len, start, name, sizeof(name));
		/* ggml: "Device 0: Tesla K80, compute capability 3.7" */
		if (!name[0] && (p = find_ci(s, start, 0, "device ")) != SIZE_MAX && p + 9 < start &&
		    isdigit(s[p + 7]) && s[p + 8] == ':') {
			static const char *const comma[] = {",", NULL};
			read_name(s, start, p + 9, comma, name, sizeof(name));
		}
		set_gpu(lf, name, cc, line);
		break;
	case LF_CC_SM:
		read_version(s, len, end, v, sizeof(v));
		if (strlen(v) < 2 || strlen(v) > 3 || !str_all_digits(v))
			break;
		STR_FMT(cc, "%.*s.%c", (int)strlen(v) - 1, v, v[strlen(v) - 1]);
		/* "... UserWarning: NVIDIA GeForce RTX 5090 with CUDA capability" */
		p = find_ci(s, start, 0, " with cuda capability");
		if (p != SIZE_MAX) {
			size_t b = p;
			while (b > 0 && s[b - 1] != ':' && s[b - 1] != '\n')
				b--;
			static const char *const none[] = {NULL};
			read_name(s, p, b, none, name, sizeof(name));
		}
		set_gpu(lf, name, cc, line);
		break;
	case LF_CC_MAJOR:
		/* "major: 6 minor: 1" */
		if (end < len && isdigit(s[end]) && (p = find_ci(s, len, end, " minor: ")) != SIZE_MAX &&
		    p <= end + 3 && p + 8 < len && isdigit(s[p + 8])) {
			STR_FMT(cc, "%.*s.%c", (int)(p - end), (const char *)s + end, s[p + 8]);
			tf_name(s, len, start, name, sizeof(name));
			set_gpu(lf, name, cc, line);
		}
		break;
	case LF_CC_QUERY:
		if (read_cc(s, len, skip_blanks(s, len, end), cc, sizeof(cc)))
			set_gpu(lf, "", cc, line);
		break;
	case LF_PYTHON:
		read_version(s, len, skip_label_end(s, len, end), v, sizeof(v));
		if (v[0] && vers_parse(v, (int[2]){0, 0}, 2) == 2)
			lf->hit = true;
		if (v[0] && !lf->python[0] && vers_parse(v, (int[2]){0, 0}, 2) == 2) {
			STR_COPY(lf->python, v);
			lf->python_line = line;
		}
		break;
	case LF_WINDOWS:
		lf->windows = true;
		break;
	case LF_NVCC:
		read_version(s, len, skip_blanks(s, len, end), v, sizeof(v));
		if (v[0] && strchr(v, '.')) {
			lf->hit = true;
			if (!lf->nvcc[0]) {
				STR_COPY(lf->nvcc, v);
				lf->nvcc_line = line;
			} else if (strcmp(lf->nvcc, v)) {
				lf->nvcc_conflict = true;
			}
		}
		break;
	case LF_CUDA_DIR:
		set_cuda_dir(lf, anchors[a].arg, s, len, start, end, line);
		break;
	case LF_TF_DEVICE:
		lf->hit = true;
		if (!strcmp(anchors[a].arg, "gpu"))
			lf->tf_gpu_listed = true;
		else if (!strcmp(anchors[a].arg, "xla_gpu") && !lf->tf_xla_gpu_line)
			lf->tf_xla_gpu_line = line;
		else if (!strcmp(anchors[a].arg, "cpu") && !lf->tf_cpu_line)
			lf->tf_cpu_line = line;
		break;
	case LF_NUM_GPUS:
		i = skip_blanks(s, len, end);
		if (i < len && s[i] == '0' && (i + 1 >= len || !isdigit(s[i + 1])) && !lf->tf_zero_gpus_line) {
			lf->tf_zero_gpus_line = line;
			lf->hit = true;
		}
		break;
	case LF_MACOS:
		/* macOS spells its homes "/Users/" at the root of a path (a
		 * Linux cluster's "/users/", Git Bash's "/c/Users/" are not) */
		if (strcmp(anchors[a].anchor, "/users/") != 0 ||
		    (s[start + 1] == 'U' && (start == 0 || (!isalnum(s[start - 1]) && s[start - 1] != '/' &&
							     s[start - 1] != '\\' && s[start - 1] != '.'))))
			set_macos(lf, line);
		break;
	case LF_OS_FIELD:
		/* the answer after the label on the line, else on the next line
		 * that is not blank (a heading of a form) */
		if (anchors[a].arg)
			i = start;
		else
			for (i = end; i < len && s[i] != ':' && s[i] != '\r'; i++)
				;
		if (i < len)
			lf->hit |= os_named(lf, s + i, len - i, line);
		else if ((i = skip_blanks(s, len, 0)) < len && s[i] == '#') {
			lf->pending = "os";
			lf->pending_line = line;
			lf->pending_heading = true;
		}
		break;
	case LF_HEADING:
		if (start == skip_blanks(s, len, 0) &&
		    skip_blanks(s, len, end) >= len - (len && s[len - 1] == '\r')) {
			lf->pending = anchors[a].arg;
			lf->pending_line = line;
			lf->pending_heading = true;
		}
		break;
	case LF_MEM_TOTAL:
	case LF_MEM_FREE: {
		double mib = read_mib(s, len, end);
		if (mib < 0)
			break;
		lf->hit = true;
		if (anchors[a].kind == LF_MEM_TOTAL && lf->mem_total_mib <= 0) {
			lf->mem_total_mib = mib;
			lf->mem_line = line;
		} else if (anchors[a].kind == LF_MEM_FREE && lf->mem_free_mib < 0) {
			lf->mem_free_mib = mib;
		}
		break;
	}
	case LF_ARCHS:
		read_archs(lf, s, len, end, anchors[a].arg, line);
		break;
	case LF_SMI_MEMORY: {
		/* "|  15514MiB / 16130MiB |": the used figure ends where the anchor starts */
		double used, total;
		size_t b = start;
		while (b > 0 && isdigit(s[b - 1]))
			b--;
		if (b == start || (b > 0 && s[b - 1] != ' ' && s[b - 1] != '|'))
			break;
		used = strtod((const char *)s + b, NULL);
		total = read_mib(s, len, end);
		if (total < 1024 || used > total || find_ci(s, len, end, "|") == SIZE_MAX)
			break;
		lf->hit = true;
		lf->smi_rows++;
		if (used < 0.05 * total)
			lf->smi_idle_rows++;
		if (!lf->smi_full_line && used >= 0.90 * total) {
			lf->smi_used_mib = used;
			lf->smi_total_mib = total;
			lf->smi_full_line = line;
		}
		break;
	}
	case LF_CPU_FLAGS:
		/* "flags\t\t: fpu vme ... sse2 ...", an x86 CPU's at the start of a line */
		i = skip_blanks(s, len, end);
		if (start != skip_blanks(s, len, 0) || i >= len || s[i] != ':' ||
		    find_ci(s, len, i, " sse2") == SIZE_MAX)
			break;
		lf->hit = true;
		if (!lf->cpu_flags_line) {
			lf->cpu_flags_line = line;
			lf->cpu_avx = find_ci(s, len, i, " avx") != SIZE_MAX;
		}
		break;
	case LF_PIP_PYTHON:
		/* pip names the Python it installs for: "... pip (python 3.8)" */
		end = read_version(s, len, end, v, sizeof(v));
		if (v[0] && end < len && s[end] == ')' && find_ci(s, start, 0, "pip") != SIZE_MAX &&
		    !lf->python[0]) {
			STR_COPY(lf->python, v);
			lf->python_line = line;
			lf->hit = true;
		}
		break;
	case LF_REPL:
		if (!strcmp(anchors[a].arg, "available")) {
			/* "torch.cuda.is_available() False", "Is CUDA available: False",
			 * else the answer below */
			if (find_ci(s, len, end, "false") != SIZE_MAX) {
				if (!lf->unavailable_line)
					lf->unavailable_line = line;
				lf->hit = true;
			} else if (find_ci(s, len, end, "true") == SIZE_MAX) {
				lf->pending = anchors[a].arg;
				lf->pending_line = line;
			}
			break;
		}
		/* "torch.__version__: 2.0.1" on the line, else the answer below */
		i = skip_blanks(s, len, end);
		while (i < len && (s[i] == ')' || s[i] == ' '))
			i++;
		if (i < len && (s[i] == ':' || s[i] == '=' || s[i] == ',')) {
			i = skip_blanks(s, len, i + 1);
			if (i < len && (s[i] == '\'' || s[i] == '"'))
				i++;
			read_version(s, len, i, v, sizeof(v));
			if (v[0])
				stated_value(lf, anchors[a].arg, v, line);
		} else if (i >= len) {
			lf->pending = anchors[a].arg;
			lf->pending_line = line;
		}
		break;
	}
	return lf->hit;
}

void
logfacts_next_line(struct logfacts *lf, const unsigned char *s, size_t len, unsigned long line)
{
	const char *what = lf->pending;
	char v[40];
	size_t i, end;

	bool heading = lf->pending_heading;

	lf->pending = NULL;
	lf->pending_heading = false;
	/* a REPL's answer is the next line; a form's, the next that is not
	 * blank (empty lines never reach here) */
	if (line != lf->pending_line + 1 && !heading)
		return;
	if (!strcmp(what, "os")) {
		os_named(lf, s, len, line);
		return;
	}
	if (heading) {
		/* the answer to a form's version heading: "2.12.0", "tf 2.12",
		 * "v2.12.0-rc1-12-g0db597d0d75 2.12.0": its last word */
		end = len - (len && s[len - 1] == '\r');
		while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '\t'))
			end--;
		i = end;
		while (i > 0 && s[i - 1] != ' ' && s[i - 1] != '\t')
			i--;
		if (i < end && (s[i] == 'v' || s[i] == 'V'))
			i++;
		if (read_version(s, end, i, v, sizeof(v)) == end && v[0] && strchr(v, '.'))
			stated_value(lf, what, v, line);
		return;
	}
	if (!strcmp(what, "available")) {
		/* "False", "Out[2]: False" */
		size_t at = find_ci(s, len, 0, "false");
		if (at != SIZE_MAX && skip_blanks(s, len, at + 5) >= len - (len && s[len - 1] == '\r') &&
		    !lf->unavailable_line)
			lf->unavailable_line = line;
		return;
	}
	i = skip_blanks(s, len, 0);
	if (i < len && (s[i] == '\'' || s[i] == '"'))
		i++;
	end = read_version(s, len, i, v, sizeof(v));
	if (end < len && (s[end] == '\'' || s[end] == '"'))
		end++;
	/* the whole line is the answer: "1.2.0", "'1.7.1+cpu'" */
	if (v[0] && skip_blanks(s, len, end) >= len - (len && s[len - 1] == '\r'))
		stated_value(lf, what, v, line);
}

bool
logfacts_any(const struct logfacts *lf)
{
	return lf->driver[0] || lf->nfw || lf->ngpus || lf->ndists;
}

/* ---- as facts -------------------------------------------------------- */

static void
stated_driver(const struct logfacts *lf, struct facts *f)
{
	struct driver_facts *d = &f->driver;

	if (!lf->driver[0] || lf->driver_conflict)
		return;
	if (d->version[0] && vers_cmp(d->version, lf->driver) == 0)
		return;          /* the machine's, which knows more */
	STR_COPY(d->version, lf->driver);
	STR_COPY(d->version_source, "log");
	d->cuda_driver_version = 0;
	d->nvml_cuda_version = 0;
	d->cuda_version[0] = '\0';
	if (lf->driver_cuda[0]) {
		vers_truncate(lf->driver_cuda, 2, d->cuda_version, sizeof(d->cuda_version));
		STR_COPY(d->cuda_version_source, "log");
	} else if (kb_driver_max_cuda(lf->driver, d->cuda_version, sizeof(d->cuda_version)) == 0) {
		STR_COPY(d->cuda_version_source, "derived");
	}
	f->unknown_parts &= ~(unsigned)FACTS_PART_DRIVER;
}

static void
stated_gpus(const struct logfacts *lf, struct facts *f)
{
	int i;

	if (!lf->ngpus)
		return;
	f->ngpus = 0;
	for (i = 0; i < lf->ngpus && f->ngpus < MAX_GPUS; i++) {
		const struct logfact_gpu *s = &lf->gpus[i];
		struct gpu_facts *g = &f->gpus[f->ngpus];
		const struct kb_arch *arch;
		char cc[8] = "";

		if (s->cc[0])
			STR_COPY(cc, s->cc);
		else if (!kb_gpu_cc_by_name(s->name, cc, sizeof(cc)))
			continue;
		gpu_facts_init(g);
		g->vendor = 0x10de;
		STR_COPY(g->name, s->name[0] ? s->name : "the GPU the log names");
		STR_COPY(g->compute_capability, cc);
		if ((arch = kb_arch_by_cc(cc)))
			STR_COPY(g->architecture, arch->architecture);
		f->ngpus++;
	}
	f->unknown_parts &= ~(unsigned)FACTS_PART_GPUS;
}

static struct python_env_facts *
log_env(struct facts *f)
{
	struct python_env_facts *e;
	int i;

	for (i = 0; i < f->npython; i++)
		if (f->python[i].active)
			return &f->python[i];
	if (f->npython == MAX_PYENVS)
		return &f->python[0];
	e = &f->python[f->npython++];
	memset(e, 0, sizeof(*e));
	STR_COPY(e->path, LOGFACTS_ENV);
	STR_COPY(e->interpreter, "python3");
	e->active = true;
	return e;
}

static void
stated_framework(const struct logfacts *lf, const struct logfact_fw *s, struct python_env_facts *e)
{
	struct framework_facts *fw = NULL;
	const struct kb_tf_build *tf;
	int i;

	if (s->conflict || !s->version[0])
		return;

	for (i = 0; i < e->nframeworks; i++)
		if (!strcmp(e->frameworks[i].name, s->name))
			fw = &e->frameworks[i];
	if (fw && (!s->version[0] || !strcmp(fw->version, s->version)))
		return;          /* the machine's own build, which knows more */
	if (!fw) {
		if (e->nframeworks == MAX_FRAMEWORKS)
			return;
		fw = &e->frameworks[e->nframeworks++];
	}
	memset(fw, 0, sizeof(*fw));
	STR_COPY(fw->name, s->name);
	STR_COPY(fw->package, s->package[0] ? s->package : s->name);
	STR_COPY(fw->version, s->version);
	if (strchr(s->version, '+'))
		STR_COPY(fw->local_tag, strchr(s->version, '+') + 1);
	STR_COPY(fw->built_cuda, s->built_cuda);
	fw->cuda_build = s->cuda_build;
	fw->live.run_uid = -1;
	fw->live.gpu_count = -1;
	fw->live.cuda_build = -1;
	/* the package as a listing would show it, for the rules that read
	 * packages (host.windows_native_tf_gpu) */
	if (e->npkgs < MAX_PYPKGS) {
		STR_COPY(e->pkgs[e->npkgs].name, fw->package);
		STR_COPY(e->pkgs[e->npkgs].version, s->version);
		e->npkgs++;
	}
	if (!strcmp(s->name, "tensorflow") && fw->cuda_build < 0 && s->version[0]) {
		/* pip's tensorflow is a CUDA build on Linux, with the CUDA of
		 * its tested configuration; on Windows only up to 2.10 */
		tf = kb_tf_build(s->version, lf->windows ? "windows" : "linux", "gpu");
		if (tf && tf->cuda[0]) {
			fw->cuda_build = 1;
			STR_COPY(fw->built_cuda, tf->cuda);
		}
	}
}

/* A distribution the log states, as a listing of the environment would
 * show it (fw.deprecated_gpu_package reads two of one package). */
static void
stated_distribution(const struct logfact_dist *d, struct python_env_facts *e)
{
	int i;

	if (d->conflict)
		return;
	for (i = 0; i < e->npkgs && i < MAX_PYPKGS; i++)
		if (!strcmp(e->pkgs[i].name, d->name))
			return;          /* the machine's own, which it read from disk */
	if (e->npkgs == MAX_PYPKGS)
		return;
	STR_COPY(e->pkgs[e->npkgs].name, d->name);
	STR_COPY(e->pkgs[e->npkgs].version, d->version);
	e->npkgs++;
}

struct python_env_facts *
logfacts_to_facts(const struct logfacts *lf, const struct facts *machine, struct facts *out)
{
	struct python_env_facts *e;
	int i;

	if (machine) {
		*out = *machine;
	} else {
		facts_init(out);
		out->from_file = true;
		out->unknown_parts = FACTS_PART_HOST | FACTS_PART_GPUS | FACTS_PART_KMOD |
				     FACTS_PART_DRIVER | FACTS_PART_LIBS | FACTS_PART_ENV |
				     FACTS_PART_PROCS | FACTS_PART_PYTHON;
	}
	stated_driver(lf, out);
	stated_gpus(lf, out);
	e = log_env(out);
	if (lf->windows && !strcmp(e->path, LOGFACTS_ENV))
		STR_COPY(e->kind, "windows");
	for (i = 0; i < lf->nfw; i++)
		stated_framework(lf, &lf->fw[i], e);
	for (i = 0; i < lf->ndists; i++)
		stated_distribution(&lf->dists[i], e);
	if (lf->python[0] && (!machine || strcmp(e->version, lf->python)))
		STR_COPY(e->version, lf->python);
	out->unknown_parts &= ~(unsigned)FACTS_PART_PYTHON;
	return e;
}
