/*
 * path.c - see path.h.
 */
#include "base/path.h"
#include "base/str.h"

#include <string.h>

void
path_dir(const char *path, char *out, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!size)
		return;
	if (!slash) {
		str_copy(out, size, ".");
		return;
	}
	n = (size_t)(slash - path);
	if (n == 0)
		n = 1;
	if (n >= size)
		n = size - 1;
	memcpy(out, path, n);
	out[n] = '\0';
}

bool
path_same_dir(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	while (la > 1 && a[la - 1] == '/')
		la--;
	while (lb > 1 && b[lb - 1] == '/')
		lb--;
	return la == lb && !strncmp(a, b, la);
}
