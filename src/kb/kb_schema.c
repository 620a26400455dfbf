/*
 * kb_schema.c - the descriptors of the knowledge-base tables (see
 * kb_schema.h and data/kb/README.md for what each column means), plus the
 * few rules that involve more than one column of a row.
 */
#include "kb/kb_schema.h"
#include "base/str.h"
#include "base/vers.h"

#include <regex.h>
#include <string.h>

#define COL(st, f, t, fl) {.name = #f, .type = (t), .flags = (fl), .offset = offsetof(st, f)}
#define COLA(st, f, fl, a) \
	{.name = #f, .type = KB_STR, .flags = (fl), .offset = offsetof(st, f), .allowed = (a)}
#define DOC(n, fl) {.name = (n), .type = KB_STR, .flags = (fl) | KB_NOSTORE}
#define SRC(st) COL(st, source, KB_STR, KB_REQUIRED)

static const char *const segments[] = {"datacenter", "desktop", "laptop", "workstation", NULL};
static const char *const platforms[] = {"linux", "windows", "macos", NULL};
static const char *const kinds[] = {"gpu", "cpu", NULL};

/* tf_builds: cpu rows name no CUDA or cuDNN; macOS rows are cpu rows. */
static int
check_tf_build(const void *row, char *msg, size_t size)
{
	const struct kb_tf_build *r = row;

	if (!strcmp(r->kind, "cpu") && (r->cuda[0] || r->cudnn[0])) {
		str_copy(msg, size, "a cpu row names no cuda or cudnn");
		return -1;
	}
	if (!strcmp(r->platform, "macos") && strcmp(r->kind, "cpu")) {
		str_copy(msg, size, "macos rows are cpu rows");
		return -1;
	}
	return 0;
}

/* torch_builds: the default CUDA is one of the wheel variants. */
static int
check_torch_build(const void *row, char *msg, size_t size)
{
	const struct kb_torch_build *r = row;

	if (r->cuda_default[0] && !kb_has_word(r->cuda_variants, r->cuda_default)) {
		str_fmt(msg, size, "cuda_default %s is not in cuda_variants", r->cuda_default);
		return -1;
	}
	return 0;
}

static const char *const build_frameworks[] = {"tensorflow", "torch", "jax", NULL};
static const char *const build_platforms[] = {"linux", "windows", NULL};
static const char *const breakage_platforms[] = {"linux", "windows", "any", NULL};

/* build_targets: a build carries some code; its CUDA is major.minor. */
static int
check_build_target(const void *row, char *msg, size_t size)
{
	const struct kb_build_target *r = row;
	int v[3];

	if (!r->sass[0] && !r->ptx[0]) {
		str_copy(msg, size, "a build carries sass or ptx targets");
		return -1;
	}
	if (vers_parse(r->cuda, v, 3) != 2) {
		str_fmt(msg, size, "cuda %s is not major.minor", r->cuda);
		return -1;
	}
	return 0;
}

static const char *const severities[] = {"error", "warn", "info", NULL};
static const char *const roles[] = {"cause", "symptom", "benign", NULL};
static const char *const cue_roles[] = {"cause", "symptom", NULL};
static const char *const frameworks[] = {
	"tensorflow", "torch", "jax", "xla", "cuda", "cudnn", "cublas", "nccl", "nvml",
	"docker", "container", "wsl", "windows", "kernel", "python", "any", NULL,
};
static const char *const layers[] = {
	"host", "hw", "kmod", "driver", "lib", "fw", "env", "mem", "rt", NULL,
};

static bool
in_list(const char *const *list, const char *s, size_t len)
{
	for (; *list; list++)
		if (strlen(*list) == len && !strncmp(*list, s, len))
			return true;
	return false;
}

/* Every {name} in text is one of the captures (or a name the engine
 * always provides). */
static int
check_placeholders(const char *col, const char *text, const char *captures, char *msg,
		   size_t size)
{
	const char *p = text, *end;
	char name[32];

	while ((p = strchr(p, '{')) != NULL) {
		end = strchr(p, '}');
		if (!end || (size_t)(end - p - 1) >= sizeof(name) || end == p + 1) {
			str_fmt(msg, size, "%s: unterminated or empty {placeholder}", col);
			return -1;
		}
		memcpy(name, p + 1, (size_t)(end - p - 1));
		name[end - p - 1] = '\0';
		if (!kb_has_word(captures, name)) {
			str_fmt(msg, size, "%s: {%s} is not among the captures", col, name);
			return -1;
		}
		p = end + 1;
	}
	return 0;
}

/* log_patterns: a usable anchor, a regex that compiles with one named
 * capture per group, a known finding layer, benign rows that are
 * rt.benign_warning at info. */
/* bench_reference: the tests of bench/bench.c and their units */
static const char *const bench_test_names[] = {
	"d2d_kernel", "d2d_copy", "h2d_pinned", "d2h_pinned", "h2d_pageable", "d2h_pageable", "gemm_fp32",
	"gemm_tf32", "gemm_fp16", "gemm_bf16", "gemm_fp8", "cpu_sgemm", "p2p_copy", "nccl_allreduce", NULL,
};
static const char *const bench_units[] = {"TFLOP/s", "GB/s", "GFLOP/s", NULL};

static const char *const code_libraries[] = {
	"cuda_runtime", "cuda_driver", "nvml", "cublas", "cudnn", "cudnn8", "nccl", NULL,
};

/* A finding ID of a known layer ("layer.name"). */
static int
check_finding(const char *finding, char *msg, size_t size)
{
	const char *dot = strchr(finding, '.');

	if (!dot || !in_list(layers, finding, (size_t)(dot - finding)) || !dot[1]) {
		str_fmt(msg, size, "finding %s is not layer.name with a known layer", finding);
		return -1;
	}
	return 0;
}

/* A code's finding is an ID of a known layer; its name can be an anchor. */
static int
check_error_code(const void *row, char *msg, size_t size)
{
	const struct kb_error_code *r = row;

	if (check_finding(r->finding, msg, size) < 0)
		return -1;
	if (strlen(r->name) < 8 || strlen(r->name) > 200) {
		str_fmt(msg, size, "name \"%s\" is shorter than 8 or longer than 200 characters", r->name);
		return -1;
	}
	return 0;
}

/* A regex that compiles with one known capture name per group, and
 * placeholders in title, explain and fix that name captures. */
static int
check_captures(const char *regex, const char *captures, const char *title, const char *explain,
	       const char *fix, char *msg, size_t size)
{
	size_t ncap = 0, i;
	const char *w;

	for (w = captures; *w;) {
		size_t len = strcspn(w, " ");
		if (len && !(len == 1 && *w == '-') && !in_list(kb_capture_names, w, len)) {
			str_fmt(msg, size, "capture \"%.*s\" is not a known name", (int)len, w);
			return -1;
		}
		ncap += len > 0;
		w += len;
		w += *w == ' ';
	}
	if (regex[0]) {
		regex_t re;
		int rc = regcomp(&re, regex, REG_EXTENDED | REG_ICASE);
		if (rc) {
			char e[128];
			regerror(rc, &re, e, sizeof(e));
			str_fmt(msg, size, "regex does not compile: %s", e);
			return -1;
		}
		i = re.re_nsub;
		regfree(&re);
		if (i != ncap) {
			str_fmt(msg, size, "regex has %zu groups but %zu captures are named", i,
				ncap);
			return -1;
		}
	} else if (ncap) {
		str_copy(msg, size, "captures named without a regex");
		return -1;
	}
	if (check_placeholders("title", title, captures, msg, size) < 0 ||
	    check_placeholders("explain", explain, captures, msg, size) < 0 ||
	    check_placeholders("fix", fix, captures, msg, size) < 0)
		return -1;
	return 0;
}

static int
check_log_pattern(const void *row, char *msg, size_t size)
{
	const struct kb_log_pattern *r = row;

	if (check_finding(r->finding, msg, size) < 0)
		return -1;
	if (!strcmp(r->role, "benign") &&
	    (strcmp(r->finding, "rt.benign_warning") || strcmp(r->severity, "info"))) {
		str_copy(msg, size, "a benign row is rt.benign_warning at severity info");
		return -1;
	}
	/* a short anchor hits often: it counts only as a line's last word
	 * (a regex ending in $), as the shell's "Killed" */
	if (strlen(r->anchor) < 8 && (!r->regex[0] || r->regex[strlen(r->regex) - 1] != '$')) {
		str_fmt(msg, size, "anchor \"%s\" is shorter than 8 characters and the regex "
			"does not end the line ($)", r->anchor);
		return -1;
	}
	return check_captures(r->regex, r->captures, r->title, r->explain, r->fix, msg, size);
}

/* A list of words "a | b*" (unless), or groups of them "a | b + c" (words):
 * each word at least two characters of printable ASCII other than '|' and
 * '+', a '*' only at its end. */
static int
check_cue_words(const char *col, const char *s, bool groups, char *msg, size_t size)
{
	int ngroups = 1;
	const char *p = s;

	while (*p) {
		size_t n, k, lead = 0;
		const char *w;

		while (p[lead] == ' ')
			lead++;
		w = p + lead;
		n = strcspn(w, "|+");
		while (n && w[n - 1] == ' ')
			n--;
		if (n < 2) {
			str_fmt(msg, size, "%s: an empty or one-character word in \"%s\"", col, s);
			return -1;
		}
		for (k = 0; k < n; k++)
			if ((unsigned char)w[k] < 0x20 || (unsigned char)w[k] > 0x7e ||
			    (w[k] == '*' && k + 1 < n)) {
				str_fmt(msg, size, "%s: \"%.*s\" is not a word (printable ASCII, "
					"'*' only at its end)", col, (int)n, w);
				return -1;
			}
		p = w + strcspn(w, "|+");
		if (*p == '+') {
			if (!groups) {
				str_fmt(msg, size, "%s: groups (+) are for words only", col);
				return -1;
			}
			ngroups++;
		}
		if (*p)
			p++;
		if (*p == '\0' && p[-1] != ' ' && (p[-1] == '|' || p[-1] == '+')) {
			str_fmt(msg, size, "%s: ends with a separator", col);
			return -1;
		}
	}
	if (ngroups > 8) {
		str_fmt(msg, size, "%s: more than 8 groups", col);
		return -1;
	}
	return 0;
}

static int
check_log_cue(const void *row, char *msg, size_t size)
{
	const struct kb_log_cue *r = row;

	if (check_finding(r->finding, msg, size) < 0)
		return -1;
	if (strncmp(r->key, "cue.", 4)) {
		str_fmt(msg, size, "key %s does not begin with cue.", r->key);
		return -1;
	}
	if (check_cue_words("words", r->words, true, msg, size) < 0 ||
	    (r->unless[0] && check_cue_words("unless", r->unless, false, msg, size) < 0))
		return -1;
	/* a cue fires on its words, its expression matching or not: its
	 * texts can name no capture */
	if (check_placeholders("title", r->title, "", msg, size) < 0 ||
	    check_placeholders("explain", r->explain, "", msg, size) < 0 ||
	    check_placeholders("fix", r->fix, "", msg, size) < 0)
		return -1;
	return check_captures(r->regex, r->captures, "", "", "", msg, size);
}

const char *const kb_capture_names[] = {
	"soname", "dll", "cuda", "cudnn", "driver", "requested", "free", "total", "capacity",
	"reserved", "cc", "error", "code", "gpu", "xid", "path", "package", "version",
	"expected", "found", "process", "allocated", "unallocated", "iface", NULL,
};

const struct kb_schema kb_schemas[KB_NTABLES] = {
	[KB_CUDA_DRIVER] = {
		.id = KB_CUDA_DRIVER, .name = "cuda_driver", .file = "cuda_driver.tsv",
		.ctype = "struct kb_cuda_driver", .row_size = sizeof(struct kb_cuda_driver),
		.ncols = 8,
		.cols = {
			COL(struct kb_cuda_driver, cuda, KB_STR, KB_REQUIRED | KB_VERSION),
			DOC("release", KB_REQUIRED),
			COL(struct kb_cuda_driver, linux_min, KB_STR, KB_REQUIRED | KB_VERSION),
			COL(struct kb_cuda_driver, linux_minor_compat, KB_STR, KB_VERSION),
			COL(struct kb_cuda_driver, windows_min, KB_STR, KB_VERSION),
			COL(struct kb_cuda_driver, windows_minor_compat, KB_STR, KB_VERSION),
			COL(struct kb_cuda_driver, ptx_isa, KB_STR, KB_VERSION),
			SRC(struct kb_cuda_driver),
		},
		.nkeys = 1, .keys = {0},
	},
	[KB_GPU_DEVICES] = {
		.id = KB_GPU_DEVICES, .name = "gpu_devices", .file = "gpu_devices.tsv",
		.ctype = "struct kb_gpu", .row_size = sizeof(struct kb_gpu),
		.ncols = 10,
		.cols = {
			{.name = "device_id", .type = KB_HEX, .flags = KB_REQUIRED,
			 .offset = offsetof(struct kb_gpu, device_id), .max = 0xffff},
			COL(struct kb_gpu, name, KB_STR, KB_REQUIRED),
			COL(struct kb_gpu, architecture, KB_STR, KB_REQUIRED),
			COL(struct kb_gpu, compute_capability, KB_STR, KB_REQUIRED | KB_VERSION),
			COL(struct kb_gpu, memory_mib, KB_UINT, KB_REQUIRED),
			COLA(struct kb_gpu, segment, KB_REQUIRED, segments),
			COL(struct kb_gpu, fp32_tflops, KB_STR, KB_NUMBER),
			COL(struct kb_gpu, fp16_tensor_tflops, KB_STR, KB_NUMBER),
			COL(struct kb_gpu, mem_bw_gbs, KB_STR, KB_NUMBER),
			SRC(struct kb_gpu),
		},
		.nkeys = 1, .keys = {0},
	},
	[KB_ARCH_SUPPORT] = {
		.id = KB_ARCH_SUPPORT, .name = "arch_support", .file = "arch_support.tsv",
		.ctype = "struct kb_arch", .row_size = sizeof(struct kb_arch),
		.ncols = 7,
		.cols = {
			COL(struct kb_arch, compute_capability, KB_STR, KB_REQUIRED | KB_VERSION),
			COL(struct kb_arch, architecture, KB_STR, KB_REQUIRED),
			COL(struct kb_arch, cuda_min, KB_STR, KB_VERSION),
			COL(struct kb_arch, cuda_max, KB_STR, KB_VERSION),
			COL(struct kb_arch, driver_last_branch, KB_STR, KB_VERSION),
			COL(struct kb_arch, tegra, KB_BOOL, KB_REQUIRED),
			SRC(struct kb_arch),
		},
		.nkeys = 1, .keys = {0},
		.nranges = 1, .ranges = {{2, 3}},
	},
	[KB_CUDNN_CUDA] = {
		.id = KB_CUDNN_CUDA, .name = "cudnn_cuda", .file = "cudnn_cuda.tsv",
		.ctype = "struct kb_cudnn_cuda", .row_size = sizeof(struct kb_cudnn_cuda),
		.ncols = 5,
		.cols = {
			COL(struct kb_cudnn_cuda, cudnn, KB_STR, KB_REQUIRED | KB_VERSION),
			COL(struct kb_cudnn_cuda, cuda_min, KB_STR, KB_REQUIRED | KB_VERSION),
			COL(struct kb_cudnn_cuda, cuda_max, KB_STR, KB_VERSION),
			COL(struct kb_cudnn_cuda, linux_min_driver, KB_STR, KB_VERSION),
			SRC(struct kb_cudnn_cuda),
		},
		.nkeys = 2, .keys = {0, 1},
		.nranges = 1, .ranges = {{1, 2}},
	},
	[KB_TF_BUILDS] = {
		.id = KB_TF_BUILDS, .name = "tf_builds", .file = "tf_builds.tsv",
		.ctype = "struct kb_tf_build", .row_size = sizeof(struct kb_tf_build),
		.ncols = 9,
		.cols = {
			COL(struct kb_tf_build, version, KB_STR, KB_REQUIRED | KB_VERSION),
			COLA(struct kb_tf_build, platform, KB_REQUIRED, platforms),
			COLA(struct kb_tf_build, kind, KB_REQUIRED, kinds),
			COL(struct kb_tf_build, python_min, KB_STR, KB_VERSION),
			COL(struct kb_tf_build, python_max, KB_STR, KB_VERSION),
			COL(struct kb_tf_build, cuda, KB_STR, KB_VERSION),
			COL(struct kb_tf_build, cudnn, KB_STR, KB_VERSION),
			COL(struct kb_tf_build, compiler, KB_STR, 0),
			SRC(struct kb_tf_build),
		},
		.nkeys = 3, .keys = {0, 1, 2},
		.nranges = 1, .ranges = {{3, 4}},
		.check_row = check_tf_build,
	},
	[KB_TF_FEATURES] = {
		.id = KB_TF_FEATURES, .name = "tf_features", .file = "tf_features.tsv",
		.ctype = "struct kb_tf_feature", .row_size = sizeof(struct kb_tf_feature),
		.ncols = 5,
		.cols = {
			COL(struct kb_tf_feature, version, KB_STR, KB_REQUIRED | KB_VERSION),
			COL(struct kb_tf_feature, windows_native_gpu, KB_BOOL, KB_REQUIRED),
			COL(struct kb_tf_feature, and_cuda_extra, KB_BOOL, KB_REQUIRED),
			COL(struct kb_tf_feature, cpu_isa, KB_STR, KB_WLIST),
			SRC(struct kb_tf_feature),
		},
		.nkeys = 1, .keys = {0},
	},
	[KB_TF_AND_CUDA_PINS] = {
		.id = KB_TF_AND_CUDA_PINS, .name = "tf_and_cuda_pins", .file = "tf_and_cuda_pins.tsv",
		.ctype = "struct kb_tf_pin", .row_size = sizeof(struct kb_tf_pin),
		.ncols = 4,
		.cols = {
			COL(struct kb_tf_pin, version, KB_STR, KB_REQUIRED | KB_VERSION),
			COL(struct kb_tf_pin, package, KB_STR, KB_REQUIRED | KB_WLIST),
			COL(struct kb_tf_pin, requirement, KB_STR, KB_REQUIRED),
			SRC(struct kb_tf_pin),
		},
		.nkeys = 2, .keys = {0, 1},
	},
	[KB_TF_SONAMES] = {
		.id = KB_TF_SONAMES, .name = "tf_sonames", .file = "tf_sonames.tsv",
		.ctype = "struct kb_tf_soname", .row_size = sizeof(struct kb_tf_soname),
		.ncols = 6,
		.cols = {
			COL(struct kb_tf_soname, tf_min, KB_STR, KB_REQUIRED | KB_VERSION),
			COL(struct kb_tf_soname, tf_max, KB_STR, KB_VERSION),
			COL(struct kb_tf_soname, library, KB_STR, KB_REQUIRED | KB_WLIST),
			COL(struct kb_tf_soname, linux_soname, KB_STR, 0),
			COL(struct kb_tf_soname, windows_dll, KB_STR, 0),
			SRC(struct kb_tf_soname),
		},
		.nkeys = 2, .keys = {0, 2},
		.nranges = 1, .ranges = {{0, 1}},
	},
	[KB_TORCH_BUILDS] = {
		.id = KB_TORCH_BUILDS, .name = "torch_builds", .file = "torch_builds.tsv",
		.ctype = "struct kb_torch_build", .row_size = sizeof(struct kb_torch_build),
		.ncols = 6,
		.cols = {
			COL(struct kb_torch_build, version, KB_STR, KB_REQUIRED | KB_VERSION),
			COL(struct kb_torch_build, python_min, KB_STR, KB_VERSION),
			COL(struct kb_torch_build, python_max, KB_STR, KB_VERSION),
			COL(struct kb_torch_build, cuda_variants, KB_STR, KB_VLIST),
			COL(struct kb_torch_build, cuda_default, KB_STR, KB_VERSION),
			SRC(struct kb_torch_build),
		},
		.nkeys = 1, .keys = {0},
		.nranges = 1, .ranges = {{1, 2}},
		.check_row = check_torch_build,
	},
	[KB_LOG_PATTERNS] = {
		.id = KB_LOG_PATTERNS, .name = "log_patterns", .file = "log_patterns.tsv",
		.ctype = "struct kb_log_pattern", .row_size = sizeof(struct kb_log_pattern),
		.ncols = 12,
		.cols = {
			COL(struct kb_log_pattern, key, KB_STR, KB_REQUIRED | KB_WLIST),
			COL(struct kb_log_pattern, finding, KB_STR, KB_REQUIRED | KB_WLIST),
			COLA(struct kb_log_pattern, severity, KB_REQUIRED, severities),
			COLA(struct kb_log_pattern, role, KB_REQUIRED, roles),
			COLA(struct kb_log_pattern, framework, KB_REQUIRED, frameworks),
			COL(struct kb_log_pattern, anchor, KB_STR, KB_REQUIRED),
			COL(struct kb_log_pattern, regex, KB_STR, 0),
			COL(struct kb_log_pattern, captures, KB_STR, 0),
			COL(struct kb_log_pattern, title, KB_STR, KB_REQUIRED),
			COL(struct kb_log_pattern, explain, KB_STR, KB_REQUIRED),
			COL(struct kb_log_pattern, fix, KB_STR, 0),
			SRC(struct kb_log_pattern),
		},
		.nkeys = 1, .keys = {0},
		.check_row = check_log_pattern,
	},
	[KB_JAX_BUILDS] = {
		.id = KB_JAX_BUILDS, .name = "jax_builds", .file = "jax_builds.tsv",
		.ctype = "struct kb_jax_build", .row_size = sizeof(struct kb_jax_build),
		.ncols = 7,
		.cols = {
			COL(struct kb_jax_build, version, KB_STR, KB_REQUIRED | KB_VERSION),
			COL(struct kb_jax_build, python_min, KB_STR, KB_VERSION),
			COL(struct kb_jax_build, python_max, KB_STR, KB_VERSION),
			COL(struct kb_jax_build, cuda_plugins, KB_STR, KB_WLIST),
			COL(struct kb_jax_build, cuda_min, KB_STR, KB_VERSION),
			COL(struct kb_jax_build, cudnn_min, KB_STR, KB_VERSION),
			SRC(struct kb_jax_build),
		},
		.nkeys = 1, .keys = {0},
		.nranges = 1, .ranges = {{1, 2}},
	},
	[KB_BUILD_TARGETS] = {
		.id = KB_BUILD_TARGETS, .name = "build_targets", .file = "build_targets.tsv",
		.ctype = "struct kb_build_target", .row_size = sizeof(struct kb_build_target),
		.ncols = 8,
		.cols = {
			COLA(struct kb_build_target, framework, KB_REQUIRED, build_frameworks),
			COL(struct kb_build_target, version_min, KB_STR, KB_REQUIRED | KB_VERSION),
			COL(struct kb_build_target, version_max, KB_STR, KB_VERSION),
			COLA(struct kb_build_target, platform, KB_REQUIRED, build_platforms),
			COL(struct kb_build_target, cuda, KB_STR, KB_REQUIRED | KB_VERSION),
			COL(struct kb_build_target, sass, KB_STR, KB_CCLIST),
			COL(struct kb_build_target, ptx, KB_STR, KB_CCLIST),
			SRC(struct kb_build_target),
		},
		.nkeys = 4, .keys = {0, 3, 4, 1},
		.nranges = 1, .ranges = {{1, 2}},
		.check_row = check_build_target,
	},
	[KB_ARCH_BREAKAGES] = {
		.id = KB_ARCH_BREAKAGES, .name = "arch_breakages", .file = "arch_breakages.tsv",
		.ctype = "struct kb_arch_breakage", .row_size = sizeof(struct kb_arch_breakage),
		.ncols = 8,
		.cols = {
			COLA(struct kb_arch_breakage, framework, KB_REQUIRED, build_frameworks),
			COL(struct kb_arch_breakage, version_min, KB_STR, KB_VERSION),
			COL(struct kb_arch_breakage, version_max, KB_STR, KB_VERSION),
			COLA(struct kb_arch_breakage, platform, KB_REQUIRED, breakage_platforms),
			COL(struct kb_arch_breakage, cc_min, KB_STR, KB_REQUIRED | KB_VERSION),
			COL(struct kb_arch_breakage, cc_max, KB_STR, KB_VERSION),
			COL(struct kb_arch_breakage, summary, KB_STR, KB_REQUIRED),
			SRC(struct kb_arch_breakage),
		},
		.nkeys = 4, .keys = {0, 3, 1, 4},
		.nranges = 2, .ranges = {{1, 2}, {4, 5}},
	},
	[KB_ERROR_CODES] = {
		.id = KB_ERROR_CODES, .name = "error_codes", .file = "error_codes.tsv",
		.ctype = "struct kb_error_code", .row_size = sizeof(struct kb_error_code),
		.ncols = 7,
		.cols = {
			COLA(struct kb_error_code, library, KB_REQUIRED, code_libraries),
			COL(struct kb_error_code, name, KB_STR, KB_REQUIRED),
			COL(struct kb_error_code, code, KB_UINT, 0),
			COL(struct kb_error_code, message, KB_STR, 0),
			COL(struct kb_error_code, meaning, KB_STR, 0),
			COL(struct kb_error_code, finding, KB_STR, KB_REQUIRED | KB_WLIST),
			SRC(struct kb_error_code),
		},
		.nkeys = 2, .keys = {0, 1},
		.check_row = check_error_code,
	},
	[KB_BENCH_REFERENCE] = {
		.id = KB_BENCH_REFERENCE, .name = "bench_reference", .file = "bench_reference.tsv",
		.ctype = "struct kb_bench_reference", .row_size = sizeof(struct kb_bench_reference),
		.ncols = 5,
		.cols = {
			{.name = "device_id", .type = KB_HEX, .flags = KB_REQUIRED,
			 .offset = offsetof(struct kb_bench_reference, device_id), .max = 0xffff},
			COLA(struct kb_bench_reference, test, KB_REQUIRED, bench_test_names),
			COL(struct kb_bench_reference, value, KB_STR, KB_REQUIRED | KB_NUMBER),
			COLA(struct kb_bench_reference, unit, KB_REQUIRED, bench_units),
			SRC(struct kb_bench_reference),
		},
		.nkeys = 2, .keys = {0, 1},
	},
	[KB_LOG_CUES] = {
		.id = KB_LOG_CUES, .name = "log_cues", .file = "log_cues.tsv",
		.ctype = "struct kb_log_cue", .row_size = sizeof(struct kb_log_cue),
		.ncols = 12,
		.cols = {
			COL(struct kb_log_cue, key, KB_STR, KB_REQUIRED | KB_WLIST),
			COL(struct kb_log_cue, finding, KB_STR, KB_REQUIRED | KB_WLIST),
			COLA(struct kb_log_cue, severity, KB_REQUIRED, severities),
			COLA(struct kb_log_cue, role, KB_REQUIRED, cue_roles),
			COL(struct kb_log_cue, words, KB_STR, KB_REQUIRED),
			COL(struct kb_log_cue, unless, KB_STR, 0),
			COL(struct kb_log_cue, regex, KB_STR, 0),
			COL(struct kb_log_cue, captures, KB_STR, 0),
			COL(struct kb_log_cue, title, KB_STR, KB_REQUIRED),
			COL(struct kb_log_cue, explain, KB_STR, KB_REQUIRED),
			COL(struct kb_log_cue, fix, KB_STR, 0),
			SRC(struct kb_log_cue),
		},
		.nkeys = 1, .keys = {0},
		.check_row = check_log_cue,
	},
	[KB_SHARED_PACKAGES] = {
		.id = KB_SHARED_PACKAGES, .name = "shared_packages", .file = "shared_packages.tsv",
		.ctype = "struct kb_shared_package", .row_size = sizeof(struct kb_shared_package),
		.ncols = 4,
		.cols = {
			COL(struct kb_shared_package, distribution, KB_STR, KB_REQUIRED | KB_WLIST),
			COL(struct kb_shared_package, package, KB_STR, KB_REQUIRED | KB_WLIST),
			COL(struct kb_shared_package, gpu, KB_BOOL, KB_REQUIRED),
			SRC(struct kb_shared_package),
		},
		.nkeys = 1, .keys = {0},
	},
};

const struct kb_schema *
kb_schema_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < KB_NTABLES; i++)
		if (!strcmp(kb_schemas[i].name, name) || !strcmp(kb_schemas[i].file, name))
			return &kb_schemas[i];
	return NULL;
}
