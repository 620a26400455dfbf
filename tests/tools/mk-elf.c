/*
 * mk-elf.c - write a small ELF64 x86-64 shared object that stands in for a
 * framework's extension or a CUDA library in a fixture tree.
 *
 *   mk-elf OUT [--soname S] [--needed N]... [--rpath P | --runpath P]
 *
 * The writer is elfw.h (shared with apply-plan.c): the ELF header, a
 * PT_LOAD and a PT_DYNAMIC, .dynstr and .dynamic with the entries given,
 * section headers; never loaded. Paths are written as given: "$ORIGIN"
 * stays literal, as in a real RUNPATH. Exit status 0, or 1 with a message
 * on stderr.
 */
#include "elfw.h"

static int
usage(void)
{
	fprintf(stderr, "usage: mk-elf OUT [--soname S] [--needed N]... [--rpath P | --runpath P]\n");
	return 1;
}

int
main(int argc, char **argv)
{
	const char *out = NULL, *soname = NULL, *path = NULL, *needed[ELFW_MAX_NEEDED];
	int nneeded = 0, i;
	bool runpath = false;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--soname") || !strcmp(a, "--needed") || !strcmp(a, "--rpath") ||
		    !strcmp(a, "--runpath")) {
			if (i + 1 >= argc || !argv[i + 1][0])
				return usage();
			if (!strcmp(a, "--soname")) {
				soname = argv[++i];
			} else if (!strcmp(a, "--needed")) {
				if (nneeded >= ELFW_MAX_NEEDED) {
					fprintf(stderr, "mk-elf: more than %d --needed\n", ELFW_MAX_NEEDED);
					return 1;
				}
				needed[nneeded++] = argv[++i];
			} else {
				if (path) {
					fprintf(stderr, "mk-elf: one --rpath or --runpath only\n");
					return 1;
				}
				runpath = !strcmp(a, "--runpath");
				path = argv[++i];
			}
		} else if (a[0] == '-' || out) {
			return usage();
		} else {
			out = a;
		}
	}
	if (!out)
		return usage();
	if (elfw_write(out, soname, needed, nneeded, path, runpath) < 0) {
		fprintf(stderr, "mk-elf: cannot write '%s': %s\n", out, strerror(errno));
		return 1;
	}
	return 0;
}
