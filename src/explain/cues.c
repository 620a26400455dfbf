/*
 * cues.c - the cue table as rows and words for the matcher (see cues.h).
 */
#include "explain/cues.h"
#include "base/str.h"
#include "base/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A word of a cue as read from the table, before words are merged. */
struct cue_entry {
	const char *w;                   /* in the table's string, not terminated */
	size_t n;                        /* without the '*' */
	bool prefix;
	struct cue_use use;
};

struct entries {
	struct cue_entry *e;
	size_t n, cap;
};

static void
add_entry(struct entries *es, const char *w, size_t n, unsigned cue, unsigned char group)
{
	struct cue_entry *e;

	if (es->n == es->cap) {
		es->cap = es->cap ? 2 * es->cap : 256;
		es->e = xrealloc(es->e, es->cap * sizeof(*es->e));
	}
	e = &es->e[es->n++];
	e->prefix = n && w[n - 1] == '*';
	e->w = w;
	e->n = e->prefix ? n - 1 : n;
	e->use.cue = cue;
	e->use.group = group;
}

/* "a | b + c" -> words of groups 0, 0, 1 (group fixed: unless words);
 * the number of groups. */
static unsigned
add_words(struct entries *es, const char *s, unsigned cue, int fixed)
{
	unsigned group = 0;

	while (*s) {
		size_t n;

		s += strspn(s, " ");
		n = strcspn(s, "|+");
		while (n && s[n - 1] == ' ')
			n--;
		if (n)
			add_entry(es, s, n, cue, fixed >= 0 ? (unsigned char)fixed : (unsigned char)group);
		s += strcspn(s, "|+");
		if (*s == '+')
			group++;
		if (*s)
			s++;
	}
	return group + 1;
}

/* Case-folded text, then whole words before prefixes. */
static int
entry_cmp(const void *pa, const void *pb)
{
	const struct cue_entry *a = pa, *b = pb;
	size_t n = a->n < b->n ? a->n : b->n;
	int d = strncasecmp(a->w, b->w, n);

	if (d)
		return d;
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	return (int)a->prefix - (int)b->prefix;
}

static bool
same_word(const struct cue_entry *a, const struct cue_entry *b)
{
	return entry_cmp(a, b) == 0;
}

int
cue_table_build(struct cue_table *t, char *err, size_t errsize)
{
	size_t n, i;
	const struct kb_log_cue *cues = kb_list_log_cues(&n);
	struct entries es = {0};

	memset(t, 0, sizeof(*t));
	if (n > CUES_MAX)
		n = CUES_MAX;
	t->rows = xcalloc(n ? n : 1, sizeof(*t->rows));
	for (i = 0; i < n; i++) {
		const struct kb_log_cue *c = &cues[i];
		struct kb_log_pattern *r = &t->rows[i];
		unsigned groups;

		r->key = c->key;
		r->finding = c->finding;
		r->severity = c->severity;
		r->role = c->role;
		r->framework = "any";
		r->anchor = "";
		r->regex = c->regex;
		r->captures = c->captures;
		r->title = c->title;
		r->explain = c->explain;
		r->fix = c->fix;
		r->source = c->source;
		groups = add_words(&es, c->words, (unsigned)i, -1);
		if (groups > 8) {
			str_fmt(err, errsize, "log cue %s: more than 8 groups", c->key);
			free(es.e);
			cue_table_release(t);
			return -1;
		}
		t->ngroups[i] = (unsigned char)groups;
		add_words(&es, c->unless, (unsigned)i, CUE_UNLESS);
	}
	t->nrows = n;
	/* one word for all its uses */
	if (es.n)
		qsort(es.e, es.n, sizeof(*es.e), entry_cmp);
	t->uses = xcalloc(es.n ? es.n : 1, sizeof(*t->uses));
	t->words = xcalloc(es.n ? es.n : 1, sizeof(*t->words));
	for (i = 0; i < es.n; i++) {
		struct cue_word *w;

		if (!i || !same_word(&es.e[i - 1], &es.e[i])) {
			w = &t->words[t->nwords++];
			w->text = xstrndup(es.e[i].w, es.e[i].n);
			w->len = es.e[i].n;
			w->prefix = es.e[i].prefix;
			w->use0 = t->nuses;
		}
		t->uses[t->nuses++] = es.e[i].use;
		t->words[t->nwords - 1].nuses++;
	}
	free(es.e);
	return 0;
}

void
cue_table_release(struct cue_table *t)
{
	size_t i;

	for (i = 0; i < t->nwords; i++)
		free(t->words[i].text);
	free(t->words);
	free(t->uses);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

/* A letter or a digit: '_' separates words ("nvidia_331_uvm" holds "uvm",
 * "CUDA_ERROR_OUT_OF_MEMORY" its words) */
static bool
word_char(unsigned char c)
{
	return isalnum(c);
}

void
cue_line_hit(struct cue_line *l, const struct cue_table *t, size_t w, const unsigned char *s,
	     size_t len, size_t end)
{
	const struct cue_word *cw;
	size_t start, u;

	if (w >= t->nwords)
		return;
	cw = &t->words[w];
	if (end < cw->len || end > len)
		return;
	start = end - cw->len;
	/* "oom" is not in "room", "ram" not in "program"; a capital after a
	 * digit begins a word (a progress bar's "0:00:00Could not locate") */
	if (word_char((unsigned char)cw->text[0]) && start > 0 && word_char(s[start - 1]) &&
	    !(isdigit(s[start - 1]) && isupper(s[start])))
		return;
	if (!cw->prefix && word_char((unsigned char)cw->text[cw->len - 1]) && end < len &&
	    word_char(s[end]))
		return;
	l->any = true;
	for (u = cw->use0; u < cw->use0 + cw->nuses; u++) {
		const struct cue_use *cu = &t->uses[u];
		if (cu->group == CUE_UNLESS) {
			l->silenced |= (uint64_t)1 << cu->cue;
		} else if (!(l->seen[cu->cue] & (1u << cu->group))) {
			l->seen[cu->cue] |= (uint8_t)(1u << cu->group);
			l->weight[cu->cue] = (uint16_t)(l->weight[cu->cue] + cw->len);
		}
	}
}

size_t
cue_line_pick(const struct cue_line *l, const struct cue_table *t)
{
	size_t i, best = SIZE_MAX;

	if (!l->any)
		return SIZE_MAX;
	for (i = 0; i < t->nrows; i++) {
		unsigned char all = (unsigned char)((1u << t->ngroups[i]) - 1);
		if (l->seen[i] != all || (l->silenced >> i & 1))
			continue;
		if (best == SIZE_MAX || t->ngroups[i] > t->ngroups[best] ||
		    (t->ngroups[i] == t->ngroups[best] && l->weight[i] > l->weight[best]))
			best = i;
	}
	return best;
}
