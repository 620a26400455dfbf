/*
 * buf.c - growable string buffer with a cap; see buf.h.
 */
#include "base/buf.h"
#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char buf_empty[1];

void
buf_init(struct buf *b)
{
	buf_init_cap(b, BUF_DEFAULT_CAP);
}

void
buf_init_cap(struct buf *b, size_t cap)
{
	b->s = buf_empty;
	b->len = 0;
	b->alloc = 0;
	b->cap = cap;
	b->truncated = false;
}

void
buf_release(struct buf *b)
{
	if (b->alloc)
		free(b->s);
	buf_init_cap(b, b->cap);
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->alloc)
		b->s[0] = '\0';
	b->truncated = false;
}

static void
buf_grow(struct buf *b, size_t extra)
{
	size_t want = b->len + extra + 1;
	size_t n;

	if (want <= b->alloc)
		return;
	n = b->alloc ? b->alloc : 64;
	while (n < want)
		n *= 2;
	if (b->alloc)
		b->s = xrealloc(b->s, n);
	else {
		b->s = xmalloc(n);
		b->s[0] = '\0';
	}
	b->alloc = n;
}

void
buf_add(struct buf *b, const void *data, size_t n)
{
	if (b->len + n > b->cap) {
		n = b->cap > b->len ? b->cap - b->len : 0;
		b->truncated = true;
	}
	if (!n)
		return;
	buf_grow(b, n);
	memcpy(b->s + b->len, data, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addch(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void
buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	char small[256];
	int n;

	va_copy(cp, ap);
	n = vsnprintf(small, sizeof(small), fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		buf_add(b, small, (size_t)n);
		return;
	}
	{
		char *big = xmalloc((size_t)n + 1);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		buf_add(b, big, (size_t)n);
		free(big);
	}
}

void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void
buf_add_shquoted(struct buf *b, const char *s)
{
	const char *p;
	bool plain = *s != '\0';

	for (p = s; *p && plain; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-./=:,+@%", *p))
			plain = false;
	if (plain) {
		buf_adds(b, s);
		return;
	}
	buf_addch(b, '\'');
	for (p = s; *p; p++) {
		if (*p == '\'')
			buf_adds(b, "'\\''");
		else
			buf_addch(b, *p);
	}
	buf_addch(b, '\'');
}

char *
buf_detach(struct buf *b)
{
	char *s = b->alloc ? b->s : xstrdup("");

	buf_init_cap(b, b->cap);
	return s;
}
