/*
 * t_explain_cues.c - the cue words (log_cues.tsv) on the compiled-in
 * tables: messages no row knows are read by their words, whatever program
 * prints them and whatever a terminal glued to them, and a line that only
 * states a fact in the same words fires nothing.
 */
#include "unit.h"
#include "explain_run.h"

#include "explain/explain.h"

#include <stdio.h>
#include <string.h>


/* Other programs' words for a GPU older than the code supports. */
static void
minimum_architecture_in_other_words(void **state)
{
	(void)state;
	assert_string_equal(first_id("[14:45:46][0x00007fffa59573c0] Only CUDA devices with SM 5.0 and higher "
				  "are supported.\n"), "hw.arch_too_old");
	assert_string_equal(first_id("[02:06:25.958896][error] CUDA-Enabled GPU detected, but the compute "
				  "capabilities is not enough.\n"), "hw.arch_too_old");
	assert_string_equal(first_id("CUDA device 0 requires at least compute capability 5.0\n"), "hw.arch_too_old");
	/* statements in the same words */
	assert_string_equal(first_id("Found 1 CUDA devices with SM 8.6\n"), "none");
	assert_string_equal(first_id("Supported compute capabilities: 5.0 6.0 7.0 8.0\n"), "none");
}

/* Other programs' words for no usable GPU. */
static void
no_gpu_in_other_words(void **state)
{
	(void)state;
	assert_string_equal(first_id("[10:18:51.765156][warning] No CUDA-Enabled GPU.\n"), "driver.no_visible_device");
	assert_string_equal(first_id("[error] This program needs a CUDA-Enabled GPU (with at least compute "
				     "capablility 2.0).\n"), "driver.no_visible_device");
	assert_string_equal(first_id("[ERROR]: No GPU was detected! Available GPUs are:\n"), "driver.no_visible_device");
	assert_string_equal(first_id("Using CUDA-enabled GPU 0: NVIDIA GeForce RTX 3090\n"), "none");
}

/* A progress bar redrawn on the line: its last figure glued to the
 * message that follows still leaves the message's first word a word. */
static void
message_glued_to_a_progress_bar(void **state)
{
	(void)state;
	assert_string_equal(first_id("\xe2\xa0\xb4 Transcribing... 0:00:00Could not locate cudnn_ops64_9.dll. Please make "
				  "sure it is in your library path!\n"), "lib.cudnn_missing");
	/* a lower-case word after a digit is inside an identifier: no cue,
	 * only a GPU-related line no message explains */
	assert_string_equal(first_id("error: libfoo3cudnn not found\n"), "rt.unknown");
}

/* Switchers' words for hybrid graphics that did not hand over. */
static void
hybrid_graphics_in_other_words(void **state)
{
	(void)state;
	assert_string_equal(first_id("[  120.331522] [ERROR]Cannot access secondary GPU - error: Could not enable "
				  "discrete graphics card\n"), "hw.hybrid_graphics");
	assert_string_equal(first_id("ERROR: optimus-manager failed to switch to the nvidia GPU\n"),
			    "hw.hybrid_graphics");
	assert_string_equal(first_id("Setting up PRIME render offload for the discrete GPU\n"), "none");
}

/* Other wordings of a library that is not there: "unable to open",
 * "there is no file or directory" (R's and localized loaders). */
static void
missing_library_in_other_words(void **state)
{
	(void)state;
	assert_string_equal(first_id("  - libcudart.so.12: Unable to open shared object file: there is no file or "
				  "directory\n"), "lib.cudart_missing");
	assert_string_equal(first_id("cudnn_ops64_9.dll: unable to open the file\n"), "lib.cudnn_missing");
	assert_string_equal(first_id("libcuda.so.1: no file or directory\n"), "driver.libcuda_missing");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(minimum_architecture_in_other_words),
		cmocka_unit_test(no_gpu_in_other_words),
		cmocka_unit_test(message_glued_to_a_progress_bar),
		cmocka_unit_test(hybrid_graphics_in_other_words),
		cmocka_unit_test(missing_library_in_other_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
