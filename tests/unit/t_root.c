/*
 * t_root.c - the sysroot: paths are read under the root, and symlinks inside
 * a fixture tree (absolute ones too) resolve inside it, never on the host.
 */
#include "unit.h"

#include "sys/root.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tree[256];

static void
put(const char *rel, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", tree, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
link_(const char *target, const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", tree, rel);
	assert_int_equal(symlink(target, p), 0);
}

static void
dir(const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", tree, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static int
setup(void **state)
{
	snprintf(tree, sizeof(tree), "%s/gpudoctor-root.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tree))
		return -1;
	dir("etc");
	dir("usr");
	dir("usr/local");
	dir("usr/local/cuda-12.4");
	dir("usr/local/cuda-12.4/lib64");
	dir("etc/alternatives");
	put("etc/os-release", "ID=fixture\n");
	put("usr/local/cuda-12.4/lib64/libcudart.so.12.4.127", "x");
	link_("/usr/local/cuda-12.4", "etc/alternatives/cuda");
	link_("/etc/alternatives/cuda", "usr/local/cuda");
	link_("/etc", "etc-abs");
	link_("../../etc", "usr/local/up");
	link_("/proc/self", "self-abs");
	link_("/dev/zero", "etc/zero-link");
	{
		char p[512];
		snprintf(p, sizeof(p), "%s/etc/fifo", tree);
		assert_int_equal(mkfifo(p, 0600), 0);
	}
	root_set(tree);
	return 0;
}

static int
teardown(void **state)
{
	char cmd[600];

	root_set(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_reads_under_root(void **state)
{
	char buf[64];

	assert_true(root_read_line("/etc/os-release", buf, sizeof(buf)) == 0);
	assert_string_equal(buf, "ID=fixture");
	assert_false(root_is_host());
}

static void
test_absolute_links_stay_inside(void **state)
{
	char buf[64], real[256];
	char **names;
	int n;

	/* /etc-abs -> /etc must be the tree's etc, not the host's */
	assert_int_equal(root_read_line("/etc-abs/os-release", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "ID=fixture");
	/* two hops of absolute links, then a directory listing */
	n = root_list("/usr/local/cuda/lib64", &names);
	assert_int_equal(n, 1);
	assert_string_equal(names[0], "libcudart.so.12.4.127");
	root_free_list(names, n);
	assert_int_equal(root_realpath("/usr/local/cuda/lib64", real, sizeof(real)), 0);
	assert_string_equal(real, "/usr/local/cuda-12.4/lib64");
	assert_int_equal(root_realpath("/usr/local/up/os-release", real, sizeof(real)), 0);
	assert_string_equal(real, "/etc/os-release");
	/* a link to a host path that does not exist in the tree */
	assert_true(root_read("/self-abs/status", buf, sizeof(buf)) < 0);
	assert_false(root_exists("/self-abs/status"));
}

static void
test_stat_and_readlink(void **state)
{
	struct stat st;
	char target[128];

	assert_int_equal(root_lstat("/usr/local/cuda", &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(root_readlink("/usr/local/cuda", target, sizeof(target)), 0);
	assert_string_equal(target, "/etc/alternatives/cuda");
	assert_int_equal(root_stat("/usr/local/cuda", &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_true(root_is_dir("/usr/local/cuda/lib64"));
	assert_false(root_exists("/nonexistent"));
}

static char cut_path[512];
static size_t cut_kept;

static void
on_cut(void *ctx, const char *path, size_t kept)
{
	(void)ctx;
	snprintf(cut_path, sizeof(cut_path), "%s", path);
	cut_kept = kept;
}

static void
test_read_all_caps(void **state)
{
	size_t len = 0;
	bool cut = false;
	char buf[16];
	char *s;

	(void)state;
	root_on_cut(on_cut, NULL);
	s = root_read_all("/etc/os-release", 4, &len, &cut);
	assert_non_null(s);
	assert_int_equal(len, 3);
	assert_true(cut);
	assert_string_equal(cut_path, "/etc/os-release");
	assert_int_equal(cut_kept, 3);
	free(s);
	/* "ID=fixture\n" is 11 bytes: a cap of 12 holds it whole */
	cut_path[0] = '\0';
	s = root_read_all("/etc/os-release", 12, &len, &cut);
	assert_int_equal(len, 11);
	assert_false(cut);
	assert_string_equal(cut_path, "");
	free(s);
	/* root_read into a buffer says so too */
	assert_int_equal(root_read("/etc/os-release", buf, 5), 4);
	assert_string_equal(cut_path, "/etc/os-release");
	cut_path[0] = '\0';
	assert_int_equal(root_read("/etc/os-release", buf, 12), 11);
	assert_string_equal(cut_path, "");
	root_on_cut(NULL, NULL);
	assert_null(root_read_all("/missing", 100, &len, &cut));
}

/* A FIFO or a device, reached by name or through a link, is never opened
 * (opening alone can block, rewind a tape or arm a watchdog). */
static void
test_only_regular_files(void **state)
{
	char buf[16], host[600];
	size_t len;
	int fd;

	(void)state;
	errno = 0;
	assert_int_equal(root_open("/etc/fifo"), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(root_read("/etc/fifo", buf, sizeof(buf)), -1);
	assert_null(root_read_all("/etc/fifo", 100, &len, NULL));
	/* inside the tree the link's /dev/zero does not exist */
	assert_int_equal(root_open("/etc/zero-link"), -1);
	/* on the host it is the device, and it is refused */
	snprintf(host, sizeof(host), "%s/etc/zero-link", tree);
	root_set(NULL);
	errno = 0;
	assert_int_equal(root_open(host), -1);
	assert_int_equal(errno, EINVAL);
	assert_null(root_read_all(host, 1u << 20, &len, NULL));
	assert_int_equal(root_open("/dev/null"), -1);
	snprintf(host, sizeof(host), "%s/etc/os-release", tree);
	fd = root_open(host);
	assert_true(fd >= 0);
	close(fd);
	root_set(tree);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_under_root),
		cmocka_unit_test(test_absolute_links_stay_inside),
		cmocka_unit_test(test_stat_and_readlink),
		cmocka_unit_test(test_read_all_caps),
		cmocka_unit_test(test_only_regular_files),
	};
	return cmocka_run_group_tests_name("root", tests, setup, teardown);
}
