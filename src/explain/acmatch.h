/*
 * acmatch.h - many literal strings found in one pass over the text
 * (Aho-Corasick, as a dense automaton over byte classes), ASCII case
 * folded. `explain` uses it to test every log line against every anchor
 * of the pattern table at once: one table lookup per byte, whatever the
 * number of patterns.
 *
 * Build: acm_new, acm_add for each string (with the caller's id), then
 * acm_build; the automaton is read-only afterwards and may be shared.
 */
#ifndef GPUDOCTOR_ACMATCH_H
#define GPUDOCTOR_ACMATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct acm;

struct acm_hit {
	unsigned id;       /* as given to acm_add */
	size_t end;        /* offset just past the match in the scanned text */
};

struct acm *acm_new(void);
void acm_free(struct acm *a);
/* Add a string (1..255 bytes). Returns 0, or -1 after acm_build, for an
 * empty or too long string, or past ACM_MAX_STATES. */
int acm_add(struct acm *a, const char *s, size_t len, unsigned id);
/* Finish the automaton. Returns 0 or -1 (nothing added). */
int acm_build(struct acm *a);

/* Find matches in text[0..len): writes at most max hits (the first end
 * position of each distinct id, in order of discovery) and returns how
 * many were written. */
size_t acm_scan(const struct acm *a, const unsigned char *text, size_t len,
		struct acm_hit *hits, size_t max);

/* The same, starting in *state (0: the start) and leaving there the
 * state at the end of the text (an opaque value), so that a string cut by
 * the end of one text is found completed at the start of the next; a
 * hit's end is then less than its string's length. */
size_t acm_scan_from(const struct acm *a, unsigned *state, const unsigned char *text,
		     size_t len, struct acm_hit *hits, size_t max);
/* Whether the text scanned into state ends with ACM_DEEP or more bytes of
 * some string (free: the automaton marks such states). */
#define ACM_DEEP 4
bool acm_state_deep(unsigned state);

#define ACM_MAX_STATES 65535u

#endif
