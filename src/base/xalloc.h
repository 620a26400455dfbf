/*
 * xalloc.h - allocation that never returns NULL: out of memory is fatal here
 * and nowhere else.
 */
#ifndef GPUDOCTOR_XALLOC_H
#define GPUDOCTOR_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a fresh heap string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
