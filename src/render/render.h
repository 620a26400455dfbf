/*
 * render.h - facts + findings -> text for people, JSON for programs.
 * Renderers never decide anything; they print what probes and rules said.
 */
#ifndef GPUDOCTOR_RENDER_H
#define GPUDOCTOR_RENDER_H

#include "diag/finding.h"
#include "facts.h"

#include <stdbool.h>
#include <stdio.h>

struct render_opts {
	bool color;    /* ANSI colour (only on a terminal, never with NO_COLOR) */
	int width;     /* wrap column; 80 */
	bool verbose;  /* every library copy and probe note */
};

/* Decide colour: "auto" (a tty and NO_COLOR unset), "always", "never". */
bool render_want_color(const char *mode, FILE *out);

/* text.c: the layered human report. */
void render_text(FILE *out, const struct facts *f, const struct findings *fs,
		 const struct render_opts *o);

/* text.c: only the findings, each with its evidence and fix (bench). */
void render_findings(FILE *out, const struct findings *fs, const struct render_opts *o);

/* json.c: the facts document (schema gpudoctor/facts/1) with findings. */
int render_json(FILE *out, const struct facts *f, const struct findings *fs);

#endif
