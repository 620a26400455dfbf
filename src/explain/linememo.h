/*
 * linememo.h - what explain found on a line, kept by the line's shape, so
 * that a line seen before is not matched again: a warning repeated at
 * every step of a training run differs only in its timestamp or step
 * number. The shape is the line with the digits of its prefix (everything
 * before the first word of two letters: "2024-03-02 11:04:51.018233: W",
 * "I0817 22:53:22.694056 24820") read as 0, and the anchors found in it.
 * Same shape, same length: the same row matches at the same offsets, so
 * the captures are taken from the new line where the old one had them.
 */
#ifndef GPUDOCTOR_EXPLAIN_LINEMEMO_H
#define GPUDOCTOR_EXPLAIN_LINEMEMO_H

#include "explain/acmatch.h"

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#define LINEMEMO_SLOTS 64
#define LINEMEMO_MAX 1024         /* longer lines are not kept */
#define LINEMEMO_GROUPS 10

enum linememo_kind {
	LINEMEMO_EMPTY,
	LINEMEMO_ROW,                 /* a row matched: row, groups, m */
	LINEMEMO_UNKNOWN,             /* a GPU error no row explains; row: one whose expression failed, or SIZE_MAX */
	LINEMEMO_NOTHING,             /* anchors, but no row's expression matched; row as for UNKNOWN */
};

struct linememo_entry {
	enum linememo_kind kind;
	uint64_t hash;
	size_t len;
	unsigned char key[LINEMEMO_MAX];
	size_t row;
	size_t ngroups;
	regmatch_t m[LINEMEMO_GROUPS];
};

struct linememo {
	struct linememo_entry *slots; /* LINEMEMO_SLOTS, allocated on first use */
	unsigned char key[LINEMEMO_MAX]; /* the line being looked up */
	size_t len;
	uint64_t hash;
};

/* The shape of s[0, len) with its hits into lm (the line looked up next);
 * false when the line is too long to keep. */
int linememo_shape(struct linememo *lm, const unsigned char *s, size_t len,
		   const struct acm_hit *hits, size_t n);
/* The entry of the shape just made, or NULL. */
const struct linememo_entry *linememo_get(const struct linememo *lm);
/* Keep what was found for the shape just made. */
void linememo_put(struct linememo *lm, enum linememo_kind kind, size_t row, const regmatch_t *m,
		  size_t ngroups);
void linememo_release(struct linememo *lm);

#endif
