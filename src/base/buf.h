/*
 * buf.h - growable NUL-terminated byte buffer with a size cap.
 *
 * A buf always holds a valid C string (b->s is never NULL after buf_init).
 * Appends past the cap are cut off and set b->truncated, so hostile input
 * can never grow one without limit. Memory comes from xalloc (OOM is fatal).
 */
#ifndef GPUDOCTOR_BUF_H
#define GPUDOCTOR_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#define BUF_DEFAULT_CAP (16u << 20)

struct buf {
	char *s;
	size_t len;
	size_t alloc;
	size_t cap;        /* most bytes it may hold, excluding the NUL */
	bool truncated;
};

void buf_init(struct buf *b);
void buf_init_cap(struct buf *b, size_t cap);
void buf_release(struct buf *b);
void buf_reset(struct buf *b);
void buf_add(struct buf *b, const void *data, size_t n);
void buf_adds(struct buf *b, const char *s);
void buf_addch(struct buf *b, char c);
void buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vaddf(struct buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Append s quoted for a POSIX shell: bare when only safe characters,
 * otherwise in single quotes with ' written as '\''. */
void buf_add_shquoted(struct buf *b, const char *s);
/* Hand the string to the caller (free() it) and reset b. */
char *buf_detach(struct buf *b);

#endif
