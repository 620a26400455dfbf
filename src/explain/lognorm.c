/*
 * lognorm.c - one spelling for the same characters (lognorm.h).
 */
#include "explain/lognorm.h"

#include <stdint.h>
#include <string.h>

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull
/* 0x80 in each byte of w that is zero (and maybe in bytes after one that
 * is: enough to say whether there is one) */
#define ZERO_BYTES(w) (((w) - ONES) & ~(w) & HIGHS)

bool
lognorm_needed(const unsigned char *s, size_t len)
{
	uint64_t w, sp, carry = 0;
	size_t i = 0;

	/* eight bytes a step: a byte >= 0x80, a tab, two spaces in a row */
	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		sp = ZERO_BYTES(w ^ (ONES * ' '));
		if ((w & HIGHS) || ZERO_BYTES(w ^ (ONES * '\t')) || (sp & (sp >> 8)) ||
		    (carry && (sp & 0x80)))
			return true;
		carry = sp >> 56;
	}
	for (; i < len; i++) {
		if (s[i] >= 0x80 || s[i] == '\t' || (s[i] == ' ' && (carry || (i + 1 < len && s[i + 1] == ' '))))
			return true;
		carry = 0;
	}
	return false;
}

/* The ASCII byte for the 2- or 3-byte UTF-8 character at s (n bytes
 * available), its length in *used; 0 = keep it as it is, 0xff = drop it. */
static unsigned char
ascii_for(const unsigned char *s, size_t n, size_t *used)
{
	unsigned cp;

	if (n >= 2 && s[0] >= 0xc2 && s[0] <= 0xdf && (s[1] & 0xc0) == 0x80) {
		*used = 2;
		cp = ((unsigned)(s[0] & 0x1f) << 6) | (s[1] & 0x3f);
		switch (cp) {
		case 0x00a0:                         /* no-break space */
			return ' ';
		case 0x00ab: case 0x00bb:            /* « » */
			return '"';
		case 0x00b4:                         /* acute accent used as an apostrophe */
			return '\'';
		default:
			return 0;
		}
	}
	if (n < 3 || s[0] < 0xe0 || s[0] > 0xef || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
		return 0;
	*used = 3;
	cp = ((unsigned)(s[0] & 0x0f) << 12) | ((unsigned)(s[1] & 0x3f) << 6) | (s[2] & 0x3f);
	if (cp >= 0xff01 && cp <= 0xff5e)            /* full-width ASCII */
		return (unsigned char)(cp - 0xff01 + 0x21);
	if ((cp >= 0x2000 && cp <= 0x200a) || cp == 0x202f || cp == 0x205f || cp == 0x3000)
		return ' ';                          /* spaces of other widths */
	if ((cp >= 0x200b && cp <= 0x200d) || cp == 0x2060 || cp == 0xfeff)
		return 0xff;                         /* zero-width */
	if ((cp >= 0x2018 && cp <= 0x201b) || cp == 0x2032)
		return '\'';                         /* ‘ ’ ‚ ‛ ′ */
	if ((cp >= 0x201c && cp <= 0x201f) || cp == 0x2033)
		return '"';                          /* “ ” „ ‟ ″ */
	if ((cp >= 0x2010 && cp <= 0x2015) || cp == 0x2212)
		return '-';                          /* hyphens, dashes, minus */
	return 0;
}

size_t
lognorm(const unsigned char *s, size_t len, unsigned char *out)
{
	size_t i = 0, o = 0, used;
	unsigned char c;

	while (i < len) {
		c = s[i];
		if (c >= 0x80) {
			unsigned char a = ascii_for(s + i, len - i, &used);
			if (a == 0) {
				out[o++] = s[i++];   /* any other byte, as it is */
				continue;
			}
			i += used;
			if (a == 0xff)
				continue;
			c = a;
		} else {
			i++;
		}
		if (c == '\t')
			c = ' ';
		if (c == ' ' && o > 0 && out[o - 1] == ' ')
			continue;
		out[o++] = c;
	}
	return o;
}
