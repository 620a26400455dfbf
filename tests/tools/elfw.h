/*
 * elfw.h - the ELF writer the fixture tools share (mk-elf, apply-plan): a
 * small ELF64 x86-64 shared object standing in for a framework's extension
 * or a CUDA library, with the DT_NEEDED, DT_SONAME and DT_RPATH/DT_RUNPATH
 * entries given.
 *
 * The file is what a linker would write for an empty library, cut to the
 * parts the dynamic loader (and sys/elf.c, and readelf -d) reads: the ELF
 * header, a PT_LOAD covering the whole file at vaddr 0 (so addresses equal
 * file offsets), a PT_DYNAMIC, the .dynstr strings and the .dynamic entries
 * DT_NEEDED..., DT_SONAME, DT_RPATH or DT_RUNPATH, DT_STRTAB, DT_STRSZ,
 * DT_NULL, plus section headers (.dynstr, .dynamic, .elfw_shstrtab) so tools that
 * go by sections agree. It is never loaded. Paths are written as given:
 * "$ORIGIN" stays literal, as in a real RUNPATH.
 *
 * Header-only (static functions): each test tool is built from one .c file.
 */
#ifndef GPUDOCTOR_TESTS_ELFW_H
#define GPUDOCTOR_TESTS_ELFW_H

#include "base/buf.h"

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ELFW_MAX_NEEDED 64
#define ELFW_EHDR_SIZE 64
#define ELFW_PHDR_SIZE 56
#define ELFW_SHDR_SIZE 64
#define ELFW_NPHDR 2
#define ELFW_NSHDR 4

/* The strings a section header names (".shstrtab" contents). */
static const char elfw_shstrtab[] = "\0.dynstr\0.dynamic\0.shstrtab";
#define ELFW_SH_DYNSTR 1
#define ELFW_SH_DYNAMIC 9
#define ELFW_SH_SHSTRTAB 18

static void
elfw_put(struct buf *b, uint64_t v, int n)
{
	char c[8];
	int i;

	for (i = 0; i < n; i++)
		c[i] = (char)(v >> (8 * i));
	buf_add(b, c, (size_t)n);
}

static void
elfw_pad_to(struct buf *b, size_t off)
{
	while (b->len < off)
		buf_addch(b, '\0');
}

/* Append s with its NUL to the string table; its offset. */
static uint64_t
elfw_add_str(struct buf *strtab, const char *s)
{
	uint64_t off = strtab->len;

	buf_add(strtab, s, strlen(s) + 1);
	return off;
}

static void
elfw_phdr(struct buf *b, uint32_t type, uint32_t flags, uint64_t off, uint64_t size, uint64_t align)
{
	elfw_put(b, type, 4);
	elfw_put(b, flags, 4);
	elfw_put(b, off, 8);   /* p_offset */
	elfw_put(b, off, 8);   /* p_vaddr = offset */
	elfw_put(b, off, 8);   /* p_paddr */
	elfw_put(b, size, 8);  /* p_filesz */
	elfw_put(b, size, 8);  /* p_memsz */
	elfw_put(b, align, 8);
}

static void
elfw_shdr(struct buf *b, uint32_t name, uint32_t type, uint64_t flags, uint64_t off, uint64_t size,
	uint32_t link, uint64_t align, uint64_t entsize)
{
	elfw_put(b, name, 4);
	elfw_put(b, type, 4);
	elfw_put(b, flags, 8);
	elfw_put(b, flags & SHF_ALLOC ? off : 0, 8); /* sh_addr: vaddr = offset */
	elfw_put(b, off, 8);
	elfw_put(b, size, 8);
	elfw_put(b, link, 4);
	elfw_put(b, 0, 4);     /* sh_info */
	elfw_put(b, align, 8);
	elfw_put(b, entsize, 8);
}

static void
elfw_dyn(struct buf *b, uint64_t tag, uint64_t val)
{
	elfw_put(b, tag, 8);
	elfw_put(b, val, 8);
}

/*
 * Write the stand-in to `out`: soname and path may be NULL; path is the
 * DT_RUNPATH when runpath, else the DT_RPATH. Returns 0, or -1 with errno
 * set (EINVAL: more than ELFW_MAX_NEEDED names).
 */
static int
elfw_write(const char *out, const char *soname, const char *const *needed, int nneeded,
	   const char *path, bool runpath)
{
	uint64_t needed_off[ELFW_MAX_NEEDED], soname_off = 0, path_off = 0;
	uint64_t dynstr_off, dynamic_off, dynamic_size, shstr_off, shdr_off, file_size;
	int i, ndyn, rc = -1, err = EIO;
	struct buf strtab, file;
	FILE *fp;

	if (nneeded < 0 || nneeded > ELFW_MAX_NEEDED) {
		errno = EINVAL;
		return -1;
	}
	buf_init(&strtab);
	buf_init(&file);
	buf_addch(&strtab, '\0');
	for (i = 0; i < nneeded; i++)
		needed_off[i] = elfw_add_str(&strtab, needed[i]);
	if (soname)
		soname_off = elfw_add_str(&strtab, soname);
	if (path)
		path_off = elfw_add_str(&strtab, path);

	/* layout: headers, .dynstr, .dynamic (8-aligned), .shstrtab, section headers */
	dynstr_off = ELFW_EHDR_SIZE + ELFW_NPHDR * ELFW_PHDR_SIZE;
	dynamic_off = (dynstr_off + strtab.len + 7) & ~(uint64_t)7;
	ndyn = nneeded + (soname ? 1 : 0) + (path ? 1 : 0) + 3;
	dynamic_size = (uint64_t)ndyn * 16;
	shstr_off = dynamic_off + dynamic_size;
	shdr_off = (shstr_off + sizeof(elfw_shstrtab) + 7) & ~(uint64_t)7;
	file_size = shdr_off + ELFW_NSHDR * ELFW_SHDR_SIZE;

	/* ELF header */
	buf_add(&file, ELFMAG, SELFMAG);
	buf_addch(&file, ELFCLASS64);
	buf_addch(&file, ELFDATA2LSB);
	buf_addch(&file, EV_CURRENT);
	buf_addch(&file, ELFOSABI_NONE);
	elfw_pad_to(&file, EI_NIDENT);
	elfw_put(&file, ET_DYN, 2);
	elfw_put(&file, EM_X86_64, 2);
	elfw_put(&file, EV_CURRENT, 4);
	elfw_put(&file, 0, 8);                 /* e_entry */
	elfw_put(&file, ELFW_EHDR_SIZE, 8);    /* e_phoff */
	elfw_put(&file, shdr_off, 8);          /* e_shoff */
	elfw_put(&file, 0, 4);                 /* e_flags */
	elfw_put(&file, ELFW_EHDR_SIZE, 2);
	elfw_put(&file, ELFW_PHDR_SIZE, 2);
	elfw_put(&file, ELFW_NPHDR, 2);
	elfw_put(&file, ELFW_SHDR_SIZE, 2);
	elfw_put(&file, ELFW_NSHDR, 2);
	elfw_put(&file, ELFW_NSHDR - 1, 2);    /* e_shstrndx */

	elfw_phdr(&file, PT_LOAD, PF_R, 0, file_size, 0x1000);
	elfw_phdr(&file, PT_DYNAMIC, PF_R | PF_W, dynamic_off, dynamic_size, 8);

	buf_add(&file, strtab.s, strtab.len);
	elfw_pad_to(&file, dynamic_off);
	for (i = 0; i < nneeded; i++)
		elfw_dyn(&file, DT_NEEDED, needed_off[i]);
	if (soname)
		elfw_dyn(&file, DT_SONAME, soname_off);
	if (path)
		elfw_dyn(&file, runpath ? DT_RUNPATH : DT_RPATH, path_off);
	elfw_dyn(&file, DT_STRTAB, dynstr_off);
	elfw_dyn(&file, DT_STRSZ, strtab.len);
	elfw_dyn(&file, DT_NULL, 0);
	buf_add(&file, elfw_shstrtab, sizeof(elfw_shstrtab));
	elfw_pad_to(&file, shdr_off);

	elfw_shdr(&file, 0, SHT_NULL, 0, 0, 0, 0, 0, 0);
	elfw_shdr(&file, ELFW_SH_DYNSTR, SHT_STRTAB, SHF_ALLOC, dynstr_off, strtab.len, 0, 1, 0);
	elfw_shdr(&file, ELFW_SH_DYNAMIC, SHT_DYNAMIC, SHF_ALLOC | SHF_WRITE, dynamic_off, dynamic_size, 1, 8, 16);
	elfw_shdr(&file, ELFW_SH_SHSTRTAB, SHT_STRTAB, 0, shstr_off, sizeof(elfw_shstrtab), 0, 1, 0);

	if (file.truncated || file.len != file_size)
		goto out;
	fp = fopen(out, "wb");
	if (!fp) {
		err = errno;
		goto out;
	}
	if (fwrite(file.s, 1, file.len, fp) != file.len)
		err = errno ? errno : EIO;
	else
		rc = 0;
	if (fclose(fp) != 0 && rc == 0) {
		err = errno;
		rc = -1;
	}
out:
	buf_release(&strtab);
	buf_release(&file);
	if (rc)
		errno = err;
	return rc;
}

#endif
