/*
 * t_bench_judge.c - bench's judgement (bench/judge.c) on hand-built
 * results for the H200 of rules_facts.h: the peaks (datasheet, TF32 and
 * FP8 from the FP16 tensor rate, the PCIe link), the reference of
 * bench_reference.tsv and its 0.75 floor, and each finding with the
 * results that raise it and those that do not.
 */
#include "unit.h"
#include "rules_facts.h"

#include "bench/bench.h"
#include "bench/judge.h"

#include <math.h>
#include <string.h>

static struct bench_result
ok(int test, double value)
{
	struct bench_result r;

	memset(&r, 0, sizeof(r));
	r.test = test;
	r.state = BENCH_OK;
	r.value = value;
	r.verified = 1;
	strcpy(r.bus_id, "0000:00:06.0");
	r.cc_major = 9;
	return r;
}

static void
peaks_and_references(void **state)
{
	struct facts *f = healthy_h200();
	struct bench_result r[5] = {ok(BENCH_GEMM_BF16, 790), ok(BENCH_GEMM_TF32, 400), ok(BENCH_GEMM_FP8, 1450),
				    ok(BENCH_D2D_COPY, 2100), ok(BENCH_H2D_PINNED, 55)};
	struct bench_judged j[5];
	struct findings fs;

	(void)state;
	r[3].value_rw = 4200;
	findings_init(&fs);
	bench_judge(f, r, 5, j, &fs);
	assert_int_equal(fs.n, 0); /* a healthy H200 */
	assert_true(fabs(j[0].peak - 989) < 1e-9);
	assert_true(fabs(j[0].reference - 793) < 1e-9);
	assert_true(fabs(j[1].peak - 494.5) < 1e-9); /* TF32: half the FP16 tensor rate */
	assert_true(fabs(j[2].peak - 1978) < 1e-9);  /* FP8: twice it on compute capability 9.0 */
	/* device to device is judged by its read+write figure, as the datasheet counts */
	assert_true(fabs(j[3].figure - 4200) < 1e-9);
	assert_true(fabs(j[3].peak - 4800) < 1e-9);
	assert_true(fabs(j[3].reference - 4258) < 1e-9);
	/* PCIe 5.0 x16: 3.938 GB/s a lane and direction */
	assert_true(fabs(j[4].peak - 16 * 3.938) < 1e-9);
	assert_non_null(strstr(j[4].peak_what, "PCIe 5.0 x16"));
	findings_release(&fs);
	/* compute capabilities compare as versions: 12.0 has FP8, 8.6 has not */
	strcpy(f->gpus[0].compute_capability, "12.0");
	findings_init(&fs);
	bench_judge(f, &r[2], 1, j, &fs);
	assert_true(fabs(j[0].peak - 1978) < 1e-9);
	strcpy(f->gpus[0].compute_capability, "8.6");
	bench_judge(f, &r[2], 1, j, &fs);
	assert_true(j[0].peak == 0);
	findings_release(&fs);
	free(f);
}

static void
findings_of_results(void **state)
{
	struct facts *f = healthy_h200();
	struct bench_result r[6] = {ok(BENCH_GEMM_BF16, 590), ok(BENCH_GEMM_FP16, 760), ok(BENCH_H2D_PINNED, 55),
				    ok(BENCH_H2D_PAGEABLE, 6), ok(BENCH_D2D_COPY, 2100), ok(BENCH_D2D_KERNEL, 0)};
	struct bench_judged j[6];
	struct findings fs;
	const struct finding *fd;

	(void)state;
	r[1].nvml.samples = 10;
	r[1].nvml.reasons = 0x40 | 0x4; /* HW thermal, SW power cap */
	r[1].nvml.temp_max = 92;
	r[4].value_rw = 4200;
	r[4].verified = 0;
	strcpy(r[4].verify, "wrong data at byte 12 of the copy");
	r[5].state = BENCH_FAILED;
	r[5].cu_error = 221;
	strcpy(r[5].error, "cuModuleLoadDataEx: CUDA_ERROR_JIT_COMPILER_NOT_FOUND (221)");
	findings_init(&fs);
	bench_judge(f, r, 6, j, &fs);
	/* 590 of 793 is 74 %: below the 0.75 floor; 760 of 769 is not */
	fd = find_id(&fs, "perf.below_reference");
	assert_non_null(fd);
	assert_int_equal(count_id(&fs, "perf.below_reference"), 1);
	assert_non_null(strstr(fd->title, "gemm_bf16 reaches 74 %"));
	fd = find_id(&fs, "rt.thermal");
	assert_non_null(fd);
	assert_non_null(strstr(fd->title, "during gemm_fp16 (hardware thermal slowdown)"));
	fd = find_id(&fs, "perf.pageable_transfers");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_INFO);
	fd = find_id(&fs, "perf.result_wrong");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	fd = find_id(&fs, "driver.ptx_jit_missing");
	assert_non_null(fd);
	assert_non_null(strstr(fd->fix, "libnvidia-ptxjitcompiler.so.1"));
	findings_release(&fs);
	free(f);
}

static void
what_does_not_raise(void **state)
{
	struct facts *f = healthy_h200();
	struct bench_result r[3] = {ok(BENCH_GEMM_BF16, 800), ok(BENCH_H2D_PINNED, 55), ok(BENCH_H2D_PAGEABLE, 40)};
	struct bench_judged j[3];
	struct findings fs;

	(void)state;
	/* a power cap alone is how a GEMM runs on an H200: no finding */
	r[0].nvml.samples = 5;
	r[0].nvml.reasons = 0x4 | 0x1;
	findings_init(&fs);
	bench_judge(f, r, 3, j, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);
	/* a GPU with no reference: no perf.below_reference however slow */
	f->gpus[0].device = 0x2330;
	r[0].value = 100;
	findings_init(&fs);
	bench_judge(f, r, 1, j, &fs);
	assert_int_equal(fs.n, 0);
	assert_true(j[0].reference == 0);
	assert_true(fabs(j[0].peak - 989) < 1e-9);
	findings_release(&fs);
	free(f);
}

static void
degraded_link(void **state)
{
	struct facts *f = healthy_h200();
	struct bench_result r[2] = {ok(BENCH_H2D_PINNED, 13), ok(BENCH_D2D_COPY, 2100)};
	struct bench_judged j[2];
	struct findings fs;
	const struct finding *fd;

	(void)state;
	f->gpus[0].link_width_cur = 4;
	findings_init(&fs);
	bench_judge(f, r, 2, j, &fs);
	fd = find_id(&fs, "hw.pcie_link_degraded");
	assert_non_null(fd);
	assert_non_null(strstr(fd->title, "(Gen 5 x4 of Gen 5 x16)"));
	assert_true(fabs(j[0].peak - 4 * 3.938) < 1e-9);
	findings_release(&fs);
	/* without a host transfer test the link is not bench's to judge */
	findings_init(&fs);
	bench_judge(f, &r[1], 1, j, &fs);
	assert_null(find_id(&fs, "hw.pcie_link_degraded"));
	findings_release(&fs);
	free(f);
}

static void
cpu_and_missing_libraries(void **state)
{
	struct facts *f = healthy_h200();
	struct bench_result r[2];
	struct bench_judged j[2];
	struct findings fs;

	(void)state;
	memset(r, 0, sizeof(r));
	r[0].test = BENCH_CPU_SGEMM;
	r[0].state = BENCH_SKIPPED;
	strcpy(r[0].error, "no BLAS library is installed");
	r[1].test = BENCH_GEMM_FP32;
	r[1].state = BENCH_SKIPPED;
	strcpy(r[1].error, "no cuBLASLt was found");
	findings_init(&fs);
	bench_judge(f, r, 2, j, &fs);
	assert_non_null(find_id(&fs, "perf.no_cpu_blas"));
	assert_non_null(find_id(&fs, "lib.cuda_lib_missing"));
	findings_release(&fs);
	r[0] = ok(BENCH_CPU_SGEMM, 2.0);
	strcpy(r[0].library_version, "reference");
	findings_init(&fs);
	bench_judge(f, r, 1, j, &fs);
	assert_non_null(strstr(find_id(&fs, "perf.no_cpu_blas")->title, "unoptimized reference"));
	findings_release(&fs);
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(peaks_and_references),
		cmocka_unit_test(findings_of_results),
		cmocka_unit_test(what_does_not_raise),
		cmocka_unit_test(degraded_link),
		cmocka_unit_test(cpu_and_missing_libraries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
