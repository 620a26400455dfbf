/*
 * explain_render.h - the answer of `gpudoctor explain` for people (ranked
 * causes with their lines, why, and the fix; harmless messages; lines
 * nothing explains) and for programs (schema gpudoctor/explain/1, see
 * docs/explain.md).
 */
#ifndef GPUDOCTOR_EXPLAIN_RENDER_H
#define GPUDOCTOR_EXPLAIN_RENDER_H

#include "explain/explain.h"
#include "render/render.h"

#include <stdio.h>

/* name: what was read ("train.log", "stdin", "message"); machine: where
 * the facts came from for --here / --from, or NULL. */
void explain_render_text(FILE *out, const struct explain *x, const char *name,
			 const char *machine, const struct render_opts *o);
int explain_render_json(FILE *out, const struct explain *x, const char *name,
			const char *machine);

#endif
