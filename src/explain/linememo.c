/*
 * linememo.c - results of lines seen before, by shape (see linememo.h).
 */
#include "explain/linememo.h"
#include "base/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define FNV_OFFSET 14695981039346656037ull
#define FNV_PRIME 1099511628211ull

int
linememo_shape(struct linememo *lm, const unsigned char *s, size_t len, const struct acm_hit *hits,
	       size_t n)
{
	uint64_t h = FNV_OFFSET, w;
	size_t i, prefix = len, k;

	lm->len = 0;
	if (len > LINEMEMO_MAX)
		return 0;
	/* the prefix ends at the first word of two letters */
	for (i = 0; i + 1 < len; i++)
		if (isalpha(s[i]) && isalpha(s[i + 1])) {
			prefix = i;
			break;
		}
	for (i = 0; i < prefix; i++)
		lm->key[i] = isdigit(s[i]) ? '0' : s[i];
	memcpy(lm->key + prefix, s + prefix, len - prefix);
	/* eight bytes a step: the multiply's latency is the cost */
	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, lm->key + i, 8);
		h = (h ^ w) * FNV_PRIME;
	}
	for (; i < len; i++)
		h = (h ^ lm->key[i]) * FNV_PRIME;
	for (k = 0; k < n; k++)
		h = (h ^ (hits[k].id * 31u + (unsigned)hits[k].end)) * FNV_PRIME;
	lm->len = len;
	lm->hash = h;
	return 1;
}

const struct linememo_entry *
linememo_get(const struct linememo *lm)
{
	const struct linememo_entry *e;

	if (!lm->len || !lm->slots)
		return NULL;
	e = &lm->slots[lm->hash % LINEMEMO_SLOTS];
	if (e->kind == LINEMEMO_EMPTY || e->hash != lm->hash || e->len != lm->len ||
	    memcmp(e->key, lm->key, lm->len))
		return NULL;
	return e;
}

void
linememo_put(struct linememo *lm, enum linememo_kind kind, size_t row, const regmatch_t *m,
	     size_t ngroups)
{
	struct linememo_entry *e;

	if (!lm->len)
		return;
	if (!lm->slots)
		lm->slots = xcalloc(LINEMEMO_SLOTS, sizeof(*lm->slots));
	e = &lm->slots[lm->hash % LINEMEMO_SLOTS];
	e->kind = kind;
	e->hash = lm->hash;
	e->len = lm->len;
	memcpy(e->key, lm->key, lm->len);
	e->row = row;
	e->ngroups = ngroups > LINEMEMO_GROUPS ? LINEMEMO_GROUPS : ngroups;
	if (m && e->ngroups)
		memcpy(e->m, m, e->ngroups * sizeof(*m));
}

void
linememo_release(struct linememo *lm)
{
	free(lm->slots);
	memset(lm, 0, sizeof(*lm));
}
