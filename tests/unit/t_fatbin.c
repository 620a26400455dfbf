/*
 * t_fatbin.c - the fat-binary reader (sys/fatbin.c) and the ELF section
 * lookup under it (elf_section_fd) on files written by tests/tools/elfw.h:
 * targets with their suffixes and PTX ISA versions, counts per compiled
 * unit and the lists doctor keeps, and hostile files (no section, a
 * damaged header, sizes past the end, not ELF at all).
 */
#include "unit.h"

#include "../tools/elfw.h"
#include "base/str.h"
#include "sys/elf.h"
#include "sys/fatbin.h"
#include "sys/root.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char tmpdir[PATH_MAX];

static int
setup(void **state)
{
	(void)state;
	str_copy(tmpdir, sizeof(tmpdir), "/tmp/t_fatbin.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	root_set(NULL);
	return 0;
}

static int
teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	str_fmt(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd);
}

/* A library whose .nv_fatbin holds one fat binary per list, `repeat` times. */
static const char *
lib(const char *name, const char *const *lists, int nlists, int repeat)
{
	static char path[PATH_MAX];
	struct buf fb;
	int r, i;

	buf_init(&fb);
	for (r = 0; r < repeat; r++)
		for (i = 0; i < nlists; i++)
			assert_int_equal(elfw_fatbin(&fb, lists[i], 100), 0);
	str_fmt(path, sizeof(path), "%s/%s", tmpdir, name);
	assert_int_equal(elfw_write_fatbin(path, "libx.so", NULL, 0, NULL, false, nlists ? &fb : NULL), 0);
	buf_release(&fb);
	return path;
}

static void
lists(const struct fatbin_info *fi, char *sass, char *ptx, char *isa)
{
	fatbin_lists(fi, 0.5, sass, 128, ptx, 64, isa, 16);
}

static void
test_targets(void **state)
{
	static const char *const l[] = {"sm_75,sm_80,sm_86,sm_90,compute_90@8.4"};
	struct fatbin_info fi;
	char sass[128], ptx[64], isa[16];

	(void)state;
	assert_int_equal(fatbin_read(lib("a.so", l, 1, 3), &fi, 0), 0);
	assert_true(fi.has_section);
	assert_false(fi.truncated);
	assert_int_equal(fi.nblobs, 3);
	assert_int_equal(fi.nentries, 15);
	assert_int_equal(fi.ntargets, 5);
	lists(&fi, sass, ptx, isa);
	assert_string_equal(sass, "7.5 8.0 8.6 9.0");
	assert_string_equal(ptx, "9.0");
	assert_string_equal(isa, "8.4");
	assert_false(fi.sampled);
	/* out of time after the first fat binary: the lists of that one */
	assert_int_equal(fatbin_read(lib("a.so", l, 1, 3), &fi, 1e-9), 0);
	assert_true(fi.sampled);
	assert_false(fi.truncated);
	assert_int_equal(fi.nblobs, 1);
	lists(&fi, sass, ptx, isa);
	assert_string_equal(sass, "7.5 8.0 8.6 9.0");
	assert_string_equal(ptx, "9.0");
}

/* Arch- and family-specific cubins keep their suffix; a target carried by
 * a few compiled units only is left out of the lists (libtorch_cuda.so: 444
 * units with sm_75 ... sm_120, 59 with sm_100a as well). */
static void
test_suffixes_and_share(void **state)
{
	static const char *const l[] = {
		"sm_75,sm_80,sm_90,sm_100,sm_120", "sm_75,sm_80,sm_90,sm_100,sm_120",
		"sm_75,sm_80,sm_90,sm_100,sm_120", "sm_75,sm_80,sm_90,sm_90a,sm_100,sm_100a,sm_120,sm_120f",
	};
	static const char *const all_f[] = {"sm_100f,sm_120f,compute_120f@9.0"};
	struct fatbin_info fi;
	char sass[128], ptx[64], isa[16], name[16];
	int i, n90a = -1;

	(void)state;
	assert_int_equal(fatbin_read(lib("b.so", l, 4, 5), &fi, 0), 0);
	assert_int_equal(fi.nblobs, 20);
	for (i = 0; i < fi.ntargets; i++) {
		fatbin_target_name(&fi.targets[i], name, sizeof(name));
		if (!strcmp(name, "9.0a"))
			n90a = (int)fi.targets[i].blobs;
	}
	assert_int_equal(n90a, 5);
	lists(&fi, sass, ptx, isa);
	assert_string_equal(sass, "7.5 8.0 9.0 10.0 12.0");
	assert_string_equal(ptx, "");
	assert_string_equal(isa, "");
	/* every unit specific: the suffixes are the lists */
	assert_int_equal(fatbin_read(lib("c.so", all_f, 1, 2), &fi, 0), 0);
	lists(&fi, sass, ptx, isa);
	assert_string_equal(sass, "10.0f 12.0f");
	assert_string_equal(ptx, "12.0f");
	assert_string_equal(isa, "9.0");
}

static void
test_no_section(void **state)
{
	struct fatbin_info fi;
	uint64_t off, size;
	const char *p = lib("plain.so", NULL, 0, 0);
	int fd;

	(void)state;
	assert_int_equal(fatbin_read(p, &fi, 0), 0);
	assert_false(fi.has_section);
	assert_int_equal(fi.ntargets, 0);
	fd = open(p, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(elf_section_fd(fd, ".nv_fatbin", &off, &size), -1);
	assert_int_equal(elf_section_fd(fd, ".dynamic", &off, &size), 0);
	assert_true(size > 0);
	close(fd);
	/* missing files and directories cannot be opened; a directory is never read */
	assert_int_equal(fatbin_read("/nonexistent/libx.so", &fi, 0), -1);
	assert_int_equal(fatbin_read(tmpdir, &fi, 0), -1);
}

/* Replace the first n bytes equal to `what` in a file with `with`. */
static void
patch(const char *path, const void *what, const void *with, size_t n)
{
	struct stat st;
	char *data;
	FILE *fp = fopen(path, "r+b");
	size_t i;

	assert_non_null(fp);
	assert_int_equal(fstat(fileno(fp), &st), 0);
	data = malloc((size_t)st.st_size);
	assert_int_equal(fread(data, 1, (size_t)st.st_size, fp), (size_t)st.st_size);
	for (i = 0; i + n <= (size_t)st.st_size; i++)
		if (!memcmp(data + i, what, n))
			break;
	assert_true(i + n <= (size_t)st.st_size);
	fseek(fp, (long)i, SEEK_SET);
	assert_int_equal(fwrite(with, 1, n, fp), n);
	fclose(fp);
	free(data);
}

static void
test_hostile(void **state)
{
	static const char *const l[] = {"sm_80,compute_80@8.0", "sm_80,compute_80@8.0"};
	static const unsigned char magic[4] = {0x50, 0xed, 0x55, 0xba};
	static const unsigned char huge[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
	struct fatbin_info fi;
	const char *p;
	int fd;

	(void)state;
	/* the second fat binary's header claims more bytes than the section has */
	p = lib("big.so", l, 2, 1);
	{
		/* find the second magic: patch its size field (offset 8) */
		FILE *fp = fopen(p, "r+b");
		unsigned char buf[8192];
		size_t n = fread(buf, 1, sizeof(buf), fp), i, seen = 0;

		for (i = 0; i + 16 <= n; i++)
			if (!memcmp(buf + i, magic, 4) && ++seen == 2)
				break;
		assert_true(seen == 2);
		fseek(fp, (long)(i + 8), SEEK_SET);
		fwrite(huge, 1, 8, fp);
		fclose(fp);
	}
	assert_int_equal(fatbin_read(p, &fi, 0), 0);
	assert_true(fi.truncated);
	assert_int_equal(fi.nblobs, 2);
	assert_int_equal(fi.targets[0].blobs, 1); /* the first one counted */

	/* an entry of an unknown kind */
	p = lib("kind.so", l, 1, 1);
	patch(p, "\x02\x00\x01\x01", "\x07\x00\x01\x01", 4);
	assert_int_equal(fatbin_read(p, &fi, 0), 0);
	assert_true(fi.truncated);

	/* no magic anywhere in the section */
	p = lib("nomagic.so", l, 1, 1);
	patch(p, magic, "XXXX", 4);
	assert_int_equal(fatbin_read(p, &fi, 0), 0);
	assert_true(fi.has_section);
	assert_true(fi.truncated);
	assert_int_equal(fi.ntargets, 0);

	/* not ELF */
	p = lib("text.so", l, 1, 1);
	patch(p, "\x7f" "ELF", "#!sh", 4);
	assert_int_equal(fatbin_read(p, &fi, 0), 0);
	assert_false(fi.has_section);
	fd = open(p, O_RDONLY);
	assert_int_equal(fatbin_read_fd(fd, &fi, 0), 0);
	close(fd);
	/* not a regular file: never opened */
	assert_int_equal(fatbin_read("/dev/null", &fi, 0), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_suffixes_and_share),
		cmocka_unit_test(test_no_section),
		cmocka_unit_test(test_hostile),
	};

	return cmocka_run_group_tests_name("fatbin", tests, setup, teardown);
}
