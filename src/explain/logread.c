/*
 * logread.c - line segments from a file descriptor or a string (see
 * logread.h): one buffer of LOGREAD_BUF bytes, refilled as the segments
 * before its end are used up.
 */
#include "explain/logread.h"
#include "base/xalloc.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void
logread_init_fd(struct logread *r, int fd)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->buf = xmalloc(LOGREAD_BUF);
	r->size = LOGREAD_BUF;
	r->owned = true;
	r->line = 1;
	r->nl_at = SIZE_MAX;
}

void
logread_init_mem(struct logread *r, const char *s, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->buf = (unsigned char *)s;
	r->size = r->end = len;
	r->eof = true;
	r->line = 1;
	r->nl_at = SIZE_MAX;
}

void
logread_release(struct logread *r)
{
	if (r->owned)
		free(r->buf);
	r->buf = NULL;
}

/* Move what is left to the front and read more. 0, or -1 on error. */
static int
refill(struct logread *r)
{
	ssize_t got;

	if (r->start) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		if (r->nl_at != SIZE_MAX)
			r->nl_at -= r->start;
		r->clean_upto = r->clean_upto > r->start ? r->clean_upto - r->start : 0;
		r->start = 0;
	}
	for (;;) {
		got = read(r->fd, r->buf + r->end, r->size - r->end);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r->error = errno;
			return -1;
		}
		if (got == 0)
			r->eof = true;
		r->end += (size_t)got;
		return 0;
	}
}

/* The next LF at or after start, searched once for all the segments
 * before it (a progress bar's thousand CR-separated segments share one
 * line); NULL when none in the data read so far. */
static unsigned char *
next_lf(struct logread *r)
{
	size_t from;
	unsigned char *p;

	if (r->nl_at != SIZE_MAX && r->nl_at >= r->start)
		return r->buf + r->nl_at;
	from = r->clean_upto > r->start ? r->clean_upto : r->start;
	p = from < r->end ? memchr(r->buf + from, '\n', r->end - from) : NULL;
	if (p) {
		r->nl_at = (size_t)(p - r->buf);
	} else {
		r->nl_at = SIZE_MAX;
		r->clean_upto = r->end;
	}
	return p;
}

int
logread_next(struct logread *r, const unsigned char **seg, size_t *len, unsigned long *line)
{
	for (;;) {
		unsigned char *p = r->buf + r->start;
		size_t avail = r->end - r->start;
		size_t win = avail < LOGREAD_MAX_SEG ? avail : LOGREAD_MAX_SEG;
		unsigned char *nl = next_lf(r);
		unsigned char *cr, *d;
		size_t n;

		if (nl && (size_t)(nl - p) >= win)
			nl = NULL;
		cr = memchr(p, '\r', nl ? (size_t)(nl - p) : win);
		d = cr ? cr : nl;
		if (!d && win < LOGREAD_MAX_SEG && !r->eof) {
			if (refill(r) < 0)
				return -1;
			continue;
		}
		if (!d && avail == 0)
			return 0;
		n = d ? (size_t)(d - p) : win;
		*seg = p;
		*len = n;
		*line = r->line;
		r->start += n + (d != NULL);
		r->bytes += n + (d != NULL);
		if (d && *d == '\n') {
			r->line++;
			r->partial = false;
			r->nl_at = SIZE_MAX;
			r->clean_upto = r->start;
		} else {
			r->partial = true;
		}
		if (n)
			return 1;
	}
}
