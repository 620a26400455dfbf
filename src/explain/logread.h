/*
 * logread.h - a log as a stream of line segments, in constant memory.
 *
 * Lines end at LF; a CR (a progress bar redrawing its line, or CRLF)
 * ends a segment without starting a new line number, and a line longer
 * than LOGREAD_MAX_SEG bytes comes out in pieces of that size with the
 * same number. Empty segments are skipped. Bytes are passed through as
 * they are (binary junk included); cleaning is the caller's business.
 */
#ifndef GPUDOCTOR_LOGREAD_H
#define GPUDOCTOR_LOGREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOGREAD_MAX_SEG (64u << 10)
#define LOGREAD_BUF (1u << 20)

struct logread {
	int fd;                  /* -1: reading a memory string */
	unsigned char *buf;
	size_t size, start, end;
	bool owned, eof;
	unsigned long line;      /* number of the line being read, from 1 */
	bool partial;            /* bytes of line `line` were read: lines so far = line - 1 + partial */
	uint64_t bytes;          /* bytes consumed so far */
	int error;               /* errno of a failed read, or 0 */
	size_t nl_at;            /* offset of the next LF at or after start; SIZE_MAX unknown */
	size_t clean_upto;       /* [start, clean_upto) is known to hold no LF */
};

void logread_init_fd(struct logread *r, int fd);
void logread_init_mem(struct logread *r, const char *s, size_t len);
void logread_release(struct logread *r);
/* The next segment: 1 with *seg, *len, *line set (valid until the next
 * call), 0 at the end, -1 on a read error (r->error). */
int logread_next(struct logread *r, const unsigned char **seg, size_t *len,
		 unsigned long *line);

#endif
