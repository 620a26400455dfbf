/*
 * tree.h - building a throwaway machine tree for tests that run probes under
 * a sysroot: create it, put files, directories and symlinks in it at their
 * machine paths ("etc/os-release" or "/etc/os-release"), remove it.
 * Header-only; include after unit.h. Failures end the test (fail_msg).
 */
#ifndef GPUDOCTOR_TREE_H
#define GPUDOCTOR_TREE_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The tree's directory on the host; "" until tree_create. */
static char tree[256];

/* Make a fresh directory $TMPDIR/NAME.XXXXXX; 0, or -1. */
static inline int
tree_create(const char *name)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(tree, sizeof(tree), "%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
	return mkdtemp(tree) ? 0 : -1;
}

static inline int
tree_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Remove the whole tree; 0, or -1. */
static inline int
tree_remove(void)
{
	return tree[0] ? nftw(tree, tree_rm_one, 16, FTW_DEPTH | FTW_PHYS) : 0;
}

/* Host path of a machine path inside the tree. */
static inline void
tree_path(const char *mpath, char *out, size_t size)
{
	size_t a = strlen(tree), b;

	while (*mpath == '/')
		mpath++;
	b = strlen(mpath);
	if (a + 1 + b + 1 > size)
		fail_msg("path too long: %s", mpath);
	memcpy(out, tree, a);
	out[a] = '/';
	memcpy(out + a + 1, mpath, b + 1);
}

/* mkdir -p of a machine path. */
static inline void
mkdirs(const char *mpath)
{
	char p[PATH_MAX];
	size_t i, n;

	tree_path(mpath, p, sizeof(p));
	n = strlen(p);
	for (i = strlen(tree) + 1; i <= n; i++) {
		if (p[i] == '/' || p[i] == '\0') {
			char c = p[i];
			p[i] = '\0';
			if (mkdir(p, 0755) < 0 && errno != EEXIST)
				fail_msg("mkdir %s: %s", p, strerror(errno));
			p[i] = c;
		}
	}
}

/* mkdir -p of the directory that holds a machine path. */
static inline void
parent_dirs(const char *mpath)
{
	char d[PATH_MAX];
	char *slash;

	snprintf(d, sizeof(d), "%s", mpath);
	slash = strrchr(d, '/');
	if (slash && slash != d) {
		*slash = '\0';
		mkdirs(d);
	}
}

/* A file with these bytes and permission bits (parents created). */
static inline void
put_bytes(const char *mpath, const void *data, size_t n, mode_t mode)
{
	char p[PATH_MAX];
	int fd;

	parent_dirs(mpath);
	tree_path(mpath, p, sizeof(p));
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		fail_msg("open %s: %s", p, strerror(errno));
	if (n && write(fd, data, n) != (ssize_t)n)
		fail_msg("write %s", p);
	close(fd);
	if (chmod(p, mode) < 0)
		fail_msg("chmod %s", p);
}

/* A text file (0644). */
static inline void
put(const char *mpath, const char *text)
{
	put_bytes(mpath, text, strlen(text), 0644);
}

/* A symlink at a machine path to target (kept as given). */
static inline void
link_to(const char *mpath, const char *target)
{
	char p[PATH_MAX];

	parent_dirs(mpath);
	tree_path(mpath, p, sizeof(p));
	if (symlink(target, p) < 0)
		fail_msg("symlink %s: %s", p, strerror(errno));
}

#endif
