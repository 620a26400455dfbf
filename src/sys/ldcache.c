/*
 * ldcache.c - /etc/ld.so.cache reader and fixture writer; see ldcache.h for
 * the format. Nothing here trusts the file: every count, offset and string
 * is checked against the length before use.
 */
#include "sys/ldcache.h"
#include "base/buf.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "sys/root.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define NEW_MAGIC "glibc-ld.so.cache1.1"
#define NEW_MAGIC_LEN 20
#define NEW_HDR 48
#define NEW_ENTRY 24
#define OLD_MAGIC "ld.so-1.7.0"
#define OLD_MAGIC_LEN 11
#define OLD_HDR 16
#define OLD_ENTRY 12
#define ENDIAN_LITTLE 2
#define ENDIAN_BIG 3

static uint32_t
get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t
get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void
put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* The string at base + off, if it lies wholly inside data[0..len). */
static const char *
str_at(const char *data, size_t len, size_t base, uint32_t off)
{
	size_t at = base + off;

	if (base > len || off > len - base || at >= len)
		return NULL;
	if (!memchr(data + at, '\0', len - at))
		return NULL;
	return data + at;
}

/* Entries of the new format starting at data + base. */
static int
parse_new(struct ldcache *c, size_t base)
{
	const unsigned char *h = (const unsigned char *)c->data + base;
	size_t avail = c->len - base;
	uint32_t nlibs;
	int i;

	if (avail < NEW_HDR || memcmp(h, NEW_MAGIC, NEW_MAGIC_LEN) != 0)
		return -1;
	nlibs = get32(h + 20);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (h[28] == ENDIAN_BIG || h[28] == 1)
		return -1;
#else
	if (h[28] == ENDIAN_LITTLE || h[28] == 1)
		return -1;
#endif
	if (nlibs > (avail - NEW_HDR) / NEW_ENTRY)
		return -1;
	c->entries = xcalloc(nlibs ? nlibs : 1, sizeof(*c->entries));
	for (i = 0; i < (int)nlibs; i++) {
		const unsigned char *e = h + NEW_HDR + (size_t)i * NEW_ENTRY;
		struct ldcache_entry *out = &c->entries[i];

		out->flags = (int32_t)get32(e);
		out->key = str_at(c->data, c->len, base, get32(e + 4));
		out->value = str_at(c->data, c->len, base, get32(e + 8));
		out->hwcap = get64(e + 16);
		if (!out->key || !out->value)
			return -1;
	}
	c->n = (int)nlibs;
	return 0;
}

/* The old format; hands over to the new one when it follows. */
static int
parse_old(struct ldcache *c)
{
	const unsigned char *h = (const unsigned char *)c->data;
	size_t strbase, newbase;
	uint32_t nlibs;
	int i;

	if (c->len < OLD_HDR)
		return -1;
	nlibs = get32(h + 12);
	if (nlibs > (c->len - OLD_HDR) / OLD_ENTRY)
		return -1;
	strbase = OLD_HDR + (size_t)nlibs * OLD_ENTRY;
	newbase = (strbase + 7) & ~(size_t)7;
	if (newbase + NEW_HDR <= c->len &&
	    memcmp(c->data + newbase, NEW_MAGIC, NEW_MAGIC_LEN) == 0)
		return parse_new(c, newbase);
	c->entries = xcalloc(nlibs ? nlibs : 1, sizeof(*c->entries));
	for (i = 0; i < (int)nlibs; i++) {
		const unsigned char *e = h + OLD_HDR + (size_t)i * OLD_ENTRY;
		struct ldcache_entry *out = &c->entries[i];

		out->flags = (int32_t)get32(e);
		out->key = str_at(c->data, c->len, strbase, get32(e + 4));
		out->value = str_at(c->data, c->len, strbase, get32(e + 8));
		if (!out->key || !out->value)
			return -1;
	}
	c->n = (int)nlibs;
	return 0;
}

int
ldcache_parse(const void *data, size_t len, struct ldcache *c)
{
	int rc = -1;

	memset(c, 0, sizeof(*c));
	if (!data || len > LDCACHE_MAX_SIZE)
		return -1;
	c->data = xmalloc(len + 1);
	memcpy(c->data, data, len);
	c->data[len] = '\0';
	c->len = len;
	if (len >= NEW_MAGIC_LEN && memcmp(c->data, NEW_MAGIC, NEW_MAGIC_LEN) == 0)
		rc = parse_new(c, 0);
	else if (len >= OLD_MAGIC_LEN && memcmp(c->data, OLD_MAGIC, OLD_MAGIC_LEN) == 0)
		rc = parse_old(c);
	if (rc < 0)
		ldcache_release(c);
	return rc;
}

int
ldcache_load(const char *path, struct ldcache *c)
{
	char real[PATH_MAX];
	size_t len = 0;
	char *data;
	int rc;

	memset(c, 0, sizeof(*c));
	/* root_read_all does not resolve links inside a fixture root */
	if (!root_is_host() && root_realpath(path, real, sizeof(real)) == 0)
		path = real;
	data = root_read_all(path, LDCACHE_MAX_SIZE + 1, &len, NULL);
	if (!data)
		return -1;
	rc = ldcache_parse(data, len, c);
	free(data);
	return rc;
}

void
ldcache_release(struct ldcache *c)
{
	free(c->entries);
	free(c->data);
	memset(c, 0, sizeof(*c));
}

const struct ldcache_entry *
ldcache_lookup_flags(const struct ldcache *c, const char *soname, int32_t flags)
{
	int i;

	if (!c || !soname)
		return NULL;
	for (i = 0; i < c->n; i++) {
		const struct ldcache_entry *e = &c->entries[i];
		if (e->flags == flags && e->hwcap == 0 && strcmp(e->key, soname) == 0)
			return e;
	}
	return NULL;
}

const struct ldcache_entry *
ldcache_lookup(const struct ldcache *c, const char *soname)
{
	return ldcache_lookup_flags(c, soname, LDCACHE_FLAGS_NATIVE);
}

static bool
is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

int
ldcache_namecmp(const char *a, const char *b)
{
	while (*a) {
		if (is_digit(*a) && is_digit(*b)) {
			unsigned long va = 0, vb = 0;
			while (is_digit(*a)) {
				if (va < 100000000ul)
					va = va * 10 + (unsigned long)(*a - '0');
				a++;
			}
			while (is_digit(*b)) {
				if (vb < 100000000ul)
					vb = vb * 10 + (unsigned long)(*b - '0');
				b++;
			}
			if (va != vb)
				return va < vb ? -1 : 1;
			continue;
		}
		if (is_digit(*a))
			return 1;
		if (is_digit(*b))
			return -1;
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++;
		b++;
	}
	return -(int)(unsigned char)*b;
}

/* Stable insertion sort of an index: descending name, then flags. */
static void
sort_order(const struct ldcache_entry *e, int n, int *idx)
{
	int i, j;

	for (i = 0; i < n; i++)
		idx[i] = i;
	for (i = 1; i < n; i++) {
		int cur = idx[i];
		for (j = i; j > 0; j--) {
			const struct ldcache_entry *p = &e[idx[j - 1]], *q = &e[cur];
			int r = ldcache_namecmp(q->key, p->key);
			if (r < 0 || (r == 0 && q->flags <= p->flags))
				break;
			idx[j] = idx[j - 1];
		}
		idx[j] = cur;
	}
}

int
ldcache_build(const struct ldcache_entry *entries, int n, struct buf *out)
{
	unsigned char hdr[NEW_HDR];
	size_t strings = 0, at;
	int *idx, i, rc = -1;

	if (n < 0)
		return -1;
	for (i = 0; i < n; i++)
		strings += strlen(entries[i].key) + 1 + strlen(entries[i].value) + 1;
	if (strings + NEW_HDR + (size_t)n * NEW_ENTRY > 0xffffffffu)
		return -1;
	idx = xcalloc((size_t)n + 1, sizeof(*idx));
	sort_order(entries, n, idx);

	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr, NEW_MAGIC, NEW_MAGIC_LEN);
	put32(hdr + 20, (uint32_t)n);
	put32(hdr + 24, (uint32_t)strings);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	hdr[28] = ENDIAN_LITTLE;
#else
	hdr[28] = ENDIAN_BIG;
#endif
	buf_add(out, hdr, sizeof(hdr));

	at = NEW_HDR + (size_t)n * NEW_ENTRY;
	for (i = 0; i < n; i++) {
		const struct ldcache_entry *e = &entries[idx[i]];
		unsigned char ent[NEW_ENTRY];

		memset(ent, 0, sizeof(ent));
		put32(ent, (uint32_t)e->flags);
		put32(ent + 4, (uint32_t)at);
		at += strlen(e->key) + 1;
		put32(ent + 8, (uint32_t)at);
		at += strlen(e->value) + 1;
		memcpy(ent + 16, &e->hwcap, 8);
		buf_add(out, ent, sizeof(ent));
	}
	for (i = 0; i < n; i++) {
		const struct ldcache_entry *e = &entries[idx[i]];
		buf_add(out, e->key, strlen(e->key) + 1);
		buf_add(out, e->value, strlen(e->value) + 1);
	}
	if (!out->truncated)
		rc = 0;
	free(idx);
	return rc;
}

const struct ldcache *
ldcache_system(void)
{
	static struct ldcache sys;
	static char for_root[PATH_MAX];
	static bool loaded, ok;

	if (loaded && !strcmp(for_root, root_get()))
		return ok ? &sys : NULL;
	if (loaded)
		ldcache_release(&sys);
	str_copy(for_root, sizeof(for_root), root_get());
	ok = ldcache_load("/etc/ld.so.cache", &sys) == 0;
	loaded = true;
	return ok ? &sys : NULL;
}
