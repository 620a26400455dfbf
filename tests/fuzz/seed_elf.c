/*
 * seed_elf.c - the source of the ELF seeds for fuzz_elf: `make fuzz` links
 * it (without the C library's start files) into a library with an RPATH
 * and NEEDED, one with a RUNPATH, a 32-bit one and a PIE executable, so
 * the seed corpus holds only objects built from this project's own code.
 */
int gpudoctor_seed(int x);

int
gpudoctor_seed(int x)
{
	return x + 1;
}
