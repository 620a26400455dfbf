/*
 * judge.h - bench results against the GPU model's datasheet and a measured
 * reference (knowledge base), and the findings a user can act on.
 */
#ifndef GPUDOCTOR_BENCH_JUDGE_H
#define GPUDOCTOR_BENCH_JUDGE_H

#include "bench/bench.h"
#include "diag/finding.h"
#include "facts.h"

#define BENCH_REFERENCE_FLOOR 0.75   /* below this share of the reference: perf.below_reference */

struct bench_judged {
	double figure;                   /* the value compared: read+write for d2d */
	double peak;                     /* datasheet or link peak, same unit; 0 unknown */
	char peak_what[96];              /* "datasheet 989 TFLOP/s dense", "PCIe 5.0 x16" */
	double reference;                /* a measured reference; 0 none */
	const char *reference_source;
};

/* The GPU the results ran on, among the facts' GPUs (by bus id); NULL. */
const struct gpu_facts *bench_gpu(const struct facts *f, const struct bench_result *r);

/* Judge results r[0..n) (in test order) into j[0..n) and add findings. */
void bench_judge(const struct facts *f, const struct bench_result *r, int n, struct bench_judged *j,
		 struct findings *out);

#endif
