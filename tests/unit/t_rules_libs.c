/*
 * t_rules_libs.c - rule_libs on hand-built facts: a toolkit newer than the
 * driver, an older copy hiding a newer one on the loader's path (and pip
 * copies that never count), CUDA majors mixed in one directory.
 */
#include "rules_facts.h"

static void
test_toolkit_newer(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	run_rule(rule_libs, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);

	/* a CUDA 12.2 driver; the 13.0 toolkit is installed but not picked */
	STR_COPY(f->driver.version, "535.104.05");
	STR_COPY(f->driver.cuda_version, "12.2");
	f->libs[0].loader_pick = false;
	run_rule(rule_libs, f, &fs);
	fd = find_id(&fs, "lib.toolkit_newer_than_driver");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_int_equal(count_id(&fs, "lib.toolkit_newer_than_driver"), 1);
	assert_true(strstr(fd->title, "/usr/local/cuda-13.0") != NULL);
	assert_true(evidence_has(fd, "580.65.06"));
	assert_true(fix_has(fd, "580.65.06 or newer"));
	findings_release(&fs);

	/* the picked copy is driver.too_old's, not reported twice */
	f->libs[0].loader_pick = true;
	run_rule(rule_libs, f, &fs);
	assert_false(findings_has(&fs, "lib.toolkit_newer_than_driver"));
	findings_release(&fs);

	/* no driver known: nothing */
	f->libs[0].loader_pick = false;
	f->driver.cuda_version[0] = '\0';
	f->driver.cuda_driver_version = f->driver.nvml_cuda_version = 0;
	run_rule(rule_libs, f, &fs);
	assert_false(findings_has(&fs, "lib.toolkit_newer_than_driver"));
	findings_release(&fs);
	free(f);
}

static void
test_shadowed(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	/* the pip cuDNN 9.19 beside the system 9.14 is not shadowing */
	run_rule(rule_libs, f, &fs);
	assert_false(findings_has(&fs, "lib.shadowed"));
	findings_release(&fs);

	/* LD_LIBRARY_PATH puts an older cuDNN first */
	f->libs[4].loader_pick = false;
	add_lib(f, "cudnn", "/opt/cudnn-9.1/lib/libcudnn.so.9", "libcudnn.so.9", "9.1.0",
		ORIGIN_OTHER, "/opt/cudnn-9.1", false, true);
	add_ldpath(f, "/opt/cudnn-9.1/lib", true, "");
	run_rule(rule_libs, f, &fs);
	fd = find_id(&fs, "lib.shadowed");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(evidence_has(fd, "/opt/cudnn-9.1/lib/libcudnn.so.9 9.1.0 (LD_LIBRARY_PATH)"));
	assert_true(evidence_has(fd, "/lib/x86_64-linux-gnu/libcudnn.so.9 9.14.0 (ld.so.cache)"));
	assert_true(fix_has(fd, "/opt/cudnn-9.1/lib"));
	findings_release(&fs);

	/* a newer copy first is fine */
	STR_COPY(f->libs[f->nlibs - 1].version, "9.20.0");
	run_rule(rule_libs, f, &fs);
	assert_false(findings_has(&fs, "lib.shadowed"));
	findings_release(&fs);
	free(f);
}

static void
test_mixed_majors(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	/* cuFFT 12 and CUPTI 2025.x belong to CUDA 13: no mismatch */
	run_rule(rule_libs, f, &fs);
	assert_false(findings_has(&fs, "lib.cuda_version_mismatch"));
	findings_release(&fs);

	add_lib(f, "cublas", "/usr/local/cuda-13.0/lib64/libcublas.so.11", "libcublas.so.11",
		"11.11.3.6", ORIGIN_TOOLKIT, "/usr/local/cuda-13.0", true, true);
	run_rule(rule_libs, f, &fs);
	fd = find_id(&fs, "lib.cuda_version_mismatch");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_int_equal(count_id(&fs, "lib.cuda_version_mismatch"), 1);
	assert_true(strstr(fd->title, "CUDA 13 and CUDA 11") != NULL);
	assert_true(evidence_has(fd, "libcublas.so.11"));
	findings_release(&fs);
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_toolkit_newer),
		cmocka_unit_test(test_shadowed),
		cmocka_unit_test(test_mixed_majors),
	};

	return cmocka_run_group_tests_name("rules_libs", tests, NULL, NULL);
}
