/*
 * acmatch.c - Aho-Corasick multi-string search (see acmatch.h).
 *
 * Bytes are first mapped to classes: every byte that occurs in some
 * string (letters folded to lower case) has its own class, all others
 * share class 0, so the transition table is states x classes rather than
 * states x 256. Failure links are folded into the table at build time,
 * and a transition into a state that ends some string carries a flag bit,
 * so the scan loop is one load and one test per byte.
 */
#include "explain/acmatch.h"
#include "base/xalloc.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define FLAG 0x80000000u         /* the target state ends some string */
#define DEEP 0x40000000u         /* the target state stands for ACM_DEEP bytes or more */
#define MASK 0x3fffffffu

struct acm_str {
	unsigned char *s;
	size_t len;
	unsigned id;
};

struct acm {
	struct acm_str *strs;
	size_t nstrs, astrs;
	size_t total;            /* sum of lengths: bound on states */
	unsigned char cls[256];
	unsigned nc;             /* number of classes */
	uint32_t *delta;         /* nstates * nc: target state * nc, FLAG when it has output */
	uint32_t nstates;
	uint32_t *out_off;       /* outputs of state s: out_ids[out_off[s] .. out_off[s+1]) */
	unsigned *out_ids;
	bool built;
};

struct acm *
acm_new(void)
{
	return xcalloc(1, sizeof(struct acm));
}

void
acm_free(struct acm *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nstrs; i++)
		free(a->strs[i].s);
	free(a->strs);
	free(a->delta);
	free(a->out_off);
	free(a->out_ids);
	free(a);
}

int
acm_add(struct acm *a, const char *s, size_t len, unsigned id)
{
	struct acm_str *t;
	size_t i;

	if (a->built || len == 0 || len > 255 || a->total + len >= ACM_MAX_STATES)
		return -1;
	if (a->nstrs == a->astrs) {
		a->astrs = a->astrs ? a->astrs * 2 : 64;
		a->strs = xrealloc(a->strs, a->astrs * sizeof(*a->strs));
	}
	t = &a->strs[a->nstrs++];
	t->s = xmalloc(len);
	for (i = 0; i < len; i++)
		t->s[i] = (unsigned char)tolower((unsigned char)s[i]);
	t->len = len;
	t->id = id;
	a->total += len;
	return 0;
}

/* Give every byte of the strings a class; upper case shares its letter's. */
static void
make_classes(struct acm *a)
{
	size_t i, j;
	int c;

	memset(a->cls, 0, sizeof(a->cls));
	a->nc = 1;
	for (i = 0; i < a->nstrs; i++)
		for (j = 0; j < a->strs[i].len; j++) {
			c = a->strs[i].s[j];
			if (!a->cls[c])
				a->cls[c] = (unsigned char)a->nc++;
		}
	for (c = 'A'; c <= 'Z'; c++)
		a->cls[c] = a->cls[tolower(c)];
}

int
acm_build(struct acm *a)
{
	uint32_t maxst, *g, *fail, *queue, *olen, *term_head, *term_next;
	uint16_t *depth;
	size_t i, j, qh = 0, qt = 0, nout = 0;
	unsigned c;

	if (a->built || !a->nstrs)
		return -1;
	make_classes(a);
	maxst = (uint32_t)a->total + 1;
	g = xmalloc((size_t)maxst * a->nc * sizeof(*g));
	for (i = 0; i < (size_t)maxst * a->nc; i++)
		g[i] = NONE;
	term_head = xmalloc(maxst * sizeof(*term_head));
	for (i = 0; i < maxst; i++)
		term_head[i] = NONE;
	term_next = xmalloc(a->nstrs * sizeof(*term_next));
	a->nstates = 1;

	/* the trie */
	depth = xcalloc(maxst, sizeof(*depth));
	for (i = 0; i < a->nstrs; i++) {
		uint32_t s = 0;
		for (j = 0; j < a->strs[i].len; j++) {
			uint32_t *t = &g[(size_t)s * a->nc + a->cls[a->strs[i].s[j]]];
			if (*t == NONE) {
				*t = a->nstates++;
				depth[*t] = (uint16_t)(j + 1);
			}
			s = *t;
		}
		term_next[i] = term_head[s];
		term_head[s] = (uint32_t)i;
	}

	/* failure links, breadth first, folded into the table */
	fail = xcalloc(a->nstates, sizeof(*fail));
	queue = xmalloc(a->nstates * sizeof(*queue));
	olen = xcalloc(a->nstates, sizeof(*olen));
	for (c = 0; c < a->nc; c++) {
		uint32_t u = g[c];
		if (u == NONE) {
			g[c] = 0;
		} else {
			fail[u] = 0;
			queue[qt++] = u;
		}
	}
	while (qh < qt) {
		uint32_t r = queue[qh++];
		for (c = 0; c < a->nc; c++) {
			uint32_t *t = &g[(size_t)r * a->nc + c];
			uint32_t via = g[(size_t)fail[r] * a->nc + c] & MASK;
			if (*t == NONE) {
				*t = via;
			} else {
				fail[*t] = via;
				queue[qt++] = *t;
			}
		}
	}

	/* outputs: a state's own strings, then its failure state's */
	for (i = 0; i < qt; i++) {
		uint32_t s = queue[i], k;
		for (k = term_head[s]; k != NONE; k = term_next[k])
			olen[s]++;
		olen[s] += olen[fail[s]];
	}
	a->out_off = xmalloc(((size_t)a->nstates + 1) * sizeof(*a->out_off));
	for (i = 0; i < a->nstates; i++) {
		a->out_off[i] = (uint32_t)nout;
		nout += olen[i];
	}
	a->out_off[a->nstates] = (uint32_t)nout;
	a->out_ids = xmalloc((nout ? nout : 1) * sizeof(*a->out_ids));
	for (i = 0; i < qt; i++) {
		uint32_t s = queue[i], k, n = 0, f = fail[s];
		unsigned *o = a->out_ids + a->out_off[s];
		for (k = term_head[s]; k != NONE; k = term_next[k])
			o[n++] = a->strs[k].id;
		memcpy(o + n, a->out_ids + a->out_off[f], olen[f] * sizeof(*o));
	}
	/* entries hold the target's row offset (state * nc): no multiply
	 * in the scan loop */
	for (i = 0; i < (size_t)a->nstates * a->nc; i++) {
		uint32_t t = g[i] & MASK;
		g[i] = t * a->nc | (olen[t] ? FLAG : 0) | (depth[t] >= ACM_DEEP ? DEEP : 0);
	}
	a->delta = g;
	a->built = true;
	free(fail);
	free(queue);
	free(olen);
	free(term_head);
	free(term_next);
	free(depth);
	return 0;
}

size_t
acm_scan(const struct acm *a, const unsigned char *text, size_t len, struct acm_hit *hits,
	 size_t max)
{
	unsigned state = 0;

	return acm_scan_from(a, &state, text, len, hits, max);
}

bool
acm_state_deep(unsigned state)
{
	return (state & DEEP) != 0;
}

size_t
acm_scan_from(const struct acm *a, unsigned *state, const unsigned char *text, size_t len,
	      struct acm_hit *hits, size_t max)
{
	const uint32_t *delta = a->delta;
	const unsigned char *cls = a->cls;
	size_t i, n = 0;
	uint32_t off, e = *state & (MASK | DEEP);

	if (!a->built)
		return 0;
	off = e & MASK;
	if (off >= a->nstates * a->nc)
		off = e = 0;
	for (i = 0; i < len; i++) {
		e = delta[off + cls[text[i]]];
		off = e & MASK;
		if (e & FLAG) {
			uint32_t k, s = off / a->nc;
			for (k = a->out_off[s]; k < a->out_off[s + 1]; k++) {
				unsigned id = a->out_ids[k];
				size_t h;
				for (h = 0; h < n && hits[h].id != id; h++)
					;
				if (h == n && n < max) {
					hits[n].id = id;
					hits[n].end = i + 1;
					n++;
				}
			}
		}
	}
	*state = e & (MASK | DEEP);
	return n;
}
