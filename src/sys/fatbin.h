/*
 * fatbin.h - which GPU code a CUDA shared object carries, read from the
 * headers of the fat binaries in its .nv_fatbin section: machine code
 * (SASS, a cubin per architecture) and PTX, with the PTX ISA version.
 *
 * Only headers are read, with pread through a small window, never the code
 * itself: libtorch_cuda.so holds over a gigabyte of it. The file is hostile:
 * every size is checked against the section, counts are capped, and a
 * damaged header ends the walk with `truncated` set.
 */
#ifndef GPUDOCTOR_FATBIN_H
#define GPUDOCTOR_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FATBIN_MAX_ARCHS 48

/* One target: sm_90a is {90, 'a', false}, compute_80 is {80, 0, true}. */
struct fatbin_target {
	unsigned arch;            /* major * 10 + minor: 75, 90, 100, 120 */
	char suffix;              /* 0, 'a' (arch-specific) or 'f' (family) */
	bool ptx;                 /* PTX rather than a cubin */
	unsigned blobs;           /* fat binaries (one per compiled unit) carrying it */
	unsigned isa_major, isa_minor; /* PTX: newest PTX ISA version seen */
};

struct fatbin_info {
	bool has_section;         /* the file has a .nv_fatbin section */
	uint64_t section_size;
	unsigned nblobs;          /* fat binaries walked */
	unsigned nentries;        /* cubin and PTX entries walked */
	bool truncated;           /* the walk stopped early: damaged or too many */
	bool sampled;             /* the walk stopped at its time budget (a cold page
	                             cache: each header a disk read); the lists are
	                             those of the fat binaries walked */
	int ntargets;
	struct fatbin_target targets[FATBIN_MAX_ARCHS];
};

/* Walk the fat binaries of an open ELF file, for at most budget_ms
 * milliseconds (0: no limit; the walk then stops between two fat
 * binaries, with `sampled` set). Returns 0 (info->has_section says whether
 * there was anything to walk), -1 when fd is not a readable regular file. */
int fatbin_read_fd(int fd, struct fatbin_info *info, double budget_ms);
/* The same for a machine path under the root (sys/root.h). -1 when the file
 * cannot be opened. */
int fatbin_read(const char *path, struct fatbin_info *info, double budget_ms);

/*
 * The targets as lists of compute capabilities, ascending, space-separated:
 * sass "7.5 8.0 9.0 9.0a", ptx "12.0", ptx_isa the newest PTX ISA version
 * ("9.0", "" without PTX). A target counts when it is in at least
 * `share` of the fat binaries that carry the most common target (0.5:
 * half); targets below that (a handful of kernels built for sm_90a only)
 * are left out, so the lists say what the build as a whole runs on.
 */
void fatbin_lists(const struct fatbin_info *info, double share, char *sass, size_t sass_size,
		  char *ptx, size_t ptx_size, char *ptx_isa, size_t isa_size);

/* "9.0a" for {90, 'a'}; "10.0" for {100, 0}. */
void fatbin_target_name(const struct fatbin_target *t, char *out, size_t size);

#endif
