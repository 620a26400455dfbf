/*
 * mk-elf.c - write a small ELF64 x86-64 shared object that stands in for a
 * framework's extension or a CUDA library in a fixture tree.
 *
 *   mk-elf OUT [--soname S] [--needed N]... [--rpath P | --runpath P]
 *
 * The file is what a linker would write for an empty library, cut to the
 * parts the dynamic loader (and sys/elf.c, and readelf -d) reads: the ELF
 * header, a PT_LOAD covering the whole file at vaddr 0 (so addresses equal
 * file offsets), a PT_DYNAMIC, the .dynstr strings and the .dynamic entries
 * DT_NEEDED..., DT_SONAME, DT_RPATH or DT_RUNPATH, DT_STRTAB, DT_STRSZ,
 * DT_NULL, plus section headers (.dynstr, .dynamic, .shstrtab) so tools that
 * go by sections agree. It is never loaded. Paths are written as given:
 * "$ORIGIN" stays literal, as in a real RUNPATH. Exit status 0, or 1 with a
 * message on stderr.
 */
#include "base/buf.h"

#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAX_NEEDED 64
#define EHDR_SIZE 64
#define PHDR_SIZE 56
#define SHDR_SIZE 64
#define NPHDR 2
#define NSHDR 4

/* The strings a section header names (".shstrtab" contents). */
static const char shstrtab[] = "\0.dynstr\0.dynamic\0.shstrtab";
#define SH_DYNSTR 1
#define SH_DYNAMIC 9
#define SH_SHSTRTAB 18

static void
put(struct buf *b, uint64_t v, int n)
{
	char c[8];
	int i;

	for (i = 0; i < n; i++)
		c[i] = (char)(v >> (8 * i));
	buf_add(b, c, (size_t)n);
}

static void
pad_to(struct buf *b, size_t off)
{
	while (b->len < off)
		buf_addch(b, '\0');
}

/* Append s with its NUL to the string table; its offset. */
static uint64_t
add_str(struct buf *strtab, const char *s)
{
	uint64_t off = strtab->len;

	buf_add(strtab, s, strlen(s) + 1);
	return off;
}

static void
phdr(struct buf *b, uint32_t type, uint32_t flags, uint64_t off, uint64_t size, uint64_t align)
{
	put(b, type, 4);
	put(b, flags, 4);
	put(b, off, 8);   /* p_offset */
	put(b, off, 8);   /* p_vaddr = offset */
	put(b, off, 8);   /* p_paddr */
	put(b, size, 8);  /* p_filesz */
	put(b, size, 8);  /* p_memsz */
	put(b, align, 8);
}

static void
shdr(struct buf *b, uint32_t name, uint32_t type, uint64_t flags, uint64_t off, uint64_t size,
	uint32_t link, uint64_t align, uint64_t entsize)
{
	put(b, name, 4);
	put(b, type, 4);
	put(b, flags, 8);
	put(b, flags & SHF_ALLOC ? off : 0, 8); /* sh_addr: vaddr = offset */
	put(b, off, 8);
	put(b, size, 8);
	put(b, link, 4);
	put(b, 0, 4);     /* sh_info */
	put(b, align, 8);
	put(b, entsize, 8);
}

static void
dyn(struct buf *b, uint64_t tag, uint64_t val)
{
	put(b, tag, 8);
	put(b, val, 8);
}

static int
usage(void)
{
	fprintf(stderr, "usage: mk-elf OUT [--soname S] [--needed N]... [--rpath P | --runpath P]\n");
	return 1;
}

int
main(int argc, char **argv)
{
	const char *out = NULL, *soname = NULL, *path = NULL, *needed[MAX_NEEDED];
	uint64_t needed_off[MAX_NEEDED], soname_off = 0, path_off = 0;
	uint64_t dynstr_off, dynamic_off, dynamic_size, shstr_off, shdr_off, file_size;
	int nneeded = 0, i, ndyn, rc = 1;
	bool runpath = false;
	struct buf strtab, file;
	FILE *fp;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--soname") || !strcmp(a, "--needed") || !strcmp(a, "--rpath") ||
		    !strcmp(a, "--runpath")) {
			if (i + 1 >= argc || !argv[i + 1][0])
				return usage();
			if (!strcmp(a, "--soname")) {
				soname = argv[++i];
			} else if (!strcmp(a, "--needed")) {
				if (nneeded >= MAX_NEEDED) {
					fprintf(stderr, "mk-elf: more than %d --needed\n", MAX_NEEDED);
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

	buf_init(&strtab);
	buf_init(&file);
	buf_addch(&strtab, '\0');
	for (i = 0; i < nneeded; i++)
		needed_off[i] = add_str(&strtab, needed[i]);
	if (soname)
		soname_off = add_str(&strtab, soname);
	if (path)
		path_off = add_str(&strtab, path);

	/* layout: headers, .dynstr, .dynamic (8-aligned), .shstrtab, section headers */
	dynstr_off = EHDR_SIZE + NPHDR * PHDR_SIZE;
	dynamic_off = (dynstr_off + strtab.len + 7) & ~(uint64_t)7;
	ndyn = nneeded + (soname ? 1 : 0) + (path ? 1 : 0) + 3;
	dynamic_size = (uint64_t)ndyn * 16;
	shstr_off = dynamic_off + dynamic_size;
	shdr_off = (shstr_off + sizeof(shstrtab) + 7) & ~(uint64_t)7;
	file_size = shdr_off + NSHDR * SHDR_SIZE;

	/* ELF header */
	buf_add(&file, ELFMAG, SELFMAG);
	buf_addch(&file, ELFCLASS64);
	buf_addch(&file, ELFDATA2LSB);
	buf_addch(&file, EV_CURRENT);
	buf_addch(&file, ELFOSABI_NONE);
	pad_to(&file, EI_NIDENT);
	put(&file, ET_DYN, 2);
	put(&file, EM_X86_64, 2);
	put(&file, EV_CURRENT, 4);
	put(&file, 0, 8);                 /* e_entry */
	put(&file, EHDR_SIZE, 8);         /* e_phoff */
	put(&file, shdr_off, 8);          /* e_shoff */
	put(&file, 0, 4);                 /* e_flags */
	put(&file, EHDR_SIZE, 2);
	put(&file, PHDR_SIZE, 2);
	put(&file, NPHDR, 2);
	put(&file, SHDR_SIZE, 2);
	put(&file, NSHDR, 2);
	put(&file, NSHDR - 1, 2);         /* e_shstrndx */

	phdr(&file, PT_LOAD, PF_R, 0, file_size, 0x1000);
	phdr(&file, PT_DYNAMIC, PF_R | PF_W, dynamic_off, dynamic_size, 8);

	buf_add(&file, strtab.s, strtab.len);
	pad_to(&file, dynamic_off);
	for (i = 0; i < nneeded; i++)
		dyn(&file, DT_NEEDED, needed_off[i]);
	if (soname)
		dyn(&file, DT_SONAME, soname_off);
	if (path)
		dyn(&file, runpath ? DT_RUNPATH : DT_RPATH, path_off);
	dyn(&file, DT_STRTAB, dynstr_off);
	dyn(&file, DT_STRSZ, strtab.len);
	dyn(&file, DT_NULL, 0);
	buf_add(&file, shstrtab, sizeof(shstrtab));
	pad_to(&file, shdr_off);

	shdr(&file, 0, SHT_NULL, 0, 0, 0, 0, 0, 0);
	shdr(&file, SH_DYNSTR, SHT_STRTAB, SHF_ALLOC, dynstr_off, strtab.len, 0, 1, 0);
	shdr(&file, SH_DYNAMIC, SHT_DYNAMIC, SHF_ALLOC | SHF_WRITE, dynamic_off, dynamic_size, 1, 8, 16);
	shdr(&file, SH_SHSTRTAB, SHT_STRTAB, 0, shstr_off, sizeof(shstrtab), 0, 1, 0);

	if (file.truncated || file.len != file_size) {
		fprintf(stderr, "mk-elf: internal layout error\n");
		goto out;
	}
	fp = fopen(out, "wb");
	if (fp) {
		bool ok = fwrite(file.s, 1, file.len, fp) == file.len;
		if (fclose(fp) == 0 && ok)
			rc = 0;
	}
	if (rc)
		fprintf(stderr, "mk-elf: cannot write '%s': %s\n", out, strerror(errno));
out:
	buf_release(&strtab);
	buf_release(&file);
	return rc;
}
