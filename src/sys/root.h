/*
 * root.h - the sysroot: every file a probe reads goes through here, so a
 * test can hand gpudoctor a fixture tree that looks like any machine.
 *
 * Paths passed in are absolute machine paths ("/proc/modules"); they are
 * read under the root given to root_set() ("/" by default). Symlinks inside
 * the tree are resolved against the root too, never against the host.
 */
#ifndef GPUDOCTOR_ROOT_H
#define GPUDOCTOR_ROOT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* Set the root directory; "" or NULL means "/". */
void root_set(const char *dir);
const char *root_get(void);
/* True when the root is "/" (the running machine). */
bool root_is_host(void);

/* Host path for a machine path: root prefix + path. Written to out. */
void root_path(const char *path, char *out, size_t size);

/* Open a regular file for reading: the path (symlinks resolved inside the
 * root) must name a regular file before it is opened (a device, FIFO or
 * socket is never opened, so opening has no side effect) and still be that
 * file once open. O_NOCTTY, O_NONBLOCK, O_CLOEXEC. Returns the descriptor,
 * or -1 with errno set (EINVAL for a file that is not regular). */
int root_open(const char *path);

/* Called when root_read or root_read_all stops at its cap with more in the
 * file (path, bytes kept), so that whoever probes can record that part of
 * a file was read, not all of it. NULL: nobody is told. */
typedef void (*root_cut_fn)(void *ctx, const char *path, size_t kept);
void root_on_cut(root_cut_fn fn, void *ctx);

/* Read a whole (small) regular file (root_open) into out[size],
 * NUL-terminated, cut at size-1. Returns bytes read or -1 (errno set). */
long root_read(const char *path, char *out, size_t size);
/* Read the first line, trimmed. Returns 0 or -1. */
int root_read_line(const char *path, char *out, size_t size);
/* Read a regular file (root_open) into a heap buffer (free()) of at most
 * max bytes with the NUL: at most max-1 bytes of it. *cut (when cut is not
 * NULL) says whether the file held more than that, so the caller can say
 * so rather than take the part for the whole. NULL on error. */
char *root_read_all(const char *path, size_t max, size_t *len, bool *cut);

bool root_exists(const char *path);
bool root_is_dir(const char *path);
int root_stat(const char *path, struct stat *st);
int root_lstat(const char *path, struct stat *st);
/* Resolve symlinks inside the root (like realpath within a chroot).
 * Writes the machine path; returns 0 or -1 when a component is missing. */
int root_realpath(const char *path, char *out, size_t size);
/* readlink of one link, raw target. Returns 0 or -1. */
int root_readlink(const char *path, char *out, size_t size);

/* List entries of a directory (no . and ..), sorted by name. Returns the
 * count (0 when unreadable) and a heap array of heap strings in *names;
 * free with root_free_list. */
int root_list(const char *dir, char ***names);
void root_free_list(char **names, int n);

#endif
