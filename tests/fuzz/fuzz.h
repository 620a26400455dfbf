/*
 * fuzz.h - what the libFuzzer harnesses in tests/fuzz/ share: a private
 * machine tree in a temporary directory (for the probes, which read files
 * through root_*), and the splitting of one fuzzer input into several
 * files.
 *
 * A multi-file input is the files' contents joined by FUZZ_SEP ("\n---\n");
 * segment i goes to the i-th path the harness names, and a path with no
 * segment is removed, so "file missing" is fuzzed too.
 */
#ifndef GPUDOCTOR_FUZZ_H
#define GPUDOCTOR_FUZZ_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FUZZ_SEP "\n---\n"
#define FUZZ_SEP_LEN 5
#define FUZZ_MAX_SEGS 16

struct fuzz_seg {
	const char *data;
	size_t len;
};

static char fuzz_tree[256];

static inline int
fuzz_rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(p);
	return 0;
}

static inline void
fuzz_tree_remove(void)
{
	if (fuzz_tree[0])
		nftw(fuzz_tree, fuzz_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Create the tree (under /dev/shm when there is one: the probes re-read it
 * on every run) and remove it at exit. */
static inline const char *
fuzz_tree_init(const char *name)
{
	struct stat st;
	const char *base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) &&
		access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

	snprintf(fuzz_tree, sizeof(fuzz_tree), "%s/gpudoctor-fuzz-%s-XXXXXX", base, name);
	if (!mkdtemp(fuzz_tree)) {
		perror("mkdtemp");
		abort();
	}
	atexit(fuzz_tree_remove);
	return fuzz_tree;
}

static inline void
fuzz_mkdirs(const char *rel)
{
	char p[1024];
	size_t i, n;

	snprintf(p, sizeof(p), "%s/%s", fuzz_tree, rel);
	n = strlen(p);
	for (i = strlen(fuzz_tree) + 1; i <= n; i++) {
		if (p[i] == '/' || p[i] == '\0') {
			char c = p[i];
			p[i] = '\0';
			if (mkdir(p, 0755) < 0 && errno != EEXIST) {
				perror(p);
				abort();
			}
			p[i] = c;
		}
	}
}

/* Write rel (a path inside the tree) with n bytes, parents created. */
static inline void
fuzz_put(const char *rel, const void *data, size_t n)
{
	char p[1024], d[1024], *slash;
	size_t done = 0;
	int fd;

	snprintf(d, sizeof(d), "%s", rel);
	if ((slash = strrchr(d, '/'))) {
		*slash = '\0';
		fuzz_mkdirs(d);
	}
	snprintf(p, sizeof(p), "%s/%s", fuzz_tree, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(p);
		abort();
	}
	while (done < n) {
		ssize_t k = write(fd, (const char *)data + done, n - done);
		if (k <= 0) {
			perror(p);
			abort();
		}
		done += (size_t)k;
	}
	close(fd);
}

static inline void
fuzz_unlink(const char *rel)
{
	char p[1024];

	snprintf(p, sizeof(p), "%s/%s", fuzz_tree, rel);
	unlink(p);
}

/* Split data at FUZZ_SEP into at most max segments (the last one keeps
 * any further separators). Returns the count (at least 1). */
static inline int
fuzz_split(const uint8_t *data, size_t size, struct fuzz_seg *segs, int max)
{
	const char *p = (const char *)data, *end = p + size;
	int n = 0;

	while (n < max - 1) {
		const char *m = memmem(p, (size_t)(end - p), FUZZ_SEP, FUZZ_SEP_LEN);
		if (!m)
			break;
		segs[n].data = p;
		segs[n].len = (size_t)(m - p);
		n++;
		p = m + FUZZ_SEP_LEN;
	}
	segs[n].data = p;
	segs[n].len = (size_t)(end - p);
	return n + 1;
}

/* Segment i of n to file rel, or remove rel when there is no segment i. */
static inline void
fuzz_put_seg(const char *rel, const struct fuzz_seg *segs, int n, int i)
{
	if (i < n)
		fuzz_put(rel, segs[i].data, segs[i].len);
	else
		fuzz_unlink(rel);
}

#endif
