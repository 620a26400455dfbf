/*
 * plan.c - choosing a framework release for one machine: every release of
 * the framework, newest first, is checked against the machine (OS, Python,
 * CPU, then per CUDA build the GPU architecture and the driver); the first
 * that passes is the plan, the newer ones keep their reasons, and when
 * none passes the reasons of the most fixable release become blockers in
 * the order a person should act on them. See plan.h for the rules.
 *
 * Pure: reads the knowledge base and the struct plan_machine, writes the
 * struct plan. Install commands are not made here (render/plan_text.c).
 */
#include "plan/plan.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"
#include "kb/runs_on.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_RELEASES 256

/* One CUDA build checked against the machine. */
struct build_check {
	unsigned why;
	char reason[PLAN_LINE];
	char basis[PLAN_LINE];       /* which driver minimum was relied on */
	char need[32];               /* the driver this build needs (the lower usable minimum) */
	int how;                     /* enum runs_how on this GPU */
	char via[16];                /* "sm_80", "compute_80" */
	char how_reason[PLAN_LINE];
	bool targets_known;          /* the knowledge base has the build's targets */
};

/* One release checked against the machine. */
struct eval {
	char version[24];
	unsigned why;
	int nreasons;
	char reasons[PLAN_MAX_REASONS][PLAN_LINE];
	char cuda[16], cudnn[16], variant[16];
	char python_min[8], python_max[8];
	bool and_cuda;
	char basis[PLAN_LINE];
	char need[32];
	int how;                     /* enum runs_how of the build chosen for it */
	char via[16];
	char how_reason[PLAN_LINE];
	bool targets_known;
};

struct ctx {
	const struct plan_machine *m;
	int fw;
	bool gpu;                    /* planning a GPU build */
	bool win_driver;             /* Windows driver numbers (Windows, WSL2) */
	const char *platform;        /* tf_builds platform: linux, windows, macos */
	const char *wheels;          /* the wheels' platform: windows, else linux (WSL2 too) */
	char driver_cuda[16];        /* newest CUDA the driver runs by its own minimums */
	int gpu_unknown_to_driver;   /* enum runs_driver: RUNS_DRIVER_PREDATES_GPU blocks */
	char driver_first[32];       /* then: the first driver that knows it */
	char driver_why[PLAN_LINE];
};

static const char *const fw_names[] = {"tensorflow", "torch", "jax"};
static const char *const fw_titles[] = {"TensorFlow", "PyTorch", "JAX"};
static const char *const os_names[] = {"linux", "wsl2", "windows", "macos"};

int
plan_fw_parse(const char *s)
{
	if (!strcasecmp(s, "tensorflow") || !strcasecmp(s, "tf") || !strcasecmp(s, "tensorflow-gpu") ||
	    !strcasecmp(s, "tensorflow-cpu"))
		return PLAN_TF;
	if (!strcasecmp(s, "torch") || !strcasecmp(s, "pytorch"))
		return PLAN_TORCH;
	if (!strcasecmp(s, "jax") || !strcasecmp(s, "jaxlib"))
		return PLAN_JAX;
	return -1;
}

const char *
plan_fw_name(int fw)
{
	return fw >= 0 && fw <= PLAN_JAX ? fw_names[fw] : "?";
}

const char *
plan_fw_title(int fw)
{
	return fw >= 0 && fw <= PLAN_JAX ? fw_titles[fw] : "?";
}

int
plan_os_parse(const char *s)
{
	if (!strcasecmp(s, "linux"))
		return PLAN_OS_LINUX;
	if (!strcasecmp(s, "wsl2") || !strcasecmp(s, "wsl"))
		return PLAN_OS_WSL2;
	if (!strcasecmp(s, "windows") || !strcasecmp(s, "win"))
		return PLAN_OS_WINDOWS;
	if (!strcasecmp(s, "macos") || !strcasecmp(s, "darwin") || !strcasecmp(s, "mac"))
		return PLAN_OS_MACOS;
	return -1;
}

const char *
plan_os_name(int os)
{
	return os >= 0 && os <= PLAN_OS_MACOS ? os_names[os] : "?";
}

/* "9" -> "9.0" (old tables name 9, 10 for 9.0, 10.0); others unchanged. */
static void
norm_cuda(const char *in, char *out, size_t size)
{
	if (in[0] && !strchr(in, '.'))
		str_fmt(out, size, "%s.0", in);
	else
		str_copy(out, size, in);
}

void
plan_cuda_tag(const char *cuda, char *out, size_t size)
{
	int v[2] = {0, 0};

	if (vers_parse(cuda, v, 2) < 1) {
		str_copy(out, size, "");
		return;
	}
	str_fmt(out, size, "cu%d%d", v[0], v[1]);
}

static void
add_reason(struct eval *e, unsigned why, const char *text)
{
	e->why |= why;
	if (e->nreasons < PLAN_MAX_REASONS)
		STR_COPY(e->reasons[e->nreasons++], text);
}

/* ---- the checks ------------------------------------------------------------ */

/* Does the driver run this CUDA? Fills the basis, or the reason; need is
 * the lowest driver that would do. Without a driver (one is to be
 * installed) only need is filled. */
static bool
driver_ok(const struct ctx *c, const char *cuda, struct build_check *b)
{
	const struct kb_cuda_driver *d = kb_cuda_driver(cuda);
	const char *drv = c->m->driver, *own, *minor;
	bool win = c->win_driver;

	b->basis[0] = b->reason[0] = b->need[0] = '\0';
	if (!d) {
		str_fmt(b->basis, sizeof(b->basis), "CUDA %s is not in the driver table: its driver "
			 "minimum is unknown", cuda);
		return true;
	}
	own = win && d->windows_min[0] ? d->windows_min : d->linux_min;
	minor = win && d->windows_min[0] ? d->windows_minor_compat : d->linux_minor_compat;
	if (c->m->strict_driver)
		minor = "";
	STR_COPY(b->need, minor[0] ? minor : own);
	if (!drv[0])
		return true;
	if (vers_cmp(drv, own) >= 0) {
		str_fmt(b->basis, sizeof(b->basis), "%s >= %s, CUDA %s's own minimum", drv, own, d->cuda);
		return true;
	}
	if (minor[0] && vers_cmp(drv, minor) >= 0) {
		str_fmt(b->basis, sizeof(b->basis),
			 "%s relies on CUDA minor-version compatibility (>= %s for CUDA %d.x); "
			 "CUDA %s's own minimum is %s: upgrading removes that dependence (no PTX JIT of "
			 "newer code)", drv, minor, atoi(d->cuda), d->cuda, own);
		return true;
	}
	if (minor[0] && strcmp(minor, own))
		str_fmt(b->reason, sizeof(b->reason),
			 "needs CUDA %s -> driver >= %s (minor-version compatibility: %s); yours is %s",
			 d->cuda, own, minor, drv);
	else
		str_fmt(b->reason, sizeof(b->reason), "needs CUDA %s -> driver >= %s; yours is %s",
			 d->cuda, own, drv);
	return false;
}

/* GPU code and driver for one build: release `version` made with CUDA
 * `cuda_in` (a major alone, "12", finds the release's newest build of that
 * major), needing a driver for CUDA `drv_cuda` (NULL: cuda_in).
 * runs_on.h decides whether this GPU runs it, and how. */
static void
check_build(const struct ctx *c, const char *version, const char *cuda_in, const char *drv_cuda,
	    struct build_check *b)
{
	char cuda[16], dcuda[16], r[PLAN_LINE];
	struct build_code code;
	struct runs_verdict v;

	STR_COPY(cuda, cuda_in);
	norm_cuda(drv_cuda ? drv_cuda : cuda_in, dcuda, sizeof(dcuda));
	memset(b, 0, sizeof(*b));
	b->how = RUNS_UNKNOWN;
	if (c->m->compute_capability[0]) {
		b->targets_known = runs_code_from_kb(fw_names[c->fw], version, c->wheels, cuda, &code);
		if (!b->targets_known)
			STR_COPY(code.cuda, strchr(cuda, '.') ? cuda : "");
		else
			STR_COPY(cuda, code.cuda);
		runs_decide(&code, c->m->compute_capability, c->driver_cuda, &v);
		b->how = v.how;
		STR_COPY(b->via, v.via);
		STR_COPY(b->how_reason, v.reason);
		if (v.how == RUNS_NO && v.ptx_too_new) {
			const struct kb_cuda_driver *d = kb_cuda_driver(v.driver_cuda_needed);
			const char *need = d ? (c->win_driver && d->windows_min[0] ? d->windows_min
										   : d->linux_min)
					     : "";
			b->why |= WHY_DRIVER;
			STR_COPY(b->need, need);
			str_fmt(b->reason, sizeof(b->reason), "CUDA %s build: %s; a driver >= %s JIT-compiles "
				 "it", cuda, v.reason, need[0] ? need : "for a newer CUDA");
			return;
		}
		if (v.how == RUNS_NO) {
			b->why |= WHY_ARCH;
			str_fmt(r, sizeof(r), "CUDA %s build: %s", cuda, v.reason);
			STR_COPY(b->reason, r);
			return;
		}
	}
	if (!driver_ok(c, dcuda, b))
		b->why |= WHY_DRIVER;
}

/* A build that runs (no why) only from PTX gets the soft WHY_JIT. */
static void
add_jit(struct eval *e, const struct build_check *b)
{
	char r[PLAN_LINE];

	if (b->how != RUNS_JIT)
		return;
	str_fmt(r, sizeof(r), "runs only from PTX: %s", b->how_reason);
	add_reason(e, WHY_JIT, r);
}

static void
check_python(const struct ctx *c, struct eval *e, const char *lo, const char *hi)
{
	const char *py = c->m->python;
	char r[PLAN_LINE];

	STR_COPY(e->python_min, lo);
	STR_COPY(e->python_max, hi);
	if (!py[0] || (!lo[0] && !hi[0]))
		return;
	if (!kb_in_range(py, lo[0] ? lo : NULL, hi[0] ? hi : NULL)) {
		str_fmt(r, sizeof(r), "needs Python %s-%s; yours is %s", lo[0] ? lo : "?",
			 hi[0] ? hi : "?", py);
		add_reason(e, WHY_PYTHON, r);
	}
}

/* Copy a build's result into the release. */
static void
take_build(struct eval *e, const struct build_check *b, const char *cuda)
{
	norm_cuda(cuda, e->cuda, sizeof(e->cuda));
	STR_COPY(e->basis, b->basis);
	STR_COPY(e->need, b->need);
	e->how = b->how;
	STR_COPY(e->via, b->via);
	STR_COPY(e->how_reason, b->how_reason);
	e->targets_known = b->targets_known;
}

/* ---- TensorFlow ------------------------------------------------------------- */

static void
eval_tf(const struct ctx *c, const char *version, struct eval *e)
{
	const struct kb_tf_build *row, *lin;
	const struct kb_tf_feature *ft = kb_tf_features(version);
	const char *kind = c->gpu ? "gpu" : "cpu";
	char r[PLAN_LINE];

	row = kb_tf_build(version, c->platform, kind);
	if (row && strcmp(row->version, version))
		row = NULL;
	e->and_cuda = ft && ft->and_cuda_extra && c->gpu && strcmp(c->platform, "windows");
	if (!row) {
		lin = kb_tf_build(version, "linux", kind);
		if (!strcmp(c->platform, "windows") && c->gpu)
			str_fmt(r, sizeof(r), "no native Windows GPU build after 2.10: use WSL2");
		else
			str_fmt(r, sizeof(r), "no %s %s build", c->platform, kind);
		add_reason(e, WHY_OS, r);
		if (lin)
			check_python(c, e, lin->python_min, lin->python_max);
		return;
	}
	check_python(c, e, row->python_min, row->python_max);
	if (c->m->cpu_avx == 0 && ft && kb_has_word(ft->cpu_isa, "avx")) {
		str_fmt(r, sizeof(r), "its wheels need AVX; this CPU has none");
		add_reason(e, WHY_CPU, r);
	}
	if (c->gpu) {
		struct build_check b;
		check_build(c, version, row->cuda, NULL, &b);
		take_build(e, &b, row->cuda);
		STR_COPY(e->cudnn, row->cudnn);
		if (b.why)
			add_reason(e, b.why, b.reason);
		else
			add_jit(e, &b);
	}
}

/* ---- PyTorch ---------------------------------------------------------------- */

/* One CUDA build of a release, as the choice below sees it. */
struct candidate {
	char target_cuda[16];        /* how build_targets knows it: "12.8", or a major "12" */
	char driver_cuda[16];        /* the CUDA the driver must run */
	char variant[16];            /* the plan's variant: "12.8", "cuda12" */
};

/*
 * Choose among the CUDA builds of one release (cand[], oldest first): the
 * newest the GPU runs natively with this driver; else the newest whose GPU
 * code is not known; else the newest it runs only from PTX; else the
 * oldest a driver upgrade would make work (the lowest driver need); else
 * the newest one's reason. `what` names the builds in that reason.
 */
static void
choose_build(const struct ctx *c, const char *version, const struct candidate *cand, size_t n,
	     const char *what, struct eval *e)
{
	struct build_check b, newest = {0}, unk = {0}, jit = {0}, drv = {0};
	int unk_k = -1, jit_k = -1, drv_k = -1, pick = -1;
	const struct build_check *chosen = NULL;
	char r[PLAN_LINE];
	size_t k;

	for (k = n; k-- > 0;) {
		check_build(c, version, cand[k].target_cuda, cand[k].driver_cuda, &b);
		if (k == n - 1)
			newest = b;
		if (!b.why && b.how == RUNS_NATIVE) {
			take_build(e, &b, cand[k].driver_cuda);
			STR_COPY(e->variant, cand[k].variant);
			return;
		}
		if (!b.why && b.how != RUNS_JIT && unk_k < 0) {
			unk = b;
			unk_k = (int)k;
		}
		if (!b.why && b.how == RUNS_JIT && jit_k < 0) {
			jit = b;
			jit_k = (int)k;
		}
		if (b.why == WHY_DRIVER) {
			drv = b;
			drv_k = (int)k;
		}
	}
	if (unk_k >= 0)
		chosen = &unk, pick = unk_k;
	else if (jit_k >= 0)
		chosen = &jit, pick = jit_k;
	else if (drv_k >= 0)
		chosen = &drv, pick = drv_k;
	if (chosen) {
		take_build(e, chosen, cand[pick].driver_cuda);
		STR_COPY(e->variant, cand[pick].variant);
		if (chosen == &jit)
			add_jit(e, &jit);
		else if (chosen == &drv)
			add_reason(e, WHY_DRIVER, drv.reason);
		return;
	}
	str_fmt(r, sizeof(r), "none of its %s runs on compute capability %s; the newest: %s", what,
		 c->m->compute_capability, newest.reason);
	add_reason(e, newest.why ? newest.why : WHY_ARCH, r);
}

static void
eval_torch(const struct ctx *c, const struct kb_torch_build *t, struct eval *e)
{
	struct candidate cand[8];
	char w[16], what[96];
	size_t n = 0, k;

	check_python(c, e, t->python_min, t->python_max);
	if (!c->gpu)
		return;
	if (c->m->os == PLAN_OS_MACOS) {
		add_reason(e, WHY_OS, "no CUDA on macOS");
		return;
	}
	for (k = 0; n < 8 && kb_word(t->cuda_variants, k, w, sizeof(w)) == 0; k++, n++) {
		norm_cuda(w, cand[n].target_cuda, sizeof(cand[n].target_cuda));
		STR_COPY(cand[n].driver_cuda, cand[n].target_cuda);
		STR_COPY(cand[n].variant, cand[n].target_cuda);
	}
	if (!n) {
		add_reason(e, WHY_OS, "no CUDA wheels");
		return;
	}
	STR_FMT(what, "CUDA wheels (%s)", t->cuda_variants);
	choose_build(c, t->version, cand, n, what, e);
}

/* ---- JAX -------------------------------------------------------------------- */

/* The CUDA a plugin ("cuda12") needs: the row's minimum if of that major. */
static void
plugin_cuda(const struct kb_jax_build *j, const char *plugin, char *out, size_t size)
{
	int major = atoi(plugin + 4);

	if (j->cuda_min[0] && atoi(j->cuda_min) == major)
		str_copy(out, size, j->cuda_min);
	else
		str_fmt(out, size, "%d.0", major);
}

static void
eval_jax(const struct ctx *c, const struct kb_jax_build *j, struct eval *e)
{
	struct candidate cand[4];
	char w[16], what[96];
	size_t n = 0, k;

	check_python(c, e, j->python_min, j->python_max);
	if (!c->gpu)
		return;
	if (c->m->os == PLAN_OS_MACOS || c->m->os == PLAN_OS_WINDOWS) {
		add_reason(e, WHY_OS, c->m->os == PLAN_OS_WINDOWS
					      ? "no GPU build for native Windows (WSL2 has one)"
					      : "no CUDA on macOS");
		return;
	}
	/* targets: the plugin's build of that major; driver: its minimum */
	for (k = 0; n < 4 && kb_word(j->cuda_plugins, k, w, sizeof(w)) == 0; k++)
		if (str_starts(w, "cuda")) {
			STR_COPY(cand[n].target_cuda, w + 4);
			plugin_cuda(j, w, cand[n].driver_cuda, sizeof(cand[n].driver_cuda));
			STR_COPY(cand[n].variant, w);
			n++;
		}
	if (!n) {
		add_reason(e, WHY_OS, "no CUDA build");
		return;
	}
	STR_FMT(what, "CUDA plugins (%s)", j->cuda_plugins);
	choose_build(c, j->version, cand, n, what, e);
}

/* ---- releases, newest first ------------------------------------------------ */

/* Versions of the framework, newest first; returns the count. */
static size_t
releases(int fw, const char **out, size_t max)
{
	size_t n, i, k = 0;

	if (fw == PLAN_TF) {
		const struct kb_tf_build *r = kb_list_tf_builds(&n);
		const char *v[MAX_RELEASES];
		size_t nv = 0, a, b;
		/* distinct versions (rows are sorted by version, then platform) */
		for (i = 0; i < n && nv < MAX_RELEASES; i++) {
			for (a = 0; a < nv && strcmp(v[a], r[i].version); a++)
				;
			if (a == nv)
				v[nv++] = r[i].version;
		}
		/* newest first, by version number */
		for (a = 1; a < nv; a++)
			for (b = a; b > 0 && vers_cmp(v[b - 1], v[b]) < 0; b--) {
				const char *t = v[b];
				v[b] = v[b - 1];
				v[b - 1] = t;
			}
		for (a = 0; a < nv && k < max; a++)
			out[k++] = v[a];
	} else if (fw == PLAN_TORCH) {
		const struct kb_torch_build *r = kb_list_torch_builds(&n);
		for (i = n; i-- > 0 && k < max;)
			out[k++] = r[i].version;
	} else {
		const struct kb_jax_build *r = kb_list_jax_builds(&n);
		for (i = n; i-- > 0 && k < max;)
			out[k++] = r[i].version;
	}
	return k;
}

static void
evaluate(const struct ctx *c, const char *version, struct eval *e)
{
	memset(e, 0, sizeof(*e));
	STR_COPY(e->version, version);
	if (c->fw == PLAN_TF) {
		eval_tf(c, version, e);
	} else if (c->fw == PLAN_TORCH) {
		const struct kb_torch_build *t = kb_torch(version);
		if (t)
			eval_torch(c, t, e);
	} else {
		const struct kb_jax_build *j = kb_jax(version);
		if (j)
			eval_jax(c, j, e);
	}
}

/* A TensorFlow version that has no row for this platform and kind, and is
 * not worth a line: a Windows-only or Linux-only numbering (1.13.0 vs
 * 1.13.1), or older than every build of the platform. */
static bool
tf_skip(const struct ctx *c, const char *version)
{
	const char *kind = c->gpu ? "gpu" : "cpu";
	const struct kb_tf_build *r = kb_tf_build(version, c->platform, kind);

	if (r && !strcmp(r->version, version))
		return false;
	if (!strcmp(c->platform, "windows") && c->gpu) {
		/* the Linux GPU releases after 2.10 are worth a "use WSL2" line */
		const struct kb_tf_build *l = kb_tf_build(version, "linux", "gpu");
		return !(l && !strcmp(l->version, version) && vers_cmp(version, "2.10.0") > 0);
	}
	return true;
}

/* ---- the plan --------------------------------------------------------------- */

static void
note(struct plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
note(struct plan *p, const char *fmt, ...)
{
	va_list ap;

	if (p->nnotes >= PLAN_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(p->notes[p->nnotes++], PLAN_LINE, fmt, ap);
	va_end(ap);
}

static void
exclude(struct plan *p, const struct eval *e)
{
	struct plan_excluded *x;
	int i;

	p->nexcluded_total++;
	if (p->nexcluded >= PLAN_MAX_EXCLUDED)
		return;
	x = &p->excluded[p->nexcluded++];
	STR_COPY(x->version, e->version);
	x->why = e->why;
	x->nreasons = e->nreasons;
	for (i = 0; i < e->nreasons; i++)
		STR_COPY(x->reasons[i], e->reasons[i]);
}

static void
choose(struct plan *p, const struct eval *e)
{
	p->ok = true;
	STR_COPY(p->version, e->version);
	STR_COPY(p->cuda, e->cuda);
	STR_COPY(p->cudnn, e->cudnn);
	STR_COPY(p->variant, e->variant);
	STR_COPY(p->python_min, e->python_min);
	STR_COPY(p->python_max, e->python_max);
	STR_COPY(p->driver_basis, e->basis);
	STR_COPY(p->driver_min, e->need);
	p->and_cuda = e->and_cuda;
	STR_COPY(p->runs, runs_how_name(e->how));
	STR_COPY(p->runs_via, e->via);
	STR_COPY(p->runs_reason, e->how_reason);
	p->targets_known = e->targets_known;
}

static struct plan_blocker *
blocker(struct plan *p, unsigned why)
{
	struct plan_blocker *b;

	if (p->nblockers >= PLAN_MAX_BLOCKERS)
		return NULL;
	b = &p->blockers[p->nblockers++];
	memset(b, 0, sizeof(*b));
	b->why = why;
	return b;
}

/* The newest Python minor of a release's range ("3.12"). */
static void
py_minor(const char *v, char *out, size_t size)
{
	vers_truncate(v, 2, out, size);
}

/* Blockers for release e, in the order to act on them. */
static void
block_release(struct plan *p, const struct plan_machine *m, const struct eval *e, bool all)
{
	const char *fw = plan_fw_title(p->fw);
	struct plan_blocker *b;
	const struct kb_arch *a;

	if ((e->why & WHY_DRIVER) && (b = blocker(p, WHY_DRIVER))) {
		STR_COPY(b->driver_min, e->need);
		if (!all)
			str_fmt(b->what, sizeof(b->what), "driver %s is too old for %s %s: CUDA %s needs "
				 "driver >= %s", m->driver, fw, e->version, e->cuda, e->need);
		else
			str_fmt(b->what, sizeof(b->what), "driver %s is too old for every %s release "
				 "that fits this machine; the newest, %s, needs CUDA %s -> driver >= %s",
				 m->driver, fw, e->version, e->cuda, e->need);
		str_fmt(b->fix, sizeof(b->fix), "upgrade the NVIDIA driver to >= %s first", e->need);
	}
	if ((e->why & WHY_PYTHON) && (b = blocker(p, WHY_PYTHON))) {
		py_minor(e->python_max, b->python, sizeof(b->python));
		str_fmt(b->what, sizeof(b->what), "Python %s is outside %s %s's range %s-%s", m->python,
			 fw, e->version, e->python_min, e->python_max);
		str_fmt(b->fix, sizeof(b->fix), "install Python %s (the newest %s %s supports) and "
			 "create the environment with it", b->python, fw, e->version);
	}
	if ((e->why & WHY_CPU) && !(p->nblockers && p->blockers[0].why == WHY_CPU) &&
	    (b = blocker(p, WHY_CPU))) {
		str_fmt(b->what, sizeof(b->what), "this CPU has no AVX; %s %s's wheels need it", fw,
			 e->version);
		str_fmt(b->fix, sizeof(b->fix), "build %s from source without AVX, or use a machine "
			 "whose CPU has AVX", fw);
	}
	if ((e->why & WHY_ARCH) && (b = blocker(p, WHY_ARCH))) {
		a = kb_arch_by_cc(m->compute_capability);
		str_fmt(b->what, sizeof(b->what), "%s (compute capability %s) cannot run %s %s: %s",
			 m->gpu_name[0] ? m->gpu_name : "this GPU", m->compute_capability, fw, e->version,
			 e->reasons[0]);
		if (p->newest_ok[0] && strcmp(p->newest_ok, e->version))
			str_fmt(b->fix, sizeof(b->fix), "use %s %s, the newest release that runs on it "
				 "(gpudoctor plan %s)", fw, p->newest_ok, plan_fw_name(p->fw));
		else if (a && a->cuda_max[0])
			str_fmt(b->fix, sizeof(b->fix), "use a %s release built with CUDA <= %s and the "
				 "%s driver branch (the last for %s)", fw, a->cuda_max,
				 a->driver_last_branch[0] ? a->driver_last_branch : "matching",
				 a->architecture);
		else
			str_fmt(b->fix, sizeof(b->fix), "no %s release in the knowledge base carries code "
				 "for compute capability %s", fw, m->compute_capability);
	}
	if ((e->why & WHY_OS) && (b = blocker(p, WHY_OS))) {
		str_fmt(b->what, sizeof(b->what), "%s %s: %s", fw, e->version, e->reasons[0]);
		str_fmt(b->fix, sizeof(b->fix), "use WSL2 or a CPU-only install");
	}
}

/* No release works: what to change first. */
static void
block_all(struct plan *p, const struct plan_machine *m, const struct eval *ev, size_t n)
{
	const struct eval *r = NULL;
	struct plan_blocker *b;
	size_t i;
	bool all_os = n > 0;

	for (i = 0; i < n; i++)
		if (!(ev[i].why & WHY_OS))
			all_os = false;
	if (all_os) {
		if ((b = blocker(p, WHY_OS))) {
			str_fmt(b->what, sizeof(b->what), "%s has no GPU build for %s", plan_fw_title(p->fw),
				 m->os == PLAN_OS_WINDOWS ? "native Windows" : plan_os_name(m->os));
			if (m->os == PLAN_OS_WINDOWS)
				str_fmt(b->fix, sizeof(b->fix), "use WSL2 (wsl --install, then gpudoctor plan "
					 "%s --os wsl2 inside it), or a CPU-only install", plan_fw_name(p->fw));
			else
				str_fmt(b->fix, sizeof(b->fix), "use a CPU-only install");
		}
		return;
	}
	/* a CPU without AVX rules out every newer release: say so first */
	if (n > 0 && (ev[0].why & WHY_CPU) && (b = blocker(p, WHY_CPU))) {
		str_fmt(b->what, sizeof(b->what), "this CPU has no AVX, which %s's prebuilt wheels need "
			"(since 1.6)", plan_fw_title(p->fw));
		str_fmt(b->fix, sizeof(b->fix), "use a machine whose CPU has AVX, or build %s from "
			"source without it", plan_fw_title(p->fw));
	}
	/* the newest release that a driver or Python change would make work */
	for (i = 0; i < n && !r; i++)
		if (ev[i].why && !(ev[i].why & ~(unsigned)(WHY_DRIVER | WHY_PYTHON)))
			r = &ev[i];
	if (!r)
		for (i = 0; i < n && !r; i++)
			if (ev[i].why && !(ev[i].why & ~(unsigned)(WHY_DRIVER | WHY_PYTHON | WHY_CPU)))
				r = &ev[i];
	if (!r)
		for (i = 0; i < n && !r; i++)
			if (!(ev[i].why & WHY_OS))
				r = &ev[i];
	if (!r)
		return;
	block_release(p, m, r, true);
	note(p, "with that changed: %s %s", plan_fw_title(p->fw), r->version);
}

static void
machine_notes(struct plan *p, const struct plan_machine *m, const struct ctx *c)
{
	if (m->described)
		note(p, "the machine is the one the options describe: nothing on this machine was "
			"probed");
	if (m->os == PLAN_OS_MACOS)
		note(p, "macOS has no CUDA: planning a CPU-only install (Apple-GPU plugins such as "
			"tensorflow-metal and jax-metal are not in the knowledge base)");
	else if (!c->gpu && m->gpu_known && !m->driver[0])
		note(p, "no NVIDIA GPU found: planning a CPU-only install");
	else if (!c->gpu)
		note(p, "no NVIDIA GPU or driver given: planning a CPU-only install");
	if (c->gpu && !m->driver[0] && m->driver_unknown)
		note(p, "the driver is unknown (the facts do not hold it): assuming it runs the "
			"chosen build's CUDA");
	else if (c->gpu && !m->driver[0])
		note(p, "no NVIDIA driver found: the plan installs one first");
	if (c->gpu && !m->gpu_present)
		note(p, "GPU not known: assuming it supports the chosen build's CUDA");
	else if (c->gpu && !m->compute_capability[0])
		note(p, "compute capability unknown: assuming the GPU supports the chosen build's CUDA");
	if (m->os == PLAN_OS_WSL2 && c->gpu)
		note(p, "WSL2: Linux steps inside the distribution; the driver is the Windows one "
			"(never install a Linux driver inside WSL2)");
	if (m->cpu_avx == 0 && p->fw == PLAN_TF)
		note(p, "this CPU has no AVX");
}

void
plan_machine_from_facts(const struct facts *f, struct plan_machine *m)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->cpu_avx = -1;
	STR_COPY(m->driver, f->driver.version);
	m->driver_unknown = f->unknown_parts & FACTS_PART_DRIVER;
	m->gpu_known = (f->pci_valid || f->from_file) && !(f->unknown_parts & FACTS_PART_GPUS);
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		m->gpu_present = true;
		/* several GPUs: plan for the oldest architecture */
		if (!m->compute_capability[0] ||
		    (g->compute_capability[0] && vers_cmp(g->compute_capability, m->compute_capability) < 0)) {
			STR_COPY(m->gpu_name, g->name);
			STR_COPY(m->compute_capability, g->compute_capability);
		}
	}
	m->os = f->host.wsl ? PLAN_OS_WSL2 : PLAN_OS_LINUX;
	m->cpu_avx = f->host.cpu_valid ? (f->host.cpu_avx ? 1 : 0) : -1;
	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++)
		if (f->libs[i].origin == ORIGIN_TOOLKIT && !strcmp(f->libs[i].name, "cudart") &&
		    f->libs[i].version[0]) {
			vers_truncate(f->libs[i].version, 2, m->toolkit, sizeof(m->toolkit));
			break;
		}
}

/* The newest CUDA a driver runs by its own minimums, Windows numbers on
 * Windows and WSL2 (that is what its PTX JIT compiler understands). */
static void
driver_cuda(const struct ctx *c, char *out, size_t size)
{
	const struct kb_cuda_driver *rows;
	size_t n, i;

	out[0] = '\0';
	if (!c->m->driver[0])
		return;
	rows = kb_list_cuda_driver(&n);
	for (i = 0; i < n; i++) {
		const char *min = c->win_driver && rows[i].windows_min[0] ? rows[i].windows_min
									 : rows[i].linux_min;
		if (min[0] && vers_cmp(c->m->driver, min) >= 0 && (!out[0] || vers_cmp(rows[i].cuda, out) > 0))
			str_copy(out, size, rows[i].cuda);
	}
}

/*
 * The driver predates the GPU's architecture, so nothing runs until it is
 * replaced: one blocker, and what would work once it is (the plan for the
 * same machine with a driver to install).
 */
static int
driver_predates_gpu(const struct plan_machine *m, const struct ctx *c, int fw, const char *want,
		    struct plan *p)
{
	struct plan_machine m2 = *m;
	struct plan_blocker *b;
	char need[32], then[24];
	int rc;

	m2.driver[0] = '\0';
	rc = plan_make(&m2, fw, want, p);
	if (rc < 0)
		return rc;
	STR_COPY(need, c->driver_first);
	if (p->ok && p->driver_min[0] && vers_cmp(p->driver_min, need) > 0)
		STR_COPY(need, p->driver_min);
	STR_COPY(then, p->ok ? p->version : "");
	memset(p, 0, sizeof(*p));
	p->fw = fw;
	p->os = m->os;
	p->gpu = true;
	if (want && want[0])
		STR_COPY(p->asked, want);
	if (kb_driver_max_cuda(m->driver, p->max_cuda, sizeof(p->max_cuda)) < 0)
		p->max_cuda[0] = '\0';
	machine_notes(p, m, c);
	b = blocker(p, WHY_DRIVER);
	STR_COPY(b->what, c->driver_why);
	STR_COPY(b->driver_min, need);
	str_fmt(b->fix, sizeof(b->fix), "upgrade the NVIDIA driver to >= %s first", need);
	if (then[0]) {
		STR_COPY(p->newest_ok, then);
		note(p, "with that changed: %s %s", plan_fw_title(fw), then);
	}
	return 1;
}

int
plan_make(const struct plan_machine *m, int fw, const char *want, struct plan *p)
{
	static struct eval ev[MAX_RELEASES]; /* large: not on the stack */
	const char *vs[MAX_RELEASES];
	struct ctx c = {.m = m, .fw = fw};
	size_t n, i, ne = 0, pick;
	const struct eval *target = NULL;
	char wantv[24] = "";

	memset(p, 0, sizeof(*p));
	p->fw = fw;
	p->os = m->os;
	c.gpu = m->os != PLAN_OS_MACOS && (m->gpu_present || m->driver[0]) &&
		!(m->gpu_known && !m->gpu_present);
	c.win_driver = m->os == PLAN_OS_WINDOWS || m->os == PLAN_OS_WSL2;
	c.platform = m->os == PLAN_OS_WINDOWS ? "windows" : m->os == PLAN_OS_MACOS ? "macos" : "linux";
	c.wheels = m->os == PLAN_OS_WINDOWS ? "windows" : "linux";
	driver_cuda(&c, c.driver_cuda, sizeof(c.driver_cuda));
	c.gpu_unknown_to_driver = RUNS_DRIVER_UNKNOWN;
	if (c.gpu && m->driver[0] && m->compute_capability[0])
		c.gpu_unknown_to_driver = runs_driver_supports(m->compute_capability, m->driver,
							       c.driver_why, sizeof(c.driver_why),
							       c.driver_first, sizeof(c.driver_first));
	/* a driver too new for an old GPU is hw.arch_too_old's question, and
	 * each build's CUDA range answers it below: only "too old" blocks here */
	if (c.gpu_unknown_to_driver == RUNS_DRIVER_PREDATES_GPU)
		return driver_predates_gpu(m, &c, fw, want, p);
	p->gpu = c.gpu;
	p->need_driver_install = c.gpu && !m->driver[0] && !m->driver_unknown;
	if (m->driver[0] && kb_driver_max_cuda(m->driver, p->max_cuda, sizeof(p->max_cuda)) < 0)
		p->max_cuda[0] = '\0';
	machine_notes(p, m, &c);

	if (want && want[0]) {
		/* the release the version names: the kb's own matching */
		const char *v = NULL;
		if (fw == PLAN_TF) {
			const struct kb_tf_build *r = kb_tf_build(want, c.platform, c.gpu ? "gpu" : "cpu");
			if (!r)
				r = kb_tf_build(want, "linux", c.gpu ? "gpu" : "cpu");
			v = r ? r->version : NULL;
		} else if (fw == PLAN_TORCH) {
			const struct kb_torch_build *t = kb_torch(want);
			v = t ? t->version : NULL;
		} else {
			const struct kb_jax_build *j = kb_jax(want);
			v = j ? j->version : NULL;
		}
		if (!v)
			return -1;
		STR_COPY(wantv, v);
		STR_COPY(p->asked, want);
	}

	n = releases(fw, vs, MAX_RELEASES);
	for (i = 0; i < n; i++) {
		if (fw == PLAN_TF && tf_skip(&c, vs[i]) && strcmp(vs[i], wantv))
			continue;
		evaluate(&c, vs[i], &ev[ne]);
		if (wantv[0] && !strcmp(vs[i], wantv))
			target = &ev[ne];
		ne++;
	}
	/* the newest release that runs natively; else the newest whose GPU
	 * code is not known; else the newest that runs from PTX only */
	pick = ne;
	for (i = 0; i < ne && pick == ne; i++)
		if (!ev[i].why && ev[i].how == RUNS_NATIVE)
			pick = i;
	for (i = 0; i < ne && pick == ne; i++)
		if (!ev[i].why)
			pick = i;
	for (i = 0; i < ne && pick == ne; i++)
		if (ev[i].why == WHY_JIT)
			pick = i;
	if (pick < ne)
		STR_COPY(p->newest_ok, ev[pick].version);
	if (wantv[0]) {
		if (target && !(target->why & ~(unsigned)WHY_JIT)) {
			choose(p, target);
		} else if (target) {
			exclude(p, target);
			block_release(p, m, target, false);
		}
	} else {
		for (i = 0; i < ne && i < pick; i++) {
			if (!ev[i].why && ev[i].nreasons < PLAN_MAX_REASONS)
				str_fmt(ev[i].reasons[ev[i].nreasons++], PLAN_LINE,
					 "its GPU code is not in the knowledge base; %s is known to run "
					 "natively on compute capability %s", ev[pick].version,
					 m->compute_capability);
			exclude(p, &ev[i]);
		}
		if (pick < ne)
			choose(p, &ev[pick]);
		else
			block_all(p, m, ev, ne);
	}
	if (p->ok && !strcmp(p->runs, "jit"))
		note(p, "%s %s runs on this GPU only from PTX: %s", plan_fw_title(fw), p->version,
		     p->runs_reason);
	else if (p->ok && c.gpu && m->compute_capability[0] && !p->targets_known)
		note(p, "the GPU code of %s %s%s%s is not in the knowledge base: assuming it runs on "
			"compute capability %s", plan_fw_title(fw), p->version, p->variant[0] ? " " : "",
		     p->variant, m->compute_capability);
	if (p->ok) {
		if (m->python[0]) {
			py_minor(m->python, p->python, sizeof(p->python));
		} else {
			p->python_assumed = true;
			py_minor(p->python_max[0] ? p->python_max : "3.12", p->python, sizeof(p->python));
			note(p, "Python not found: the steps use Python %s (the newest %s %s supports)",
			     p->python, plan_fw_title(fw), p->version);
		}
		if (fw == PLAN_TF && c.gpu && m->os == PLAN_OS_WINDOWS)
			note(p, "or use WSL2 for the newest TensorFlow: gpudoctor plan tensorflow --os wsl2");
	}
	return p->ok ? 0 : 1;
}
