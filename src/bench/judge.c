/*
 * judge.c - what bench's figures mean (see judge.h). Peaks: the
 * datasheet's dense figures of gpu_devices.tsv (TF32 at half the FP16
 * tensor rate, FP8 at twice it from compute capability 8.9), the memory
 * bandwidth for device-to-device copies (read+write, as the datasheet
 * counts), the PCIe link's rate per direction for host transfers. The
 * measured reference of bench_reference.tsv decides perf.below_reference,
 * at 0.75 of it as DCGM's diagnostics do: 80 % of the datasheet is a
 * healthy GPU, not a slow one.
 */
#include "bench/judge.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* NVML's clock-event reasons that mean the GPU slowed itself down
 * (nvmlClocksEventReasons: HW slowdown, SW thermal, HW thermal, power brake) */
#define SLOWDOWN 0x8ull
#define SW_THERMAL 0x20ull
#define HW_THERMAL 0x40ull
#define POWER_BRAKE 0x80ull
#define SW_POWER_CAP 0x4ull

const struct gpu_facts *
bench_gpu(const struct facts *f, const struct bench_result *r)
{
	int i;

	for (i = 0; i < f->ngpus; i++) {
		const char *a = f->gpus[i].pci_bus_id, *b = r->bus_id;
		/* CUDA writes 0000:00:06.0, NVML 00000000:00:06.0 */
		size_t la = strlen(a), lb = strlen(b);
		if (la >= 7 && lb >= 7 && !strcasecmp(a + la - 7, b + lb - 7))
			return &f->gpus[i];
	}
	return f->ngpus == 1 ? &f->gpus[0] : NULL;
}

/* GB/s per lane and direction of a PCIe generation (after line coding). */
static double
lane_gbs(double gts)
{
	if (gts >= 60)
		return 7.56;                 /* 6.0: 64 GT/s, FLIT */
	if (gts >= 30)
		return 3.938;                /* 5.0: 32 GT/s, 128b/130b */
	if (gts >= 15)
		return 1.969;
	if (gts >= 7.5)
		return 0.985;
	if (gts >= 4.5)
		return 0.5;                  /* 2.0: 5 GT/s, 8b/10b */
	return gts > 0 ? 0.25 : 0;
}

static int
pcie_gen(double gts)
{
	return gts >= 60 ? 6 : gts >= 30 ? 5 : gts >= 15 ? 4 : gts >= 7.5 ? 3 : gts >= 4.5 ? 2 : 1;
}

static void
peak_of(const struct gpu_facts *g, const struct kb_gpu *kg, int test, struct bench_judged *j)
{
	double fp16 = kg && kg->fp16_tensor_tflops[0] ? atof(kg->fp16_tensor_tflops) : 0;
	bool fp8 = g && g->compute_capability[0] && vers_cmp(g->compute_capability, "8.9") >= 0;

	switch (test) {
	case BENCH_D2D_KERNEL:
	case BENCH_D2D_COPY:
		if (kg && kg->mem_bw_gbs[0]) {
			j->peak = atof(kg->mem_bw_gbs);
			str_fmt(j->peak_what, sizeof(j->peak_what), "memory bandwidth %s GB/s (datasheet)",
				kg->mem_bw_gbs);
		}
		break;
	case BENCH_H2D_PINNED:
	case BENCH_D2H_PINNED:
	case BENCH_H2D_PAGEABLE:
	case BENCH_D2H_PAGEABLE:
		if (g && g->link_width_cur > 0 && g->link_speed_cur[0]) {
			double gts = atof(g->link_speed_cur);
			j->peak = lane_gbs(gts) * g->link_width_cur;
			str_fmt(j->peak_what, sizeof(j->peak_what), "PCIe %d.0 x%d, %.1f GB/s per direction",
				pcie_gen(gts), g->link_width_cur, j->peak);
		}
		break;
	case BENCH_GEMM_FP32:
		if (kg && kg->fp32_tflops[0]) {
			j->peak = atof(kg->fp32_tflops);
			str_fmt(j->peak_what, sizeof(j->peak_what), "FP32 %s TFLOP/s (datasheet)", kg->fp32_tflops);
		}
		break;
	case BENCH_GEMM_TF32:
		if (fp16 > 0) {
			j->peak = fp16 / 2;
			str_fmt(j->peak_what, sizeof(j->peak_what), "TF32 tensor %.0f TFLOP/s dense (datasheet)",
				j->peak);
		}
		break;
	case BENCH_GEMM_FP16:
	case BENCH_GEMM_BF16:
		if (fp16 > 0) {
			j->peak = fp16;
			str_fmt(j->peak_what, sizeof(j->peak_what), "FP16/BF16 tensor %.0f TFLOP/s dense (datasheet)",
				fp16);
		}
		break;
	case BENCH_GEMM_FP8:
		if (fp16 > 0 && fp8) {
			j->peak = 2 * fp16;
			str_fmt(j->peak_what, sizeof(j->peak_what), "FP8 tensor %.0f TFLOP/s dense (datasheet)",
				j->peak);
		}
		break;
	default:
		break;
	}
}

static const char *
slowdowns(unsigned long long bits, char *out, size_t size)
{
	out[0] = '\0';
	if (bits & HW_THERMAL)
		str_fmt(out + strlen(out), size - strlen(out), "%shardware thermal slowdown", out[0] ? ", " : "");
	if (bits & SW_THERMAL)
		str_fmt(out + strlen(out), size - strlen(out), "%ssoftware thermal slowdown", out[0] ? ", " : "");
	if (bits & POWER_BRAKE)
		str_fmt(out + strlen(out), size - strlen(out), "%spower brake", out[0] ? ", " : "");
	if (bits & SLOWDOWN && !(bits & (HW_THERMAL | POWER_BRAKE)))
		str_fmt(out + strlen(out), size - strlen(out), "%shardware slowdown", out[0] ? ", " : "");
	return out;
}

void
bench_judge(const struct facts *f, const struct bench_result *r, int n, struct bench_judged *j,
	    struct findings *out)
{
	const struct bench_result *pinned = NULL, *pageable = NULL;
	char why[160];
	int i;

	for (i = 0; i < n; i++) {
		const struct bench_result *x = &r[i];
		const struct gpu_facts *g = bench_gpu(f, x);
		const struct kb_gpu *kg = g ? kb_gpu_by_id(g->device) : NULL;
		const struct kb_bench_reference *ref = g ? kb_bench_reference(g->device, bench_tests[x->test].name) : NULL;
		struct finding *fd;

		memset(&j[i], 0, sizeof(j[i]));
		j[i].figure = x->value_rw > 0 ? x->value_rw : x->value;
		if (x->state == BENCH_OK) {
			peak_of(g, kg, x->test, &j[i]);
			if (ref) {
				j[i].reference = atof(ref->value);
				j[i].reference_source = ref->source;
			}
		}
		if (x->test == BENCH_H2D_PINNED && x->state == BENCH_OK)
			pinned = x;
		if (x->test == BENCH_H2D_PAGEABLE && x->state == BENCH_OK)
			pageable = x;
		if (x->state == BENCH_OK && x->verified == 0) {
			fd = findings_add(out, "perf.result_wrong", SEV_ERROR, "%s gave wrong results",
					  bench_tests[x->test].name);
			finding_evidence(fd, "%s", x->verify);
			finding_fix(fd, "Run NVIDIA's diagnostics (dcgmi diag -r 3) and check the kernel log for Xid "
					"errors (sudo dmesg | grep -i xid); a GPU that computes wrong results needs "
					"service.");
		}
		if (x->state == BENCH_OK && j[i].reference > 0 &&
		    j[i].figure < BENCH_REFERENCE_FLOOR * j[i].reference) {
			fd = findings_add(out, "perf.below_reference", SEV_WARN,
					  "%s reaches %.0f %% of what this GPU model measures (%.1f of %g %s)",
					  bench_tests[x->test].name, 100 * j[i].figure / j[i].reference, j[i].figure,
					  j[i].reference, bench_tests[x->test].unit);
			finding_evidence(fd, "reference: %s", j[i].reference_source);
			if (x->nvml.samples)
				finding_evidence(fd, "during the test: SM clock %d-%d MHz, up to %d W of %d W, up to %d C",
						 x->nvml.sm_clock_min, x->nvml.sm_clock_max, x->nvml.power_max_mw / 1000,
						 x->nvml.power_limit_mw / 1000, x->nvml.temp_max);
			finding_fix(fd, "Check what else runs on the GPU (gpudoctor doctor, nvidia-smi), its clocks "
					"and power limit (nvidia-smi -q -d CLOCK,POWER,PERFORMANCE), cooling, and "
					"for host transfers the PCIe slot; then run gpudoctor bench again.");
		}
		if (x->state == BENCH_OK && slowdowns(x->nvml.reasons, why, sizeof(why))[0]) {
			fd = findings_add(out, "rt.thermal", SEV_WARN, "The GPU slowed itself down during %s (%s)",
					  bench_tests[x->test].name, why);
			finding_evidence(fd, "clock-event reasons seen: 0x%llx; up to %d C, %d W of %d W", x->nvml.reasons,
					 x->nvml.temp_max, x->nvml.power_max_mw / 1000, x->nvml.power_limit_mw / 1000);
			finding_fix(fd, "Check the cooling (fans, airflow, data-centre inlet temperature) and "
					"the power supply; nvidia-smi -q -d PERFORMANCE shows the reasons live.");
		}
		if (x->cu_error == 221) {
			fd = findings_add(out, "driver.ptx_jit_missing", SEV_ERROR,
					  "The driver cannot compile PTX: its JIT compiler is missing");
			finding_evidence(fd, "%s", x->error);
			finding_fix(fd, "Install the driver's whole user-space part: libnvidia-ptxjitcompiler.so.1 "
					"belongs to it (in a container, the NVIDIA Container Toolkit mounts it with "
					"NVIDIA_DRIVER_CAPABILITIES=compute,utility). Programs that ship only PTX for "
					"this GPU, and JIT compilers like Triton's, fail without it.");
		} else if (x->cu_error == 218 && x->test == BENCH_D2D_KERNEL) {
			/* bench's PTX is ISA 6.0 for sm_50, which every driver since
			 * CUDA 9 compiles: a JIT that rejects it is not the driver's own */
			fd = findings_add(out, "driver.version_mismatch", SEV_ERROR,
					  "The driver's PTX compiler rejected PTX every driver accepts");
			finding_evidence(fd, "%s", x->error);
			finding_fix(fd, "Reinstall the driver so that libcuda.so.1 and libnvidia-ptxjitcompiler.so.1 "
					"come from the same version (ls -l /usr/lib/x86_64-linux-gnu/libnvidia-ptxjitcompiler.so.* "
					"/usr/lib/x86_64-linux-gnu/libcuda.so.*).");
		} else if (x->cu_error == 222) {
			fd = findings_add(out, "driver.too_old", SEV_ERROR, "The driver is older than the PTX it was given");
			finding_evidence(fd, "%s", x->error);
			finding_fix(fd, "Upgrade the driver: gpudoctor doctor names the version.");
		}
		if (x->test == BENCH_CPU_SGEMM && x->state == BENCH_OK &&
		    !strcmp(x->library_version, "reference")) {
			fd = findings_add(out, "perf.no_cpu_blas", SEV_INFO,
					  "The CPU's BLAS is the unoptimized reference one (%.1f GFLOP/s)", x->value);
			finding_evidence(fd, "%s exports neither OpenBLAS's, BLIS's nor MKL's functions", x->library);
			finding_fix(fd, "apt install libopenblas0    # Debian, Ubuntu\n"
					"dnf install openblas        # Fedora, RHEL\n"
					"NumPy and PyTorch bring their own optimized BLAS; this only changes what "
					"programs that use the system's BLAS get.");
		}
		if (x->test == BENCH_CPU_SGEMM && x->state == BENCH_SKIPPED) {
			fd = findings_add(out, "perf.no_cpu_blas", SEV_INFO,
					  "No BLAS library: the CPU's matrix multiplication was not measured");
			finding_evidence(fd, "%s", x->error);
			finding_fix(fd, "apt install libopenblas0    # Debian, Ubuntu\n"
					"dnf install openblas        # Fedora, RHEL");
		}
		if (!strcmp(bench_tests[x->test].group, "gemm") && x->state == BENCH_SKIPPED &&
		    strstr(x->error, "no cuBLASLt") && !findings_has(out, "lib.cuda_lib_missing")) {
			fd = findings_add(out, "lib.cuda_lib_missing", SEV_WARN,
					  "No cuBLASLt: matrix multiplication on the GPU was not measured");
			finding_evidence(fd, "%s", x->error);
			finding_fix(fd, "Install a framework with CUDA (its wheels bring cuBLAS), or the cuBLAS "
					"wheel alone:\npip install nvidia-cublas-cu12");
		}
	}
	/* host transfers through a link that trained below its maximum */
	for (i = 0; i < n; i++) {
		const struct gpu_facts *g = bench_gpu(f, &r[i]);
		double cur, max;

		if (r[i].state != BENCH_OK || strcmp(bench_tests[r[i].test].group, "memory") ||
		    r[i].test == BENCH_D2D_KERNEL || r[i].test == BENCH_D2D_COPY || !g || !g->link_width_max ||
		    findings_has(out, "hw.pcie_link_degraded"))
			continue;
		cur = lane_gbs(atof(g->link_speed_cur)) * g->link_width_cur;
		max = lane_gbs(atof(g->link_speed_max)) * g->link_width_max;
		if (cur > 0 && max > cur) {
			struct finding *fd = findings_add(out, "hw.pcie_link_degraded", SEV_WARN,
							  "The GPU's PCIe link runs at %.0f of its %.0f GB/s per direction "
							  "(Gen %d x%d of Gen %d x%d): host transfers are limited by it",
							  cur, max, pcie_gen(atof(g->link_speed_cur)), g->link_width_cur,
							  pcie_gen(atof(g->link_speed_max)), g->link_width_max);
			finding_evidence(fd, "%s measured %.1f GB/s", bench_tests[r[i].test].name, r[i].value);
			finding_fix(fd, "Reseat the GPU in an x16 slot wired for the full width, check the riser and "
					"the firmware's PCIe settings; an idle GPU lowers its link speed to save power, "
					"so compare under load (nvidia-smi -q -d PCIE).");
		}
	}
	if (pinned && pageable && pageable->value < 0.5 * pinned->value) {
		struct finding *fd = findings_add(out, "perf.pageable_transfers", SEV_INFO,
						  "Copies from pageable memory run at %.0f %% of pinned (%.1f against %.1f GB/s)",
						  100 * pageable->value / pinned->value, pageable->value, pinned->value);
		finding_evidence(fd, "%s; %s", pageable->detail, pinned->detail);
		finding_fix(fd, "Feed the GPU from pinned memory: PyTorch DataLoader(..., pin_memory=True) and "
				".to(device, non_blocking=True); TensorFlow's tf.data does it with prefetch_to_device; "
				"JAX: jax.device_put from a NumPy array staged once.");
	}
	findings_sort(out);
}
