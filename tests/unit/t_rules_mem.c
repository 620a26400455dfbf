/*
 * t_rules_mem.c - rule_mem on hand-built facts: processes holding GPU
 * memory (running: info; stopped, zombie, gone: warn; gone inside a
 * container is not concluded) and little free memory.
 */
#include "rules_facts.h"

static void
test_holders(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	f->host.container = false;
	f->host.uid = 1000;
	add_proc(f, 4242, "00000000:00:06.0", 20480, "python3", true, 'S');
	run_rule(rule_mem, f, &fs);
	fd = find_id(&fs, "mem.held_by_other_process");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_INFO);
	assert_true(evidence_has(fd, "pid 4242 (python3) holds 20480 MiB on NVIDIA H200 (0000:00:06.0)"));
	findings_release(&fs);

	/* stopped with Ctrl-Z */
	f->procs[0].state = 'T';
	run_rule(rule_mem, f, &fs);
	fd = find_id(&fs, "mem.held_by_other_process");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_string_equal(fd->title,
			    "Process 4242 (python3) is stopped and holds 20480 MiB on NVIDIA H200 (0000:00:06.0)");
	assert_true(evidence_has(fd, "/proc/4242/stat state T"));
	assert_true(fix_has(fd, "kill 4242"));
	findings_release(&fs);

	/* zombie */
	f->procs[0].state = 'Z';
	run_rule(rule_mem, f, &fs);
	fd = find_id(&fs, "mem.held_by_other_process");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(fix_has(fd, "ps -o ppid= -p 4242"));
	findings_release(&fs);

	/* gone */
	f->procs[0].alive = false;
	f->procs[0].state = '?';
	run_rule(rule_mem, f, &fs);
	fd = find_id(&fs, "mem.held_by_other_process");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(evidence_has(fd, "/proc/4242 does not exist"));
	assert_true(fix_has(fd, "sudo fuser -v /dev/nvidia*"));
	findings_release(&fs);

	/* inside a container another pid namespace hides it: only info */
	f->host.container = true;
	run_rule(rule_mem, f, &fs);
	fd = find_id(&fs, "mem.held_by_other_process");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_INFO);
	findings_release(&fs);

	/* no processes */
	f->nprocs = 0;
	run_rule(rule_mem, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);
	free(f);
}

static void
test_low_free(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;
	const struct finding *fd;
	struct gpu_facts *g = &f->gpus[0];

	(void)state;
	g->memory_used_mib = 140000;
	g->memory_free_mib = 3771;
	add_proc(f, 7, "00000000:00:06.0", 139000, "trainer", true, 'R');
	run_rule(rule_mem, f, &fs);
	fd = find_id(&fs, "mem.low_free");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(evidence_has(fd, "3771 MiB free of 143771 MiB (2% free)"));
	assert_true(evidence_has(fd, "pid 7 (trainer) holds 139000 MiB"));
	findings_release(&fs);

	/* plenty free */
	g->memory_used_mib = 1000;
	g->memory_free_mib = 142771;
	run_rule(rule_mem, f, &fs);
	assert_false(findings_has(&fs, "mem.low_free"));
	findings_release(&fs);

	/* NVML did not answer: unknown, not "0 free" */
	g->nvml_valid = false;
	g->memory_used_mib = g->memory_free_mib = 0;
	run_rule(rule_mem, f, &fs);
	assert_false(findings_has(&fs, "mem.low_free"));
	findings_release(&fs);
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_holders),
		cmocka_unit_test(test_low_free),
	};

	return cmocka_run_group_tests_name("rules_mem", tests, NULL, NULL);
}
