/*
 * t_runs_on.c - the one decision "does build B run on GPU G with driver D"
 * (kb/runs_on.c) and the plan that rests on it, tested over the knowledge
 * base itself: every build_targets row against every compute capability of
 * arch_support (the expected verdict worked out here from the row's own
 * lists), every architecture from Kepler to Blackwell against the newest
 * release of TensorFlow, PyTorch and JAX that the rows say runs natively
 * (plan_make must pick exactly that one), then the rules one at a time:
 * arch- and family-specific code, Tegra, PTX newer than the driver, known
 * breakages, unknown lists, the driver's support window.
 */
#include "unit.h"

#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"
#include "kb/runs_on.h"
#include "plan/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* major, minor and suffix of "9.0a" */
static void
cc_of(const char *w, int *ma, int *mi, char *suf)
{
	int v[2] = {0, 0};

	vers_parse(w, v, 2);
	*ma = v[0];
	*mi = v[1];
	*suf = w[strspn(w, "0123456789.")];
}

/* The verdict the row's lists give for compute capability cc, worked out
 * by enumeration (the oracle): machine code of the same major at or below
 * it (exactly it for 'a', and on or for Tegra), else PTX at or below it. */
static enum runs_how
expected(const struct kb_build_target *r, const char *cc, bool tegra)
{
	char w[16];
	int gma, gmi, ma, mi;
	char suf, gsuf;
	size_t i;

	cc_of(cc, &gma, &gmi, &gsuf);
	for (i = 0; kb_word(r->sass, i, w, sizeof(w)) == 0; i++) {
		char plain[16];
		cc_of(w, &ma, &mi, &suf);
		STR_FMT(plain, "%d.%d", ma, mi);
		if (ma != gma)
			continue;
		if (suf == 'a' || tegra || runs_is_tegra(plain) ? mi == gmi : mi <= gmi)
			return RUNS_NATIVE;
	}
	for (i = 0; kb_word(r->ptx, i, w, sizeof(w)) == 0; i++) {
		cc_of(w, &ma, &mi, &suf);
		if (suf == 'a' ? (ma == gma && mi == gmi)
			       : suf == 'f' ? (ma == gma && mi <= gmi) : (ma < gma || (ma == gma && mi <= gmi)))
			return RUNS_JIT;
	}
	return RUNS_NO;
}

/* 1. Every row x every compute capability the knowledge base knows. */
static void
test_every_row_every_arch(void **state)
{
	size_t nr, na, i, k, checked = 0;
	const struct kb_build_target *rows = kb_list_build_targets(&nr);
	const struct kb_arch *arch = kb_list_arch_support(&na);

	(void)state;
	assert_true(nr >= 100);
	for (i = 0; i < nr; i++) {
		struct build_code b;

		memset(&b, 0, sizeof(b));
		STR_COPY(b.framework, rows[i].framework);
		STR_COPY(b.version, rows[i].version_min);
		STR_COPY(b.platform, rows[i].platform);
		STR_COPY(b.cuda, rows[i].cuda);
		STR_COPY(b.sass, rows[i].sass);
		STR_COPY(b.ptx, rows[i].ptx);
		for (k = 0; k < na; k++) {
			struct runs_verdict v;
			enum runs_how want = expected(&rows[i], arch[k].compute_capability, arch[k].tegra);

			runs_decide(&b, arch[k].compute_capability, NULL, &v);
			if (v.breakage)
				want = RUNS_NO;
			if (v.how != want)
				fail_msg("%s %s %s CUDA %s on %s: %s, expected %s (%s)", rows[i].framework,
					 rows[i].version_min, rows[i].platform, rows[i].cuda,
					 arch[k].compute_capability, runs_how_name(v.how), runs_how_name(want),
					 v.reason);
			checked++;
		}
		/* a row's own machine code always runs on exactly its capability */
		{
			char w[16];
			for (k = 0; kb_word(rows[i].sass, k, w, sizeof(w)) == 0; k++) {
				struct runs_verdict v;
				char plain[16];
				int ma, mi;
				char suf;

				cc_of(w, &ma, &mi, &suf);
				STR_FMT(plain, "%d.%d", ma, mi);
				runs_decide(&b, plain, NULL, &v);
				assert_true(v.how == RUNS_NATIVE || v.breakage);
			}
		}
	}
	assert_int_equal(checked, nr * na);
}

/* Versions of a framework's release table, newest first. */
static size_t
versions(int fw, const char **out, size_t max)
{
	size_t n, i, k = 0, a;

	if (fw == PLAN_TORCH) {
		const struct kb_torch_build *r = kb_list_torch_builds(&n);
		for (i = n; i-- > 0 && k < max;)
			out[k++] = r[i].version;
	} else if (fw == PLAN_JAX) {
		const struct kb_jax_build *r = kb_list_jax_builds(&n);
		for (i = n; i-- > 0 && k < max;)
			out[k++] = r[i].version;
	} else {
		const struct kb_tf_build *r = kb_list_tf_builds(&n);
		for (i = 0; i < n; i++) {
			if (strcmp(r[i].platform, "linux") || strcmp(r[i].kind, "gpu"))
				continue;
			for (a = k; a > 0 && vers_cmp(out[a - 1], r[i].version) < 0; a--)
				out[a] = out[a - 1];
			out[a] = r[i].version;
			k++;
		}
	}
	return k;
}

/* The CUDA builds of a release: torch variants, TensorFlow's one CUDA,
 * JAX's plugins as majors ("12"). */
static size_t
builds(int fw, const char *version, char out[][16], size_t max)
{
	char w[16];
	size_t k = 0, i;

	if (fw == PLAN_TORCH) {
		const struct kb_torch_build *t = kb_torch(version);
		for (i = 0; t && k < max && kb_word(t->cuda_variants, i, w, sizeof(w)) == 0; i++)
			STR_COPY(out[k++], w);
	} else if (fw == PLAN_JAX) {
		const struct kb_jax_build *j = kb_jax(version);
		for (i = 0; j && k < max && kb_word(j->cuda_plugins, i, w, sizeof(w)) == 0; i++)
			if (str_starts(w, "cuda"))
				STR_COPY(out[k++], w + 4);
	} else {
		const struct kb_tf_build *r = kb_tf_build(version, "linux", "gpu");
		if (r && r->cuda[0])
			str_fmt(out[k++], 16, "%s%s", r->cuda, strchr(r->cuda, '.') ? "" : ".0");
	}
	return k;
}

/* 2. Every architecture from Kepler to Blackwell, for each framework: the
 * newest release with a build whose row runs natively is the plan's
 * choice for a GPU of that architecture (driver and Python left open). */
static void
test_plan_picks_newest_native(void **state)
{
	static const char *const ccs[] = {
		"3.5", "3.7", "5.0", "5.2", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0",
		"10.0", "12.0",
	};
	static struct plan P;
	const char *vs[512];
	int fw;
	size_t c, n, i, k, covered[3] = {0, 0, 0};

	(void)state;
	for (fw = PLAN_TF; fw <= PLAN_JAX; fw++) {
		n = versions(fw, vs, 512);
		for (c = 0; c < sizeof(ccs) / sizeof(ccs[0]); c++) {
			struct plan_machine m;
			const char *want = NULL, *want_variant = "";
			char b[8][16];

			for (i = 0; i < n && !want; i++) {
				size_t nb = builds(fw, vs[i], b, 8);
				/* the newest variant first, as the plan tries them */
				for (k = nb; k-- > 0 && !want;) {
					struct build_code code;
					struct runs_verdict v;

					if (!runs_code_from_kb(plan_fw_name(fw), vs[i], "linux", b[k], &code))
						continue;
					runs_decide(&code, ccs[c], NULL, &v);
					if (v.how == RUNS_NATIVE) {
						want = vs[i];
						want_variant = b[k];
					}
				}
			}
			memset(&m, 0, sizeof(m));
			m.gpu_present = m.gpu_known = true;
			m.cpu_avx = -1;
			m.os = PLAN_OS_LINUX;
			STR_COPY(m.gpu_name, "test GPU");
			STR_COPY(m.compute_capability, ccs[c]);
			plan_make(&m, fw, NULL, &P);
			if (!want) {
				if (P.ok && !strcmp(P.runs, "native"))
					fail_msg("%s on %s: plan %s native, the rows say none",
						 plan_fw_name(fw), ccs[c], P.version);
				continue;
			}
			covered[fw]++;
			if (!P.ok || strcmp(P.version, want) || strcmp(P.runs, "native"))
				fail_msg("%s on %s: plan %s (%s), the rows say %s", plan_fw_name(fw), ccs[c],
					 P.ok ? P.version : "none", P.runs, want);
			if (fw == PLAN_TORCH)
				assert_string_equal(P.variant, want_variant);
		}
	}
	/* every framework has native builds for most of those architectures */
	assert_true(covered[PLAN_TF] >= 12);
	assert_true(covered[PLAN_TORCH] >= 13);
	assert_true(covered[PLAN_JAX] >= 12);
}

static struct build_code
code(const char *sass, const char *ptx, const char *cuda)
{
	struct build_code b;

	memset(&b, 0, sizeof(b));
	STR_COPY(b.sass, sass);
	STR_COPY(b.ptx, ptx);
	STR_COPY(b.cuda, cuda);
	return b;
}

static enum runs_how
how(const struct build_code *b, const char *cc, const char *drv)
{
	struct runs_verdict v;

	runs_decide(b, cc, drv, &v);
	return v.how;
}

/* 3. The rules one at a time. */
static void
test_rules(void **state)
{
	struct build_code b;
	struct runs_verdict v;

	(void)state;
	/* binary compatibility inside a major, never across */
	b = code("8.0", "", "11.2");
	assert_int_equal(how(&b, "8.0", NULL), RUNS_NATIVE);
	assert_int_equal(how(&b, "8.6", NULL), RUNS_NATIVE);
	assert_int_equal(how(&b, "8.9", NULL), RUNS_NATIVE);
	assert_int_equal(how(&b, "9.0", NULL), RUNS_NO);
	assert_int_equal(how(&b, "7.5", NULL), RUNS_NO);
	/* arch-specific runs on exactly its capability; family-specific on the family */
	b = code("9.0a 10.0f", "", "12.9");
	assert_int_equal(how(&b, "9.0", NULL), RUNS_NATIVE);
	assert_int_equal(how(&b, "10.3", NULL), RUNS_NATIVE);
	assert_int_equal(how(&b, "10.0", NULL), RUNS_NATIVE);
	assert_int_equal(how(&b, "12.0", NULL), RUNS_NO);
	b = code("", "9.0a", "12.9");
	assert_int_equal(how(&b, "9.0", NULL), RUNS_JIT);
	assert_int_equal(how(&b, "10.0", NULL), RUNS_NO);
	/* PTX JIT-compiles across majors */
	b = code("7.0", "7.0", "10.1");
	assert_int_equal(how(&b, "8.6", NULL), RUNS_JIT);
	runs_decide(&b, "8.6", "11.4", &v);
	assert_string_equal(v.via, "compute_70");
	/* Tegra: an Orin (8.7) runs no sm_80 machine code (jax-ml/jax#40487) */
	assert_true(runs_is_tegra("8.7"));
	assert_false(runs_is_tegra("8.6"));
	b = code("5.0 6.0 7.0 8.0 9.0 10.0 10.1 12.0", "12.0", "12.9");
	assert_int_equal(how(&b, "8.7", NULL), RUNS_NO);
	assert_int_equal(how(&b, "8.9", NULL), RUNS_NATIVE);
	b = code("8.7", "", "12.2");
	assert_int_equal(how(&b, "8.7", NULL), RUNS_NATIVE);
	/* PTX newer than the driver's JIT compiler: a CUDA 12.8 build's PTX
	 * (ISA 8.7) on a driver for CUDA 12.2 (ISA 8.2), even with
	 * minor-version compatibility */
	b = code("8.0", "9.0", "12.8");
	runs_decide(&b, "10.0", "12.2", &v);
	assert_int_equal(v.how, RUNS_NO);
	assert_true(v.ptx_too_new);
	assert_string_equal(v.driver_cuda_needed, "12.8");
	assert_true(strstr(v.reason, "PTX ISA 8.7") != NULL);
	assert_int_equal(how(&b, "10.0", "12.8"), RUNS_JIT);
	assert_int_equal(how(&b, "10.0", NULL), RUNS_JIT);
	/* the ISA read from the file wins over the build's CUDA */
	STR_COPY(b.ptx_isa, "8.0");
	assert_int_equal(how(&b, "10.0", "12.2"), RUNS_JIT);
	/* unknown lists: only a CUDA too new for the architecture decides */
	b = code("", "", "12.4");
	assert_int_equal(how(&b, "3.7", NULL), RUNS_NO);
	assert_int_equal(how(&b, "8.6", NULL), RUNS_UNKNOWN);
	b = code("", "", "");
	assert_int_equal(how(&b, "3.7", NULL), RUNS_UNKNOWN);
	/* an unknown GPU */
	assert_int_equal(how(&b, "", NULL), RUNS_UNKNOWN);
	assert_int_equal(how(&b, "x", NULL), RUNS_UNKNOWN);
}

static void
test_kb_rows_and_breakages(void **state)
{
	struct build_code b;
	struct runs_verdict v;

	(void)state;
	/* the two wrong answers of issue 9 */
	assert_true(runs_code_from_kb("tensorflow", "2.10.0", "windows", "11.2", &b));
	runs_decide(&b, "8.9", "12.6", &v);
	assert_int_equal(v.how, RUNS_NATIVE);
	assert_string_equal(v.via, "sm_80");
	assert_true(runs_code_from_kb("torch", "2.8.0", "linux", "12.9", &b));
	assert_int_equal(how(&b, "6.1", "12.8"), RUNS_NO);
	assert_true(runs_code_from_kb("torch", "2.8.0+cu126", "linux", "12.6", &b));
	assert_string_equal(b.version, "2.8.0");
	assert_int_equal(how(&b, "6.1", "12.8"), RUNS_NATIVE);
	/* a plugin by its major */
	assert_true(runs_code_from_kb("jax", "0.11.2", "linux", "13", &b));
	assert_string_equal(b.cuda, "13.0");
	assert_false(runs_code_from_kb("torch", "9.9.9", "linux", "12.6", &b));
	assert_string_equal(b.framework, "torch");
	/* TensorFlow on Blackwell GeForce: its PTX would JIT, but it fails */
	assert_true(runs_code_from_kb("tensorflow", "2.20.0", "linux", "12.5", &b));
	runs_decide(&b, "12.0", "12.8", &v);
	assert_int_equal(v.how, RUNS_NO);
	assert_non_null(v.breakage);
	runs_decide(&b, "10.0", "12.8", &v);
	assert_int_equal(v.how, RUNS_JIT);
	assert_null(kb_arch_breakage("tensorflow", "2.15.0", "linux", "12.0"));
	assert_non_null(kb_arch_breakage("tensorflow", "2.21.0", "linux", "12.0"));
	/* PTX ISA per CUDA release */
	assert_string_equal(kb_cuda_ptx_isa("12.6"), "8.5");
	assert_string_equal(kb_cuda_ptx_isa("13.0"), "9.0");
	assert_string_equal(kb_cuda_ptx_isa("99.0"), "");
}

static void
test_driver_supports(void **state)
{
	char why[320], need[32];

	(void)state;
	/* a GPU newer than the driver */
	assert_int_equal(runs_driver_supports("8.9", "515.65.01", why, sizeof(why), need, sizeof(need)), 0);
	assert_string_equal(need, "520.61.05");
	assert_true(strstr(why, "Ada Lovelace") != NULL);
	/* by branch: the RTX 4090's launch driver predates CUDA 11.8's minimum */
	assert_int_equal(runs_driver_supports("8.9", "520.56.06", why, sizeof(why), need, sizeof(need)), 1);
	assert_int_equal(runs_driver_supports("12.0", "560.35.03", why, sizeof(why), need, sizeof(need)), 0);
	assert_int_equal(runs_driver_supports("12.0", "570.86.10", NULL, 0, NULL, 0), 1);
	/* a GPU older than the driver: Kepler ended with 470, Pascal with 580 */
	assert_int_equal(runs_driver_supports("3.7", "535.104.05", why, sizeof(why), need, sizeof(need)), RUNS_DRIVER_PAST_GPU);
	assert_string_equal(need, "470");
	assert_int_equal(runs_driver_supports("6.1", "580.65.06", NULL, 0, NULL, 0), 1);
	assert_int_equal(runs_driver_supports("6.1", "590.44.01", NULL, 0, NULL, 0), RUNS_DRIVER_PAST_GPU);
	/* unknown */
	assert_int_equal(runs_driver_supports("99.0", "580.65.06", NULL, 0, NULL, 0), -1);
	assert_int_equal(runs_driver_supports("9.0", "", NULL, 0, NULL, 0), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row_every_arch),
		cmocka_unit_test(test_plan_picks_newest_native),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_kb_rows_and_breakages),
		cmocka_unit_test(test_driver_supports),
	};

	return cmocka_run_group_tests_name("runs_on", tests, NULL, NULL);
}
