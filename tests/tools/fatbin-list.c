/*
 * fatbin-list.c - print the GPU targets a shared object carries, as
 * src/sys/fatbin.c reads them: one line per target with the number of fat
 * binaries that carry it, then the lists doctor records. For checking the
 * reader against cuobjdump and torch.cuda.get_arch_list() on a GPU machine
 * (tests/gpu/), and for timing it on a real library.
 *
 *   fatbin-list FILE...
 */
#include "sys/fatbin.h"

#include <stdio.h>
#include <time.h>

int
main(int argc, char **argv)
{
	int i, k, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: fatbin-list FILE...\n");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		struct fatbin_info fi;
		struct timespec a, b;
		char sass[256], ptx[128], isa[16];

		clock_gettime(CLOCK_MONOTONIC, &a);
		if (fatbin_read(argv[i], &fi, 0) < 0) {
			fprintf(stderr, "fatbin-list: cannot open '%s'\n", argv[i]);
			rc = 1;
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		printf("%s: section %s, %llu bytes, %u fat binaries, %u entries%s, %.2f ms\n", argv[i],
		       fi.has_section ? "yes" : "no", (unsigned long long)fi.section_size, fi.nblobs,
		       fi.nentries, fi.truncated ? ", truncated" : "",
		       (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);
		for (k = 0; k < fi.ntargets; k++) {
			char name[16];
			fatbin_target_name(&fi.targets[k], name, sizeof(name));
			printf("  %-4s %-6s %u", fi.targets[k].ptx ? "ptx" : "sass", name, fi.targets[k].blobs);
			if (fi.targets[k].ptx)
				printf(" isa %u.%u", fi.targets[k].isa_major, fi.targets[k].isa_minor);
			printf("\n");
		}
		fatbin_lists(&fi, 0.5, sass, sizeof(sass), ptx, sizeof(ptx), isa, sizeof(isa));
		printf("  sass: %s\n  ptx: %s\n  ptx_isa: %s\n", sass, ptx, isa);
	}
	return rc;
}
