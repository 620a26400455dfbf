/*
 * factsdiff.h - two facts documents (doctor --json) compared fact by fact:
 * every value that differs, by layer, with lists matched by what names
 * their items (a GPU by its bus id, a library or an environment by its
 * path, a package by its name), not by position; and the findings only one
 * of them has. For `gpudoctor diff`.
 */
#ifndef GPUDOCTOR_FACTSDIFF_H
#define GPUDOCTOR_FACTSDIFF_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct factsdiff_item {
	const char *layer;           /* host, hw, kmod, driver, libs, env, python, procs */
	char *path;                  /* driver.version, libs[/usr/lib/libcudnn.so.9].version */
	char *a, *b;                 /* the values as JSON text; NULL: absent on that side */
};

struct factsdiff_finding {
	char *id, *severity, *title, *env;
	int side;                    /* 0 only in A, 1 only in B */
};

struct factsdiff {
	struct factsdiff_item *items;
	size_t nitems, alloc;
	struct factsdiff_finding *findings;
	size_t nfindings, falloc;
};

/* Compare documents a and b (already checked to be facts documents). */
void factsdiff_run(json_t *a, json_t *b, struct factsdiff *d);
void factsdiff_release(struct factsdiff *d);

#endif
