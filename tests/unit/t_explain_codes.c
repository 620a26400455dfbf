/*
 * t_explain_codes.c - explain and the status codes of the knowledge base
 * (error_codes.tsv through explain/codes.c), on the compiled-in tables:
 * every code's name is recognised whatever the case and the form around
 * it, its library's message where the line names the GPU stack, a row of
 * log_patterns.tsv keeps its messages, and no code hides another.
 */
#include "unit.h"
#include "explain_run.h"

#include "explain/explain.h"
#include "explain/logread.h"
#include "kb/kb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>



/* Forms programs print, each to the code's finding. */
static void
names_in_every_form(void **state)
{
	static const struct {
		const char *line, *id;
	} cases[] = {
		{"deviceQuery.cpp:43 cudaGetDeviceCount returned 803\n-> system has unsupported display "
		 "driver / cuda driver combination", "driver.version_mismatch"},
		{"CUDA error at main.cu:12 code=803(cudaErrorSystemDriverMismatch) \"cudaMalloc(&p, n)\"",
		 "driver.version_mismatch"},
		{"Failed to initialize NVML: NVML_ERROR_LIB_RM_VERSION_MISMATCH", "driver.version_mismatch"},
		{"RuntimeError: CUDA error: device kernel image is invalid", "fw.arch_not_in_build"},
		{"error: cudaerrornokernelimagefordevice", "fw.arch_not_in_build"},
		{"jax: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered", "rt.kernel_fault"},
		{"cublasCreate failed: CUBLAS_STATUS_ARCH_MISMATCH", "hw.arch_too_old"},
		{"cudnnConvolutionForward: CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH", "hw.arch_too_old"},
		{"cudnn: CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED", "lib.cudnn_missing"},
		{"NCCL error: ncclRemoteError", "rt.nccl_error"},
		/* the toolkit's stub libcuda found before the driver's */
		{"Warp CUDA error: Failed to get driver entry point 'cuInit' (CUDA error 34)", "lib.shadowed"},
		{"ggml_cuda_init: failed to initialize CUDA: CUDA driver is a stub library", "lib.shadowed"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strcmp(first_id(cases[i].line), cases[i].id))
			fail_msg("\"%s\": %s, expected %s", cases[i].line, first_id(cases[i].line), cases[i].id);
}

/* A message counts only on a line that names the GPU stack; a phrase
 * that common elsewhere stays unexplained. */
static void
messages_need_the_gpu_stack(void **state)
{
	(void)state;
	assert_string_equal(first_id("lock: invalid resource handle in module ui"), "none");
	assert_string_equal(first_id("RuntimeError: CUDA error: invalid resource handle"), "rt.unknown");
}

/* Every code of the table is answered with its own finding when its name
 * stands alone on a line; none is taken by another code. */
static void
every_code_is_recognised(void **state)
{
	const struct kb_error_code *c;
	size_t n, i, checked = 0;
	char line[256];

	struct explain x;
	char err[256];

	(void)state;
	c = kb_list_error_codes(&n);
	assert_true(n > 250);
	assert_int_equal(explain_init(&x, err, sizeof(err)), 0);
	for (i = 0; i < n; i++) {
		struct logread r;
		size_t k;
		bool found = false;

		snprintf(line, sizeof(line), "%s failed: %s", c[i].library, c[i].name);
		explain_reset(&x);
		logread_init_mem(&r, line, strlen(line));
		assert_int_equal(explain_stream(&x, &r), 0);
		logread_release(&r);
		explain_finish(&x);
		for (k = 0; k < x.ncauses; k++)
			found |= !strcmp(x.causes[k].id, c[i].finding);
		if (!found)
			fail_msg("%s: not answered with %s (first: %s)", c[i].name, c[i].finding,
				 x.ncauses ? x.causes[0].id : "none");
		checked++;
	}
	explain_release(&x);
	assert_int_equal(checked, n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_in_every_form),
		cmocka_unit_test(messages_need_the_gpu_stack),
		cmocka_unit_test(every_code_is_recognised),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
