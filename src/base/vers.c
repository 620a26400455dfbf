/*
 * vers.c - see vers.h.
 */
#include "base/vers.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int
vers_parse(const char *s, int *v, int n)
{
	int k = 0;

	if (!s)
		return 0;
	while (k < n && isdigit((unsigned char)*s)) {
		long x = 0;
		while (isdigit((unsigned char)*s)) {
			if (x < 100000000)
				x = x * 10 + (*s - '0');
			s++;
		}
		v[k++] = (int)x;
		if (*s != '.' || !isdigit((unsigned char)s[1]))
			break;
		s++;
	}
	return k;
}

int
vers_cmp(const char *a, const char *b)
{
	int va[8] = {0}, vb[8] = {0};
	int i;

	vers_parse(a, va, 8);
	vers_parse(b, vb, 8);
	for (i = 0; i < 8; i++)
		if (va[i] != vb[i])
			return va[i] < vb[i] ? -1 : 1;
	return 0;
}

void
vers_from_cuda_int(int v, char *out, size_t size)
{
	if (v <= 0) {
		if (size)
			out[0] = '\0';
		return;
	}
	snprintf(out, size, "%d.%d", v / 1000, (v % 1000) / 10);
}

void
vers_from_nccl_code(long v, char *out, size_t size)
{
	long m1 = v >= 10000 ? 10000 : 1000;

	if (v <= 0) {
		if (size)
			out[0] = '\0';
		return;
	}
	snprintf(out, size, "%ld.%ld.%ld", v / m1, (v % m1) / 100, v % 100);
}

int
vers_to_cuda_int(const char *s)
{
	int v[2] = {0, 0};

	if (vers_parse(s, v, 2) < 1)
		return -1;
	return v[0] * 1000 + v[1] * 10;
}

void
vers_truncate(const char *s, int n, char *out, size_t size)
{
	int v[8];
	int k = vers_parse(s, v, n < 8 ? n : 8);
	size_t len = 0;
	int i;

	if (!size)
		return;
	out[0] = '\0';
	for (i = 0; i < k && len < size; i++)
		len += (size_t)snprintf(out + len, size - len, i ? ".%d" : "%d", v[i]);
}

void
vers_release(const char *v, char *out, size_t size)
{
	size_t n = strspn(v, "0123456789.");

	if (!size)
		return;
	while (n > 0 && v[n - 1] == '.')
		n--;
	if (n + 1 > size)
		n = size - 1;
	memcpy(out, v, n);
	out[n] = '\0';
}
