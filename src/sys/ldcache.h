/*
 * ldcache.h - read (and, for test fixtures, write) /etc/ld.so.cache, the
 * table of sonames and paths ldconfig builds and ld.so consults before its
 * default directories.
 *
 * Format (glibc elf/cache.c, sysdeps/generic/dl-cache.h): the "new" format
 * starts with "glibc-ld.so.cache" "1.1", a 48-byte header (nlibs,
 * len_strings, endianness flag, extension offset) and nlibs 24-byte entries
 * {int32 flags, uint32 key, uint32 value, uint32 osversion, uint64 hwcap}
 * whose key/value are offsets of NUL-terminated strings from the start of
 * that header. The "old" format ("ld.so-1.7.0", 12-byte entries, offsets
 * from the end of its entry table) may come first, with the new one after it
 * at an 8-aligned offset; glibc has written new-only caches since 2.32.
 *
 * The file is treated as hostile: the magic is checked and every offset and
 * string is bounds-checked; a bad entry makes the whole cache invalid.
 * Entries keep file order, which is ld.so's order for equal sonames.
 */
#ifndef GPUDOCTOR_LDCACHE_H
#define GPUDOCTOR_LDCACHE_H

#include <stdint.h>
#include <stddef.h>

struct buf;

/* flags: the low byte is the type, the next the architecture. */
#define LDCACHE_FLAG_ELF_LIBC6 0x0003
#define LDCACHE_FLAG_X8664 0x0300       /* FLAG_X8664_LIB64 */
#define LDCACHE_FLAG_AARCH64 0x0a00     /* FLAG_AARCH64_LIB64 */
#define LDCACHE_FLAGS_X8664 (LDCACHE_FLAG_ELF_LIBC6 | LDCACHE_FLAG_X8664)
#define LDCACHE_FLAGS_AARCH64 (LDCACHE_FLAG_ELF_LIBC6 | LDCACHE_FLAG_AARCH64)
#if defined(__x86_64__)
#define LDCACHE_FLAGS_NATIVE LDCACHE_FLAGS_X8664
#elif defined(__aarch64__)
#define LDCACHE_FLAGS_NATIVE LDCACHE_FLAGS_AARCH64
#else
#define LDCACHE_FLAGS_NATIVE LDCACHE_FLAG_ELF_LIBC6
#endif

/* Largest cache accepted (a full distro has ~100 KiB). */
#define LDCACHE_MAX_SIZE (64u << 20)

struct ldcache_entry {
	const char *key;     /* soname, e.g. "libcudart.so.13" */
	const char *value;   /* path, e.g. "/usr/local/cuda-13.0/lib/libcudart.so.13" */
	int32_t flags;       /* LDCACHE_FLAGS_X8664 ... */
	uint64_t hwcap;      /* nonzero: only for some CPUs (glibc-hwcaps) */
};

/* A parsed cache; the strings point into `data`, owned by the struct. */
struct ldcache {
	int n;
	struct ldcache_entry *entries;
	char *data;
	size_t len;
};

/* Read and parse the cache at machine path `path` (normally
 * "/etc/ld.so.cache") under the root. Returns 0, or -1 when it is missing,
 * unreadable or malformed (c is then empty, n = 0, and safe to release). */
int ldcache_load(const char *path, struct ldcache *c);
/* Parse len bytes (copied). Returns 0 or -1 as ldcache_load. */
int ldcache_parse(const void *data, size_t len, struct ldcache *c);
void ldcache_release(struct ldcache *c);
/* The machine's /etc/ld.so.cache under the current root, read and parsed
 * once per root and shared by every probe; NULL when it is missing,
 * unreadable or malformed. Valid until the root changes. */
const struct ldcache *ldcache_system(void);

/* The first entry for `soname` usable on this machine (flags ==
 * LDCACHE_FLAGS_NATIVE, no hwcap restriction), in file order; NULL if none. */
const struct ldcache_entry *ldcache_lookup(const struct ldcache *c, const char *soname);
/* Same, for the given flags. */
const struct ldcache_entry *ldcache_lookup_flags(const struct ldcache *c, const char *soname,
	int32_t flags);

/* Write a new-format cache holding entries[0..n) to out, sorted the way
 * ldconfig sorts (descending by soname, numbers compared as numbers; equal
 * sonames keep their given order). For test fixtures. Returns 0, or -1 when
 * the strings do not fit in 32-bit offsets. */
int ldcache_build(const struct ldcache_entry *entries, int n, struct buf *out);

/* ldconfig's soname order: <0, 0, >0 like strcmp, digit runs as numbers. */
int ldcache_namecmp(const char *a, const char *b);

#endif
