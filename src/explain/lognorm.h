/*
 * lognorm.h - one spelling for the same characters before a log line is
 * matched: the typographic quotes, apostrophes, dashes and spaces that
 * localized keyboards, word processors, chat programs and web pages put
 * in place of ASCII ones (nvidia-smi's "couldn’t communicate" pasted from
 * a forum), full-width ASCII from East Asian input methods ("：", "（"),
 * zero-width characters, tabs and runs of blanks. Letter case is folded by
 * the matcher itself (acmatch.h, REG_ICASE).
 */
#ifndef GPUDOCTOR_LOGNORM_H
#define GPUDOCTOR_LOGNORM_H

#include <stdbool.h>
#include <stddef.h>

/* Whether s[0..len) holds anything lognorm would change (a byte outside
 * ASCII, a tab, two blanks in a row); cheap, for every line. */
bool lognorm_needed(const unsigned char *s, size_t len);

/* Write the normalized line to out (at least len bytes: the result is
 * never longer) and return its length. */
size_t lognorm(const unsigned char *s, size_t len, unsigned char *out);

#endif
