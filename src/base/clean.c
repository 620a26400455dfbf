/*
 * clean.c - text from outside (a log line, a path, a host name, a facts
 * file) made safe to show on a terminal; see clean.h.
 */
#include "base/clean.h"
#include "base/utf8.h"

#include <string.h>

/* Length of the escape sequence at s[0] == ESC. */
static size_t
escape_len(const unsigned char *s, size_t n)
{
	size_t i;

	if (n < 2)
		return 1;
	if (s[1] == '[') {      /* CSI: parameters, intermediates, final */
		for (i = 2; i < n && s[i] >= 0x20 && s[i] <= 0x3f; i++)
			;
		return i < n && s[i] >= 0x40 && s[i] <= 0x7e ? i + 1 : i;
	}
	if (s[1] == ']') {      /* OSC: up to BEL or ESC \ */
		for (i = 2; i < n; i++) {
			if (s[i] == 0x07)
				return i + 1;
			if (s[i] == 0x1b && i + 1 < n && s[i + 1] == '\\')
				return i + 2;
		}
		return n;
	}
	return 2;
}

size_t
text_clean(const unsigned char *s, size_t len, char *out, size_t size)
{
	size_t i = 0, o = 0;

	if (!size)
		return 0;
	while (i < len) {
		unsigned c = s[i];
		size_t n;

		if (c >= 0x20 && c < 0x7f) {
			/* a run of printable ASCII, copied at once */
			size_t k = i + 1, room = size - 1 - o;
			while (k < len && s[k] >= 0x20 && s[k] < 0x7f)
				k++;
			n = k - i;
			if (n > room) {
				memmove(out + o, s + i, room);
				o += room;
				break;
			}
			memmove(out + o, s + i, n);   /* in place: text_clean_str */
			o += n;
			i = k;
			continue;
		}
		if (c == 0x1b) {
			i += escape_len(s + i, len - i);
			continue;
		}
		if (c == '\t' || c < 0x20 || c == 0x7f) {
			if (o + 1 >= size)
				break;
			out[o++] = c == '\t' ? ' ' : '?';
			i++;
			continue;
		}
		n = utf8_len(s + i, len - i);
		if (n == 2 && c == 0xc2 && s[i + 1] < 0xa0) {
			/* a C1 control (U+0080-U+009F: U+009B is a CSI to some terminals) */
			if (o + 1 >= size)
				break;
			out[o++] = '?';
			i += 2;
			continue;
		}
		if (n == 0) {                   /* invalid UTF-8: one '?' per byte */
			if (o + 1 >= size)
				break;
			out[o++] = '?';
			i++;
			continue;
		}
		if (o + n >= size)
			break;
		memmove(out + o, s + i, n);
		o += n;
		i += n;
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
	return o;
}

void
text_clean_str(char *s, size_t size)
{
	if (size)
		text_clean((const unsigned char *)s, strnlen(s, size), s, size);
}

void
text_clean_lines(char *s)
{
	char *line = s, *out = s;

	for (;;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		out += text_clean((const unsigned char *)line, len, out, len + 1);
		if (!nl)
			break;
		*out++ = '\n';
		line = nl + 1;
	}
	*out = '\0';
}
