/*
 * fuzz_elf.c - libFuzzer harness for the ELF reader (src/sys/elf.c): the
 * input is a whole file, handed to elf_read_fd through a memfd (the reader
 * works with pread on a descriptor, never on a buffer). Whatever it reads,
 * the strings it returns must be NUL-terminated inside their arrays.
 */
#include "sys/elf.h"

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
	return 0;
}
