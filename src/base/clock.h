/*
 * clock.h - the monotonic clock in milliseconds, for time limits and for
 * the timings the facts record.
 */
#ifndef GPUDOCTOR_CLOCK_H
#define GPUDOCTOR_CLOCK_H

/* Milliseconds on CLOCK_MONOTONIC (an arbitrary origin). */
double clock_ms(void);

#endif
