/*
 * mk-elf.c - write a small ELF64 x86-64 shared object that stands in for a
 * framework's extension or a CUDA library in a fixture tree.
 *
 *   mk-elf OUT [--soname S] [--needed N]... [--rpath P | --runpath P]
 *          [--fatbin TARGETS]... [--fatbin-repeat N] [--fatbin-code BYTES]
 *
 * --fatbin adds one fat binary to a .nv_fatbin section with the targets of
 * a comma-separated list ("sm_75,sm_90a,compute_80@8.5", see elfw_fatbin());
 * --fatbin-repeat writes the list of fat binaries N times (a library of many
 * compiled units), --fatbin-code gives each entry BYTES of placeholder code.
 *
 * The writer is elfw.h (shared with apply-plan.c): the ELF header, a
 * PT_LOAD and a PT_DYNAMIC, .dynstr and .dynamic with the entries given,
 * section headers; never loaded. Paths are written as given: "$ORIGIN"
 * stays literal, as in a real RUNPATH. Exit status 0, or 1 with a message
 * on stderr.
 */
#include "elfw.h"

#include <stdlib.h>

static int
usage(void)
{
	fprintf(stderr, "usage: mk-elf OUT [--soname S] [--needed N]... [--rpath P | --runpath P]\n"
			"              [--fatbin TARGETS]... [--fatbin-repeat N] [--fatbin-code BYTES]\n");
	return 1;
}

int
main(int argc, char **argv)
{
	const char *out = NULL, *soname = NULL, *path = NULL, *needed[ELFW_MAX_NEEDED];
	const char *fatbins[64];
	int nneeded = 0, nfatbins = 0, i, rc;
	unsigned long repeat = 1, code = 256, r;
	bool runpath = false;
	struct buf fb;

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
		} else if (!strcmp(a, "--fatbin") && i + 1 < argc && nfatbins < 64) {
			fatbins[nfatbins++] = argv[++i];
		} else if ((!strcmp(a, "--fatbin-repeat") || !strcmp(a, "--fatbin-code")) && i + 1 < argc) {
			char *end;
			unsigned long v = strtoul(argv[++i], &end, 10);
			if (*end || end == argv[i] || v > 100000000ul)
				return usage();
			if (!strcmp(a, "--fatbin-repeat"))
				repeat = v;
			else
				code = v;
		} else if (a[0] == '-' || out) {
			return usage();
		} else {
			out = a;
		}
	}
	if (!out)
		return usage();
	buf_init_cap(&fb, (size_t)1 << 34);
	for (r = 0; r < repeat && nfatbins; r++)
		for (i = 0; i < nfatbins; i++)
			if (elfw_fatbin(&fb, fatbins[i], (unsigned)code) < 0) {
				fprintf(stderr, "mk-elf: bad --fatbin target list '%s'\n", fatbins[i]);
				buf_release(&fb);
				return 1;
			}
	rc = elfw_write_fatbin(out, soname, needed, nneeded, path, runpath, nfatbins ? &fb : NULL);
	buf_release(&fb);
	if (rc < 0) {
		fprintf(stderr, "mk-elf: cannot write '%s': %s\n", out, strerror(errno));
		return 1;
	}
	return 0;
}
