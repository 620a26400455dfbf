/*
 * t_driver.c - the driver probe's children against the mock libraries
 * (build/stubs/fake_cuda.so, fake_nvml.so) in a fixture root made here:
 * healthy answers, old driver, cuInit errors, a crash, an abort and a hang
 * in cuInit, a library that does not load, parallel children, device
 * matching by bus id; and probe_procs on a fixture /proc.
 *
 * The stubs are found next to this binary's build directory
 * (BUILD/tests/t_driver -> BUILD/stubs); build them with
 * `make BUILD/stubs/fake_cuda.so BUILD/stubs/fake_nvml.so`.
 */
#include "unit.h"

#include "base/clock.h"


#include "base/str.h"
#include "facts.h"
#include "probe/probe.h"
#include "sys/child.h"
#include "sys/root.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LIBDIR "/usr/lib/x86_64-linux-gnu"
#define CUDA_LIB LIBDIR "/libcuda.so.580.95.05"
#define NVML_LIB LIBDIR "/libnvidia-ml.so.580.95.05"

static char root[PATH_MAX];
static char stubs[PATH_MAX];

static int
write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (!fp)
		return -1;
	fputs(text, fp);
	return fclose(fp);
}

static int
mkdirs(const char *path)
{
	char p[PATH_MAX];
	size_t i;

	str_copy(p, sizeof(p), path);
	for (i = 1; p[i]; i++) {
		if (p[i] != '/')
			continue;
		p[i] = '\0';
		mkdir(p, 0755);
		p[i] = '/';
	}
	return mkdir(p, 0755) == 0 || access(p, F_OK) == 0 ? 0 : -1;
}

static void
in_root(const char *path, char *out, size_t size)
{
	str_fmt(out, size, "%s%s", root, path);
}

static int
setup(void **state)
{
	char exe[PATH_MAX], p[PATH_MAX], q[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	(void)state;
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	/* BUILD/tests/t_driver -> BUILD */
	if (!(slash = strrchr(exe, '/')))
		return -1;
	*slash = '\0';
	if (!(slash = strrchr(exe, '/')))
		return -1;
	*slash = '\0';
	str_fmt(stubs, sizeof(stubs), "%s/stubs", exe);
	str_fmt(p, sizeof(p), "%s/fake_cuda.so", stubs);
	str_fmt(q, sizeof(q), "%s/fake_nvml.so", stubs);
	if (access(p, R_OK) || access(q, R_OK)) {
		fprintf(stderr, "t_driver: no %s or %s: run make %s/fake_cuda.so %s/fake_nvml.so\n",
			p, q, stubs, stubs);
		return -1;
	}
	str_copy(root, sizeof(root), "/tmp/t_driver.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	in_root(LIBDIR, q, sizeof(q));
	if (mkdirs(q))
		return -1;
	in_root(CUDA_LIB, q, sizeof(q));
	if (symlink(p, q))
		return -1;
	str_fmt(p, sizeof(p), "%s/fake_nvml.so", stubs);
	in_root(NVML_LIB, q, sizeof(q));
	if (symlink(p, q))
		return -1;
	in_root(LIBDIR "/libcuda.so.1.garbage", q, sizeof(q));
	write_file(q, "this is not a shared object\n");
	in_root("/proc/4242", q, sizeof(q));
	mkdirs(q);
	in_root("/proc/4242/stat", q, sizeof(q));
	write_file(q, "4242 (python3 (x) y) S 1 4242 4242 0 -1 4194560 1 0 0 0\n");
	in_root("/proc/4242/comm", q, sizeof(q));
	write_file(q, "python3 (x) y\n");
	in_root("/proc/77", q, sizeof(q));
	mkdirs(q);
	in_root("/proc/77/stat", q, sizeof(q));
	write_file(q, "77 (defunct) Z 1 77 77 0 -1\n");
	return 0;
}

static int
teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	root_set("/");
	if (root[0] && str_starts(root, "/tmp/t_driver.")) {
		str_fmt(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd) != 0)
			return -1;
	}
	return 0;
}

static void
add_lib(struct facts *f, const char *name, const char *path, const char *version, bool elf,
	bool pick, bool stub)
{
	struct driver_lib_facts *l = &f->driver.libs[f->driver.nlibs++];

	STR_COPY(l->name, name);
	STR_COPY(l->path, path);
	STR_COPY(l->real_path, path);
	STR_COPY(l->version, version);
	l->is_elf = elf;
	l->loader_pick = pick;
	l->is_stub = stub;
}

/* A machine with one H200 at 0000:06:00.0 and the mock driver installed. */
static struct facts *
machine(void)
{
	struct facts *f = malloc(sizeof(*f));

	assert_non_null(f);
	facts_init(f);
	add_lib(f, "libcuda", CUDA_LIB, "580.95.05", true, true, false);
	add_lib(f, "libnvidia-ml", NVML_LIB, "580.95.05", true, true, false);
	f->ngpus = 1;
	STR_COPY(f->gpus[0].pci_bus_id, "0000:06:00.0");
	f->gpus[0].vendor = 0x10de;
	f->gpus[0].device = 0x2335;
	STR_COPY(f->gpus[0].name, "kb name");
	return f;
}

/* Run the probe on f with a scenario; returns the wall time in ms. */
static double
run(struct facts *f, const char *scenario, int timeout_ms, bool no_load)
{
	struct probe_opts o = {.timeout_ms = timeout_ms, .no_driver_calls = no_load};
	char path[PATH_MAX];
	struct driver_job *j;
	double t0;

	in_root("/scenario", path, sizeof(path));
	assert_int_equal(write_file(path, scenario), 0);
	setenv("GPUDOCTOR_FAKE_SCENARIO", path, 1);
	root_set(root);
	t0 = clock_ms();
	j = driver_probe_start(f, &o);
	driver_probe_finish(j, f);
	return clock_ms() - t0;
}

static bool
has_note(const struct facts *f, const char *needle)
{
	int i;

	for (i = 0; i < f->nnotes; i++)
		if (strstr(f->notes[i].note, needle))
			return true;
	return false;
}

static const char healthy[] =
	"cuda_driver_version 13000\n"
	"device NVIDIA H200|GPU-0488de22-0688-4512-984a-a9517a925ed0|0000:06:00.0|9.0|143771\n"
	"nvml_driver 580.95.05\n"
	"nvml_gpu 00000000:06:00.0|NVIDIA H200|GPU-0488de22-0688-4512-984a-a9517a925ed0|143771|"
	"1024|31|76000|700000|4|1|0|0|12|1980|1980|1|0\n"
	"nvml_proc 00000000:06:00.0|4242|800|compute\n"
	"nvml_proc 00000000:06:00.0|4343|-|compute\n"
	"nvml_proc 00000000:06:00.0|4242|800|graphics\n"
	"nvml_proc 00000000:06:00.0|5000|64|graphics\n";

static void
test_healthy(void **state)
{
	struct facts *f = machine();
	const struct gpu_facts *g = &f->gpus[0];

	(void)state;
	run(f, healthy, 5000, false);
	assert_int_equal(f->driver.cuda_state, CHILD_OK);
	assert_int_equal(f->driver.nvml_state, CHILD_OK);
	assert_string_equal(f->driver.cuda_loaded_path, CUDA_LIB);
	assert_string_equal(f->driver.nvml_loaded_path, NVML_LIB);
	assert_int_equal(f->driver.cuda_driver_version, 13000);
	assert_true(f->driver.cuinit_called);
	assert_int_equal(f->driver.cuinit_rc, 0);
	assert_string_equal(f->driver.cuinit_name, "CUDA_SUCCESS");
	assert_int_equal(f->driver.cuda_device_count, 1);
	assert_int_equal(f->driver.nvml_device_count, 1);
	assert_int_equal(f->driver.nvml_init_rc, 0);
	assert_string_equal(f->driver.nvml_init_name, "NVML_SUCCESS");
	assert_string_equal(f->driver.version, "580.95.05");
	assert_string_equal(f->driver.version_source, "nvml");
	assert_string_equal(f->driver.cuda_version, "13.0");
	assert_int_equal(f->driver.nvml_cuda_version, 13000);
	assert_true(f->driver.cuda_ms > 0);

	/* both answers matched the sysfs row, no new one */
	assert_int_equal(f->ngpus, 1);
	assert_true(g->cuda_valid);
	assert_true(g->nvml_valid);
	assert_int_equal(g->cuda_index, 0);
	assert_string_equal(g->name, "NVIDIA H200");
	assert_string_equal(g->uuid, "GPU-0488de22-0688-4512-984a-a9517a925ed0");
	assert_string_equal(g->compute_capability, "9.0");
	assert_int_equal(g->memory_total_mib, 143771);
	assert_int_equal(g->memory_used_mib, 1024);
	assert_int_equal(g->memory_free_mib, 143771 - 1024);
	assert_int_equal(g->temperature_c, 31);
	assert_int_equal(g->power_mw, 76000);
	assert_int_equal(g->power_limit_mw, 700000);
	assert_true(g->throttle_valid);
	assert_int_equal(g->throttle_reasons, 4);
	assert_int_equal(g->persistence_mode, 1);
	assert_int_equal(g->compute_mode, 0);
	assert_int_equal(g->mig_mode, 0);
	assert_int_equal(g->utilization_gpu, 12);
	assert_int_equal(g->sm_clock_mhz, 1980);
	assert_int_equal(g->sm_clock_max_mhz, 1980);
	assert_int_equal(g->ecc_mode, 1);
	assert_int_equal(g->ecc_uncorrected, 0);

	/* the graphics entry of 4242 on the same GPU is the same process */
	assert_int_equal(f->nprocs, 3);
	assert_int_equal(f->procs[0].pid, 4242);
	assert_string_equal(f->procs[0].gpu_bus_id, "0000:06:00.0");
	assert_int_equal(f->procs[0].used_mib, 800);
	assert_string_equal(f->procs[0].type, "compute");
	assert_int_equal(f->procs[1].pid, 4343);
	assert_true(f->procs[1].used_mib == UINT64_MAX);
	assert_int_equal(f->procs[2].pid, 5000);
	assert_string_equal(f->procs[2].type, "graphics");
	assert_int_equal(f->procs[2].state, '?');
	free(f);
}

static void
test_old_driver(void **state)
{
	struct facts *f = machine();

	(void)state;
	run(f, "cuda_driver_version 11040\nnvml_driver 470.256.02\n", 5000, false);
	assert_int_equal(f->driver.cuda_state, CHILD_OK);
	assert_int_equal(f->driver.cuda_driver_version, 11040);
	assert_string_equal(f->driver.cuda_version, "11.4");
	assert_string_equal(f->driver.version, "470.256.02");
	assert_int_equal(f->driver.cuda_device_count, 0);
	free(f);
}

static void
test_no_device(void **state)
{
	struct facts *f = machine();

	(void)state;
	run(f, "cuinit 100\nnvml_init 9\n", 5000, false);
	assert_int_equal(f->driver.cuda_state, CHILD_OK);
	assert_int_equal(f->driver.cuinit_rc, 100);
	assert_string_equal(f->driver.cuinit_name, "CUDA_ERROR_NO_DEVICE");
	assert_string_equal(f->driver.cuinit_text, "no CUDA-capable device is detected");
	assert_int_equal(f->driver.cuda_device_count, -1);
	assert_int_equal(f->driver.nvml_state, CHILD_OK);
	assert_int_equal(f->driver.nvml_init_rc, 9);
	assert_string_equal(f->driver.nvml_init_name, "NVML_ERROR_DRIVER_NOT_LOADED");
	assert_string_equal(f->driver.nvml_error, "Driver Not Loaded");
	assert_int_equal(f->driver.nvml_device_count, -1);
	/* no NVML version: the loaded libcuda's file name says it */
	assert_string_equal(f->driver.version, "580.95.05");
	assert_string_equal(f->driver.version_source, "libcuda");
	assert_false(f->gpus[0].cuda_valid);
	assert_string_equal(f->gpus[0].name, "kb name");
	free(f);
}

static void
test_unnamed_error(void **state)
{
	struct facts *f = machine();

	(void)state;
	/* a code the knowledge base knows (error_codes.tsv), named from it */
	run(f, "cuinit 222\n", 5000, false);
	assert_int_equal(f->driver.cuinit_rc, 222);
	assert_string_equal(f->driver.cuinit_name, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
	free(f);
	/* one nobody defines */
	f = machine();
	run(f, "cuinit 777\n", 5000, false);
	assert_int_equal(f->driver.cuinit_rc, 777);
	assert_string_equal(f->driver.cuinit_name, "CUresult 777");
	free(f);
}

static void
test_crash(void **state)
{
	struct facts *f = machine();

	(void)state;
	run(f, "cuinit_behaviour crash\ncuda_driver_version 12080\n" "nvml_gpu 00000000:06:00.0|NVIDIA H200|GPU-1|100|1\n", 5000, false);
	assert_int_equal(f->driver.cuda_state, CHILD_CRASHED);
	assert_int_equal(f->driver.cuda_signal, 11);
	/* what came before cuInit survived */
	assert_true(f->driver.cuinit_called);
	assert_int_equal(f->driver.cuda_driver_version, 12080);
	assert_string_equal(f->driver.cuda_loaded_path, CUDA_LIB);
	assert_string_equal(f->driver.cuda_version, "12.8");
	assert_true(has_note(f, "cuInit crashed"));
	/* NVML still answered */
	assert_int_equal(f->driver.nvml_state, CHILD_OK);
	assert_int_equal(f->driver.nvml_device_count, 1);
	assert_true(f->gpus[0].nvml_valid);
	assert_string_equal(f->gpus[0].uuid, "GPU-1");
	free(f);
}

static void
test_abort(void **state)
{
	struct facts *f = machine();

	(void)state;
	run(f, "cuinit_behaviour abort\n", 5000, false);
	assert_int_equal(f->driver.cuda_state, CHILD_CRASHED);
	assert_int_equal(f->driver.cuda_signal, 6);
	free(f);
}

static void
test_hang(void **state)
{
	struct facts *f = machine();
	double ms;

	(void)state;
	ms = run(f, "cuinit_behaviour hang\n", 400, false);
	assert_int_equal(f->driver.cuda_state, CHILD_TIMEOUT);
	assert_true(f->driver.cuinit_called);
	assert_int_equal(f->driver.cuda_driver_version, 13000);
	assert_int_equal(f->driver.nvml_state, CHILD_OK);
	assert_true(ms >= 390 && ms < 1000);
	assert_true(has_note(f, "never returned"));
	free(f);
}

static void
test_nvml_hang_cuda_answers(void **state)
{
	struct facts *f = machine();

	(void)state;
	run(f, "nvml_behaviour hang\n" "device NVIDIA H200|GPU-2|0000:06:00.0|9.0|143771\n", 400, false);
	assert_int_equal(f->driver.nvml_state, CHILD_TIMEOUT);
	assert_int_equal(f->driver.cuda_state, CHILD_OK);
	assert_true(f->gpus[0].cuda_valid);
	/* no NVML name: CUDA's overrides the kb's */
	assert_string_equal(f->gpus[0].name, "NVIDIA H200");
	assert_string_equal(f->driver.version, "580.95.05");
	assert_string_equal(f->driver.version_source, "libcuda");
	free(f);
}

/* cuInit and nvmlInit each take 400 ms: in parallel children the whole
 * probe takes about 400, not 800. */
static void
test_parallel(void **state)
{
	struct facts *f = machine();
	double ms;

	(void)state;
	ms = run(f, "cuinit_delay_ms 400\nnvml_init_delay_ms 400\n", 5000, false);
	assert_int_equal(f->driver.cuda_state, CHILD_OK);
	assert_int_equal(f->driver.nvml_state, CHILD_OK);
	assert_true(ms >= 390 && ms < 700);
	assert_true(f->driver.cuda_ms >= 390);
	free(f);
}

static void
test_load_failed(void **state)
{
	struct facts *f = machine();

	(void)state;
	STR_COPY(f->driver.libs[0].path, LIBDIR "/libcuda.so.1.garbage");
	STR_COPY(f->driver.libs[0].real_path, LIBDIR "/libcuda.so.1.garbage");
	run(f, "", 5000, false);
	assert_int_equal(f->driver.cuda_state, CHILD_LOAD_FAILED);
	assert_true(f->driver.cuda_error[0] != '\0');
	assert_false(f->driver.cuinit_called);
	assert_int_equal(f->driver.nvml_state, CHILD_OK);
	free(f);
}

static void
test_not_loaded(void **state)
{
	struct facts *f = machine();

	(void)state;
	/* not an ELF for this machine, and only a stub NVML: nothing loads */
	f->driver.libs[0].is_elf = false;
	f->driver.libs[1].is_stub = true;
	run(f, healthy, 5000, false);
	assert_int_equal(f->driver.cuda_state, CHILD_NOT_RUN);
	assert_int_equal(f->driver.nvml_state, CHILD_NOT_RUN);
	assert_true(has_note(f, "not a loadable shared object"));
	assert_true(has_note(f, "only toolkit stub"));
	assert_string_equal(f->driver.version, "580.95.05");
	assert_string_equal(f->driver.version_source, "libcuda");
	free(f);

	/* nothing found at all under a fixture root: nothing to load */
	f = machine();
	f->driver.nlibs = 0;
	STR_COPY(f->kmod.nvidia_version, "535.104.05");
	run(f, healthy, 5000, false);
	assert_int_equal(f->driver.cuda_state, CHILD_NOT_RUN);
	assert_int_equal(f->driver.nvml_state, CHILD_NOT_RUN);
	assert_string_equal(f->driver.version, "535.104.05");
	assert_string_equal(f->driver.version_source, "kmod");
	free(f);
}

static void
test_no_load(void **state)
{
	struct facts *f = machine();

	(void)state;
	run(f, healthy, 5000, true);
	assert_int_equal(f->driver.cuda_state, CHILD_NOT_RUN);
	assert_int_equal(f->driver.nvml_state, CHILD_NOT_RUN);
	assert_false(f->gpus[0].cuda_valid);
	assert_int_equal(f->nprocs, 0);
	free(f);
}

/* Devices PCI did not list get rows of their own; ids match across
 * NVML's 8-digit and CUDA's 4-digit domains and any case. */
static void
test_new_rows(void **state)
{
	struct facts *f = machine();

	(void)state;
	run(f,
		"device NVIDIA H200|GPU-0488de22-0688-4512-984a-a9517a925ed0|0000:06:00.0|9.0|143771\n"
		"device NVIDIA H100 80GB HBM3|GPU-11111111-2222-3333-4444-555555555555|0000:1A:00.0|9.0|81559\n"
		"nvml_gpu 00000000:1A:00.0|NVIDIA H100 80GB HBM3|GPU-x|81559|0|-|-|-|-|-|-|-|-|-|-|-|-|0x233010de\n"
		"nvml_proc 00000000:1a:00.0|99|10|compute\n",
		5000, false);
	assert_int_equal(f->driver.cuda_device_count, 2);
	assert_int_equal(f->ngpus, 2);
	assert_string_equal(f->gpus[1].pci_bus_id, "0000:1a:00.0");
	assert_int_equal(f->gpus[1].cuda_index, 1);
	assert_true(f->gpus[1].cuda_valid && f->gpus[1].nvml_valid);
	assert_int_equal(f->gpus[1].vendor, 0x10de);
	assert_int_equal(f->gpus[1].device, 0x2330);
	assert_string_equal(f->gpus[1].uuid, "GPU-11111111-2222-3333-4444-555555555555");
	assert_string_equal(f->gpus[1].name, "NVIDIA H100 80GB HBM3");
	assert_int_equal(f->gpus[1].temperature_c, -1);
	assert_int_equal(f->gpus[1].power_mw, -1);
	assert_false(f->gpus[1].throttle_valid);
	assert_int_equal(f->nprocs, 1);
	assert_string_equal(f->procs[0].gpu_bus_id, "0000:1a:00.0");
	free(f);
}

static void
test_procs(void **state)
{
	struct facts *f = machine();

	(void)state;
	root_set(root);
	f->nprocs = 3;
	f->procs[0].pid = 4242;
	f->procs[1].pid = 77;
	f->procs[2].pid = 31337;
	probe_procs(f, NULL);
	assert_true(f->procs[0].alive);
	assert_int_equal(f->procs[0].state, 'S');
	assert_string_equal(f->procs[0].name, "python3 (x) y");
	assert_true(f->procs[1].alive);
	assert_int_equal(f->procs[1].state, 'Z');
	assert_string_equal(f->procs[1].name, "defunct");
	assert_false(f->procs[2].alive);
	assert_int_equal(f->procs[2].state, '?');
	assert_true(has_note(f, "31337"));
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy),
		cmocka_unit_test(test_old_driver),
		cmocka_unit_test(test_no_device),
		cmocka_unit_test(test_unnamed_error),
		cmocka_unit_test(test_crash),
		cmocka_unit_test(test_abort),
		cmocka_unit_test(test_hang),
		cmocka_unit_test(test_nvml_hang_cuda_answers),
		cmocka_unit_test(test_parallel),
		cmocka_unit_test(test_load_failed),
		cmocka_unit_test(test_not_loaded),
		cmocka_unit_test(test_no_load),
		cmocka_unit_test(test_new_rows),
		cmocka_unit_test(test_procs),
	};

	return cmocka_run_group_tests_name("driver", tests, setup, teardown);
}
