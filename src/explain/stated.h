/*
 * stated.h - the causes the doctor's rules find in what a log states
 * (logfacts.h). Called by explain_finish before the causes are ranked.
 */
#ifndef GPUDOCTOR_EXPLAIN_STATED_H
#define GPUDOCTOR_EXPLAIN_STATED_H

#include "explain/explain.h"

/* Judge the log's statements (x->stated), on x->machine's facts when set,
 * with rules_run_stated: a finding a pattern found too gets the rule's
 * title, evidence and fix; one no pattern found is added as a cause. */
void explain_stated(struct explain *x);

/* The fix of hw.low_vram read from a log: the GPU's total memory stated
 * under HW_LOW_VRAM_MIB before an out-of-memory error (here, from a
 * framework's device properties; rank.c, from PyTorch's message). */
extern const char explain_low_vram_fix[];

#endif
