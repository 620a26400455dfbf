/*
 * t_kb.c - the knowledge base: every compiled-in table has rows, is sorted
 * by its key with no key twice, every row is sourced, and the tables agree
 * with each other (every GPU's compute capability is in arch_support with
 * the same architecture name; every CUDA a TensorFlow, PyTorch or JAX row
 * names is in cuda_driver; every cuDNN a TensorFlow row names is in
 * cudnn_cuda; every TensorFlow release has its tf_features row, and
 * [and-cuda] pins only where that row says the extra exists); and the queries give the known answers from the
 * official tables. A failure names the offending row.
 */
#include "unit.h"

#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"
#include "kb/kb_schema.h"
#include "kb/kb_tsv.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool
dotted(const char *s)
{
	int v[4];

	return s && *s && vers_parse(s, v, 4) >= 1 && strspn(s, "0123456789.") == strlen(s);
}

static void
test_cuda_driver_table(void **state)
{
	size_t i, ncdr;
	const struct kb_cuda_driver *cdr = kb_list_cuda_driver(&ncdr);

	(void)state;
	assert_true(ncdr >= 20);
	for (i = 0; i < ncdr; i++) {
		const struct kb_cuda_driver *r = &cdr[i];

		assert_true(dotted(r->cuda));
		assert_true(dotted(r->linux_min));
		assert_true(!r->linux_minor_compat[0] || dotted(r->linux_minor_compat));
		assert_true(!r->windows_min[0] || dotted(r->windows_min));
		assert_true(!r->windows_minor_compat[0] || dotted(r->windows_minor_compat));
		assert_true(r->source && strlen(r->source) > 10);
		if (i > 0) {
			const struct kb_cuda_driver *p = &cdr[i - 1];
			/* strictly sorted, and newer toolkits never need an older driver */
			assert_true(vers_cmp(p->cuda, r->cuda) < 0);
			assert_true(vers_cmp(p->linux_min, r->linux_min) <= 0);
		}
		/* one minor-compat floor per CUDA major (11.x, 12.x, 13.x) */
		if (i > 0 && atoi(r->cuda) == atoi(cdr[i - 1].cuda))
			assert_string_equal(r->linux_minor_compat,
					    cdr[i - 1].linux_minor_compat);
		assert_true(atoi(r->cuda) < 11 || r->linux_minor_compat[0]);
		/* ... and it is met by the newest toolkit of that major */
		if (r->linux_minor_compat[0] &&
		    (i + 1 == ncdr || atoi(cdr[i + 1].cuda) != atoi(r->cuda)))
			assert_true(vers_cmp(r->linux_minor_compat, r->linux_min) <= 0);
	}
	/* 8.0 .. 13.0 at least */
	assert_non_null(kb_cuda_driver("8.0"));
	assert_non_null(kb_cuda_driver("13.0"));
}

static void
test_gpu_table(void **state)
{
	size_t i, ngpu;
	const struct kb_gpu *gpus = kb_list_gpu_devices(&ngpu);

	(void)state;
	assert_true(ngpu >= 40);
	for (i = 0; i < ngpu; i++) {
		const struct kb_gpu *g = &gpus[i];
		const struct kb_arch *a;

		if (i > 0)
			assert_true(gpus[i - 1].device_id < g->device_id);
		assert_true(g->device_id > 0 && g->device_id <= 0xffff);
		assert_true(g->name[0] && g->architecture[0]);
		assert_true(g->source && strlen(g->source) > 10);
		assert_true(!strcmp(g->segment, "datacenter") || !strcmp(g->segment, "desktop") ||
			    !strcmp(g->segment, "laptop") || !strcmp(g->segment, "workstation"));
		a = kb_arch_by_cc(g->compute_capability);
		if (!a)
			fail_msg("gpu 0x%04x: compute capability %s not in arch_support",
				 g->device_id, g->compute_capability);
		if (strcmp(a->architecture, g->architecture))
			fail_msg("gpu 0x%04x: architecture %s but arch_support says %s",
				 g->device_id, g->architecture, a->architecture);
		assert_ptr_equal(kb_gpu_by_id(g->device_id), g);
	}
}

static void
test_arch_table(void **state)
{
	size_t i, narch;
	const struct kb_arch *archs = kb_list_arch_support(&narch);

	(void)state;
	assert_true(narch >= 15);
	for (i = 0; i < narch; i++) {
		const struct kb_arch *a = &archs[i];

		assert_true(dotted(a->compute_capability));
		assert_true(a->architecture[0]);
		assert_true(a->source && strlen(a->source) > 10);
		if (i > 0)
			assert_true(vers_cmp(archs[i - 1].compute_capability,
					     a->compute_capability) < 0);
		if (a->cuda_min[0] && a->cuda_max[0])
			assert_true(vers_cmp(a->cuda_min, a->cuda_max) <= 0);
		/* a dropped architecture names the last CUDA that has a row */
		if (a->cuda_max[0])
			assert_non_null(kb_cuda_driver(a->cuda_max));
		assert_ptr_equal(kb_arch_by_cc(a->compute_capability), a);
	}
}

static void
test_driver_max_cuda(void **state)
{
	char out[16];

	(void)state;
	assert_int_equal(kb_driver_max_cuda("470.82.01", out, sizeof(out)), 0);
	assert_string_equal(out, "11.4");
	assert_int_equal(kb_driver_max_cuda("580.159.04", out, sizeof(out)), 0);
	assert_string_equal(out, "13.0");
	assert_int_equal(kb_driver_max_cuda("525.60.13", out, sizeof(out)), 0);
	assert_string_equal(out, "12.0");
	/* one below 525.60.13 is an 11.8 driver */
	assert_int_equal(kb_driver_max_cuda("525.60.12", out, sizeof(out)), 0);
	assert_string_equal(out, "11.8");
	assert_int_equal(kb_driver_max_cuda("550.54.14", out, sizeof(out)), 0);
	assert_string_equal(out, "12.4");
	assert_int_equal(kb_driver_max_cuda("535.104.05", out, sizeof(out)), 0);
	assert_string_equal(out, "12.2");
	/* older than every row, or garbage */
	assert_int_equal(kb_driver_max_cuda("340.108", out, sizeof(out)), -1);
	assert_string_equal(out, "");
	assert_int_equal(kb_driver_max_cuda("", out, sizeof(out)), -1);
	assert_int_equal(kb_driver_max_cuda("abc", out, sizeof(out)), -1);
	assert_int_equal(kb_driver_max_cuda(NULL, out, sizeof(out)), -1);
}

static void
test_cuda_driver_lookup(void **state)
{
	const struct kb_cuda_driver *r;

	(void)state;
	r = kb_cuda_driver("12.4");
	assert_non_null(r);
	assert_string_equal(r->linux_min, "550.54.14");
	assert_string_equal(r->linux_minor_compat, "525.60.13");
	assert_string_equal(r->windows_min, "551.61");
	/* matched on major.minor */
	assert_ptr_equal(kb_cuda_driver("12.4.1"), r);
	assert_ptr_equal(kb_cuda_driver("12.4.131"), r);
	r = kb_cuda_driver("11.8");
	assert_non_null(r);
	assert_string_equal(r->linux_min, "520.61.05");
	assert_string_equal(r->linux_minor_compat, "450.80.02");
	r = kb_cuda_driver("13.0");
	assert_non_null(r);
	assert_string_equal(r->linux_min, "580.65.06");
	assert_string_equal(r->windows_min, "");
	/* 12.7 was never released; 10.3 neither */
	assert_null(kb_cuda_driver("12.7"));
	assert_null(kb_cuda_driver("10.3"));
	assert_null(kb_cuda_driver(""));
	assert_null(kb_cuda_driver("x12.4"));
	assert_null(kb_cuda_driver(NULL));
}

static void
test_gpu_lookup(void **state)
{
	const struct kb_gpu *g;
	const struct kb_arch *a;

	(void)state;
	g = kb_gpu_by_id(0x2335);
	assert_non_null(g);
	assert_string_equal(g->name, "NVIDIA H200");
	assert_string_equal(g->compute_capability, "9.0");
	assert_string_equal(g->architecture, "Hopper");
	assert_string_equal(g->segment, "datacenter");
	g = kb_gpu_by_id(0x2507);
	assert_non_null(g);
	assert_string_equal(g->compute_capability, "8.6");
	assert_string_equal(g->architecture, "Ampere");
	g = kb_gpu_by_id(0x1db4);
	assert_non_null(g);
	assert_string_equal(g->compute_capability, "7.0");
	assert_int_equal(g->memory_mib, 16384);
	g = kb_gpu_by_id(0x102d);
	assert_non_null(g);
	assert_string_equal(g->compute_capability, "3.7");
	assert_null(kb_gpu_by_id(0));
	assert_null(kb_gpu_by_id(0xffff));
	assert_null(kb_gpu_by_id(0x10de));

	a = kb_arch_by_cc("3.7");
	assert_non_null(a);
	assert_string_equal(a->architecture, "Kepler");
	assert_string_equal(a->cuda_max, "11.8");
	assert_string_equal(a->driver_last_branch, "470");
	a = kb_arch_by_cc("7.0");
	assert_non_null(a);
	assert_string_equal(a->cuda_max, "12.9");
	assert_string_equal(a->driver_last_branch, "580");
	a = kb_arch_by_cc("9.0");
	assert_non_null(a);
	assert_string_equal(a->cuda_max, "");
	/* "10.0" sorts after "9.0": numeric, not lexical */
	assert_non_null(kb_arch_by_cc("10.0"));
	assert_non_null(kb_arch_by_cc("12.0"));
	assert_null(kb_arch_by_cc("4.0"));
	assert_null(kb_arch_by_cc(""));
	assert_null(kb_arch_by_cc(NULL));
}

/* shared_packages: every package has two distributions or more, exactly
 * one of them the GPU build. */
static void
test_shared_packages(void **state)
{
	size_t n, i, j;
	const struct kb_shared_package *rows = kb_list_shared_packages(&n);

	(void)state;
	assert_true(n >= 2);
	for (i = 0; i < n; i++) {
		size_t same = 0, gpu = 0;
		for (j = 0; j < n; j++) {
			if (strcmp(rows[j].package, rows[i].package))
				continue;
			same++;
			gpu += rows[j].gpu;
		}
		if (same < 2 || gpu != 1)
			fail_msg("package %s: %zu distributions, %zu GPU builds", rows[i].package, same, gpu);
	}
}

/* Every table has rows, sorted strictly by its key (so no key twice), and
 * every row has a source. */
static void
test_every_table(void **state)
{
	size_t t, i;

	(void)state;
	for (t = 0; t < KB_NTABLES; t++) {
		const struct kb_schema *s = &kb_schemas[t];
		size_t n = kb_count((enum kb_table)t);
		struct kb_info info;

		if (n == 0)
			fail_msg("table %s has no rows", s->name);
		assert_int_equal(kb_info((enum kb_table)t, &info), 0);
		assert_string_equal(info.file, s->file);
		assert_int_equal(info.rows, n);
		assert_false(info.loaded);
		/* "newest" only where the key is a version or an id (not log_patterns,
		 * nor the tables keyed by framework or library first) */
		assert_true((info.newest[0] != '\0') ==
			    (t != KB_LOG_PATTERNS && t != KB_BUILD_TARGETS && t != KB_ARCH_BREAKAGES &&
			     t != KB_ERROR_CODES && t != KB_LOG_CUES && t != KB_SHARED_PACKAGES));
		for (i = 0; i < n; i++) {
			const char *row = kb_row((enum kb_table)t, i);
			const char *src;

			assert_non_null(row);
			memcpy(&src, row + s->cols[s->ncols - 1].offset, sizeof(src));
			assert_string_equal(s->cols[s->ncols - 1].name, "source");
			if (strlen(src) < 10)
				fail_msg("%s row %zu: no source", s->name, i);
			if (i > 0 && kb_tsv_keycmp(s, kb_row((enum kb_table)t, i - 1), row) >= 0) {
				char k[64];

				kb_tsv_key_str(s, row, 0, k, sizeof(k));
				fail_msg("%s: row %zu (%s) out of order or a duplicate key", s->name, i, k);
			}
		}
		assert_null(kb_row((enum kb_table)t, n));
	}
	assert_int_equal(kb_count(KB_NTABLES), 0);
	assert_null(kb_row(KB_NTABLES, 0));
}

/* cuDNN release v (from a TensorFlow row) is in cudnn_cuda: a row at v's
 * major.minor, a row naming only v's major, or, when v is a bare major
 * ("7"), any row of that major. */
static bool
cudnn_known(const char *v)
{
	char mm[16], mj[16], r2[16], r1[16];
	size_t i, n;
	int c[8];
	const struct kb_cudnn_cuda *rows = kb_list_cudnn_cuda(&n);
	bool bare = vers_parse(v, c, 8) == 1;

	vers_truncate(v, 2, mm, sizeof(mm));
	vers_truncate(v, 1, mj, sizeof(mj));
	for (i = 0; i < n; i++) {
		vers_truncate(rows[i].cudnn, 2, r2, sizeof(r2));
		vers_truncate(rows[i].cudnn, 1, r1, sizeof(r1));
		if (!strcmp(r2, mm))
			return true;
		if ((bare || vers_parse(rows[i].cudnn, c, 8) == 1) && !strcmp(r1, mj))
			return true;
	}
	return false;
}

static void
test_cross_tables(void **state)
{
	size_t i, n, bad = 0;
	char w[32];

	(void)state;
	{
		const struct kb_tf_build *r = kb_list_tf_builds(&n);

		for (i = 0; i < n; i++) {
			if (strcmp(r[i].kind, "gpu"))
				continue;
			if (r[i].cuda[0] && !kb_cuda_driver(r[i].cuda)) {
				print_error("tf_builds %s %s gpu: cuda %s not in cuda_driver\n",
					    r[i].version, r[i].platform, r[i].cuda);
				bad++;
			}
			if (r[i].cudnn[0] && !cudnn_known(r[i].cudnn)) {
				print_error("tf_builds %s %s gpu: cudnn %s not in cudnn_cuda\n",
					    r[i].version, r[i].platform, r[i].cudnn);
				bad++;
			}
		}
		/* every TensorFlow release has its minor's feature row */
		for (i = 0; i < n; i++) {
			if (i > 0 && !strcmp(r[i].version, r[i - 1].version))
				continue;
			if (!kb_tf_features(r[i].version)) {
				print_error("tf_builds %s: no tf_features row\n", r[i].version);
				bad++;
			}
		}
	}
	{
		const struct kb_torch_build *r = kb_list_torch_builds(&n);

		for (i = 0; i < n; i++) {
			size_t k;

			for (k = 0; kb_word(r[i].cuda_variants, k, w, sizeof(w)) == 0; k++) {
				if (!kb_cuda_driver(w)) {
					print_error("torch_builds %s: cuda %s not in cuda_driver\n",
						    r[i].version, w);
					bad++;
				}
			}
		}
	}
	{
		const struct kb_jax_build *r = kb_list_jax_builds(&n);

		for (i = 0; i < n; i++) {
			if (r[i].cuda_min[0] && !kb_cuda_driver(r[i].cuda_min)) {
				print_error("jax_builds %s: cuda_min %s not in cuda_driver\n",
					    r[i].version, r[i].cuda_min);
				bad++;
			}
		}
	}
	{
		/* [and-cuda] pins only for releases that have the extra */
		const struct kb_tf_pin *r = kb_list_tf_and_cuda_pins(&n);

		for (i = 0; i < n; i++) {
			const struct kb_tf_feature *f = kb_tf_features(r[i].version);

			if (!f || !f->and_cuda_extra) {
				print_error("tf_and_cuda_pins %s: tf_features says no [and-cuda] extra\n",
					    r[i].version);
				bad++;
			}
		}
	}
	if (bad)
		fail_msg("%zu cross-table inconsistencies (listed above)", bad);
}

static void
test_framework_queries(void **state)
{
	const struct kb_tf_build *b;
	const struct kb_tf_feature *f;
	const struct kb_torch_build *t;
	const struct kb_jax_build *j;
	const struct kb_tf_pin *p;
	const struct kb_tf_soname *so[32];
	size_t n, i;
	bool cudnn = false;

	(void)state;
	/* TensorFlow's tested build configurations: 2.13.0 GPU on Linux */
	b = kb_tf_build("2.13", "linux", "gpu");
	assert_non_null(b);
	assert_true(str_starts(b->version, "2.13"));
	assert_string_equal(b->python_min, "3.8");
	assert_string_equal(b->python_max, "3.11");
	assert_string_equal(b->cuda, "11.8");
	assert_string_equal(b->cudnn, "8.6");
	assert_ptr_equal(kb_tf_build(b->version, "linux", "gpu"), b);
	b = kb_tf_build("2.13", "linux", "cpu");
	assert_non_null(b);
	assert_string_equal(b->cuda, "");
	/* the last native Windows GPU build: 2.10, CUDA 11.2, cuDNN 8.1 */
	b = kb_tf_build("2.10", "windows", "gpu");
	assert_non_null(b);
	assert_string_equal(b->cuda, "11.2");
	assert_string_equal(b->cudnn, "8.1");
	assert_null(kb_tf_build("2.11", "windows", "gpu"));
	assert_null(kb_tf_build("2.13", "macos", "gpu"));
	assert_null(kb_tf_build("2.13", "linux", NULL));
	assert_null(kb_tf_build("x", "linux", "gpu"));
	assert_null(kb_tf_build("99.1", "linux", "gpu"));

	f = kb_tf_features("2.10.1");
	assert_non_null(f);
	assert_true(f->windows_native_gpu);
	f = kb_tf_features("2.11");
	assert_non_null(f);
	assert_false(f->windows_native_gpu);
	assert_false(kb_tf_features("2.13")->and_cuda_extra);
	assert_true(kb_tf_features("2.14.0")->and_cuda_extra);
	assert_null(kb_tf_features(""));

	p = kb_tf_pins("2.15", &n);
	assert_non_null(p);
	assert_true(n >= 5);
	for (i = 0; i < n; i++) {
		assert_string_equal(p[i].version, p[0].version);
		if (!strcmp(p[i].package, "nvidia-cudnn-cu12"))
			cudnn = true;
	}
	assert_true(cudnn);
	p = kb_tf_pins("2.13", &n);
	assert_null(p);
	assert_int_equal(n, 0);

	/* 2.13 loads the CUDA 11 names; a range query */
	n = kb_tf_sonames("2.13.0", so, 32);
	assert_true(n >= 3 && n <= 32);
	for (i = 0; i < n; i++)
		assert_true(kb_in_range("2.13.0", so[i]->tf_min, so[i]->tf_max));
	assert_int_equal(kb_tf_sonames("bad", so, 32), 0);

	/* PyTorch 2.5.1 wheels: CUDA 11.8, 12.1, 12.4; plain pip gets 12.4 */
	t = kb_torch("2.5.1");
	assert_non_null(t);
	assert_string_equal(t->cuda_variants, "11.8 12.1 12.4");
	assert_string_equal(t->cuda_default, "12.4");
	assert_string_equal(t->python_min, "3.9");
	assert_ptr_equal(kb_torch("2.5"), kb_torch("2.5.1"));
	assert_null(kb_torch("0.0.1"));

	j = kb_jax("0.4.30");
	assert_non_null(j);
	assert_true(kb_has_word(j->cuda_plugins, "cuda12"));
	assert_string_equal(j->python_min, "3.9");
	assert_null(kb_jax("x"));
}

static void
test_helpers(void **state)
{
	char w[8];

	(void)state;
	/* NCCL's version codes before and from 2.9 */
	{
		char v[16];
		vers_from_nccl_code(22105, v, sizeof(v));
		assert_string_equal(v, "2.21.5");
		vers_from_nccl_code(2708, v, sizeof(v));
		assert_string_equal(v, "2.7.8");
		vers_from_nccl_code(0, v, sizeof(v));
		assert_string_equal(v, "");
	}
	assert_true(kb_in_range("3.11.4", "3.8", "3.11"));
	assert_true(kb_in_range("3.8", "3.8", "3.11"));
	assert_false(kb_in_range("3.12", "3.8", "3.11"));
	assert_false(kb_in_range("3.7.9", "3.8", "3.11"));
	assert_true(kb_in_range("10.0", "9.0", ""));
	assert_true(kb_in_range("1", "", ""));
	assert_false(kb_in_range("", "", ""));
	assert_false(kb_in_range(NULL, "1", "2"));
	assert_false(kb_in_range("3.x", "3", "4"));

	assert_int_equal(kb_word("11.8 12.1 12.4", 0, w, sizeof(w)), 0);
	assert_string_equal(w, "11.8");
	assert_int_equal(kb_word("11.8 12.1 12.4", 2, w, sizeof(w)), 0);
	assert_string_equal(w, "12.4");
	assert_int_equal(kb_word("11.8 12.1 12.4", 3, w, sizeof(w)), -1);
	assert_string_equal(w, "");
	assert_int_equal(kb_word("", 0, w, sizeof(w)), -1);
	assert_int_equal(kb_word(NULL, 0, w, sizeof(w)), -1);
	assert_int_equal(kb_word("abcdefghijk", 0, w, sizeof(w)), 0);
	assert_string_equal(w, "abcdefg");
	assert_true(kb_has_word("cuda12 cuda13", "cuda13"));
	assert_false(kb_has_word("cuda12 cuda13", "cuda1"));
	assert_false(kb_has_word("cuda12", ""));
	assert_false(kb_has_word(NULL, "x"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cuda_driver_table),
		cmocka_unit_test(test_gpu_table),
		cmocka_unit_test(test_arch_table),
		cmocka_unit_test(test_driver_max_cuda),
		cmocka_unit_test(test_cuda_driver_lookup),
		cmocka_unit_test(test_gpu_lookup),
		cmocka_unit_test(test_every_table),
		cmocka_unit_test(test_shared_packages),
		cmocka_unit_test(test_cross_tables),
		cmocka_unit_test(test_framework_queries),
		cmocka_unit_test(test_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
