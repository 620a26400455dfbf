/*
 * path.h - pure path-string helpers (no file access): the directory part of
 * a path and comparing directories.
 */
#ifndef GPUDOCTOR_PATH_H
#define GPUDOCTOR_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* Directory part of path into out: "/a/b/c.so" -> "/a/b", "/c" -> "/",
 * "c" -> ".". Cut to size. */
void path_dir(const char *path, char *out, size_t size);
/* Two directory names equal, ignoring trailing slashes. */
bool path_same_dir(const char *a, const char *b);

#endif
