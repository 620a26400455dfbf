/*
 * t_ldcache.c - the ld.so.cache reader against this machine's cache and
 * `ldconfig -p`, the fixture writer round trip, both file formats, and
 * every truncation and many corruptions of a small cache.
 */
#include "unit.h"

#include "base/buf.h"
#include "sys/ldcache.h"
#include "sys/root.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
test_real_cache_matches_ldconfig(void **state)
{
	struct ldcache c;
	char line[4096];
	FILE *p;
	int i = 0, header = -1;

	(void)state;
	root_set("/");
	assert_int_equal(ldcache_load("/etc/ld.so.cache", &c), 0);
	assert_true(c.n > 0);
	p = popen("PATH=\"$PATH:/sbin:/usr/sbin\" ldconfig -p -C /etc/ld.so.cache", "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		char *open, *arrow, *desc, *key, *path;
		size_t n = strlen(line);

		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (header < 0 && sscanf(line, "%d libs found", &header) == 1)
			continue;
		key = line;
		while (*key == '\t' || *key == ' ')
			key++;
		open = strstr(key, " (");
		arrow = strstr(key, ") => ");
		if (!open || !arrow)
			continue;
		*open = '\0';
		desc = open + 2;
		*arrow = '\0';
		path = arrow + 5;
		assert_true(i < c.n);
		assert_string_equal(c.entries[i].key, key);
		assert_string_equal(c.entries[i].value, path);
		if (strcmp(desc, "libc6,x86-64") == 0)
			assert_int_equal(c.entries[i].flags, LDCACHE_FLAGS_X8664);
		i++;
	}
	pclose(p);
	assert_int_equal(i, c.n);
	assert_int_equal(header, c.n);
	ldcache_release(&c);
}

static void
test_real_cache_lookup(void **state)
{
	const struct ldcache_entry *e;
	struct ldcache c;

	(void)state;
	char soname[64], tail[72];

	REQUIRE_HOST_TOOLKIT();
	unit_host_lib("libcudart.so", soname, sizeof(soname));
	snprintf(tail, sizeof(tail), "/%s", soname);
	root_set("/");
	assert_int_equal(ldcache_load("/etc/ld.so.cache", &c), 0);
	e = ldcache_lookup(&c, soname);
	if (!e) {
		ldcache_release(&c);
		SKIP_BECAUSE("the toolkit's %s is not in /etc/ld.so.cache", soname);
	}
	assert_true(strstr(e->value, tail) != NULL);
	assert_int_equal(e->flags, LDCACHE_FLAGS_X8664);
	assert_null(ldcache_lookup(&c, "libdoes-not-exist.so.42"));
	e = ldcache_lookup(&c, "libc.so.6");
	assert_non_null(e);
	ldcache_release(&c);
}

static const struct ldcache_entry sample[] = {
	{"libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", LDCACHE_FLAGS_X8664, 0},
	{"libcudart.so.12", "/usr/local/cuda-12.4/lib64/libcudart.so.12", LDCACHE_FLAGS_X8664, 0},
	{"libcuda.so.1", "/usr/local/nvidia/lib64/libcuda.so.1", LDCACHE_FLAGS_X8664, 0},
	{"libcuda.so.1", "/usr/lib/i386-linux-gnu/libcuda.so.1", LDCACHE_FLAG_ELF_LIBC6, 0},
	{"libfoo.so.9", "/lib/libfoo.so.9", LDCACHE_FLAGS_X8664, 0},
	{"libfoo.so.10", "/lib/libfoo.so.10", LDCACHE_FLAGS_X8664, 0},
};
#define NSAMPLE ((int)(sizeof(sample) / sizeof(sample[0])))

static void
build_sample(struct buf *b)
{
	buf_init(b);
	assert_int_equal(ldcache_build(sample, NSAMPLE, b), 0);
}

static void
test_build_round_trip(void **state)
{
	const struct ldcache_entry *e;
	struct ldcache c;
	struct buf b;
	int i;

	(void)state;
	build_sample(&b);
	assert_int_equal(ldcache_parse(b.s, b.len, &c), 0);
	assert_int_equal(c.n, NSAMPLE);
	/* ldconfig order: descending, numbers as numbers */
	assert_string_equal(c.entries[0].key, "libfoo.so.10");
	assert_string_equal(c.entries[1].key, "libfoo.so.9");
	assert_string_equal(c.entries[2].key, "libcudart.so.12");
	for (i = 1; i < c.n; i++)
		assert_true(ldcache_namecmp(c.entries[i - 1].key, c.entries[i].key) >= 0);
	/* equal names keep the listing order for the same arch */
	e = ldcache_lookup(&c, "libcuda.so.1");
	assert_non_null(e);
	assert_string_equal(e->value, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	e = ldcache_lookup_flags(&c, "libcuda.so.1", LDCACHE_FLAG_ELF_LIBC6);
	assert_non_null(e);
	assert_string_equal(e->value, "/usr/lib/i386-linux-gnu/libcuda.so.1");
	assert_null(ldcache_lookup(&c, "libcuda.so"));
	ldcache_release(&c);
	buf_release(&b);
}

/* glibc's own ldconfig reads what the writer wrote, in the same order. */
static void
test_build_read_by_ldconfig(void **state)
{
	char path[] = "/tmp/t_ldcache.XXXXXX", cmd[256], line[1024];
	struct ldcache c;
	struct buf b;
	FILE *fp;
	int fd, i = 0;

	(void)state;
	build_sample(&b);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b.s, b.len), (ssize_t)b.len);
	close(fd);
	assert_int_equal(ldcache_parse(b.s, b.len, &c), 0);
	snprintf(cmd, sizeof(cmd), "PATH=\"$PATH:/sbin:/usr/sbin\" ldconfig -p -C '%s'", path);
	fp = popen(cmd, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		char want[512];
		const char *desc = c.entries[i < c.n ? i : 0].flags == LDCACHE_FLAGS_X8664 ?
			"libc6,x86-64" : "libc6";
		if (strstr(line, "libs found in cache"))
			continue;
		assert_true(i < c.n);
		snprintf(want, sizeof(want), "\t%s (%s) => %s\n", c.entries[i].key, desc,
			c.entries[i].value);
		assert_string_equal(line, want);
		i++;
	}
	assert_int_equal(pclose(fp), 0);
	assert_int_equal(i, NSAMPLE);
	unlink(path);
	ldcache_release(&c);
	buf_release(&b);
}

static void
test_namecmp(void **state)
{
	(void)state;
	assert_true(ldcache_namecmp("libfoo.so.10", "libfoo.so.9") > 0);
	assert_true(ldcache_namecmp("libfoo.so.9", "libfoo.so.10") < 0);
	assert_int_equal(ldcache_namecmp("libfoo.so.1", "libfoo.so.1"), 0);
	assert_true(ldcache_namecmp("libfoo.so", "libfoo.so.1") < 0);
	assert_true(ldcache_namecmp("libb.so", "liba.so") > 0);
}

static void
test_every_truncation_fails_cleanly(void **state)
{
	struct ldcache c;
	struct buf b;
	size_t len;

	(void)state;
	build_sample(&b);
	for (len = 0; len < b.len; len++) {
		assert_int_equal(ldcache_parse(b.s, len, &c), -1);
		assert_int_equal(c.n, 0);
		assert_null(c.entries);
	}
	assert_int_equal(ldcache_parse(b.s, b.len, &c), 0);
	ldcache_release(&c);
	buf_release(&b);
}

/* Every byte set to several hostile values: never a crash, and when the
 * parse succeeds every string lies inside the data. */
static void
test_corruption(void **state)
{
	static const unsigned char vals[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
	struct ldcache c;
	struct buf b;
	size_t i, k;

	(void)state;
	build_sample(&b);
	for (i = 0; i < b.len; i++) {
		for (k = 0; k < sizeof(vals); k++) {
			char *copy = malloc(b.len);
			int j;

			memcpy(copy, b.s, b.len);
			copy[i] = (char)vals[k];
			if (ldcache_parse(copy, b.len, &c) == 0) {
				for (j = 0; j < c.n; j++) {
					assert_true(c.entries[j].key >= c.data);
					assert_true(c.entries[j].key < c.data + c.len);
					assert_true(c.entries[j].value >= c.data);
					assert_true(c.entries[j].value + strlen(c.entries[j].value) < c.data + c.len);
				}
				ldcache_release(&c);
			}
			free(copy);
		}
	}
	/* nlibs = huge */
	{
		char *copy = malloc(b.len);
		memcpy(copy, b.s, b.len);
		memset(copy + 20, 0xff, 4);
		assert_int_equal(ldcache_parse(copy, b.len, &c), -1);
		free(copy);
	}
	/* not a cache at all */
	assert_int_equal(ldcache_parse("hello world, this is not a cache file at all........",
			     52, &c), -1);
	buf_release(&b);
}

static void
put32(struct buf *b, unsigned v)
{
	buf_add(b, &v, 4);
}

/* "ld.so-1.7.0" with the new format after it at an 8-aligned offset. */
static void
test_old_format_with_new_inside(void **state)
{
	const struct ldcache_entry *e;
	struct ldcache c;
	struct buf b, nb;

	(void)state;
	buf_init(&b);
	buf_add(&b, "ld.so-1.7.0\0", 12);
	put32(&b, 1);
	put32(&b, LDCACHE_FLAGS_X8664);
	put32(&b, 0);
	put32(&b, 0); /* 28 bytes: the new cache starts at 32 */
	put32(&b, 0);
	build_sample(&nb);
	buf_add(&b, nb.s, nb.len);
	assert_int_equal(ldcache_parse(b.s, b.len, &c), 0);
	assert_int_equal(c.n, NSAMPLE);
	e = ldcache_lookup(&c, "libcudart.so.12");
	assert_non_null(e);
	assert_string_equal(e->value, "/usr/local/cuda-12.4/lib64/libcudart.so.12");
	ldcache_release(&c);
	buf_release(&b);
	buf_release(&nb);
}

/* The old format alone: offsets from the end of the entry table. */
static void
test_old_format_alone(void **state)
{
	const struct ldcache_entry *e;
	struct ldcache c;
	struct buf b;
	size_t len;

	(void)state;
	buf_init(&b);
	buf_add(&b, "ld.so-1.7.0\0", 12);
	put32(&b, 2);
	put32(&b, LDCACHE_FLAGS_X8664);
	put32(&b, 0);
	put32(&b, 10);
	put32(&b, LDCACHE_FLAGS_X8664);
	put32(&b, 30);
	put32(&b, 38);
	buf_add(&b, "libz.so.1\0/lib/libz.so.1\0\0\0\0\0\0libm.so\0/lib/libm.so\0", 51);
	assert_int_equal(ldcache_parse(b.s, b.len, &c), 0);
	assert_int_equal(c.n, 2);
	e = ldcache_lookup(&c, "libz.so.1");
	assert_non_null(e);
	assert_string_equal(e->value, "/lib/libz.so.1");
	e = ldcache_lookup(&c, "libm.so");
	assert_non_null(e);
	assert_string_equal(e->value, "/lib/libm.so");
	ldcache_release(&c);
	for (len = 0; len < b.len; len++) {
		assert_int_equal(ldcache_parse(b.s, len, &c), -1);
	}
	buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_cache_matches_ldconfig),
		cmocka_unit_test(test_real_cache_lookup),
		cmocka_unit_test(test_build_round_trip),
		cmocka_unit_test(test_build_read_by_ldconfig),
		cmocka_unit_test(test_namecmp),
		cmocka_unit_test(test_every_truncation_fails_cleanly),
		cmocka_unit_test(test_corruption),
		cmocka_unit_test(test_old_format_with_new_inside),
		cmocka_unit_test(test_old_format_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
