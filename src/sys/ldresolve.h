/*
 * ldresolve.h - which file the dynamic loader would open for a soname, and
 * why, computed the way glibc's ld.so searches (elf/dl-load.c
 * _dl_map_object; ld.so(8)), all under the sysroot:
 *
 *   1. a name with a '/' is used as it is;
 *   2. the consumer's DT_RPATH, only when it has no DT_RUNPATH;
 *   3. LD_LIBRARY_PATH;
 *   4. the consumer's DT_RUNPATH;
 *   5. /etc/ld.so.cache;
 *   6. the default directories (Debian's glibc order, LDRESOLVE_DEFAULT_DIRS).
 *
 * In rpath, runpath and LD_LIBRARY_PATH, $ORIGIN / ${ORIGIN} become the
 * consumer's directory, $LIB the multiarch lib dir and $PLATFORM the CPU
 * name; an element that cannot be expanded (no origin given) is dropped, as
 * ld.so does. A candidate is taken when it exists as a file; an ELF file of
 * another class or machine is skipped (ld.so keeps looking), anything else
 * is taken (ld.so would stop there, and fail to load it).
 *
 * Not modelled: glibc-hwcaps subdirectories, the executable's own rpath for
 * dependencies of libraries, secure-mode (setuid) restrictions, preloading.
 */
#ifndef GPUDOCTOR_LDRESOLVE_H
#define GPUDOCTOR_LDRESOLVE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct ldcache;

enum ld_how {
	LD_HOW_NONE = 0,         /* not found */
	LD_HOW_DIRECT,           /* the name has a '/' */
	LD_HOW_RPATH,
	LD_HOW_LD_LIBRARY_PATH,
	LD_HOW_RUNPATH,
	LD_HOW_LD_SO_CACHE,
	LD_HOW_DEFAULT,
};

/* Who asks: NULL (or all fields NULL) is a plain dlopen() from a main program
 * without rpath/runpath. */
struct ld_consumer {
	const char *rpath;       /* DT_RPATH, ':'-separated; NULL or "" none */
	const char *runpath;     /* DT_RUNPATH; when non-NULL, rpath is ignored */
	const char *origin;      /* the consumer's directory (machine path) */
	int elf_class;           /* wanted class; 0 = this machine's */
	unsigned machine;        /* wanted e_machine; 0 = this machine's */
};

struct ld_result {
	int how;                 /* enum ld_how */
	char path[PATH_MAX];     /* machine path as the loader forms it, "" none */
	bool is_elf;             /* the file is an ELF object of the wanted kind */
};

/* The default directories in search order, NULL-terminated. */
extern const char *const ldresolve_default_dirs[];

/* Resolve `soname` for consumer c with the given LD_LIBRARY_PATH value (NULL
 * = unset) and parsed cache (NULL = none). Returns 1 and fills r when found,
 * 0 when no file would be found (r->how = LD_HOW_NONE). */
int ldresolve(const char *soname, const struct ld_consumer *c, const char *ld_library_path,
	const struct ldcache *cache, struct ld_result *r);

/* "rpath", "ld_library_path", "runpath", "ld_so_cache", "default", "direct",
 * "none". */
const char *ld_how_name(int how);

/* Expand $ORIGIN/$LIB/$PLATFORM in one path element into out. Returns 0, or
 * -1 when the element cannot be expanded (it names $ORIGIN and origin is
 * NULL, or the result does not fit). */
int ldresolve_expand(const char *elem, const char *origin, char *out, size_t size);

#endif
