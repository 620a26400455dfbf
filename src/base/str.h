/*
 * str.h - small string helpers for fixed-size arrays and parsing: copying
 * with truncation, prefix tests, trimming, membership in a list. No
 * allocation.
 */
#ifndef GPUDOCTOR_STR_H
#define GPUDOCTOR_STR_H

#include <stdbool.h>
#include <stddef.h>

/* Copy src into dst[size], always NUL-terminated, cut when too long.
 * Returns dst. */
char *str_copy(char *dst, size_t size, const char *src);
#define STR_COPY(dst, src) str_copy((dst), sizeof(dst), (src))
/* snprintf into a fixed array; never overflows. */
void str_fmt(char *dst, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define STR_FMT(dst, ...) str_fmt((dst), sizeof(dst), __VA_ARGS__)

bool str_starts(const char *s, const char *prefix);
bool str_ends(const char *s, const char *suffix);
/* Trim spaces, tabs, CR, LF at both ends in place; returns s. */
char *str_trim(char *s);
/* Strip one pair of matching quotes ("x" or 'x') in place; returns s. */
char *str_unquote(char *s);
bool str_eq(const char *a, const char *b); /* NULL-safe */
/* Non-empty and nothing but ASCII digits. */
bool str_all_digits(const char *s);
/* Whether s is one of the strings of list (NULL-terminated); _case:
 * ignoring ASCII case. */
bool str_among(const char *s, const char *const *list);
bool str_among_case(const char *s, const char *const *list);

#endif
