/*
 * rank.c - from matches to an answer (explain_finish): the placeholders
 * of each pattern's title, explanation and fix filled with what the log
 * said, the facts those values imply (which CUDA a soname belongs to,
 * which TensorFlow loads it, which architecture a compute capability is),
 * what the log's context makes of them (context.c), then the root causes
 * take their consequences and the causes are put in
 * order: errors before warnings, lower layers (driver before library
 * before framework) first, then by first line. Harmless messages and
 * unexplained lines come last.
 */
#include "explain/explain.h"
#include "explain/context.h"
#include "explain/libfix.h"
#include "explain/stated.h"
#include "diag/rule.h"
#include "base/buf.h"
#include "base/str.h"
#include "base/vers.h"
#include "base/xalloc.h"
#include "kb/kb.h"

#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_HIDES 8

/* What a log shows beyond the doctor's table (diag/causes.c, also used):
 * a message that follows from another in the same log. */
static const struct {
	const char *cause;
	const char *hides[MAX_HIDES];
} log_folds[] = {
	/* TensorFlow reports a failed cuDNN/cuBLAS handle when memory ran out */
	{"mem.oom", {"rt.cudnn_init_failed", "rt.cublas_init_failed"}},
	{"lib.cudnn_missing", {"rt.cudnn_init_failed"}},
	{"lib.cudnn_version_mismatch", {"rt.cudnn_init_failed", "lib.cudnn_missing"}},
	/* no driver library: no device nodes either */
	{"driver.libcuda_missing", {"driver.init_failed", "driver.no_visible_device", "kmod.device_nodes_missing"}},
	{"driver.too_old", {"driver.init_failed", "lib.cuda_version_mismatch", "rt.cudnn_init_failed",
			    "rt.cublas_init_failed"}},
	/* memory others hold makes this job's allocations fail */
	{"mem.held_by_other_process", {"mem.oom", "rt.cudnn_init_failed", "rt.cublas_init_failed"}},
	/* a GPU too small for the model: every allocation fails */
	{"hw.low_vram", {"mem.oom", "rt.cudnn_init_failed", "rt.cublas_init_failed"}},
	/* XLA's ptxas too old for the GPU: the PTX the driver then gets fails */
	{"lib.ptxas_missing", {"fw.arch_not_in_build"}},
	/* a broken host driver makes the container toolkit fail too; a driver
	 * updated by half leaves a kernel module without its own GSP firmware,
	 * and a libcuda newer than the module, which CUDA takes for forward
	 * compatibility on a GPU without it (804) */
	{"driver.version_mismatch",
	 {"kmod.nvidia_not_loaded", "driver.init_failed", "host.container_toolkit_missing",
	  "hw.gpu_missing", "driver.forward_compat_unsupported"}},
	{"kmod.nvidia_not_loaded", {"host.container_toolkit_missing"}},
	{"driver.forward_compat_unsupported", {"driver.init_failed"}},
	{"host.container_toolkit_missing",
	 {"driver.libcuda_missing", "driver.init_failed", "driver.no_visible_device",
	  "kmod.device_nodes_missing"}},
	{"rt.xid_error", {"driver.init_failed", "rt.kernel_fault", "kmod.nvidia_not_loaded"}},
	/* PTX from a toolkit newer than the driver's JIT: the driver is "too
	 * old" for it, and ptxas's message is the same fact */
	{"lib.toolkit_newer_than_driver", {"driver.too_old", "lib.ptxas_missing"}},
	/* a framework built without CUDA sees no GPU, whatever the machine has */
	{"fw.cpu_only_build", {"driver.no_visible_device", "fw.no_gpu_at_runtime"}},
	/* TensorFlow 2.11 and later on native Windows: a build without CUDA */
	{"host.windows_native_tf_gpu", {"fw.cpu_only_build", "fw.no_gpu_at_runtime"}},
	/* a system without CUDA: no build, no driver, no device */
	{"host.unsupported_os",
	 {"fw.cpu_only_build", "driver.no_visible_device", "fw.no_gpu_at_runtime", "driver.libcuda_missing",
	  "driver.init_failed", "hw.no_nvidia_gpu", "kmod.nvidia_not_loaded", "kmod.device_nodes_missing"}},
};

void
explain_evidence(struct explain_cause *c, const char *fmt, ...)
{
	va_list ap;
	struct buf b;
	int k;

	if (c->nevidence == EXPLAIN_MAX_EVIDENCE)
		return;
	buf_init_cap(&b, 4096);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	for (k = 0; k < c->nevidence; k++)
		if (!strcmp(c->evidence[k], b.s)) {
			buf_release(&b);
			return;
		}
	c->evidence[c->nevidence++] = buf_detach(&b);
}

const char *
explain_value(const struct explain_cause *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->ncaps; i++)
		if (!strcmp(c->caps[i].name, name) && c->caps[i].nvalues)
			return c->caps[i].values[0];
	return NULL;
}

const char *
explain_value_at(const struct explain_cause *c, const char *name, int k)
{
	size_t i;

	for (i = 0; i < c->ncaps; i++)
		if (!strcmp(c->caps[i].name, name))
			return k >= 0 && k < c->caps[i].nvalues ? c->caps[i].values[k] : NULL;
	return NULL;
}

enum severity
explain_worst(const struct explain *x)
{
	enum severity w = SEV_INFO;
	size_t i;

	for (i = 0; i < x->ncauses; i++)
		if (x->causes[i].role != EXPLAIN_BENIGN && x->causes[i].severity > w)
			w = x->causes[i].severity;
	return w;
}

/* ---- placeholders ---------------------------------------------------- */

static const struct explain_capture *
cap_named(const struct explain_cause *c, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < c->ncaps; i++)
		if (strlen(c->caps[i].name) == len && !strncmp(c->caps[i].name, name, len))
			return &c->caps[i];
	return NULL;
}

/* The template with {name} replaced by the values captured under that
 * name (joined by ", ") and the two characters \n by a newline. In a fix
 * (shell true) a value is quoted for the shell unless it is plain: what a
 * log says goes into commands a person pastes. */
static char *
fill(const struct explain_cause *c, const char *t, bool shell)
{
	struct buf b;

	buf_init_cap(&b, 8192);
	while (*t) {
		if (t[0] == '\\' && t[1] == 'n') {
			buf_addch(&b, '\n');
			t += 2;
		} else if (*t == '{' && strchr(t, '}')) {
			const char *e = strchr(t, '}');
			const struct explain_capture *cap = cap_named(c, t + 1, (size_t)(e - t - 1));
			int k;
			if (!cap || !cap->nvalues)
				buf_adds(&b, "(not shown)");
			for (k = 0; cap && k < cap->nvalues; k++) {
				if (k)
					buf_adds(&b, ", ");
				if (shell)
					buf_add_shquoted(&b, cap->values[k]);
				else
					buf_adds(&b, cap->values[k]);
			}
			t = e + 1;
		} else {
			buf_addch(&b, *t++);
		}
	}
	return buf_detach(&b);
}

/* ---- derived facts ---------------------------------------------------- */

/* "libcudart.so.11.0" -> "CUDA 11.0 runtime"; "cudnn64_8.dll" -> "cuDNN 8".
 * Writes "" when the name says nothing certain. */
static void
library_meaning(const char *name, char *out, size_t size)
{
	const char *v;
	char ver[32];
	int major;

	out[0] = '\0';
	if (str_starts(name, "libcudart.so.")) {
		/* from CUDA 11 on, one soname for a whole major: libcudart.so.11.0
		 * is every 11.x runtime */
		v = name + strlen("libcudart.so.");
		if (vers_parse(v, &major, 1) == 1 && major >= 11)
			str_fmt(out, size, "the CUDA %d runtime (any %d.x: the file name keeps %s for "
					   "the whole major)", major, major, v);
		else
			str_fmt(out, size, "the CUDA %s runtime", v);
	} else if (str_starts(name, "libcudnn") && (v = strstr(name, ".so.")) != NULL) {
		vers_truncate(v + 4, 1, ver, sizeof(ver));
		str_fmt(out, size, "cuDNN %s", ver);
	} else if (str_starts(name, "cudart64_") && str_ends(name, ".dll")) {
		size_t n = strlen(name) - strlen("cudart64_") - strlen(".dll");
		v = name + strlen("cudart64_");
		if (n == 3)
			str_fmt(out, size, "the CUDA %.2s.%c runtime (Windows)", v, v[2]);
		else if (n == 2)
			str_fmt(out, size, "the CUDA %.2s runtime (Windows)", v);
	} else if (str_starts(name, "cudnn64_") && str_ends(name, ".dll")) {
		str_fmt(out, size, "cuDNN %.*s (Windows)",
			(int)(strlen(name) - strlen("cudnn64_") - strlen(".dll")),
			name + strlen("cudnn64_"));
	}
}

/* Which missing-library finding a file name belongs to: the driver's
 * libraries (libcuda, nvcuda.dll, and the video, encoder and NVML ones
 * the driver ships beside it), the CUDA runtime, cuDNN (any of its
 * sublibraries), or another CUDA library; NULL for a name of none of them.
 * A row that takes any library's name ("Couldn't open CUDA library X") is
 * told by it. */
static const char *
library_family(const char *name)
{
	const char *base = strrchr(name, '/');

	base = base ? base + 1 : name;
	if (str_starts(base, "libcuda.so") || !strcasecmp(base, "nvcuda.dll") ||
	    str_starts(base, "libnvcuvid") || str_starts(base, "libnvidia-") ||
	    !strncasecmp(base, "nvcuvid", 7) || !strncasecmp(base, "nvEncodeAPI", 11) ||
	    !strcasecmp(base, "nvml.dll"))
		return "driver.libcuda_missing";
	if (str_starts(base, "libcudart.so") || str_starts(base, "cudart64_") || str_starts(base, "cudart32_"))
		return "lib.cudart_missing";
	if (str_starts(base, "libcudnn") || str_starts(base, "cudnn"))
		return "lib.cudnn_missing";
	if (str_starts(base, "libcu") || str_starts(base, "cu") || str_starts(base, "libnv") ||
	    str_starts(base, "nvrtc") || str_starts(base, "nvJitLink") || str_starts(base, "nvinfer") ||
	    str_starts(base, "libnccl"))
		return "lib.cuda_lib_missing";
	return NULL;
}

struct tf_range {
	const char *lo, *hi;             /* NULL: no TensorFlow loads it */
	bool open;                       /* up to the newest release */
};

/* The TensorFlow releases that load a library file name, from tf_sonames. */
static struct tf_range
tf_loaders(const char *name, char *out, size_t size)
{
	const struct kb_tf_soname *rows;
	struct tf_range r = {NULL, NULL, false};
	size_t n, i;

	out[0] = '\0';
	rows = kb_list_tf_sonames(&n);
	for (i = 0; rows && i < n; i++) {
		if (strcmp(rows[i].linux_soname, name) && strcmp(rows[i].windows_dll, name))
			continue;
		if (!r.lo || vers_cmp(rows[i].tf_min, r.lo) < 0)
			r.lo = rows[i].tf_min;
		if (!rows[i].tf_max[0])
			r.open = true;
		else if (!r.hi || vers_cmp(rows[i].tf_max, r.hi) > 0)
			r.hi = rows[i].tf_max;
	}
	if (!r.lo)
		return r;
	if (r.open)
		str_fmt(out, size, "TensorFlow %s and later", r.lo);
	else if (!strcmp(r.lo, r.hi))
		str_fmt(out, size, "TensorFlow %s", r.lo);
	else
		str_fmt(out, size, "TensorFlow %s to %s", r.lo, r.hi);
	return r;
}

/* A library only TensorFlow releases before the [and-cuda] extra load:
 * they take CUDA and cuDNN from the system, so say which ones, before the
 * table's general fix. */
static void
tf_era_fix(struct explain_cause *c, const char *name, struct tf_range r)
{
	const struct kb_tf_build *b;
	char *fix;

	if (!r.hi || r.open || vers_cmp(r.hi, "2.14") >= 0 || !str_starts(c->id, "lib."))
		return;
	b = kb_tf_build(r.hi, str_ends(name, ".dll") ? "windows" : "linux", "gpu");
	if (!b || !b->cuda[0])
		return;
	fix = xasprintf("%s is what TensorFlow %s%s%s load%s from the system: TensorFlow %s was "
			"built for CUDA %s and cuDNN %s. Install that CUDA release and its cuDNN "
			"(gpudoctor compat tensorflow %s), or move to TensorFlow 2.14 or later, "
			"whose [and-cuda] extra brings them with pip:%s%s",
			name, r.lo, strcmp(r.lo, r.hi) ? " to " : "", strcmp(r.lo, r.hi) ? r.hi : "",
			strcmp(r.lo, r.hi) ? "" : "s", r.hi, b->cuda, b->cudnn[0] ? b->cudnn : "?", r.hi, c->fix ? "\n" : "",
			c->fix ? c->fix : "");
	free(c->fix);
	c->fix = fix;
}

bool
explain_library_missing(const char *id)
{
	return !strcmp(id, "driver.libcuda_missing") || !strcmp(id, "lib.cudart_missing") ||
	       !strcmp(id, "lib.cudnn_missing") || !strcmp(id, "lib.cuda_lib_missing");
}

static void
derive(struct explain_cause *c)
{
	bool era = false, named = false;
	size_t i;
	int k;

	for (i = 0; i < c->ncaps; i++) {
		const struct explain_capture *cap = &c->caps[i];
		for (k = 0; k < cap->nvalues; k++) {
			const char *v = cap->values[k];
			char what[96], who[96];

			if (!strcmp(cap->name, "soname") || !strcmp(cap->name, "dll")) {
				struct tf_range r;

				if (!named && explain_library_missing(c->id) && library_family(v))
					c->id = library_family(v);
				named = true;
				library_meaning(v, what, sizeof(what));
				r = tf_loaders(v, who, sizeof(who));
				if (!era && r.lo) {
					tf_era_fix(c, v, r);
					era = true;
				}
				if (what[0] && who[0])
					explain_evidence(c, "%s is %s; %s load it", v, what, who);
				else if (what[0])
					explain_evidence(c, "%s is %s", v, what);
				else if (who[0])
					explain_evidence(c, "%s is loaded by %s", v, who);
			} else if (!strcmp(cap->name, "cc")) {
				const struct kb_arch *a = kb_arch_by_cc(v);
				if (a && a->cuda_max[0] && a->cuda_min[0])
					explain_evidence(c, "compute capability %s is %s, supported by "
							 "CUDA %s to %s", v, a->architecture,
							 a->cuda_min, a->cuda_max);
				else if (a && a->cuda_max[0])
					explain_evidence(c, "compute capability %s is %s, supported up to "
							 "CUDA %s", v, a->architecture, a->cuda_max);
				else if (a)
					explain_evidence(c, "compute capability %s is %s, supported "
							 "from CUDA %s", v, a->architecture, a->cuda_min);
			} else if (!strcmp(cap->name, "driver")) {
				char max[32];
				if (kb_driver_max_cuda(v, max, sizeof(max)) == 0)
					explain_evidence(c, "driver %s runs CUDA up to %s", v, max);
			}
		}
	}
}

/* ---- folding and order ----------------------------------------------- */

static bool
log_explains(const char *cause, const char *id)
{
	size_t i;
	int k;

	if (finding_explains(cause, id))
		return true;
	for (i = 0; i < sizeof(log_folds) / sizeof(log_folds[0]); i++) {
		if (strcmp(log_folds[i].cause, cause))
			continue;
		for (k = 0; k < MAX_HIDES && log_folds[i].hides[k]; k++)
			if (!strcmp(log_folds[i].hides[k], id))
				return true;
	}
	return false;
}

static int
role_rank(enum explain_role r)
{
	return r == EXPLAIN_BENIGN ? 2 : r == EXPLAIN_UNKNOWN ? 3 : 0;
}

static int
from_cue(const struct explain_cause *c)
{
	return c->pattern && !strncmp(c->pattern->key, "cue.", 4);
}

static int
cause_cmp(const void *pa, const void *pb)
{
	const struct explain_cause *a = pa, *b = pb;
	char la[16], lb[16];
	int d;

	d = role_rank(a->role) - role_rank(b->role);
	if (d)
		return d;
	if (a->severity != b->severity)
		return (int)b->severity - (int)a->severity;
	/* a cause before a symptom of the same weight */
	d = (a->role == EXPLAIN_SYMPTOM) - (b->role == EXPLAIN_SYMPTOM);
	if (d)
		return d;
	/* a known message before words that only sound like a cause */
	d = from_cue(a) - from_cue(b);
	if (d)
		return d;
	str_copy(la, sizeof(la), a->id);
	str_copy(lb, sizeof(lb), b->id);
	la[strcspn(la, ".")] = '\0';
	lb[strcspn(lb, ".")] = '\0';
	d = layer_rank(la) - layer_rank(lb);
	if (d)
		return d;
	return a->lines[0] < b->lines[0] ? -1 : a->lines[0] > b->lines[0];
}

void
explain_fold(struct explain_cause *into, struct explain_cause *c)
{
	size_t i;

	c->hidden = true;
	into->nfolded_all++;
	if (into->nfolded < EXPLAIN_MAX_FOLDED) {
		struct explain_folded *f = &into->folded[into->nfolded++];
		f->id = c->id;
		f->title = xstrdup(c->title ? c->title : c->id);
		f->line = c->lines[0];
		f->count = c->count;
	}
	/* what c had taken goes along */
	for (i = 0; i < c->nfolded; i++) {
		into->nfolded_all++;
		if (into->nfolded < EXPLAIN_MAX_FOLDED) {
			into->folded[into->nfolded] = c->folded[i];
			into->folded[into->nfolded++].title = xstrdup(c->folded[i].title);
		}
	}
}

/* "7.79 GiB", "512 MiB", "20.00 KiB", "123 B" (PyTorch's sizes; GB read as
 * GiB) -> bytes; -1 when v is not a size. */
static double
size_bytes(const char *v)
{
	char *end;
	double n;

	if (!v)
		return -1;
	n = strtod(v, &end);
	if (end == v || n < 0)
		return -1;
	while (*end == ' ')
		end++;
	switch (*end) {
	case 'B': case 'b': return n;
	case 'K': case 'k': return n * 1024.0;
	case 'M': case 'm': return n * 1024.0 * 1024.0;
	case 'G': case 'g': return n * 1024.0 * 1024.0 * 1024.0;
	case 'T': case 't': return n * 1024.0 * 1024.0 * 1024.0 * 1024.0;
	default: return -1;
	}
}

#define GIB (1024.0 * 1024.0 * 1024.0)

/*
 * PyTorch's out-of-memory message states the GPU's total memory, what is
 * free, and what the failing process holds: all of it in PyTorch 2.1 and
 * later ("Including non-PyTorch memory, this process has X"), else what
 * its allocator reserved (older: "Y reserved in total by PyTorch"; newer
 * without the line: allocated + reserved but unallocated). The rest,
 * total - free - that, is held by other processes, and a smaller batch
 * will not make room: the cause becomes mem.held_by_other_process when the
 * rest is large (from all of the process's memory: 1 GiB and a tenth of
 * the GPU; from the allocator's share, which leaves out the process's own
 * context and non-PyTorch memory: 2 GiB and half the GPU), and between a
 * quarter and a half it is said as evidence. Otherwise a GPU under 3.75 GiB
 * in all is why (hw.low_vram): the model does not fit that card.
 */
static void
memory_holders(struct explain_cause *c)
{
	const char *total_s = explain_value(c, "total"), *free_s = explain_value(c, "free");
	double total = size_bytes(total_s), freeb = size_bytes(free_s);
	double proc = size_bytes(explain_value(c, "process"));
	double res = size_bytes(explain_value(c, "reserved"));
	double alloc = size_bytes(explain_value(c, "allocated"));
	double unalloc = size_bytes(explain_value(c, "unallocated"));
	double mine, others;
	bool whole;
	char *title;

	if (strcmp(c->id, "mem.oom") || total <= 0 || freeb < 0)
		return;
	whole = proc >= 0;
	mine = whole ? proc : res >= 0 ? res : alloc >= 0 && unalloc >= 0 ? alloc + unalloc : -1;
	if (mine < 0)
		return;
	others = total - freeb - mine;
	if (whole ? others >= 1.0 * GIB && others >= 0.10 * total
		  : others >= 2.0 * GIB && others >= 0.50 * total) {
		title = xasprintf("Other processes hold %.1f GiB of the GPU's %s", others / GIB, total_s);
		explain_recast(c, "mem.held_by_other_process", title,
		       whole ? "The log states the GPU's memory, what was free and all that this "
			       "process held; the rest is held by other processes (another job, a "
			       "notebook kernel, a process that did not exit), so a smaller batch will "
			       "not make room."
			     : "The log states the GPU's memory, what was free and what PyTorch in this "
			       "process held; most of the rest is held by other processes (another job, "
			       "a notebook kernel, a process that did not exit), or by TensorFlow or "
			       "JAX in this same process, so a smaller batch will not make room.",
		       "nvidia-smi\nEnd the process that holds the memory, or wait for it (gpudoctor "
		       "doctor says whether it still runs)\nOr run on another GPU: export "
		       "CUDA_VISIBLE_DEVICES=1");
		explain_evidence(c, "the log says: %s total, %s free, %.2f GiB held by this process%s: "
				 "%.2f GiB are held elsewhere", total_s, free_s, mine / GIB,
				 whole ? "" : "'s PyTorch", others / GIB);
		if (explain_value(c, "requested"))
			explain_evidence(c, "so PyTorch could not allocate %s", explain_value(c, "requested"));
	} else if (total < HW_LOW_VRAM_MIB * 1024.0 * 1024.0) {
		title = xasprintf("The GPU has only %s of memory in all", total_s);
		explain_recast(c, "hw.low_vram", title,
			       "The log states the GPU's total memory, and it is under 4 GiB: most current "
			       "models and their activations do not fit in it.",
			       explain_low_vram_fix);
		explain_evidence(c, "the log says: %s total, %s free", total_s, free_s);
		if (explain_value(c, "requested"))
			explain_evidence(c, "so PyTorch could not allocate %s", explain_value(c, "requested"));
	} else if (!whole && others >= 2.0 * GIB && others >= 0.25 * total) {
		explain_evidence(c, "%.2f GiB of the GPU's %s are outside what PyTorch holds (%s total "
				 "- %s free - %.2f GiB): other processes, or memory this one took "
				 "without PyTorch; nvidia-smi shows which", others / GIB, total_s,
				 total_s, free_s, mine / GIB);
	}
}

/*
 * A log that prints the driver's CUDA beside the runtime's (deviceQuery's
 * "CUDA Driver Version / Runtime Version 11.4 / 11.8") is a problem only
 * when the driver's is the older: otherwise the pair is harmless.
 */
static void
version_pair(struct explain_cause *c)
{
	const char *drv = explain_value(c, "found"), *rt = explain_value(c, "expected");

	if (strcmp(c->id, "driver.too_old") || !drv || !rt || vers_cmp(drv, rt) < 0)
		return;
	c->id = "rt.benign_warning";
	c->role = EXPLAIN_BENIGN;
	c->severity = SEV_INFO;
	free(c->title);
	c->title = xasprintf("The driver runs CUDA %s, the runtime needs %s: fine", drv, rt);
	free(c->explain);
	c->explain = xstrdup("A driver runs every CUDA runtime up to its own CUDA version.");
	free(c->fix);
	c->fix = NULL;
}

/*
 * Windows' "The paging file is too small" (WinError 1455) says why the DLL
 * named beside it did not load: memory ran out, nothing is missing. The
 * library the same message names, on its line or the next, goes into it.
 */
static void
paging_file_context(struct explain *x)
{
	size_t i, j;

	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		if (!c->pattern || c->hidden || (strcmp(c->pattern->key, "torch.win.paging_file") &&
						 strcmp(c->pattern->key, "cue.host_oom.paging_file")))
			continue;
		for (j = 0; j < x->ncauses; j++) {
			struct explain_cause *d = &x->causes[j];
			if (j == i || d->hidden || strncmp(d->id, "lib.", 4) || !strstr(d->id, "_missing") ||
			    d->lines[0] < c->lines[0] || d->lines[0] > c->lines[0] + 1)
				continue;
			explain_fold(c, d);
		}
	}
}
void
explain_finish(struct explain *x)
{
	size_t i, j, n = 0;
	long top = -1;

	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		if (c->pattern) {
			c->title = fill(c, c->pattern->title, false);
			c->explain = fill(c, c->pattern->explain, false);
			c->fix = c->pattern->fix[0] ? fill(c, c->pattern->fix, true) : NULL;
			derive(c);
		} else {
			c->title = xasprintf("%lu GPU-related line%s that no known message explains",
					     c->count, c->count == 1 ? "" : "s");
			c->explain = xstrdup("These lines mention the GPU stack and an error, but "
					     "match no message in gpudoctor's table.");
		}
	}
	/* what the log states, judged by the doctor's rules */
	explain_stated(x);
	explain_library_fixes(x);
	for (i = 0; i < x->ncauses; i++) {
		memory_holders(&x->causes[i]);
		version_pair(&x->causes[i]);
	}
	explain_context(x);
	paging_file_context(x);
	if (x->ncauses)
		qsort(x->causes, x->ncauses, sizeof(*x->causes), cause_cmp);

	/* a root cause takes what it explains; a taken cause takes nothing */
	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		if (c->hidden || c->role != EXPLAIN_CAUSE)
			continue;
		for (j = 0; j < x->ncauses; j++) {
			struct explain_cause *d = &x->causes[j];
			if (j == i || d->hidden || (d->role != EXPLAIN_CAUSE &&
						    d->role != EXPLAIN_SYMPTOM))
				continue;
			if (log_explains(c->id, d->id) && !log_explains(d->id, c->id))
				explain_fold(c, d);
		}
	}
	/* symptoms belong to the first cause left, when there is one */
	for (i = 0; i < x->ncauses && top < 0; i++)
		if (!x->causes[i].hidden && x->causes[i].role == EXPLAIN_CAUSE &&
		    x->causes[i].severity >= SEV_WARN)
			top = (long)i;
	for (i = 0; top >= 0 && i < x->ncauses; i++)
		if (!x->causes[i].hidden && x->causes[i].role == EXPLAIN_SYMPTOM)
			explain_fold(&x->causes[top], &x->causes[i]);

	for (i = 0; i < x->ncauses; i++) {
		if (x->causes[i].hidden) {
			/* explain_fold copied what it kept */
			explain_cause_release(&x->causes[i]);
			continue;
		}
		x->causes[n++] = x->causes[i];
	}
	x->ncauses = n;
}
