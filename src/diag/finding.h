/*
 * finding.h - what the rules conclude: one problem (or piece of advice)
 * with the facts it rests on and the exact fix for this machine.
 *
 * IDs are the public ones of shared TAXONOMY.md (layer.name). Severity
 * belongs to the instance. Findings own their strings (heap).
 */
#ifndef GPUDOCTOR_FINDING_H
#define GPUDOCTOR_FINDING_H

#include <stdbool.h>
#include <stddef.h>

enum severity {
	SEV_INFO = 0,
	SEV_WARN = 1,
	SEV_ERROR = 2,
};

#define FINDING_MAX_EVIDENCE 12

struct finding {
	char *id;          /* "kmod.nouveau_loaded" */
	enum severity severity;
	char *layer;       /* "kmod": the part of id before the dot */
	char *title;       /* one line, no full stop */
	char *evidence[FINDING_MAX_EVIDENCE]; /* facts, with paths and numbers */
	int nevidence;
	char *fix;         /* what to do: prose and commands, lines split by \n;
	                      NULL when nothing is to be done */
	char *env;         /* the Python environment (prefix) it concerns; NULL
	                      for machine-wide findings */
};

struct findings {
	struct finding *v;
	size_t n, alloc;
};

void findings_init(struct findings *fs);
void findings_release(struct findings *fs);

/* Add a finding; returns it so evidence and fix can be attached. */
struct finding *findings_add(struct findings *fs, const char *id, enum severity sev,
			     const char *title_fmt, ...) __attribute__((format(printf, 4, 5)));
void finding_evidence(struct finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Name the Python environment (its prefix) a finding concerns. */
void finding_env(struct finding *f, const char *prefix);
/* Set (or replace) the fix text. */
void finding_fix(struct finding *f, const char *text);
void finding_fixf(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Free one finding's strings (the slot itself belongs to the list). */
void finding_release(struct finding *f);
/* causes.c: drop findings that a present root cause explains, naming them
 * in the cause's evidence. */
void findings_explain(struct findings *fs);
/* causes.c: whether a finding `cause` explains (hides) finding `id`. */
bool finding_explains(const char *cause, const char *id);

bool findings_has(const struct findings *fs, const char *id);
enum severity findings_worst(const struct findings *fs); /* SEV_INFO when none */
/* Stable order for reports: by layer order, then severity (worst first),
 * then insertion order. */
void findings_sort(struct findings *fs);

const char *severity_name(enum severity s);
int severity_parse(const char *s); /* -1 unknown */
/* Index of a layer in report order (host hw kmod driver lib fw env mem rt);
 * unknown layers sort last. */
int layer_rank(const char *layer);

#endif
