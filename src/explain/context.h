/*
 * context.h - what the context of a log makes of a cause: the readings
 * explain_finish runs on the matched causes before it ranks them
 * (context.c).
 */
#ifndef GPUDOCTOR_EXPLAIN_CONTEXT_H
#define GPUDOCTOR_EXPLAIN_CONTEXT_H

#include "explain/explain.h"

/* Recast each cause the log's context explains: WSL2, containers, Slurm
 * jobs, JetPack 4 images, builds without the GPU's code, nvcc's refused
 * architecture, pip's version list, the installed CUDA, macOS. */
void explain_context(struct explain *x);

/* Make c another finding, as a root cause, with its own words: title is
 * taken (freed later), explain (NULL keeps c's) and fix are copied. */
void explain_recast(struct explain_cause *c, const char *id, char *title, const char *explain,
		    const char *fix);

#endif
