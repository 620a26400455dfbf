/*
 * root.c - file access under a sysroot; see root.h.
 */
#include "sys/root.h"
#include "base/str.h"
#include "base/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char root_dir[PATH_MAX] = "/";
static root_cut_fn cut_hook;
static void *cut_ctx;

void
root_on_cut(root_cut_fn fn, void *ctx)
{
	cut_hook = fn;
	cut_ctx = ctx;
}

/* After `kept` bytes of fd were read: is there more? Tells the hook. */
static bool
more_after(int fd, const char *path, size_t kept)
{
	char more;
	ssize_t n;

	while ((n = read(fd, &more, 1)) < 0 && errno == EINTR)
		;
	if (n <= 0)
		return false;
	if (cut_hook)
		cut_hook(cut_ctx, path, kept);
	return true;
}

void
root_set(const char *dir)
{
	size_t n;

	if (!dir || !*dir)
		dir = "/";
	str_copy(root_dir, sizeof(root_dir), dir);
	n = strlen(root_dir);
	while (n > 1 && root_dir[n - 1] == '/')
		root_dir[--n] = '\0';
}

const char *
root_get(void)
{
	return root_dir;
}

bool
root_is_host(void)
{
	return strcmp(root_dir, "/") == 0;
}

void
root_path(const char *path, char *out, size_t size)
{
	if (root_is_host())
		str_copy(out, size, path);
	else
		str_fmt(out, size, "%s%s%s", root_dir, path[0] == '/' ? "" : "/", path);
}

/* Host path for a machine path, with every symlink resolved inside the
 * root (so an absolute link in a fixture never escapes to the host).
 * Returns -1 (errno ENOENT) when a component is missing. */
static int
resolved(const char *path, char *out, size_t size)
{
	char real[PATH_MAX];

	if (root_is_host()) {
		root_path(path, out, size);
		return 0;
	}
	if (root_realpath(path, real, sizeof(real)) < 0) {
		errno = ENOENT;
		return -1;
	}
	root_path(real, out, size);
	return 0;
}

/* The same, but the last component is left alone (lstat, readlink). */
static int
resolved_parent(const char *path, char *out, size_t size)
{
	char dir[PATH_MAX], real[PATH_MAX], joined[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (root_is_host() || !slash || slash == path) {
		root_path(path, out, size);
		return 0;
	}
	str_copy(dir, sizeof(dir), path);
	dir[slash - path] = '\0';
	if (root_realpath(dir, real, sizeof(real)) < 0) {
		errno = ENOENT;
		return -1;
	}
	str_fmt(joined, sizeof(joined), "%s%s", strcmp(real, "/") ? real : "", slash);
	root_path(joined, out, size);
	return 0;
}

int
root_open(const char *path)
{
	char p[PATH_MAX];
	struct stat before, after;
	int fd;

	if (resolved(path, p, sizeof(p)) < 0)
		return -1;
	if (stat(p, &before) < 0)
		return -1;
	if (!S_ISREG(before.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &after) < 0 || !S_ISREG(after.st_mode) || after.st_dev != before.st_dev ||
	    after.st_ino != before.st_ino) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

long
root_read(const char *path, char *out, size_t size)
{
	size_t got = 0;
	int fd;

	if (!size)
		return -1;
	out[0] = '\0';
	fd = root_open(path);
	if (fd < 0)
		return -1;
	while (got < size - 1) {
		ssize_t n = read(fd, out + got, size - 1 - got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got == size - 1)
		more_after(fd, path, got);
	out[got] = '\0';
	close(fd);
	return (long)got;
}

int
root_read_line(const char *path, char *out, size_t size)
{
	char *nl;

	if (root_read(path, out, size) < 0)
		return -1;
	nl = strchr(out, '\n');
	if (nl)
		*nl = '\0';
	str_trim(out);
	return 0;
}

char *
root_read_all(const char *path, size_t max, size_t *len, bool *cut)
{
	size_t got = 0, alloc;
	char *data;
	int fd;

	if (cut)
		*cut = false;
	if (max < 1)
		return NULL;
	fd = root_open(path);
	if (fd < 0)
		return NULL;
	alloc = max < 4096 ? max : 4096;
	data = xmalloc(alloc);
	for (;;) {
		ssize_t n;
		if (got + 1 >= alloc) {
			if (alloc >= max) {
				if (more_after(fd, path, got) && cut)
					*cut = true;
				break;
			}
			alloc = alloc * 2 > max ? max : alloc * 2;
			data = xrealloc(data, alloc);
		}
		n = read(fd, data + got, alloc - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	data[got] = '\0';
	if (len)
		*len = got;
	return data;
}

bool
root_exists(const char *path)
{
	struct stat st;

	return root_stat(path, &st) == 0;
}

bool
root_is_dir(const char *path)
{
	struct stat st;

	return root_stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int
root_stat(const char *path, struct stat *st)
{
	char real[PATH_MAX], p[PATH_MAX];

	if (root_is_host()) 
		return stat(path, st);
	if (root_realpath(path, real, sizeof(real)) < 0)
		return -1;
	root_path(real, p, sizeof(p));
	return lstat(p, st);
}

int
root_lstat(const char *path, struct stat *st)
{
	char p[PATH_MAX];

	if (resolved_parent(path, p, sizeof(p)) < 0)
		return -1;
	return lstat(p, st);
}

int
root_readlink(const char *path, char *out, size_t size)
{
	char p[PATH_MAX];
	ssize_t n;

	if (resolved_parent(path, p, sizeof(p)) < 0)
		return -1;
	n = readlink(p, out, size - 1);
	if (n < 0)
		return -1;
	out[n] = '\0';
	return 0;
}

/* Append component c (len n) to the machine path cur, handling "." and "..". */
static void
push_component(char *cur, size_t size, const char *c, size_t n)
{
	size_t len = strlen(cur);

	if (n == 0 || (n == 1 && c[0] == '.'))
		return;
	if (n == 2 && c[0] == '.' && c[1] == '.') {
		char *slash = strrchr(cur, '/');
		if (slash && slash != cur)
			*slash = '\0';
		else
			str_copy(cur, size, "/");
		return;
	}
	if (len + n + 2 > size)
		return;
	if (len > 1)
		cur[len++] = '/';
	memcpy(cur + len, c, n);
	cur[len + n] = '\0';
}

int
root_realpath(const char *path, char *out, size_t size)
{
	char cur[PATH_MAX] = "/";
	char todo[PATH_MAX * 2];
	int links = 0;
	char *p;

	if (root_is_host()) {
		char tmp[PATH_MAX];
		if (!realpath(path, tmp))
			return -1;
		str_copy(out, size, tmp);
		return 0;
	}
	str_copy(todo, sizeof(todo), path);
	p = todo;
	while (*p) {
		char *end, next[PATH_MAX], hp[PATH_MAX], target[PATH_MAX];
		struct stat st;
		size_t n;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = strchr(p, '/');
		n = end ? (size_t)(end - p) : strlen(p);
		str_copy(next, sizeof(next), cur);
		push_component(next, sizeof(next), p, n);
		p += n;
		root_path(next, hp, sizeof(hp));
		if (lstat(hp, &st) < 0)
			return -1;
		if (!S_ISLNK(st.st_mode)) {
			str_copy(cur, sizeof(cur), next);
			continue;
		}
		if (++links > 40) {
			errno = ELOOP;
			return -1;
		}
		{
			ssize_t k = readlink(hp, target, sizeof(target) - 1);
			char rest[PATH_MAX * 2];
			if (k < 0)
				return -1;
			target[k] = '\0';
			str_fmt(rest, sizeof(rest), "%s%s", target, p);
			str_copy(todo, sizeof(todo), rest);
			p = todo;
			if (target[0] == '/')
				str_copy(cur, sizeof(cur), "/");
		}
	}
	str_copy(out, size, cur);
	return 0;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
root_list(const char *dir, char ***names)
{
	char p[PATH_MAX];
	struct dirent *e;
	int n = 0, cap = 0;
	char **v = NULL;
	DIR *d;

	*names = NULL;
	if (resolved(dir, p, sizeof(p)) < 0)
		return 0;
	d = opendir(p);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			v = xrealloc(v, (size_t)cap * sizeof(*v));
		}
		v[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, (size_t)n, sizeof(*v), cmp_names);
	*names = v;
	return n;
}

void
root_free_list(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
