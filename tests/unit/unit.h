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

#endif
