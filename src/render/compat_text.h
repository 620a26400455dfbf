/*
 * compat_text.h - lays out a `gpudoctor compat` answer (the JSON object
 * that --json prints) as text for people.
 */
#ifndef GPUDOCTOR_COMPAT_TEXT_H
#define GPUDOCTOR_COMPAT_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* 0, or -1 when the answer is of no known kind or writing failed. */
int compat_render_text(FILE *out, json_t *answer, bool color);

#endif
