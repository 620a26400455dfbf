/*
 * here.h - the causes of a log set against a machine's facts and the
 * doctor's findings on it (`explain --here`, `explain --from FILE`).
 */
#ifndef GPUDOCTOR_EXPLAIN_HERE_H
#define GPUDOCTOR_EXPLAIN_HERE_H

#include "diag/finding.h"
#include "explain/explain.h"
#include "facts.h"

/* Call after explain_finish. */
void explain_here(struct explain *x, const struct facts *f, const struct findings *fs);

#endif
