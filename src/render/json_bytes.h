/*
 * json_bytes.h - strings from the machine (paths, host names, os-release)
 * are bytes, JSON strings are Unicode. A byte that is not part of valid
 * UTF-8 (0x80-0xFF) is written as the private-use character U+10FF00 +
 * byte, as Python's surrogateescape keeps such bytes but with a character
 * JSON may hold; reading turns those characters back into the bytes. So a
 * Latin-1 folder name is neither lost nor changed by --json and --from.
 */
#ifndef GPUDOCTOR_JSON_BYTES_H
#define GPUDOCTOR_JSON_BYTES_H

#include <jansson.h>
#include <stddef.h>

/* A JSON string for s[0..n) (new reference), never NULL for n bytes
 * without NUL. */
json_t *json_bytes(const char *s, size_t n);
/* The bytes of a string json_bytes wrote, into out[size], NUL-terminated,
 * cut at size-1. Returns the length. */
size_t json_bytes_copy(char *out, size_t size, const char *utf8);

#endif
