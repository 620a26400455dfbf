/*
 * libfix.h - fixes for a missing library derived from the knowledge base
 * and the log's own statements (libfix.c). Called by explain_finish.
 */
#ifndef GPUDOCTOR_EXPLAIN_LIBFIX_H
#define GPUDOCTOR_EXPLAIN_LIBFIX_H

#include "explain/explain.h"

/* Replace the table's general fix of each lib.cudnn_missing cause. */
void explain_library_fixes(struct explain *x);

#endif
