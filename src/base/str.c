/*
 * str.c - see str.h.
 */
#include "base/str.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

char *
str_copy(char *dst, size_t size, const char *src)
{
	size_t n;

	if (!size)
		return dst;
	if (!src)
		src = "";
	n = strnlen(src, size - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
	return dst;
}

void
str_fmt(char *dst, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, size, fmt, ap);
	va_end(ap);
}

bool
str_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool
str_ends(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

char *
str_trim(char *s)
{
	size_t n;
	char *p = s;

	while (is_space(*p))
		p++;
	if (p != s)
		memmove(s, p, strlen(p) + 1);
	n = strlen(s);
	while (n && is_space(s[n - 1]))
		s[--n] = '\0';
	return s;
}

char *
str_unquote(char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
		memmove(s, s + 1, n - 2);
		s[n - 2] = '\0';
	}
	return s;
}

bool
str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

bool
str_all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

bool
str_among(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

bool
str_among_case(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcasecmp(s, *list))
			return true;
	return false;
}
