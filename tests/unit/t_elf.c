/*
 * t_elf.c - the ELF reader against real files of this machine (a CUDA
 * library, an executable, a text file), hand-built ELF32/ELF64 files of
 * both byte orders, and truncated and corrupted copies.
 */
#include "unit.h"

#include "base/str.h"
#include "sys/elf.h"
#include "sys/root.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A shared object every Debian machine has, for the truncated and
 * corrupted copies. */
#define LIBC "/lib/x86_64-linux-gnu/libc.so.6"

static char tmpdir[PATH_MAX];

static int
setup(void **state)
{
	(void)state;
	str_copy(tmpdir, sizeof(tmpdir), "/tmp/t_elf.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	root_set("/");
	return 0;
}

static int
teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	str_fmt(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		return -1;
	root_set("/");
	return 0;
}

static void
test_cublas(void **state)
{
	REQUIRE_HOST_TOOLKIT(); /* before anything is allocated */
	struct elf_info *e;
	char soname[64], lt[64], path[256];
	bool found = false;
	int i, major;

	(void)state;
	if (!(major = unit_host_lib("libcublas.so", soname, sizeof(soname))))
		SKIP_BECAUSE("no libcublas.so.N in " HOST_CUDA_LIB);
	e = malloc(sizeof(*e));
	snprintf(path, sizeof(path), HOST_CUDA_LIB "/%s", soname);
	snprintf(lt, sizeof(lt), "libcublasLt.so.%d", major);
	assert_int_equal(elf_read(path, e), 0);
	assert_true(e->is_elf);
	assert_int_equal(e->elf_class, ELFCLASS64);
	assert_int_equal(e->machine, EM_X86_64);
	assert_int_equal(e->type, ET_DYN);
	assert_true(e->is_shared_lib);
	assert_true(elf_is_native_lib(e));
	assert_string_equal(e->soname, soname);
	for (i = 0; i < e->nneeded; i++)
		if (strcmp(e->needed[i], lt) == 0)
			found = true;
	assert_true(found);
	assert_false(e->has_rpath);
	free(e);
}

static void
test_executable_is_not_a_library(void **state)
{
	struct elf_info e;

	(void)state;
	assert_int_equal(elf_read("/bin/ls", &e), 0);
	assert_true(e.is_elf);
	assert_false(e.is_shared_lib);
	assert_false(elf_is_native_lib(&e));
	assert_int_equal(e.soname[0], '\0');
	assert_true(e.nneeded > 0);
}

static void
test_libc_is_a_library(void **state)
{
	struct elf_info e;

	(void)state;
	assert_int_equal(elf_read("/lib/x86_64-linux-gnu/libc.so.6", &e), 0);
	assert_true(e.is_shared_lib);
	assert_string_equal(e.soname, "libc.so.6");
}

static void
test_text_and_missing(void **state)
{
	struct elf_info e;

	(void)state;
	assert_int_equal(elf_read("/etc/os-release", &e), 0);
	assert_false(e.is_elf);
	assert_false(e.is_shared_lib);
	assert_int_equal(elf_read("/nonexistent/libfoo.so.1", &e), -1);
	assert_false(e.is_elf);
	assert_int_equal(elf_read("/etc", &e), -1); /* not a regular file */
	assert_false(e.is_elf);
}

static void
write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static void *
slurp(const char *path, size_t *len)
{
	struct stat st;
	char *data;
	FILE *f;

	assert_int_equal(stat(path, &st), 0);
	data = malloc((size_t)st.st_size);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(data, 1, (size_t)st.st_size, f), (size_t)st.st_size);
	fclose(f);
	*len = (size_t)st.st_size;
	return data;
}

/* Every truncation of the first 8 KiB and around the dynamic segment. */
static void
test_truncated_copies(void **state)
{
	struct elf_info full, e;
	char path[PATH_MAX];
	size_t len, cut;
	char *data;
	int fd;

	(void)state;
	data = slurp(LIBC, &len);
	assert_int_equal(elf_read(LIBC, &full), 0);
	assert_string_equal(full.soname, "libc.so.6");
	str_fmt(path, sizeof(path), "%s/cut.so", tmpdir);
	write_file(path, data, len);
	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	for (cut = len; cut > 0; cut = cut > 8192 ? cut - (cut > 65536 ? 4093 : 61) : cut - 1) {
		assert_int_equal(ftruncate(fd, (off_t)cut), 0);
		assert_int_equal(elf_read(path, &e), 0);
		if (cut < 16)
			assert_false(e.is_elf);
		/* whatever survives is either right or empty */
		if (e.soname[0])
			assert_true(strncmp(full.soname, e.soname, strlen(e.soname)) == 0);
	}
	close(fd);
	free(data);
}

/* Corrupt each byte of the headers and of the dynamic segment. */
static void
test_corrupted_copies(void **state)
{
	static const unsigned char vals[] = {0x00, 0xff, 0x80, 0x41};
	struct elf_info e;
	char path[PATH_MAX];
	unsigned char *data;
	size_t len, i, k;
	uint64_t phoff, dynoff = 0, dynsz = 0;
	int fd;

	(void)state;
	data = slurp(LIBC, &len);
	str_fmt(path, sizeof(path), "%s/bad.so", tmpdir);
	write_file(path, data, len);
	memcpy(&phoff, data + 32, 8);
	for (i = 0; i < 16; i++) {
		const unsigned char *p = data + phoff + i * 56;
		uint32_t type;
		memcpy(&type, p, 4);
		if (type == PT_DYNAMIC) {
			memcpy(&dynoff, p + 8, 8);
			memcpy(&dynsz, p + 32, 8);
		}
	}
	assert_true(dynoff > 0 && dynsz > 0 && dynoff + dynsz <= len);
	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	for (i = 0; i < len; i++) {
		bool hdr = i < phoff + 16 * 56, dyn = i >= dynoff && i < dynoff + dynsz;
		if (!hdr && !dyn)
			continue;
		for (k = 0; k < sizeof(vals); k++) {
			assert_int_equal(pwrite(fd, &vals[k], 1, (off_t)i), 1);
			assert_int_equal(elf_read(path, &e), 0);
			assert_true(strlen(e.soname) < sizeof(e.soname));
			assert_true(e.nneeded >= 0 && e.nneeded <= ELF_MAX_NEEDED);
		}
		assert_int_equal(pwrite(fd, &data[i], 1, (off_t)i), 1);
	}
	close(fd);
	free(data);
}

static void
put(unsigned char *p, uint64_t v, int n, bool big)
{
	int i;

	for (i = 0; i < n; i++)
		p[big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* A minimal shared object: ehdr, PT_LOAD (whole file at vaddr 0x1000),
 * PT_DYNAMIC, dynamic entries, string table. Returns its size. */
static size_t
make_elf(unsigned char *out, bool is64, bool big, unsigned machine)
{
	size_t ehsz = is64 ? 64 : 52, phsz = is64 ? 56 : 32, dsz = is64 ? 16 : 8, w = is64 ? 8 : 4;
	static const char strtab[] = "\0libtiny.so.3\0libdep.so.1\0$ORIGIN/../lib\0";
	size_t phoff = ehsz, dynoff = phoff + 2 * phsz, ndyn = 6, stroff = dynoff + ndyn * dsz;
	size_t total = stroff + sizeof(strtab);
	uint64_t base = 0x1000;
	const uint64_t dyn[6][2] = {
		{DT_SONAME, 1}, {DT_NEEDED, 14}, {DT_RUNPATH, 26},
		{DT_STRTAB, 0}, {DT_STRSZ, sizeof(strtab)}, {DT_NULL, 0},
	};
	unsigned char *p;
	size_t i;

	memset(out, 0, total);
	memcpy(out, ELFMAG, SELFMAG);
	out[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	out[EI_DATA] = big ? ELFDATA2MSB : ELFDATA2LSB;
	out[EI_VERSION] = EV_CURRENT;
	put(out + 16, ET_DYN, 2, big);
	put(out + 18, machine, 2, big);
	if (is64) {
		put(out + 32, phoff, 8, big);
		put(out + 54, phsz, 2, big);
		put(out + 56, 2, 2, big);
	} else {
		put(out + 28, phoff, 4, big);
		put(out + 42, phsz, 2, big);
		put(out + 44, 2, 2, big);
	}
	for (i = 0; i < 2; i++) {
		uint64_t type = i ? PT_DYNAMIC : PT_LOAD;
		uint64_t off = i ? dynoff : 0, sz = i ? ndyn * dsz : total;
		p = out + phoff + i * phsz;
		put(p, type, 4, big);
		if (is64) {
			put(p + 8, off, 8, big);
			put(p + 16, base + off, 8, big);
			put(p + 32, sz, 8, big);
		} else {
			put(p + 4, off, 4, big);
			put(p + 8, base + off, 4, big);
			put(p + 16, sz, 4, big);
		}
	}
	for (i = 0; i < ndyn; i++) {
		uint64_t v = dyn[i][0] == DT_STRTAB ? base + stroff : dyn[i][1];
		put(out + dynoff + i * dsz, dyn[i][0], (int)w, big);
		put(out + dynoff + i * dsz + w, v, (int)w, big);
	}
	memcpy(out + stroff, strtab, sizeof(strtab));
	return total;
}

static void
test_synthetic_classes_and_orders(void **state)
{
	unsigned char img[1024];
	char path[PATH_MAX];
	int cls, big;

	(void)state;
	str_fmt(path, sizeof(path), "%s/tiny.so", tmpdir);
	for (cls = 0; cls < 2; cls++) {
		for (big = 0; big < 2; big++) {
			struct elf_info e;
			size_t n = make_elf(img, cls, big, cls ? EM_AARCH64 : EM_386);
			size_t cut;

			write_file(path, img, n);
			assert_int_equal(elf_read(path, &e), 0);
			assert_true(e.is_elf);
			assert_int_equal(e.elf_class, cls ? ELFCLASS64 : ELFCLASS32);
			assert_int_equal(e.big_endian, big);
			assert_int_equal(e.machine, cls ? EM_AARCH64 : EM_386);
			assert_true(e.is_shared_lib);
			assert_false(elf_is_native_lib(&e));
			assert_string_equal(e.soname, "libtiny.so.3");
			assert_int_equal(e.nneeded, 1);
			assert_string_equal(e.needed[0], "libdep.so.1");
			assert_string_equal(e.runpath, "$ORIGIN/../lib");
			for (cut = 0; cut < n; cut++) {
				write_file(path, img, cut);
				assert_int_equal(elf_read(path, &e), 0);
			}
		}
	}
}

/* Reading through a fixture root resolves links inside it. */
static void
test_through_root(void **state)
{
	unsigned char img[1024];
	char path[PATH_MAX];
	struct elf_info e;
	size_t n;

	(void)state;
	str_fmt(path, sizeof(path), "%s/opt", tmpdir);
	assert_int_equal(mkdir(path, 0755), 0);
	str_fmt(path, sizeof(path), "%s/opt/libtiny.so.3.0", tmpdir);
	n = make_elf(img, true, false, EM_X86_64);
	write_file(path, img, n);
	str_fmt(path, sizeof(path), "%s/opt/libtiny.so.3", tmpdir);
	assert_int_equal(symlink("/opt/libtiny.so.3.0", path), 0);
	root_set(tmpdir);
	assert_int_equal(elf_read("/opt/libtiny.so.3", &e), 0);
	assert_true(elf_is_native_lib(&e));
	assert_string_equal(e.soname, "libtiny.so.3");
	root_set("/");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cublas),
		cmocka_unit_test(test_executable_is_not_a_library),
		cmocka_unit_test(test_libc_is_a_library),
		cmocka_unit_test(test_text_and_missing),
		cmocka_unit_test(test_truncated_copies),
		cmocka_unit_test(test_corrupted_copies),
		cmocka_unit_test(test_synthetic_classes_and_orders),
		cmocka_unit_test(test_through_root),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
