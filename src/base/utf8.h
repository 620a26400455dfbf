/*
 * utf8.h - what counts as UTF-8 (RFC 3629): no overlong forms, no
 * surrogates, nothing past U+10FFFF. The terminal cleaner and the JSON
 * writer share this one definition.
 */
#ifndef GPUDOCTOR_UTF8_H
#define GPUDOCTOR_UTF8_H

#include <stddef.h>

/* Length (1-4) of the valid UTF-8 character at s[0..n), 0 if invalid. */
size_t utf8_len(const unsigned char *s, size_t n);

#endif
