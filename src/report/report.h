/*
 * report.h - the report to paste into a bug tracker or open in a browser:
 * a one-line verdict, a summary of the machine and a verdict per layer,
 * every finding with its evidence and fix, what a log says (explain), and
 * with --bench a benchmark's figures, and the rest collapsed (the full
 * doctor report by part, the facts as JSON).
 * One content (build.c), two forms: Markdown and one-file HTML. Redacted
 * by default (redact.h).
 */
#ifndef GPUDOCTOR_REPORT_H
#define GPUDOCTOR_REPORT_H

#include "base/buf.h"
#include "diag/finding.h"
#include "explain/explain.h"
#include "facts.h"

#include <stdbool.h>
#include <stddef.h>

struct rw;
struct json_t;

#define REPORT_GITHUB_LIMIT 65536u /* characters GitHub takes in an issue or comment */

enum report_format {
	REPORT_MARKDOWN,
	REPORT_HTML,
};

struct report_input {
	const struct facts *f;         /* cleaned for people (facts_clean_text) */
	const struct findings *fs;
	const struct explain *x;       /* a log's causes, or NULL */
	const char *log_name;          /* what the log is called */
	const struct json_t *bench;    /* a `bench --json` document, or NULL */
	bool redact;                   /* hide users, hosts, UUIDs, serials, addresses */
	size_t limit;                  /* Markdown: bytes at most, 0 none */
	/* more sections after the layers' verdicts (serve's live GPU state),
	 * written through writer.h; NULL none */
	void (*more)(struct rw *w, void *arg);
	void *more_arg;
};

/* Write the report to out; 0, or -1 when memory ran out. */
int report_render(const struct report_input *in, enum report_format fmt, struct buf *out);

#endif
