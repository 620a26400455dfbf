/*
 * explain_run.h - what the explain tests share: a log given as a string,
 * read, matched and ranked (explain_finish), with every step checked.
 * Release with explain_release.
 */
#ifndef GPUDOCTOR_EXPLAIN_RUN_H
#define GPUDOCTOR_EXPLAIN_RUN_H

#include "unit.h"

#include "explain/explain.h"
#include "explain/logread.h"

#include <stdio.h>
#include <string.h>

static inline void
run_text(struct explain *x, const char *text)
{
	char err[256];
	struct logread r;

	assert_int_equal(explain_init(x, err, sizeof(err)), 0);
	logread_init_mem(&r, text, strlen(text));
	assert_int_equal(explain_stream(x, &r), 0);
	logread_release(&r);
	explain_finish(x);
}

/* Run text and check the finding of the first-ranked cause. */
static inline void
expect_first(const char *text, const char *id)
{
	struct explain x;

	run_text(&x, text);
	assert_true(x.ncauses > 0);
	assert_string_equal(x.causes[0].id, id);
	explain_release(&x);
}

/* Run text: the finding of the first-ranked cause, "none" without one
 * (a static buffer, overwritten by the next call). */
static inline const char *
first_id(const char *text)
{
	static char id[64];
	struct explain x;

	run_text(&x, text);
	snprintf(id, sizeof(id), "%s", x.ncauses ? x.causes[0].id : "none");
	explain_release(&x);
	return id;
}

#endif
