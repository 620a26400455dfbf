/*
 * t_kb.c - the knowledge base: the generated tables are sorted, unique,
 * sourced and consistent with each other (every GPU's compute capability
 * is in arch_support, every architecture name agrees), and the queries give
 * the known answers from NVIDIA's tables.
 */
#include "unit.h"

#include "base/vers.h"
#include "kb/kb.h"

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
	size_t i;

	(void)state;
	assert_true(kb_cuda_driver_count >= 20);
	for (i = 0; i < kb_cuda_driver_count; i++) {
		const struct kb_cuda_driver *r = &kb_cuda_driver_rows[i];

		assert_true(dotted(r->cuda));
		assert_true(dotted(r->linux_min));
		assert_true(!r->linux_minor_compat[0] || dotted(r->linux_minor_compat));
		assert_true(!r->windows_min[0] || dotted(r->windows_min));
		assert_true(r->source && strlen(r->source) > 10);
		if (i > 0) {
			const struct kb_cuda_driver *p = &kb_cuda_driver_rows[i - 1];
			/* strictly sorted, and newer toolkits never need an older driver */
			assert_true(vers_cmp(p->cuda, r->cuda) < 0);
			assert_true(vers_cmp(p->linux_min, r->linux_min) <= 0);
		}
		/* one minor-compat floor per CUDA major (11.x, 12.x, 13.x) */
		if (i > 0 && atoi(r->cuda) == atoi(kb_cuda_driver_rows[i - 1].cuda))
			assert_string_equal(r->linux_minor_compat,
					    kb_cuda_driver_rows[i - 1].linux_minor_compat);
		assert_true(atoi(r->cuda) < 11 || r->linux_minor_compat[0]);
		/* ... and it is met by the newest toolkit of that major */
		if (r->linux_minor_compat[0] &&
		    (i + 1 == kb_cuda_driver_count || atoi(kb_cuda_driver_rows[i + 1].cuda) != atoi(r->cuda)))
			assert_true(vers_cmp(r->linux_minor_compat, r->linux_min) <= 0);
	}
	/* 8.0 .. 13.0 at least */
	assert_non_null(kb_cuda_driver("8.0"));
	assert_non_null(kb_cuda_driver("13.0"));
}

static void
test_gpu_table(void **state)
{
	size_t i;

	(void)state;
	assert_true(kb_gpu_count >= 40);
	for (i = 0; i < kb_gpu_count; i++) {
		const struct kb_gpu *g = &kb_gpu_rows[i];
		const struct kb_arch *a;

		if (i > 0)
			assert_true(kb_gpu_rows[i - 1].device_id < g->device_id);
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
	size_t i;

	(void)state;
	assert_true(kb_arch_count >= 15);
	for (i = 0; i < kb_arch_count; i++) {
		const struct kb_arch *a = &kb_arch_rows[i];

		assert_true(dotted(a->compute_capability));
		assert_true(a->architecture[0]);
		assert_true(a->source && strlen(a->source) > 10);
		if (i > 0)
			assert_true(vers_cmp(kb_arch_rows[i - 1].compute_capability,
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
