/*
 * runs_on.c - does a build run on a GPU with a driver, and how; see
 * runs_on.h for the rules and docs/gpu-code.md for their sources.
 */
#include "kb/runs_on.h"
#include "base/str.h"
#include "base/vers.h"

#include <string.h>

/* A compute capability word: "8.6" -> {8, 6, 0}; "9.0a" -> {9, 0, 'a'}. */
struct cc {
	int major, minor;
	char suffix;
};

static bool
cc_parse(const char *s, struct cc *c)
{
	int v[2];
	size_t k;

	if (!s || vers_parse(s, v, 2) != 2)
		return false;
	k = strspn(s, "0123456789.");
	if (k == 0 || s[k - 1] == '.')
		return false;
	c->major = v[0];
	c->minor = v[1];
	c->suffix = s[k];
	if (c->suffix && ((c->suffix != 'a' && c->suffix != 'f') || s[k + 1]))
		return false;
	return true;
}

static int
cc_cmp(const struct cc *a, const struct cc *b)
{
	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	return (a->minor > b->minor) - (a->minor < b->minor);
}

bool
runs_is_tegra(const char *cc)
{
	const struct kb_arch *a = cc ? kb_arch_by_cc(cc) : NULL;

	return a && a->tegra;
}

/* Machine code for target t runs on GPU g (tegra: g is integrated). */
static bool
sass_runs(const struct cc *t, const struct cc *g, bool tegra, bool t_tegra)
{
	if (t->major != g->major)
		return false;
	if (t->suffix == 'a' || tegra || t_tegra)
		return t->minor == g->minor;
	return t->minor <= g->minor; /* plain, and family-specific 'f' */
}

/* PTX for target t can be JIT-compiled for GPU g. */
static bool
ptx_runs(const struct cc *t, const struct cc *g)
{
	if (t->suffix == 'a')
		return cc_cmp(t, g) == 0;
	if (t->suffix == 'f')
		return t->major == g->major && t->minor <= g->minor;
	return cc_cmp(t, g) <= 0;
}

const char *
runs_how_name(enum runs_how how)
{
	switch (how) {
	case RUNS_NATIVE: return "native";
	case RUNS_JIT: return "jit";
	case RUNS_NO: return "none";
	default: return "unknown";
	}
}

/* "sm_90a" / "compute_80" for a target word "9.0a" / "8.0". */
static void
target_name(const struct cc *t, bool ptx, char *out, size_t size)
{
	if (t->suffix)
		str_fmt(out, size, "%s_%d%d%c", ptx ? "compute" : "sm", t->major, t->minor, t->suffix);
	else
		str_fmt(out, size, "%s_%d%d", ptx ? "compute" : "sm", t->major, t->minor);
}

/* Lists unknown: only a CUDA release too new for the architecture decides. */
static void
decide_without_lists(const struct build_code *b, const char *cc, struct runs_verdict *v)
{
	const struct kb_arch *a = kb_arch_by_cc(cc);
	char mm[16];

	if (b->cuda[0] && a && a->cuda_max[0]) {
		vers_truncate(b->cuda, 2, mm, sizeof(mm));
		if (vers_cmp(mm, a->cuda_max) > 0) {
			v->how = RUNS_NO;
			str_fmt(v->reason, sizeof(v->reason),
				"built with CUDA %s, which cannot write code for compute capability %s "
				"(%s: CUDA %s was the last release for it)",
				b->cuda, cc, a->architecture, a->cuda_max);
			return;
		}
	}
	v->how = RUNS_UNKNOWN;
	str_fmt(v->reason, sizeof(v->reason), "the GPU code this build carries is not known");
}

void
runs_decide(const struct build_code *b, const char *cc, const char *driver_cuda,
	    struct runs_verdict *v)
{
	struct cc g, t, best_sass = {0, 0, 0}, best_ptx = {0, 0, 0};
	bool tegra, have_sass = false, have_ptx = false;
	const struct kb_arch_breakage *brk;
	char w[16];
	size_t i;

	memset(v, 0, sizeof(*v));
	if (!cc || !cc_parse(cc, &g) || g.suffix) {
		str_copy(v->reason, sizeof(v->reason), "the GPU's compute capability is not known");
		return;
	}
	if (b->framework[0] && b->version[0] && b->platform[0] &&
	    (brk = kb_arch_breakage(b->framework, b->version, b->platform, cc))) {
		v->how = RUNS_NO;
		v->breakage = brk;
		str_copy(v->reason, sizeof(v->reason), brk->summary);
		return;
	}
	if (!b->sass[0] && !b->ptx[0]) {
		decide_without_lists(b, cc, v);
		return;
	}
	tegra = runs_is_tegra(cc);
	for (i = 0; kb_word(b->sass, i, w, sizeof(w)) == 0; i++) {
		char plain[16];

		if (!cc_parse(w, &t))
			continue;
		str_fmt(plain, sizeof(plain), "%d.%d", t.major, t.minor);
		if (sass_runs(&t, &g, tegra, runs_is_tegra(plain)) &&
		    (!have_sass || cc_cmp(&t, &best_sass) > 0)) {
			best_sass = t;
			have_sass = true;
		}
	}
	if (have_sass) {
		v->how = RUNS_NATIVE;
		target_name(&best_sass, false, v->via, sizeof(v->via));
		str_fmt(v->reason, sizeof(v->reason), "runs the %s machine code it carries", v->via);
		return;
	}
	for (i = 0; kb_word(b->ptx, i, w, sizeof(w)) == 0; i++)
		if (cc_parse(w, &t) && ptx_runs(&t, &g) && (!have_ptx || cc_cmp(&t, &best_ptx) > 0)) {
			best_ptx = t;
			have_ptx = true;
		}
	if (have_ptx) {
		const char *isa = b->ptx_isa[0] ? b->ptx_isa : kb_cuda_ptx_isa(b->cuda);
		const char *drv_isa = driver_cuda && driver_cuda[0] ? kb_cuda_ptx_isa(driver_cuda) : "";

		target_name(&best_ptx, true, v->via, sizeof(v->via));
		if (isa[0] && drv_isa[0] && vers_cmp(isa, drv_isa) > 0) {
			const struct kb_cuda_driver *rows;
			size_t n, k;

			v->how = RUNS_NO;
			v->ptx_too_new = true;
			/* the oldest CUDA release whose ISA is the build's */
			rows = kb_list_cuda_driver(&n);
			for (k = 0; k < n; k++)
				if (rows[k].ptx_isa[0] && vers_cmp(rows[k].ptx_isa, isa) >= 0) {
					STR_COPY(v->driver_cuda_needed, rows[k].cuda);
					break;
				}
			str_fmt(v->reason, sizeof(v->reason),
				"no machine code for compute capability %s; its %s PTX is PTX ISA %s, and "
				"a driver for CUDA %s JIT-compiles PTX up to ISA %s",
				cc, v->via, isa, driver_cuda, drv_isa);
			return;
		}
		v->how = RUNS_JIT;
		str_fmt(v->reason, sizeof(v->reason),
			"no machine code for compute capability %s: the driver JIT-compiles its %s PTX "
			"at first start (minutes for a large framework; cached after that)",
			cc, v->via);
		return;
	}
	v->how = RUNS_NO;
	str_fmt(v->reason, sizeof(v->reason),
		"no machine code for compute capability %s (it has %s%s%s) and no PTX at or below it",
		cc, b->sass[0] ? b->sass : "none", b->ptx[0] ? "; PTX " : "", b->ptx);
}

bool
runs_code_from_kb(const char *framework, const char *version, const char *platform,
		  const char *cuda, struct build_code *b)
{
	const struct kb_build_target *r;

	memset(b, 0, sizeof(*b));
	STR_COPY(b->framework, framework ? framework : "");
	if (version)
		vers_release(version, b->version, sizeof(b->version));
	STR_COPY(b->platform, platform ? platform : "");
	STR_COPY(b->cuda, cuda ? cuda : "");
	r = kb_build_target(b->framework, b->version, b->platform, b->cuda);
	if (!r)
		return false;
	STR_COPY(b->cuda, r->cuda);
	STR_COPY(b->sass, r->sass);
	STR_COPY(b->ptx, r->ptx);
	STR_COPY(b->from, "knowledge base");
	b->kb_source = r->source;
	return true;
}

enum runs_driver
runs_driver_supports(const char *cc, const char *driver, char *reason, size_t rsize, char *need,
		     size_t nsize)
{
	const struct kb_arch *a = cc && cc[0] ? kb_arch_by_cc(cc) : NULL;
	const struct kb_cuda_driver *row;
	char have[16], first[16];

	if (reason && rsize)
		reason[0] = '\0';
	if (need && nsize)
		need[0] = '\0';
	if (!a || !driver || vers_parse(driver, (int[2]){0, 0}, 2) != 2)
		return RUNS_DRIVER_UNKNOWN;
	vers_truncate(driver, 1, have, sizeof(have));
	if (a->cuda_min[0] && (row = kb_cuda_driver(a->cuda_min)) && row->linux_min[0]) {
		/* by branch: a GPU's first driver can predate the toolkit's own
		 * minimum of that branch (the RTX 4090 shipped with 520.56.06;
		 * CUDA 11.8 asks 520.61.05) */
		vers_truncate(row->linux_min, 1, first, sizeof(first));
		if (vers_cmp(have, first) < 0) {
			if (reason)
				str_fmt(reason, rsize,
					"driver %s predates %s GPUs (compute capability %s), which arrived with "
					"CUDA %s: its first drivers are branch %s (%s)",
					driver, a->architecture, cc, a->cuda_min, first, row->linux_min);
			if (need)
				str_copy(need, nsize, row->linux_min);
			return RUNS_DRIVER_PREDATES_GPU;
		}
	}
	if (a->driver_last_branch[0] && vers_cmp(have, a->driver_last_branch) > 0) {
		if (reason)
			str_fmt(reason, rsize,
				"driver %s (branch %s) no longer supports %s GPUs (compute capability %s): "
				"branch %s was the last",
				driver, have, a->architecture, cc, a->driver_last_branch);
		if (need)
			str_fmt(need, nsize, "%s", a->driver_last_branch);
		return RUNS_DRIVER_PAST_GPU;
	}
	return RUNS_DRIVER_OK;
}
