/*
 * mk-ldcache.c - write a binary /etc/ld.so.cache for a fixture tree.
 *
 *   mk-ldcache LISTING OUT
 *
 * LISTING has one `SONAME PATH` per line (x86-64 libc6 entries); blank
 * lines and lines starting with '#' are skipped. OUT is written in glibc's
 * new format (sys/ldcache.c ldcache_build), entries sorted as ldconfig sorts
 * them. Exit status 0, or 1 with a message on stderr.
 */
#include "base/buf.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "sys/ldcache.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
	struct ldcache_entry *v = NULL;
	int n = 0, cap = 0, lineno = 0, rc = 1, i;
	char line[8192];
	struct buf out;
	FILE *in, *fp;

	if (argc != 3) {
		fprintf(stderr, "usage: mk-ldcache LISTING OUT\n");
		return 1;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		fprintf(stderr, "mk-ldcache: cannot open '%s': %s\n", argv[1], strerror(errno));
		return 1;
	}
	buf_init(&out);
	while (fgets(line, sizeof(line), in)) {
		char *s = str_trim(line), *sp;

		lineno++;
		if (!*s || *s == '#')
			continue;
		sp = strpbrk(s, " \t");
		if (!sp) {
			fprintf(stderr, "mk-ldcache: %s:%d: expected 'SONAME PATH'\n", argv[1], lineno);
			goto out;
		}
		*sp++ = '\0';
		sp = str_trim(sp);
		if (!*sp || strpbrk(sp, " \t")) {
			fprintf(stderr, "mk-ldcache: %s:%d: expected 'SONAME PATH'\n", argv[1], lineno);
			goto out;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = xrealloc(v, (size_t)cap * sizeof(*v));
		}
		v[n].key = xstrdup(s);
		v[n].value = xstrdup(sp);
		v[n].flags = LDCACHE_FLAGS_X8664;
		v[n].hwcap = 0;
		n++;
	}
	if (ldcache_build(v, n, &out) < 0) {
		fprintf(stderr, "mk-ldcache: listing too large\n");
		goto out;
	}
	fp = fopen(argv[2], "wb");
	if (fp) {
		bool ok = fwrite(out.s, 1, out.len, fp) == out.len;
		if (fclose(fp) == 0 && ok)
			rc = 0;
	}
	if (rc)
		fprintf(stderr, "mk-ldcache: cannot write '%s': %s\n", argv[2], strerror(errno));
out:
	fclose(in);
	for (i = 0; i < n; i++) {
		free((char *)v[i].key);
		free((char *)v[i].value);
	}
	free(v);
	buf_release(&out);
	return rc;
}
