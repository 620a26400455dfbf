/*
 * t_ldresolve.c - the loader's search order on a temporary fixture tree:
 * rpath, LD_LIBRARY_PATH, runpath with $ORIGIN, ld.so.cache, default
 * directories, foreign-ELF skipping, and the $ORIGIN/$LIB/$PLATFORM
 * expansion.
 */
#include "unit.h"

#include "base/buf.h"
#include "base/str.h"
#include "sys/elf.h"
#include "sys/ldcache.h"
#include "sys/ldresolve.h"
#include "sys/root.h"

#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[PATH_MAX];
static struct ldcache cache;

static void
mkdirs(const char *mpath)
{
	char p[PATH_MAX], *s;

	str_fmt(p, sizeof(p), "%s%s", tmpdir, mpath);
	for (s = p + strlen(tmpdir) + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	}
	mkdir(p, 0755);
}

/* Write a file at machine path mpath: "text" or a bare ELF header. */
static void
put_file(const char *mpath, unsigned machine)
{
	char p[PATH_MAX], dir[PATH_MAX], *slash;
	unsigned char eh[64];
	FILE *f;

	str_copy(dir, sizeof(dir), mpath);
	slash = strrchr(dir, '/');
	*slash = '\0';
	mkdirs(dir);
	str_fmt(p, sizeof(p), "%s%s", tmpdir, mpath);
	f = fopen(p, "wb");
	assert_non_null(f);
	if (machine) {
		memset(eh, 0, sizeof(eh));
		memcpy(eh, ELFMAG, SELFMAG);
		eh[EI_CLASS] = ELFCLASS64;
		eh[EI_DATA] = ELFDATA2LSB;
		eh[EI_VERSION] = EV_CURRENT;
		eh[16] = ET_DYN;
		eh[18] = (unsigned char)machine;
		fwrite(eh, 1, sizeof(eh), f);
	} else {
		fputs("not an ELF file\n", f);
	}
	fclose(f);
}

static int
setup(void **state)
{
	static const struct ldcache_entry ents[] = {
		{"libfoo.so.1", "/opt/cached/libfoo.so.1", LDCACHE_FLAGS_X8664, 0},
		{"libgone.so.1", "/opt/missing/libgone.so.1", LDCACHE_FLAGS_X8664, 0},
		{"libi386.so.1", "/opt/i386/libi386.so.1", LDCACHE_FLAG_ELF_LIBC6, 0},
	};
	struct buf b;

	(void)state;
	str_copy(tmpdir, sizeof(tmpdir), "/tmp/t_ldresolve.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	put_file("/usr/lib/x86_64-linux-gnu/libfoo.so.1", EM_X86_64);
	put_file("/usr/lib/x86_64-linux-gnu/libgone.so.1", EM_X86_64);
	put_file("/usr/lib64/libi386.so.1", EM_X86_64);
	put_file("/opt/cached/libfoo.so.1", EM_X86_64);
	put_file("/opt/i386/libi386.so.1", EM_X86_64);
	put_file("/ldp1/libfoo.so.1", EM_AARCH64);   /* foreign: skipped */
	put_file("/ldp2/libfoo.so.1", EM_X86_64);
	put_file("/ldp3/libtext.so.1", 0);           /* not ELF: taken */
	put_file("/app/rp/libfoo.so.1", EM_X86_64);
	put_file("/app/rp/librun.so.1", EM_X86_64);
	mkdirs("/app/bin");
	put_file("/rpath/libfoo.so.1", EM_X86_64);
	put_file("/lib/x86_64-linux-gnu/libdef.so.2", EM_X86_64);
	put_file("/usr/lib/libdef.so.2", EM_X86_64);
	buf_init(&b);
	if (ldcache_build(ents, 3, &b) < 0 || ldcache_parse(b.s, b.len, &cache) < 0)
		return -1;
	buf_release(&b);
	root_set(tmpdir);
	return 0;
}

static int
teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	ldcache_release(&cache);
	root_set("/");
	str_fmt(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_plain_dlopen_uses_cache_then_default(void **state)
{
	struct ld_result r;

	(void)state;
	assert_int_equal(ldresolve("libfoo.so.1", NULL, NULL, &cache, &r), 1);
	assert_int_equal(r.how, LD_HOW_LD_SO_CACHE);
	assert_string_equal(r.path, "/opt/cached/libfoo.so.1");
	assert_string_equal(ld_how_name(r.how), "ld_so_cache");
	/* without a cache: the first default dir that has it */
	assert_int_equal(ldresolve("libfoo.so.1", NULL, NULL, NULL, &r), 1);
	assert_int_equal(r.how, LD_HOW_DEFAULT);
	assert_string_equal(r.path, "/usr/lib/x86_64-linux-gnu/libfoo.so.1");
	/* a cache entry whose file is gone falls through to the default dirs */
	assert_int_equal(ldresolve("libgone.so.1", NULL, NULL, &cache, &r), 1);
	assert_int_equal(r.how, LD_HOW_DEFAULT);
	assert_string_equal(r.path, "/usr/lib/x86_64-linux-gnu/libgone.so.1");
	/* a cache entry for another arch is not used */
	assert_int_equal(ldresolve("libi386.so.1", NULL, NULL, &cache, &r), 1);
	assert_int_equal(r.how, LD_HOW_DEFAULT);
	assert_string_equal(r.path, "/usr/lib64/libi386.so.1");
	/* default order: /lib/<triplet> before /usr/lib */
	assert_int_equal(ldresolve("libdef.so.2", NULL, NULL, &cache, &r), 1);
	assert_string_equal(r.path, "/lib/x86_64-linux-gnu/libdef.so.2");
	assert_int_equal(ldresolve("libnothere.so.9", NULL, "/ldp1:/ldp2", &cache, &r), 0);
	assert_int_equal(r.how, LD_HOW_NONE);
	assert_string_equal(r.path, "");
}

static void
test_ld_library_path(void **state)
{
	struct ld_result r;

	(void)state;
	/* /ldp1 holds an aarch64 copy: skipped like ld.so does */
	assert_int_equal(ldresolve("libfoo.so.1", NULL, "/nonexistent::/ldp1;/ldp2", &cache, &r), 1);
	assert_int_equal(r.how, LD_HOW_LD_LIBRARY_PATH);
	assert_string_equal(r.path, "/ldp2/libfoo.so.1");
	assert_true(r.is_elf);
	/* a non-ELF file is where ld.so stops (and fails) */
	assert_int_equal(ldresolve("libtext.so.1", NULL, "/ldp3/", &cache, &r), 1);
	assert_string_equal(r.path, "/ldp3/libtext.so.1");
	assert_false(r.is_elf);
	/* $ORIGIN in LD_LIBRARY_PATH cannot be expanded here: dropped */
	assert_int_equal(ldresolve("libfoo.so.1", NULL, "$ORIGIN/../ldp2", &cache, &r), 1);
	assert_int_equal(r.how, LD_HOW_LD_SO_CACHE);
}

static void
test_rpath_runpath_order(void **state)
{
	struct ld_consumer c = {.origin = "/app/bin"};
	struct ld_result r;

	(void)state;
	c.runpath = "$ORIGIN/../rp";
	assert_int_equal(ldresolve("libfoo.so.1", &c, NULL, &cache, &r), 1);
	assert_int_equal(r.how, LD_HOW_RUNPATH);
	assert_string_equal(r.path, "/app/bin/../rp/libfoo.so.1");
	/* LD_LIBRARY_PATH beats DT_RUNPATH */
	assert_int_equal(ldresolve("libfoo.so.1", &c, "/ldp2", &cache, &r), 1);
	assert_int_equal(r.how, LD_HOW_LD_LIBRARY_PATH);
	/* DT_RPATH is ignored when DT_RUNPATH is present */
	c.rpath = "/rpath";
	assert_int_equal(ldresolve("libfoo.so.1", &c, "/ldp2", &cache, &r), 1);
	assert_int_equal(r.how, LD_HOW_LD_LIBRARY_PATH);
	/* DT_RPATH alone beats LD_LIBRARY_PATH */
	c.runpath = NULL;
	assert_int_equal(ldresolve("libfoo.so.1", &c, "/ldp2", &cache, &r), 1);
	assert_int_equal(r.how, LD_HOW_RPATH);
	assert_string_equal(r.path, "/rpath/libfoo.so.1");
	assert_string_equal(ld_how_name(r.how), "rpath");
	/* ${ORIGIN} spelling, in rpath */
	c.rpath = "${ORIGIN}/../rp";
	assert_int_equal(ldresolve("librun.so.1", &c, NULL, &cache, &r), 1);
	assert_int_equal(r.how, LD_HOW_RPATH);
	assert_string_equal(r.path, "/app/bin/../rp/librun.so.1");
	/* no origin known: the $ORIGIN element is dropped */
	c.origin = NULL;
	assert_int_equal(ldresolve("librun.so.1", &c, NULL, &cache, &r), 0);
}

static void
test_direct_path(void **state)
{
	struct ld_result r;

	(void)state;
	assert_int_equal(ldresolve("/ldp2/libfoo.so.1", NULL, NULL, &cache, &r), 1);
	assert_int_equal(r.how, LD_HOW_DIRECT);
	assert_int_equal(ldresolve("/ldp1/libfoo.so.1", NULL, NULL, &cache, &r), 0);
	assert_int_equal(ldresolve("/nope/libfoo.so.1", NULL, NULL, &cache, &r), 0);
}

static void
test_expand(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(ldresolve_expand("$ORIGIN/../lib", "/opt/app", out, sizeof(out)), 0);
	assert_string_equal(out, "/opt/app/../lib");
	assert_int_equal(ldresolve_expand("/x/$LIB/${PLATFORM}", NULL, out, sizeof(out)), 0);
	assert_string_equal(out, "/x/lib/x86_64-linux-gnu/x86_64");
	assert_int_equal(ldresolve_expand("/a/$ORIGINAL/b", "/o", out, sizeof(out)), 0);
	assert_string_equal(out, "/a/$ORIGINAL/b");
	assert_int_equal(ldresolve_expand("$ORIGIN", NULL, out, sizeof(out)), -1);
	assert_int_equal(ldresolve_expand("$ORIGIN/0123456789", "/0123456789012345678901234567890123456789012345678901234567", out, sizeof(out)), -1);
	assert_int_equal(ldresolve_expand("$", "/o", out, sizeof(out)), 0);
	assert_string_equal(out, "$");
}

/* The running machine: the toolkit's libcudart comes from the cache. */
static void
test_host_cudart(void **state)
{
	struct ldcache host;
	struct ld_result r;

	(void)state;
	char soname[64];

	REQUIRE_HOST_TOOLKIT();
	unit_host_lib("libcudart.so", soname, sizeof(soname));
	root_set("/");
	assert_int_equal(ldcache_load("/etc/ld.so.cache", &host), 0);
	if (!ldcache_lookup(&host, soname)) {
		ldcache_release(&host);
		root_set(tmpdir);
		SKIP_BECAUSE("the toolkit's %s is not in /etc/ld.so.cache", soname);
	}
	assert_int_equal(ldresolve(soname, NULL, NULL, &host, &r), 1);
	assert_int_equal(r.how, LD_HOW_LD_SO_CACHE);
	assert_true(str_starts(r.path, "/usr/local/cuda"));
	assert_true(r.is_elf);
	ldcache_release(&host);
	root_set(tmpdir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_dlopen_uses_cache_then_default),
		cmocka_unit_test(test_ld_library_path),
		cmocka_unit_test(test_rpath_runpath_order),
		cmocka_unit_test(test_direct_path),
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_host_cudart),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
