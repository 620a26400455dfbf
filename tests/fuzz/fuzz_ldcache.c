/*
 * fuzz_ldcache.c - libFuzzer harness for the ld.so.cache reader
 * (src/sys/ldcache.c): the input is a whole cache file. A cache that parses
 * is then used the way probes use one: every string read, the lookups, the
 * loader's search through it (ldresolve, under an empty root), and a
 * rebuild with ldcache_build that must parse back to the same entries.
 */
#include "base/buf.h"
#include "sys/ldcache.h"
#include "sys/ldresolve.h"
#include "sys/root.h"

#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	root_set(fuzz_tree_init("ldcache"));
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ldcache c, back;
	struct ld_result r;
	struct buf out;
	size_t total = 0;
	int i;

	if (ldcache_parse(data, size, &c) < 0) {
		if (c.n != 0 || c.entries || c.data)
			abort(); /* a failed parse leaves the cache empty */
		return 0;
	}
	for (i = 0; i < c.n; i++)
		total += strlen(c.entries[i].key) + strlen(c.entries[i].value);
	if (total == SIZE_MAX)
		abort(); /* keeps the reads */
	ldcache_lookup(&c, "libcuda.so.1");
	if (c.n > 0) {
		if (ldcache_lookup_flags(&c, c.entries[0].key, c.entries[0].flags) == NULL &&
		    c.entries[0].hwcap == 0)
			abort();
		ldresolve(c.entries[0].key, NULL, NULL, &c, &r);
		ldcache_namecmp(c.entries[0].key, c.entries[c.n - 1].key);
	}
	ldresolve("libcudart.so.13", NULL, NULL, &c, &r);

	/* what ldcache_build writes, ldcache_parse reads back whole */
	buf_init(&out);
	if (ldcache_build(c.entries, c.n, &out) == 0) {
		if (ldcache_parse(out.s, out.len, &back) < 0 || back.n != c.n)
			abort();
		ldcache_release(&back);
	}
	buf_release(&out);
	ldcache_release(&c);
	return 0;
}
