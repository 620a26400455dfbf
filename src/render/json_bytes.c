/*
 * json_bytes.c - bytes <-> JSON strings without loss; see json_bytes.h.
 */
#include "render/json_bytes.h"
#include "base/buf.h"
#include "base/utf8.h"

#include <string.h>

/* U+10FF00 + b for b in 0x80-0xFF: F4 8F BE|BF 80-BF. */
#define ESC_LEAD0 0xf4
#define ESC_LEAD1 0x8f

json_t *
json_bytes(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	struct buf b;
	json_t *j;
	size_t i = 0, k;

	for (k = 0; k < n; k += utf8_len(u + k, n - k))
		if (!utf8_len(u + k, n - k))
			break;
	if (k >= n)
		return json_stringn(s, n);
	buf_init(&b);
	while (i < n) {
		k = utf8_len(u + i, n - i);
		if (k) {
			buf_add(&b, s + i, k);
			i += k;
			continue;
		}
		buf_addch(&b, (char)ESC_LEAD0);
		buf_addch(&b, (char)ESC_LEAD1);
		buf_addch(&b, (char)(0xbe | ((u[i] >> 6) & 1)));
		buf_addch(&b, (char)(0x80 | (u[i] & 0x3f)));
		i++;
	}
	j = json_stringn(b.s, b.len);
	buf_release(&b);
	return j;
}

size_t
json_bytes_copy(char *out, size_t size, const char *utf8)
{
	const unsigned char *u = (const unsigned char *)utf8;
	size_t i = 0, o = 0;

	if (!size)
		return 0;
	while (u[i] && o + 1 < size) {
		if (u[i] == ESC_LEAD0 && u[i + 1] == ESC_LEAD1 && (u[i + 2] & 0xfe) == 0xbe &&
		    (u[i + 3] & 0xc0) == 0x80) {
			out[o++] = (char)(0x80 | ((u[i + 2] & 1) << 6) | (u[i + 3] & 0x3f));
			i += 4;
		} else {
			out[o++] = (char)u[i++];
		}
	}
	out[o] = '\0';
	return o;
}
