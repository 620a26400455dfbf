/*
 * t_rules.c - the whole rule table on whole machines: a healthy H200 must
 * give no warning or error, the CPU-only CI machine must give exactly the
 * "no NVIDIA GPU" headline, a healthy laptop only information, and facts
 * with everything unknown nothing at all.
 */
#include "rules_facts.h"

static void
test_healthy_h200_is_quiet(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;

	(void)state;
	findings_init(&fs);
	rules_run(f, &fs);
	if (count_at_least(&fs, SEV_WARN))
		dump(&fs);
	assert_int_equal(count_at_least(&fs, SEV_WARN), 0);
	findings_release(&fs);
	free(f);
}

static void
test_healthy_h200_as_user_is_quiet(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;

	(void)state;
	f->host.uid = 1000;
	f->host.container = false;
	f->host.secure_boot = 1;
	findings_init(&fs);
	rules_run(f, &fs);
	if (count_at_least(&fs, SEV_WARN))
		dump(&fs);
	assert_int_equal(count_at_least(&fs, SEV_WARN), 0);
	findings_release(&fs);
	free(f);
}

static void
test_cpu_only_headline(void **state)
{
	struct facts *f = cpu_only_toolkit();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	findings_init(&fs);
	rules_run(f, &fs);
	fd = find_id(&fs, "hw.no_nvidia_gpu");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	/* the headline comes first and is the only error */
	assert_string_equal(fs.v[0].id, "hw.no_nvidia_gpu");
	if (count_at_least(&fs, SEV_WARN) != 1)
		dump(&fs);
	assert_int_equal(count_at_least(&fs, SEV_WARN), 1);
	assert_true(evidence_has(fd, "13.0.96"));
	findings_release(&fs);
	free(f);
}

static void
test_laptop_only_info(void **state)
{
	struct facts *f = laptop();
	struct findings fs;

	(void)state;
	findings_init(&fs);
	rules_run(f, &fs);
	if (count_at_least(&fs, SEV_WARN))
		dump(&fs);
	assert_int_equal(count_at_least(&fs, SEV_WARN), 0);
	assert_true(findings_has(&fs, "hw.hybrid_graphics"));
	findings_release(&fs);
	free(f);
}

static void
test_unknown_everything_is_silent(void **state)
{
	struct facts *f = facts_new();
	struct findings fs;

	(void)state;
	findings_init(&fs);
	rules_run(f, &fs);
	if (fs.n)
		dump(&fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);
	free(f);
}

/* A GPU box whose facts came from a partial source: GPUs known, nothing
 * else read. No conclusion may come from the unknown parts. */
static void
test_partial_facts_are_silent(void **state)
{
	struct facts *f = facts_new();
	struct findings fs;

	(void)state;
	f->from_file = true;
	add_gpu(f, "0000:01:00.0", 0x2204, "NVIDIA GeForce RTX 3090", "8.6");
	findings_init(&fs);
	rules_run(f, &fs);
	if (count_at_least(&fs, SEV_WARN))
		dump(&fs);
	assert_int_equal(count_at_least(&fs, SEV_WARN), 0);
	findings_release(&fs);
	free(f);
}

/* Findings come grouped per environment: machine-wide first, then the
 * active environment, then the others in the order they were found. */
static void
test_grouped_by_environment(void **state)
{
	struct facts *f = healthy_h200();
	struct python_env_facts *a, *b;
	struct findings fs;
	size_t i;

	(void)state;
	f->npython = 0;
	a = add_pyenv(f, "/opt/a", "venv", "3.11.9");
	add_pkg(a, "torch", "2.5.1+cpu");
	add_fw(a, "torch", "torch", "2.5.1+cpu", "", "", 0);
	b = add_pyenv(f, "/opt/b", "venv", "3.11.9");
	b->active = true;
	add_pkg(b, "torch", "2.5.1+cpu");
	add_fw(b, "torch", "torch", "2.5.1+cpu", "", "", 0);
	STR_COPY(f->kmod.nvidia_version, "580.0.0"); /* machine-wide: version mismatch */
	findings_init(&fs);
	rules_run(f, &fs);
	assert_true(fs.n >= 3);
	assert_null(fs.v[0].env);
	for (i = 0; i < fs.n && !fs.v[i].env; i++)
		;
	assert_true(i < fs.n);
	assert_string_equal(fs.v[i].env, "/opt/b"); /* the active one first */
	assert_string_equal(fs.v[fs.n - 1].env, "/opt/a");
	findings_release(&fs);
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy_h200_is_quiet),
		cmocka_unit_test(test_healthy_h200_as_user_is_quiet),
		cmocka_unit_test(test_cpu_only_headline),
		cmocka_unit_test(test_laptop_only_info),
		cmocka_unit_test(test_unknown_everything_is_silent),
		cmocka_unit_test(test_partial_facts_are_silent),
		cmocka_unit_test(test_grouped_by_environment),
	};

	return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
