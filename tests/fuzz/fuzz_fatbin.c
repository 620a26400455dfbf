/*
 * fuzz_fatbin.c - libFuzzer harness for the fat-binary reader
 * (src/sys/fatbin.c) and the ELF section lookup under it: the input is the
 * content of a .nv_fatbin section, placed in a minimal ELF64 file built
 * here and handed to fatbin_read_fd through a memfd. An input that is
 * itself an ELF file is used whole. Whatever it reads, the counts stay in
 * their bounds and the lists are NUL-terminated inside their buffers.
 */
#include "sys/fatbin.h"

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
	memfd = memfd_create("fuzz_fatbin", MFD_CLOEXEC);
	if (memfd < 0) {
		perror("memfd_create");
		abort();
	}
	return 0;
}

static void
put(unsigned char *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void
write_all(const void *data, size_t size, off_t off)
{
	size_t done = 0;

	while (done < size) {
		ssize_t k = pwrite(memfd, (const char *)data + done, size - done, off + (off_t)done);
		if (k <= 0)
			abort();
		done += (size_t)k;
	}
}

/* ELF header, the section, ".shstrtab", three section headers. */
static void
wrap(const uint8_t *data, size_t size)
{
	static const char names[] = "\0.shstrtab\0.nv_fatbin";
	unsigned char eh[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1}, sh[3 * 64];
	uint64_t sec = 64, str = sec + size, shoff = (str + sizeof(names) + 7) & ~(uint64_t)7;

	memset(eh + 7, 0, sizeof(eh) - 7);
	put(eh + 16, 3, 2);        /* ET_DYN */
	put(eh + 18, 62, 2);       /* EM_X86_64 */
	put(eh + 20, 1, 4);
	put(eh + 40, shoff, 8);
	put(eh + 52, 64, 2);
	put(eh + 58, 64, 2);
	put(eh + 60, 3, 2);
	put(eh + 62, 1, 2);        /* .shstrtab */
	memset(sh, 0, sizeof(sh));
	put(sh + 64 + 0, 1, 4);    /* .shstrtab */
	put(sh + 64 + 4, 3, 4);
	put(sh + 64 + 24, str, 8);
	put(sh + 64 + 32, sizeof(names), 8);
	put(sh + 128 + 0, 11, 4);  /* .nv_fatbin */
	put(sh + 128 + 4, 1, 4);
	put(sh + 128 + 24, sec, 8);
	put(sh + 128 + 32, size, 8);
	write_all(eh, sizeof(eh), 0);
	write_all(data, size, (off_t)sec);
	write_all(names, sizeof(names), (off_t)str);
	write_all(sh, sizeof(sh), (off_t)shoff);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fatbin_info fi;
	char sass[160], ptx[64], isa[8];
	int i;

	if (ftruncate(memfd, 0) < 0)
		abort();
	if (size >= 4 && !memcmp(data, "\x7f" "ELF", 4))
		write_all(data, size, 0);
	else
		wrap(data, size);
	if (fatbin_read_fd(memfd, &fi, 0) < 0)
		abort();
	if (fi.ntargets < 0 || fi.ntargets > FATBIN_MAX_ARCHS)
		abort();
	for (i = 0; i < fi.ntargets; i++)
		if (fi.targets[i].blobs > fi.nblobs || fi.targets[i].arch < 10 || fi.targets[i].arch > 999)
			abort();
	fatbin_lists(&fi, 0.5, sass, sizeof(sass), ptx, sizeof(ptx), isa, sizeof(isa));
	if (!memchr(sass, '\0', sizeof(sass)) || !memchr(ptx, '\0', sizeof(ptx)) ||
	    !memchr(isa, '\0', sizeof(isa)))
		abort();
	return 0;
}
