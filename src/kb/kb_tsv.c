/*
 * kb_tsv.c - the knowledge-base TSV reader and validator (see kb_tsv.h),
 * and the small text helpers on KB values that kb.h exports (version
 * ranges, space-separated lists), which the per-row checks need too.
 *
 * The text is copied once; fields are cut in place (TAB -> NUL) and the
 * row structs point into that copy, so a table is two allocations plus a
 * temporary index for sorting.
 */
#include "kb/kb_tsv.h"
#include "base/str.h"
#include "base/utf8.h"
#include "base/vers.h"
#include "base/xalloc.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parse {
	const struct kb_schema *s;
	const char *file;
	char *err;
	size_t errsize;
	size_t nerr;
};

static void __attribute__((format(printf, 3, 4)))
perr(struct parse *p, size_t line, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	p->nerr++;
	if (p->nerr > KB_TSV_MAX_ERRORS || !p->errsize)
		return;
	used = strlen(p->err);
	if (used && used + 1 < p->errsize) {
		p->err[used++] = '\n';
		p->err[used] = '\0';
	}
	if (used + 1 >= p->errsize)
		return;
	if (line)
		snprintf(p->err + used, p->errsize - used, "%s:%zu: ", p->file, line);
	else
		snprintf(p->err + used, p->errsize - used, "%s: ", p->file);
	used = strlen(p->err);
	va_start(ap, fmt);
	vsnprintf(p->err + used, p->errsize - used, fmt, ap);
	va_end(ap);
}

/* ---- value checks --------------------------------------------------- */

static bool
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* ^[0-9]{1,9}(\.[0-9]{1,9}){0,7}$, which vers_parse reads completely. */
static bool
is_version(const char *s)
{
	int v[8];
	int parts = 0;
	const char *p = s;

	for (;;) {
		size_t n = 0;

		while (is_digit((unsigned char)*p)) {
			p++;
			n++;
		}
		if (n == 0 || n > 9)
			return false;
		parts++;
		if (*p == '\0')
			break;
		if (*p != '.' || parts == 8)
			return false;
		p++;
	}
	return vers_parse(s, v, 8) == parts;
}

/* ^[0-9]{1,9}(\.[0-9]{1,6})?$ */
static bool
is_number(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (n == 0 || n > 9)
		return false;
	if (s[n] == '\0')
		return true;
	if (s[n] != '.')
		return false;
	s += n + 1;
	n = strspn(s, "0123456789");
	return n >= 1 && n <= 6 && s[n] == '\0';
}

static bool
is_word_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) ||
	       c == '_' || c == '.' || c == '-' || c == '+';
}

/* Words separated by single spaces; each a version when versions. */
static bool
is_list(const char *s, bool versions)
{
	char w[64];
	size_t i;

	if (!*s)
		return true;
	for (i = 0;; i++) {
		const char *p;

		if (kb_word(s, i, w, sizeof(w)) < 0)
			break;
		if (strlen(w) >= sizeof(w) - 1)
			return false;
		if (versions && !is_version(w))
			return false;
		for (p = w; *p; p++)
			if (!is_word_char((unsigned char)*p))
				return false;
	}
	return !strstr(s, "  ");
}

/* Order of two compute capabilities: by number, then plain, 'a', 'f'. */
static int
cc_order(const char *a, const char *b)
{
	int c = vers_cmp(a, b);
	const char *sa = a + strspn(a, "0123456789."), *sb = b + strspn(b, "0123456789.");

	if (c)
		return c;
	return strcmp(sa, sb);
}

/* "8.6", "9.0a", "10.0f": a compute capability, with the suffix of an
 * arch-specific or family-specific target. */
static bool
is_cc(const char *w)
{
	size_t m = strspn(w, "0123456789");

	if (m < 1 || m > 2 || w[m] != '.' || w[m + 1] < '0' || w[m + 1] > '9')
		return false;
	w += m + 2;
	if (*w == 'a' || *w == 'f')
		w++;
	return !*w;
}

/* A space-separated list of compute capabilities, ascending, no repeats. */
static bool
is_cc_list(const char *s)
{
	char w[16], prev[16] = "";
	size_t i;

	for (i = 0; kb_word(s, i, w, sizeof(w)) == 0; i++) {
		if (strlen(w) >= sizeof(w) - 1 || !is_cc(w))
			return false;
		if (prev[0] && cc_order(prev, w) >= 0)
			return false;
		str_copy(prev, sizeof(prev), w);
	}
	return !strstr(s, "  ");
}

/* Valid UTF-8 without overlongs or surrogates (base/utf8.h). */
static bool
is_utf8(const unsigned char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		if ((k = utf8_len(s + i, n - i)) == 0)
			return false;
		i += k;
	}
	return true;
}

static int
parse_unsigned(const char *s, bool hex, unsigned long max, unsigned *out)
{
	unsigned long v = 0;
	size_t n = 0;

	if (!max)
		max = UINT_MAX;
	if (hex) {
		if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
			return -1;
		for (s += 2; *s; s++, n++) {
			int d;

			if (is_digit((unsigned char)*s))
				d = *s - '0';
			else if (*s >= 'a' && *s <= 'f')
				d = *s - 'a' + 10;
			else if (*s >= 'A' && *s <= 'F')
				d = *s - 'A' + 10;
			else
				return -1;
			if (n >= 8)
				return -1;
			v = v * 16 + (unsigned long)d;
		}
	} else {
		for (; *s; s++, n++) {
			if (!is_digit((unsigned char)*s) || n >= 10)
				return -1;
			v = v * 10 + (unsigned long)(*s - '0');
		}
	}
	if (n == 0 || v > max)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* ---- row fields ----------------------------------------------------- */

static const char *
row_str(const void *row, size_t off)
{
	const char *s;

	memcpy(&s, (const char *)row + off, sizeof(s));
	return s;
}

static unsigned
row_uint(const void *row, size_t off)
{
	unsigned v;

	memcpy(&v, (const char *)row + off, sizeof(v));
	return v;
}

static bool
row_bool(const void *row, size_t off)
{
	bool v;

	memcpy(&v, (const char *)row + off, sizeof(v));
	return v;
}

/* Check one field and store it into row; 0 or -1 (message reported). */
static int
set_field(struct parse *p, size_t line, const struct kb_column *c, const char *v, void *row)
{
	const char *q;
	unsigned u = 0;
	bool b = false;
	size_t n = strlen(v);

	if (n && (v[0] == ' ' || v[n - 1] == ' ')) {
		perr(p, line, "%s has leading or trailing spaces", c->name);
		return -1;
	}
	for (q = v; *q; q++) {
		if ((unsigned char)*q < 0x20 || *q == 0x7f) {
			perr(p, line, "%s has a control character", c->name);
			return -1;
		}
	}
	if (!n) {
		if (c->flags & KB_REQUIRED) {
			perr(p, line, "%s is empty", c->name);
			return -1;
		}
		if (c->type != KB_STR) {
			perr(p, line, "%s is empty", c->name);
			return -1;
		}
	} else {
		switch (c->type) {
		case KB_STR:
			if ((c->flags & KB_VERSION) && !is_version(v)) {
				perr(p, line, "%s is not a dotted version: %s", c->name, v);
				return -1;
			}
			if ((c->flags & KB_NUMBER) && !is_number(v)) {
				perr(p, line, "%s is not a decimal number: %s", c->name, v);
				return -1;
			}
			if ((c->flags & KB_VLIST) && !is_list(v, true)) {
				perr(p, line, "%s is not a space-separated list of versions: %s",
				     c->name, v);
				return -1;
			}
			if ((c->flags & KB_CCLIST) && !is_cc_list(v)) {
				perr(p, line, "%s is not an ascending list of compute capabilities "
					 "(8.6, 9.0a, 10.0f): %s", c->name, v);
				return -1;
			}
			if ((c->flags & KB_WLIST) && !is_list(v, false)) {
				perr(p, line, "%s is not a space-separated list of words: %s",
				     c->name, v);
				return -1;
			}
			if (c->allowed) {
				const char *const *a;

				for (a = c->allowed; *a && strcmp(*a, v); a++)
					;
				if (!*a) {
					perr(p, line, "%s is not one of the allowed values: %s", c->name, v);
					return -1;
				}
			}
			break;
		case KB_HEX:
			if (parse_unsigned(v, true, c->max, &u) < 0) {
				perr(p, line, "%s is not a hex id like 0x2335 (at most 0x%lx): %s",
				     c->name, c->max ? c->max : (unsigned long)UINT_MAX, v);
				return -1;
			}
			break;
		case KB_UINT:
			if (parse_unsigned(v, false, c->max, &u) < 0) {
				perr(p, line, "%s is not an unsigned number: %s", c->name, v);
				return -1;
			}
			break;
		case KB_BOOL:
			if (!strcmp(v, "yes")) {
				b = true;
			} else if (strcmp(v, "no")) {
				perr(p, line, "%s must be yes or no: %s", c->name, v);
				return -1;
			}
			break;
		}
	}
	if (c->flags & KB_NOSTORE)
		return 0;
	if (c->type == KB_STR)
		memcpy((char *)row + c->offset, &v, sizeof(v));
	else if (c->type == KB_BOOL)
		memcpy((char *)row + c->offset, &b, sizeof(b));
	else
		memcpy((char *)row + c->offset, &u, sizeof(u));
	return 0;
}

/* Checks across the columns of one row. */
static int
check_row(struct parse *p, size_t line, const void *row)
{
	const struct kb_schema *s = p->s;
	char msg[160];
	size_t i;
	int rc = 0;

	for (i = 0; i < s->nranges; i++) {
		const struct kb_column *lo = &s->cols[s->ranges[i][0]];
		const struct kb_column *hi = &s->cols[s->ranges[i][1]];
		const char *a = row_str(row, lo->offset), *b = row_str(row, hi->offset);

		if (a[0] && b[0] && vers_cmp(a, b) > 0) {
			perr(p, line, "%s %s is above %s %s", lo->name, a, hi->name, b);
			rc = -1;
		}
	}
	if (rc == 0 && s->check_row && s->check_row(row, msg, sizeof(msg)) < 0) {
		perr(p, line, "%s", msg);
		rc = -1;
	}
	return rc;
}

/* ---- sorting -------------------------------------------------------- */

static int
colcmp(const struct kb_column *c, const void *a, const void *b)
{
	const char *x, *y;
	int r;

	switch (c->type) {
	case KB_STR:
		x = row_str(a, c->offset);
		y = row_str(b, c->offset);
		if ((c->flags & KB_VERSION) && (r = vers_cmp(x, y)) != 0)
			return r;
		return strcmp(x, y);
	case KB_HEX:
	case KB_UINT:
		return (row_uint(a, c->offset) > row_uint(b, c->offset)) -
		       (row_uint(a, c->offset) < row_uint(b, c->offset));
	case KB_BOOL:
		return (int)row_bool(a, c->offset) - (int)row_bool(b, c->offset);
	}
	return 0;
}

int
kb_tsv_keycmp(const struct kb_schema *s, const void *a, const void *b)
{
	size_t k;
	int r;

	for (k = 0; k < s->nkeys; k++)
		if ((r = colcmp(&s->cols[s->keys[k]], a, b)) != 0)
			return r;
	return 0;
}

void
kb_tsv_key_str(const struct kb_schema *s, const void *row, size_t k, char *out, size_t size)
{
	const struct kb_column *c;

	if (!size)
		return;
	out[0] = '\0';
	if (k >= s->nkeys)
		return;
	c = &s->cols[s->keys[k]];
	switch (c->type) {
	case KB_STR:
		str_copy(out, size, row_str(row, c->offset));
		break;
	case KB_HEX:
		str_fmt(out, size, "0x%04x", row_uint(row, c->offset));
		break;
	case KB_UINT:
		str_fmt(out, size, "%u", row_uint(row, c->offset));
		break;
	case KB_BOOL:
		str_copy(out, size, row_bool(row, c->offset) ? "yes" : "no");
		break;
	}
}

struct sortctx {
	const struct kb_schema *s;
	const char *rows;
	const size_t *lines;
};

static int
idxcmp(const void *a, const void *b, void *arg)
{
	const struct sortctx *c = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int r = kb_tsv_keycmp(c->s, c->rows + i * c->s->row_size, c->rows + j * c->s->row_size);

	if (r)
		return r;
	return (c->lines[i] > c->lines[j]) - (c->lines[i] < c->lines[j]);
}

/* Sort rows by key; report duplicates. Replaces *rows. */
static void
sort_rows(struct parse *p, char **rows, size_t n, const size_t *lines)
{
	const struct kb_schema *s = p->s;
	struct sortctx ctx = {s, *rows, lines};
	size_t *idx, i, first = 0;
	char *out;

	if (n < 1)
		return;
	idx = xmalloc(n * sizeof(*idx));
	for (i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), idxcmp, &ctx);
	out = xmalloc(n * s->row_size);
	for (i = 0; i < n; i++) {
		memcpy(out + i * s->row_size, *rows + idx[i] * s->row_size, s->row_size);
		if (i > 0 && kb_tsv_keycmp(s, out + (i - 1) * s->row_size,
					   out + i * s->row_size) == 0) {
			char key[128] = "", part[64];
			size_t k;

			for (k = 0; k < s->nkeys; k++) {
				kb_tsv_key_str(s, out + i * s->row_size, k, part, sizeof(part));
				if (k)
					str_copy(key + strlen(key), sizeof(key) - strlen(key), " ");
				str_copy(key + strlen(key), sizeof(key) - strlen(key), part);
			}
			perr(p, lines[idx[i]], "duplicate key %s (first at line %zu)", key,
			     lines[idx[first]]);
		} else {
			first = i;
		}
	}
	free(idx);
	free(*rows);
	*rows = out;
}

/* ---- the reader ----------------------------------------------------- */

/* Header line the schema wants, TAB-separated. */
static void
want_header(const struct kb_schema *s, char *out, size_t size, const char *sep)
{
	size_t i, used = 0;

	out[0] = '\0';
	for (i = 0; i < s->ncols && used < size; i++) {
		str_fmt(out + used, size - used, "%s%s", i ? sep : "", s->cols[i].name);
		used = strlen(out);
	}
}

static bool
is_blank(const char *s)
{
	return s[strspn(s, " \t\r")] == '\0';
}

/* One data row: split, check, store into row. 0 or -1. */
static int
parse_row(struct parse *p, size_t line, char *text, void *row)
{
	const struct kb_schema *s = p->s;
	char *f[KB_MAX_COLS];
	size_t nf = 0, ntab = 0, i;
	char *q;
	int rc = 0;

	for (q = text; *q; q++)
		if (*q == '\t')
			ntab++;
	if (ntab + 1 != s->ncols) {
		perr(p, line, "expected %zu tab-separated fields, found %zu", s->ncols, ntab + 1);
		return -1;
	}
	f[nf++] = text;
	for (q = text; *q; q++) {
		if (*q == '\t') {
			*q = '\0';
			f[nf++] = q + 1;
		}
	}
	memset(row, 0, s->row_size);
	for (i = 0; i < nf; i++)
		if (set_field(p, line, &s->cols[i], f[i], row) < 0)
			rc = -1;
	if (rc == 0)
		rc = check_row(p, line, row);
	return rc;
}

int
kb_tsv_parse(const struct kb_schema *s, const char *file, const char *text, size_t len,
	     struct kb_tsv *out, char *err, size_t errsize)
{
	struct parse p = {s, file, err, errsize, 0};
	char *buf = NULL, *rows = NULL, *line, *end;
	size_t *lines = NULL, n = 0, alloc = 0, lineno = 0;
	bool header = false;
	char want[KB_MAX_COLS * 32];

	memset(out, 0, sizeof(*out));
	if (errsize)
		err[0] = '\0';
	if (!s || !text) {
		perr(&p, 0, "no table");
		return -1;
	}
	if (len > KB_TSV_MAX_BYTES) {
		perr(&p, 0, "larger than %u bytes", KB_TSV_MAX_BYTES);
		return -1;
	}
	buf = xmalloc(len + 1);
	memcpy(buf, text, len);
	buf[len] = '\0';
	want_header(s, want, sizeof(want), "\t");

	for (line = buf; line < buf + len && p.nerr < KB_TSV_MAX_ERRORS; line = end + 1) {
		size_t ll;

		lineno++;
		end = memchr(line, '\n', (size_t)(buf + len - line));
		if (!end)
			end = buf + len;
		*end = '\0';
		ll = (size_t)(end - line);
		if (strlen(line) != ll) {
			perr(&p, lineno, "NUL byte in line");
			continue;
		}
		if (ll > KB_TSV_MAX_LINE) {
			perr(&p, lineno, "line longer than %u bytes", KB_TSV_MAX_LINE);
			continue;
		}
		if (ll && line[ll - 1] == '\r')
			line[--ll] = '\0';
		if (line[0] == '#' || is_blank(line))
			continue;
		if (!is_utf8((const unsigned char *)line, ll)) {
			perr(&p, lineno, "not valid UTF-8");
			continue;
		}
		if (!header) {
			if (strcmp(line, want)) {
				want_header(s, want, sizeof(want), ", ");
				perr(&p, lineno, "header must be the tab-separated columns: %s", want);
				goto fail;
			}
			header = true;
			continue;
		}
		if (n == KB_TSV_MAX_ROWS) {
			perr(&p, lineno, "more than %u rows", KB_TSV_MAX_ROWS);
			goto fail;
		}
		if (n == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			rows = xrealloc(rows, alloc * s->row_size);
			lines = xrealloc(lines, alloc * sizeof(*lines));
		}
		if (parse_row(&p, lineno, line, rows + n * s->row_size) == 0)
			lines[n++] = lineno;
	}
	if (!header && p.nerr == 0)
		perr(&p, 0, "no header line");
	if (p.nerr)
		goto fail;
	sort_rows(&p, &rows, n, lines);
	if (p.nerr)
		goto fail;
	free(lines);
	out->schema = s;
	out->rows = rows;
	out->count = n;
	out->text = buf;
	return 0;
fail:
	free(lines);
	free(rows);
	free(buf);
	return -1;
}

void
kb_tsv_release(struct kb_tsv *t)
{
	if (!t)
		return;
	free(t->rows);
	free(t->text);
	memset(t, 0, sizeof(*t));
}

/* ---- helpers exported through kb.h ---------------------------------- */

int
kb_word(const char *list, size_t i, char *out, size_t size)
{
	const char *p = list ? list : "";
	size_t k = 0;

	if (size)
		out[0] = '\0';
	for (;;) {
		size_t n;

		p += strspn(p, " ");
		if (!*p)
			return -1;
		n = strcspn(p, " ");
		if (k == i) {
			if (size) {
				if (n >= size)
					n = size - 1;
				memcpy(out, p, n);
				out[n] = '\0';
			}
			return 0;
		}
		k++;
		p += n;
	}
}

bool
kb_has_word(const char *list, const char *word)
{
	const char *p = list ? list : "";
	size_t wl;

	if (!word || !*word)
		return false;
	wl = strlen(word);
	for (;;) {
		size_t n;

		p += strspn(p, " ");
		if (!*p)
			return false;
		n = strcspn(p, " ");
		if (n == wl && !memcmp(p, word, n))
			return true;
		p += n;
	}
}

/* Compare v with bound b at b's precision: "3.11.4" vs "3.11" is 0. */
static int
cmp_at(const char *v, const char *b)
{
	int x[8] = {0}, y[8] = {0};
	int nb = vers_parse(b, y, 8), i;

	vers_parse(v, x, 8);
	for (i = 0; i < nb; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

bool
kb_in_range(const char *v, const char *min, const char *max)
{
	if (!v || !is_version(v))
		return false;
	if (min && *min && cmp_at(v, min) < 0)
		return false;
	if (max && *max && cmp_at(v, max) > 0)
		return false;
	return true;
}
