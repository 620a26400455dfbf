/*
 * fuzz_elf.c - libFuzzer harness for the ELF reader (src/sys/elf.c): the
 * input is a whole file, handed to elf_read_fd through a memfd (the reader
 * works with pread on a descriptor, never on a buffer). Whatever it reads,
 * the strings it returns must be NUL-terminated inside their arrays. Its
 * DT_NEEDED names are then resolved through its own DT_RPATH/DT_RUNPATH
 * (ldresolve, $ORIGIN expansion included) in a small private tree.
 */
#include "sys/elf.h"
#include "sys/ldresolve.h"
#include "sys/root.h"

#include "fuzz.h"

#include <sys/mman.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int memfd = -1;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	memfd = memfd_create("fuzz_elf", MFD_CLOEXEC);
	if (memfd < 0) {
		perror("memfd_create");
		abort();
	}
	root_set(fuzz_tree_init("elf"));
	fuzz_put("lib/libm.so.6", "not ELF", 7);
	fuzz_put("opt/x/libfuzz.so.1", "", 0);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct elf_info info;
	size_t done = 0;
	int i;

	if (ftruncate(memfd, 0) < 0)
		abort();
	while (done < size) {
		ssize_t k = pwrite(memfd, data + done, size - done, (off_t)done);
		if (k <= 0)
			abort();
		done += (size_t)k;
	}
	if (elf_read_fd(memfd, &info) < 0)
		abort();
	if (!memchr(info.soname, '\0', sizeof(info.soname)) ||
	    !memchr(info.rpath, '\0', sizeof(info.rpath)) ||
	    !memchr(info.runpath, '\0', sizeof(info.runpath)) ||
	    info.nneeded < 0 || info.nneeded > ELF_MAX_NEEDED)
		abort();
	for (i = 0; i < info.nneeded; i++)
		if (!memchr(info.needed[i], '\0', sizeof(info.needed[i])) || !info.needed[i][0])
			abort();
	elf_is_native_lib(&info);
	if (info.nneeded > 0 || info.soname[0]) {
		struct ld_consumer c = {
			.rpath = info.has_rpath ? info.rpath : NULL,
			.runpath = info.has_runpath ? info.runpath : NULL,
			.origin = "/lib",
		};
		struct ld_result r;

		for (i = 0; i < info.nneeded && i < 4; i++)
			ldresolve(info.needed[i], &c, NULL, NULL, &r);
		if (info.soname[0])
			ldresolve(info.soname, &c, info.rpath, NULL, &r);
	}
	return 0;
}
