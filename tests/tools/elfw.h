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
 * DT_NULL, plus section headers (.dynstr, .dynamic, .shstrtab) so tools that
 * go by sections agree, and optionally a .nv_fatbin section with fat
 * binaries that carry given GPU targets (elfw_fatbin(); headers and
 * placeholder code, laid out as nvcc's fatbinary writes them: see
 * src/sys/fatbin.c). It is never loaded. Paths are written as given:
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
#include <stdlib.h>
#include <string.h>

#define ELFW_MAX_NEEDED 64
#define ELFW_EHDR_SIZE 64
#define ELFW_PHDR_SIZE 56
#define ELFW_SHDR_SIZE 64
#define ELFW_NPHDR 2
#define ELFW_NSHDR 4

/* The strings a section header names (".shstrtab" contents). */
static const char elfw_shstrtab[] = "\0.dynstr\0.dynamic\0.shstrtab\0.nv_fatbin";
#define ELFW_SH_DYNSTR 1
#define ELFW_SH_DYNAMIC 9
#define ELFW_SH_SHSTRTAB 18
#define ELFW_SH_FATBIN 28

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
 * Append one fat binary to b carrying the targets of a comma-separated
 * list: "sm_75" (a cubin), "sm_90a" / "sm_100f" (arch- or family-specific
 * cubin), "compute_80" (PTX, ISA 7.0) or "compute_80@8.5" (PTX of ISA 8.5).
 * Each entry has a 64-byte header (80 for PTX) and `code` bytes of
 * placeholder code. Returns 0, or -1 for a word it does not know.
 */
static inline int
elfw_fatbin(struct buf *b, const char *targets, unsigned code)
{
	struct buf entries;
	char list[512], *w, *save = NULL;
	size_t k;

	buf_init(&entries);
	snprintf(list, sizeof(list), "%s", targets);
	for (w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		unsigned arch = 0, ma = 7, mi = 0;
		uint64_t flags = 0x11;
		bool ptx = !strncmp(w, "compute_", 8);
		const char *d = ptx ? w + 8 : !strncmp(w, "sm_", 3) ? w + 3 : NULL;
		char *end, *at;
		unsigned hsize = ptx ? 80 : 64;

		if (!d)
			goto bad;
		arch = (unsigned)strtoul(d, &end, 10);
		if (end == d || arch < 10 || arch > 999)
			goto bad;
		if (*end == 'a')
			flags |= 0x100000, end++;
		else if (*end == 'f')
			flags |= 0x200000, end++;
		if ((at = strchr(end, '@'))) {
			if (!ptx || sscanf(at + 1, "%u.%u", &ma, &mi) != 2)
				goto bad;
			end = at + strlen(at);
		}
		if (*end)
			goto bad;
		elfw_put(&entries, ptx ? 1 : 2, 2);  /* kind */
		elfw_put(&entries, 0x101, 2);        /* version */
		elfw_put(&entries, hsize, 4);
		elfw_put(&entries, code, 8);         /* payload size */
		elfw_put(&entries, 0, 8);
		elfw_put(&entries, ptx ? mi : 8, 2); /* PTX: ISA minor, major */
		elfw_put(&entries, ptx ? ma : 1, 2);
		elfw_put(&entries, arch, 4);
		elfw_put(&entries, 0, 8);            /* object name */
		elfw_put(&entries, flags, 8);
		elfw_put(&entries, 0, 8);
		elfw_put(&entries, 0, 8);            /* decompressed size */
		for (k = 64; k < hsize; k++)
			buf_addch(&entries, '\0');
		for (k = 0; k < code; k++)
			buf_addch(&entries, (char)(0xc0 | (k & 15)));
	}
	elfw_put(b, 0xBA55ED50u, 4);
	elfw_put(b, 1, 2);
	elfw_put(b, 16, 2);
	elfw_put(b, entries.len, 8);
	buf_add(b, entries.s, entries.len);
	while (b->len % 8)
		buf_addch(b, '\0');
	buf_release(&entries);
	return 0;
bad:
	buf_release(&entries);
	return -1;
}

/*
 * Write the stand-in to `out`: soname and path may be NULL; path is the
 * DT_RUNPATH when runpath, else the DT_RPATH. Returns 0, or -1 with errno
 * set (EINVAL: more than ELFW_MAX_NEEDED names).
 */
static inline int
elfw_write_fatbin(const char *out, const char *soname, const char *const *needed, int nneeded,
		  const char *path, bool runpath, const struct buf *fatbin)
{
	uint64_t needed_off[ELFW_MAX_NEEDED], soname_off = 0, path_off = 0;
	uint64_t dynstr_off, dynamic_off, dynamic_size, shstr_off, shdr_off, file_size;
	uint64_t fatbin_off = 0, fatbin_size = fatbin ? fatbin->len : 0;
	unsigned nshdr = ELFW_NSHDR + (fatbin ? 1 : 0);
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
	fatbin_off = (dynamic_off + dynamic_size + 15) & ~(uint64_t)15;
	shstr_off = fatbin_off + fatbin_size;
	shdr_off = (shstr_off + sizeof(elfw_shstrtab) + 7) & ~(uint64_t)7;
	file_size = shdr_off + nshdr * ELFW_SHDR_SIZE;

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
	elfw_put(&file, nshdr, 2);
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
	elfw_pad_to(&file, fatbin_off);
	if (fatbin)
		buf_add(&file, fatbin->s, fatbin->len);
	buf_add(&file, elfw_shstrtab, sizeof(elfw_shstrtab));
	elfw_pad_to(&file, shdr_off);

	elfw_shdr(&file, 0, SHT_NULL, 0, 0, 0, 0, 0, 0);
	elfw_shdr(&file, ELFW_SH_DYNSTR, SHT_STRTAB, SHF_ALLOC, dynstr_off, strtab.len, 0, 1, 0);
	elfw_shdr(&file, ELFW_SH_DYNAMIC, SHT_DYNAMIC, SHF_ALLOC | SHF_WRITE, dynamic_off, dynamic_size, 1, 8, 16);
	elfw_shdr(&file, ELFW_SH_SHSTRTAB, SHT_STRTAB, 0, shstr_off, sizeof(elfw_shstrtab), 0, 1, 0);
	if (fatbin)
		elfw_shdr(&file, ELFW_SH_FATBIN, SHT_PROGBITS, SHF_ALLOC, fatbin_off, fatbin_size, 0, 8, 0);

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

static inline int
elfw_write(const char *out, const char *soname, const char *const *needed, int nneeded,
	   const char *path, bool runpath)
{
	return elfw_write_fatbin(out, soname, needed, nneeded, path, runpath, NULL);
}

#endif
