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
#include <cmocka.h>
#include <unistd.h>

/* The CUDA 13.0 toolkit that the project's own machines carry (the
 * reference "cpu-only-toolkit" machine); tests that read it skip where it
 * is absent, e.g. on a fresh Debian machine. */
#define HOST_CUDART "/usr/local/cuda/lib64/libcudart.so.13"
#define REQUIRE_HOST_TOOLKIT() \
	do { \
		if (access(HOST_CUDART, R_OK) != 0) \
			skip(); \
	} while (0)

#endif
