/*
 * wrap.h - fitting text for people into a width (80 columns): prose
 * wrapped at spaces with a prefix on each line, and shell commands split
 * with line continuations so that what is printed still pastes as one
 * command. Shared by the doctor report (text.c), explain (explain_text.c),
 * compat (compat_text.c) and plan (plan_text.c).
 */
#ifndef GPUDOCTOR_WRAP_H
#define GPUDOCTOR_WRAP_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Write text wrapped at width: the first line starts with `first`, the
 * others with `rest`. A '\n' in text starts a new line (prefixed with
 * `rest`); runs of spaces collapse. A word longer than a line stays whole
 * on a line of its own. Ends with a newline unless text is empty.
 */
void wrap_text(FILE *fp, int width, const char *first, const char *rest, const char *text);

/* wrap_text with `first` and `indent` spaces as the prefixes (at most 32). */
void wrap_hanging(FILE *fp, int width, int first, int indent, const char *text);

/*
 * Write lines of a report (text, '\n' between lines) fitted into width:
 * a line that fits is written as it is; a longer one keeps its head (the
 * leading blanks and a label such as "  machine   ", "  2.21.0    ",
 * "  1. " or "     -> ") and its rest is wrapped under the column where
 * the head ends. For prose and lists; commands go through wrap_command.
 */
void wrap_fit(FILE *fp, int width, const char *text);

/*
 * Write one command line at `indent`, split at spaces outside quotes so
 * that no line passes width where a split point allows: each line but
 * the last ends with `cont` (" \\" for POSIX shells and Dockerfiles,
 * " ^" for cmd.exe), continuation lines are indented four more columns.
 * A line that fits is written as it is.
 */
void wrap_command(FILE *fp, int width, const char *indent, const char *cont, const char *line);

/*
 * Whether a line of a fix is a command to paste verbatim: it starts with
 * a known program (after sudo), a blank, '#' or '$', or it carries a
 * comment after three blanks ("ip -br link   # the interfaces"). Other
 * lines are prose.
 */
bool wrap_is_command(const char *line);

#endif
