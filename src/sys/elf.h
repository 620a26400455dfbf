/*
 * elf.h - what the dynamic loader would see in an ELF file, read without
 * loading it: class, machine, type, DT_SONAME, DT_NEEDED, DT_RPATH and
 * DT_RUNPATH.
 *
 * Only the ELF header, the program headers, the PT_DYNAMIC segment and the
 * few strings it names are read (with pread), never the whole file: CUDA
 * libraries run to 500 MB. ELF64 and ELF32, either byte order. The file is
 * hostile: every count is capped and every offset checked against the file
 * size; a damaged dynamic segment leaves the strings empty, never crashes.
 */
#ifndef GPUDOCTOR_ELF_H
#define GPUDOCTOR_ELF_H

#include <stdbool.h>
#include <stdint.h>

#define ELF_MAX_NEEDED 48
#define ELF_NAME 128
#define ELF_PATHLIST 1024

struct elf_info {
	bool is_elf;             /* the ELF magic and a known class/byte order */
	int elf_class;           /* 1 = ELFCLASS32, 2 = ELFCLASS64 */
	bool big_endian;
	unsigned type;           /* e_type: ET_EXEC 2, ET_DYN 3 ... */
	unsigned machine;        /* e_machine: EM_X86_64 62, EM_AARCH64 183 ... */
	bool has_interp;         /* PT_INTERP: an executable (or libc itself) */
	bool is_pie;             /* DF_1_PIE in DT_FLAGS_1 */
	bool has_dynamic;        /* a PT_DYNAMIC segment was read */
	bool is_shared_lib;      /* ET_DYN and not a PIE executable */
	char soname[ELF_NAME];   /* DT_SONAME, "" none */
	char rpath[ELF_PATHLIST];   /* DT_RPATH, "" none */
	char runpath[ELF_PATHLIST]; /* DT_RUNPATH, "" none */
	bool has_rpath, has_runpath;
	int nneeded;             /* DT_NEEDED, in order, at most ELF_MAX_NEEDED */
	char needed[ELF_MAX_NEEDED][ELF_NAME];
};

/* Read the machine path `path` under the root (symlinks followed inside the
 * root). Returns 0 when the file could be opened and read (info->is_elf says
 * whether it is ELF at all), -1 when it could not be opened. */
int elf_read(const char *path, struct elf_info *info);
/* Same, from an open file descriptor. */
int elf_read_fd(int fd, struct elf_info *info);

/* The file range of the section named `name` (".nv_fatbin") in an ELF file:
 * returns 0 with *off and *size set (the range lies inside the file), -1
 * when the file is not ELF, has no such section (or only as SHT_NOBITS), or
 * its section table is damaged. Reads the section headers and their name
 * table only. */
int elf_section_fd(int fd, const char *name, uint64_t *off, uint64_t *size);

/* The class and machine of this program (what ld.so accepts). */
int elf_native_class(void);
unsigned elf_native_machine(void);
/* A shared library this machine's loader could load. */
bool elf_is_native_lib(const struct elf_info *info);

#endif
