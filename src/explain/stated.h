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

#endif
