/*
 * unit.h - what every unit test file includes: cmocka, and helpers to build
 * facts by hand.
 *
 * A unit test file tests/unit/t_<module>.c has a main() that runs its
 * cmocka group; tests/run.sh runs every t_* binary with TAP output and
 * counts the results.
 */
#ifndef GPUDOCTOR_UNIT_H
#define GPUDOCTOR_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <unistd.h>

/* Skip the running test and say why: a "# skipped: TEST: WHY" line that
 * tests/run.sh lists at the end of the run. */
#define SKIP_BECAUSE(...) \
	do { \
		printf("# skipped: %s: ", __func__); \
		printf(__VA_ARGS__); \
		printf("\n"); \
		fflush(stdout); \
		skip(); \
	} while (0)

/* A CUDA toolkit in /usr/local/cuda (any version: the tests that read it
 * take what they expect from its own files); absent on a fresh Debian
 * machine, where those tests skip. */
#define HOST_CUDA_LIB "/usr/local/cuda/lib64"
#define REQUIRE_HOST_TOOLKIT() \
	do { \
		if (!unit_host_lib("libcudart.so", NULL, 0)) \
			SKIP_BECAUSE("no CUDA toolkit (libcudart.so.N) in " HOST_CUDA_LIB); \
	} while (0)

/* The soname HOST_CUDA_LIB has for a library ("libcudart.so" ->
 * "libcudart.so.13") into out, its major returned; 0 when it has none. */
static inline int
unit_host_lib(const char *prefix, char *out, size_t size)
{
	char p[256];
	int major;

	for (major = 9; major < 30; major++) {
		snprintf(p, sizeof(p), HOST_CUDA_LIB "/%s.%d", prefix, major);
		if (access(p, R_OK) == 0) {
			if (out)
				snprintf(out, size, "%s.%d", prefix, major);
			return major;
		}
	}
	return 0;
}

#endif
