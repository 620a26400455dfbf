/*
 * t_rules_env.c - rule_env on hand-built facts: CUDA_VISIBLE_DEVICES
 * (-1, empty, an index or UUID that does not exist, MIG ids with MIG off,
 * a bad entry after good ones), CUDA_DEVICE_ORDER with mixed GPUs,
 * LD_LIBRARY_PATH (missing dirs, the stubs dir, mixed CUDA releases) and
 * memory-growth advice.
 */
#include "rules_facts.h"

static struct facts *
two_gpus(void)
{
	struct facts *f = healthy_h200();
	struct gpu_facts *g = add_gpu(f, "0000:00:07.0", 0x2335, "NVIDIA H200", "9.0");

	STR_COPY(g->uuid, "GPU-11111111-2222-3333-4444-555555555555");
	g->mig_mode = 0;
	f->driver.nvml_device_count = 2;
	f->env.nvars = 0;
	return f;
}

static void
check_hides(struct facts *f, const char *value, const char *evidence)
{
	struct findings fs;
	const struct finding *fd;

	f->env.nvars = 0;
	set_env(f, "CUDA_VISIBLE_DEVICES", value);
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.visible_devices_hides_all");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, evidence));
	assert_true(fix_has(fd, "unset CUDA_VISIBLE_DEVICES"));
	assert_false(findings_has(&fs, "env.visible_devices_invalid"));
	findings_release(&fs);
}

static void
check_fine(struct facts *f, const char *value)
{
	struct findings fs;

	f->env.nvars = 0;
	set_env(f, "CUDA_VISIBLE_DEVICES", value);
	run_rule(rule_env, f, &fs);
	if (fs.n)
		dump(&fs);
	assert_false(findings_has(&fs, "env.visible_devices_hides_all"));
	assert_false(findings_has(&fs, "env.visible_devices_invalid"));
	findings_release(&fs);
}

static void
test_visible_devices(void **state)
{
	struct facts *f = two_gpus();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	check_hides(f, "-1", "negative index");
	check_hides(f, "", "an empty value means no device");
	check_hides(f, "none", "neither an index");
	check_hides(f, "2", "index 2, but there are only 2 GPUs (0..1)");
	check_hides(f, "GPU-deadbeef", "no GPU here has this UUID");
	check_hides(f, "MIG-1234", "MIG is off");
	check_fine(f, "0");
	check_fine(f, "1,0");
	check_fine(f, " 0 , 1");
	check_fine(f, "GPU-0488de22");
	check_fine(f, "GPU-11111111-2222-3333-4444-555555555555");

	/* a bad entry after good ones: CUDA ignores it and all after it */
	f->env.nvars = 0;
	set_env(f, "CUDA_VISIBLE_DEVICES", "0,7,1");
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.visible_devices_invalid");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(evidence_has(fd, "entry \"7\""));
	assert_true(evidence_has(fd, "uses the 1 entry before it"));
	findings_release(&fs);

	/* no GPU at all: hw.no_nvidia_gpu is the story, not the variable */
	free(f);
	f = cpu_only_toolkit();
	set_env(f, "CUDA_VISIBLE_DEVICES", "-1");
	run_rule(rule_env, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);
	free(f);
}

static void
test_device_order(void **state)
{
	struct facts *f = two_gpus();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	run_rule(rule_env, f, &fs);
	assert_false(findings_has(&fs, "env.device_order"));
	findings_release(&fs);

	STR_COPY(f->gpus[1].name, "NVIDIA GeForce GTX 1080 Ti");
	f->gpus[1].cuda_index = 1;
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.device_order");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_INFO);
	assert_true(evidence_has(fd, "FASTEST_FIRST"));
	assert_true(fix_has(fd, "export CUDA_DEVICE_ORDER=PCI_BUS_ID"));
	findings_release(&fs);

	set_env(f, "CUDA_VISIBLE_DEVICES", "1");
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.device_order");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	findings_release(&fs);

	set_env(f, "CUDA_DEVICE_ORDER", "PCI_BUS_ID");
	run_rule(rule_env, f, &fs);
	assert_false(findings_has(&fs, "env.device_order"));
	findings_release(&fs);
	free(f);

	/* two of one model that CUDA numbers the other way round */
	f = two_gpus();
	f->gpus[0].cuda_index = 1;
	f->gpus[1].cuda_index = 0;
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.device_order");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_string_equal(fd->title, "CUDA numbers the GPUs in another order than nvidia-smi: \"GPU 1\" is "
				       "not the same board in both");
	assert_true(evidence_has(fd, "CUDA index 1"));
	findings_release(&fs);
	/* in PCI order: nothing */
	f->gpus[0].cuda_index = 0;
	f->gpus[1].cuda_index = 1;
	run_rule(rule_env, f, &fs);
	assert_false(findings_has(&fs, "env.device_order"));
	findings_release(&fs);
	free(f);
}

static void
test_ld_library_path(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	add_ldpath(f, "/usr/local/cuda-13.0/lib64", true, "13");
	run_rule(rule_env, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);

	add_ldpath(f, "/usr/local/cuda-11.2/lib64", false, "");
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.ld_library_path_stale");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(evidence_has(fd, "/usr/local/cuda-11.2/lib64 does not exist"));
	findings_release(&fs);

	/* another CUDA release after the first */
	f->env.nldpath = 1;
	add_ldpath(f, "/usr/local/cuda-12.4/lib64", true, "12");
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.ld_library_path_stale");
	assert_non_null(fd);
	assert_true(strstr(fd->title, "mixes CUDA 13 and CUDA 12") != NULL);
	findings_release(&fs);

	/* against CUDA_HOME */
	f->env.nldpath = 0;
	add_ldpath(f, "/usr/local/cuda-12.4/lib64", true, "12");
	set_env(f, "CUDA_HOME", "/usr/local/cuda-13.0");
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.ld_library_path_stale");
	assert_non_null(fd);
	assert_true(evidence_has(fd, "/usr/local/cuda-13.0 is CUDA 13"));
	findings_release(&fs);

	/* the stubs dir, holding a libcuda.so.1 that the loader would take */
	f->env.nldpath = 0;
	add_ldpath(f, "/usr/local/cuda-13.0/lib64/stubs", true, "");
	add_driver_lib(f, "libcuda", "/usr/local/cuda-13.0/lib64/stubs/libcuda.so.1", "", true, false);
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.ld_library_path_stale");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "instead of the driver's"));
	assert_true(fix_has(fd, "grep -v -x -F /usr/local/cuda-13.0/lib64/stubs"));
	findings_release(&fs);

	/* only libcuda.so in it (not found by dlopen("libcuda.so.1")): a warning; a
	 * path with a space is quoted */
	f->driver.nlibs--;
	f->env.nldpath = 0;
	add_ldpath(f, "/opt/my cuda/lib64/stubs", true, "");
	add_driver_lib(f, "libcuda", "/opt/my cuda/lib64/stubs/libcuda.so", "", true, false);
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.ld_library_path_stale");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(fix_has(fd, "grep -v -x -F '/opt/my cuda/lib64/stubs'"));
	findings_release(&fs);
	free(f);
}

static void
test_memory_growth(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	add_proc(f, 4242, "00000000:00:06.0", 20480, "python3", true, 'S');
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.memory_growth");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_INFO);
	assert_true(evidence_has(fd, "20480 MiB"));
	assert_true(fix_has(fd, "TF_FORCE_GPU_ALLOW_GROWTH=true"));
	findings_release(&fs);

	set_env(f, "TF_FORCE_GPU_ALLOW_GROWTH", "true");
	run_rule(rule_env, f, &fs);
	assert_false(findings_has(&fs, "env.memory_growth"));
	findings_release(&fs);
	free(f);
}

static void
test_nccl_slow_path(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	run_rule(rule_env, f, &fs);
	assert_false(findings_has(&fs, "env.nccl_slow_path"));
	findings_release(&fs);

	/* set to 0: the fast path is on */
	set_env(f, "NCCL_P2P_DISABLE", "0");
	run_rule(rule_env, f, &fs);
	assert_false(findings_has(&fs, "env.nccl_slow_path"));
	findings_release(&fs);

	/* one GPU: a note */
	set_env(f, "NCCL_P2P_DISABLE", "1");
	set_env(f, "NCCL_IB_DISABLE", "1");
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.nccl_slow_path");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_INFO);
	assert_true(evidence_has(fd, "NCCL_P2P_DISABLE=1: GPU-to-GPU copies go through host memory"));
	assert_true(evidence_has(fd, "NCCL_IB_DISABLE=1: InfiniBand and RoCE are not used"));
	assert_true(fix_has(fd, "unset NCCL_P2P_DISABLE NCCL_IB_DISABLE"));
	findings_release(&fs);

	/* two GPUs this machine would connect directly: a warning */
	add_gpu(f, "00000000:00:07.0", 0x2335, "NVIDIA H200", "9.0");
	set_env(f, "NCCL_P2P_LEVEL", "LOC");
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.nccl_slow_path");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(evidence_has(fd, "NCCL_P2P_LEVEL=LOC: no GPU pair may use peer-to-peer"));
	assert_true(evidence_has(fd, "this machine has 2 GPUs"));
	assert_true(fix_has(fd, "unset NCCL_P2P_DISABLE NCCL_IB_DISABLE NCCL_P2P_LEVEL"));
	findings_release(&fs);

	/* only the network's knob on a machine of two GPUs: still a note */
	set_env(f, "NCCL_P2P_DISABLE", "0");
	set_env(f, "NCCL_P2P_LEVEL", "NVL");
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.nccl_slow_path");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_INFO);
	findings_release(&fs);
	free(f);
}

/* NCCL_SOCKET_IFNAME and NCCL_IB_HCA against the interfaces and RDMA
 * devices the machine has: prefixes, "=" exact names, "^" exclusions,
 * ":port" after an HCA. */
static void
test_nccl_interface_missing(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;
	const struct finding *fd;
	static const struct {
		const char *ifname, *hca;
		bool fires;
	} cases[] = {
		{"eno", NULL, false},            /* a prefix of eno1np0 */
		{"=eno1np0", NULL, false},
		{"=eno1", NULL, true},           /* exact: eno1np0 is another name */
		{"eth,ib", NULL, false},         /* ib0 */
		{"eth0", NULL, true},
		{"^docker,lo", NULL, false},     /* names to leave out */
		{NULL, "mlx5_1:1", false},
		{NULL, "=mlx5", true},
		{NULL, "mlx5_2", true},          /* a prefix of no device here */
		{NULL, "bnxt_re", true},
	};
	size_t i;

	(void)state;
	f->host.net_valid = true;
	STR_COPY(f->host.net_ifaces, "eno1np0 ib0 lo");
	f->host.ib_valid = true;
	STR_COPY(f->host.ib_devices, "mlx5_0 mlx5_1");
	run_rule(rule_env, f, &fs);
	assert_false(findings_has(&fs, "env.nccl_interface_missing"));
	findings_release(&fs);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const bool want = cases[i].fires;
		unset_env(f, "NCCL_SOCKET_IFNAME");
		unset_env(f, "NCCL_IB_HCA");
		if (cases[i].ifname)
			set_env(f, "NCCL_SOCKET_IFNAME", cases[i].ifname);
		if (cases[i].hca)
			set_env(f, "NCCL_IB_HCA", cases[i].hca);
		run_rule(rule_env, f, &fs);
		if (findings_has(&fs, "env.nccl_interface_missing") != want)
			fail_msg("case %zu (%s %s): expected %s", i, cases[i].ifname ? cases[i].ifname : "-",
				 cases[i].hca ? cases[i].hca : "-", want ? "a finding" : "none");
		findings_release(&fs);
	}
	/* both wrong, on a machine without RDMA: one warning, two lines */
	f->host.ib_valid = false;
	f->host.ib_devices[0] = '\0';
	set_env(f, "NCCL_SOCKET_IFNAME", "eth0");
	set_env(f, "NCCL_IB_HCA", "mlx5_0");
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.nccl_interface_missing");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(evidence_has(fd, "NCCL_SOCKET_IFNAME=eth0 matches none of this machine's interfaces "
				     "(eno1np0 ib0 lo)"));
	assert_true(evidence_has(fd, "NCCL_IB_HCA=mlx5_0, but this machine has no RDMA device"));
	assert_true(fix_has(fd, "unset NCCL_SOCKET_IFNAME NCCL_IB_HCA"));
	findings_release(&fs);
	/* interfaces not read (a --from document of an older version): nothing said */
	f->host.net_valid = false;
	unset_env(f, "NCCL_IB_HCA");
	run_rule(rule_env, f, &fs);
	assert_false(findings_has(&fs, "env.nccl_interface_missing"));
	findings_release(&fs);
	free(f);
}

static void
test_cpu_affinity_remote(void **state)
{
	struct facts *f = two_gpus();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	STR_COPY(f->gpus[0].cpu_affinity, "0-15,64-79");
	f->gpus[0].numa_node = 0;
	STR_COPY(f->gpus[1].cpu_affinity, "16-31,80-95");
	f->gpus[1].numa_node = 1;
	/* not probed (--from an older document, --root): nothing */
	run_rule(rule_env, f, &fs);
	assert_false(findings_has(&fs, "env.cpu_affinity_remote"));
	findings_release(&fs);

	/* the whole machine: near both */
	STR_COPY(f->host.cpus_allowed, "0-95");
	run_rule(rule_env, f, &fs);
	assert_false(findings_has(&fs, "env.cpu_affinity_remote"));
	findings_release(&fs);

	/* bound to socket 0: far from GPU1 only, a note */
	STR_COPY(f->host.cpus_allowed, "0-7");
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.cpu_affinity_remote");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_INFO);
	assert_true(evidence_has(fd, "GPU1 0000:00:07.0: its CPUs are 16-31,80-95 (NUMA node 1)"));
	assert_false(evidence_has(fd, "GPU0 "));
	assert_true(evidence_has(fd, "this process may run on CPUs 0-7"));
	findings_release(&fs);

	/* bound to CPUs near neither: a warning, with numactl */
	STR_COPY(f->host.cpus_allowed, "32-47");
	run_rule(rule_env, f, &fs);
	fd = find_id(&fs, "env.cpu_affinity_remote");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(fix_has(fd, "numactl --cpunodebind=0 --membind=0 python3 train.py"));
	findings_release(&fs);
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_visible_devices),
		cmocka_unit_test(test_device_order),
		cmocka_unit_test(test_ld_library_path),
		cmocka_unit_test(test_memory_growth),
		cmocka_unit_test(test_nccl_slow_path),
		cmocka_unit_test(test_nccl_interface_missing),
		cmocka_unit_test(test_cpu_affinity_remote),
	};

	return cmocka_run_group_tests_name("rules_env", tests, NULL, NULL);
}
