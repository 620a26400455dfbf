/*
 * elf.c - ELF header and dynamic-segment reader; see elf.h.
 *
 * Fields are read from raw bytes at their offsets (ELF-64 and ELF-32 object
 * file formats, System V gABI) so one code path serves both classes and
 * both byte orders, and no struct is ever laid over untrusted memory.
 */
#include "sys/elf.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "sys/root.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_PHNUM 1024
#define MAX_LOADS 64
#define MAX_DYNAMIC (256u << 10)

struct reader {
	int fd;
	uint64_t size;
	bool big;
	bool is64;
};

struct load_seg {
	uint64_t vaddr, offset, filesz;
};

static uint64_t
rd(const unsigned char *p, int n, bool big)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

/* Read exactly n bytes at off; -1 when the file is shorter. */
static int
read_at(const struct reader *r, void *out, size_t n, uint64_t off)
{
	size_t got = 0;

	if (off > r->size || n > r->size - off)
		return -1;
	while (got < n) {
		ssize_t k = pread(r->fd, (char *)out + got, n - got, (off_t)(off + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		got += (size_t)k;
	}
	return 0;
}

/* String at strtab + off (limited by strsz) into out[size]; "" when bad. */
static void
read_str(const struct reader *r, uint64_t strtab, uint64_t strsz, uint64_t off,
	char *out, size_t size)
{
	uint64_t pos, n;

	out[0] = '\0';
	if (off >= strsz || strtab >= r->size || off >= r->size - strtab)
		return;
	pos = strtab + off;
	n = strsz - off;
	if (n > r->size - pos)
		n = r->size - pos;
	if (n > size - 1)
		n = size - 1;
	if (read_at(r, out, (size_t)n, pos) < 0) {
		out[0] = '\0';
		return;
	}
	out[n] = '\0';
}

static bool
vaddr_to_off(const struct load_seg *loads, int nloads, uint64_t addr, uint64_t *off)
{
	int i;

	for (i = 0; i < nloads; i++) {
		const struct load_seg *l = &loads[i];
		if (addr >= l->vaddr && addr - l->vaddr < l->filesz) {
			*off = addr - l->vaddr + l->offset;
			return true;
		}
	}
	return false;
}

static void
read_dynamic(const struct reader *r, struct elf_info *info, uint64_t dynoff, uint64_t dynsz,
	const struct load_seg *loads, int nloads)
{
	size_t entsz = r->is64 ? 16 : 8, half = r->is64 ? 8 : 4, i, count;
	uint64_t strtab = 0, strsz = 0, strtab_off;
	uint64_t soname = UINT64_MAX, rpath = UINT64_MAX, runpath = UINT64_MAX;
	uint64_t needed[ELF_MAX_NEEDED];
	int nneeded = 0, k;
	bool have_strtab = false;
	unsigned char *dyn;

	if (dynoff > r->size)
		return;
	if (dynsz > r->size - dynoff)
		dynsz = r->size - dynoff;
	if (dynsz > MAX_DYNAMIC)
		dynsz = MAX_DYNAMIC;
	count = (size_t)dynsz / entsz;
	if (!count)
		return;
	dyn = xmalloc(count * entsz);
	if (read_at(r, dyn, count * entsz, dynoff) < 0)
		goto out;
	info->has_dynamic = true;
	for (i = 0; i < count; i++) {
		const unsigned char *e = dyn + i * entsz;
		uint64_t tag = rd(e, (int)half, r->big), val = rd(e + half, (int)half, r->big);

		if (tag == DT_NULL)
			break;
		switch (tag) {
		case DT_NEEDED:
			if (nneeded < ELF_MAX_NEEDED)
				needed[nneeded++] = val;
			break;
		case DT_STRTAB:
			strtab = val;
			have_strtab = true;
			break;
		case DT_STRSZ:
			strsz = val;
			break;
		case DT_SONAME:
			soname = val;
			break;
		case DT_RPATH:
			rpath = val;
			break;
		case DT_RUNPATH:
			runpath = val;
			break;
		case DT_FLAGS_1:
			if (val & DF_1_PIE)
				info->is_pie = true;
			break;
		default:
			break;
		}
	}
	info->has_rpath = rpath != UINT64_MAX;
	info->has_runpath = runpath != UINT64_MAX;
	if (!have_strtab || !vaddr_to_off(loads, nloads, strtab, &strtab_off))
		goto out;
	if (soname != UINT64_MAX)
		read_str(r, strtab_off, strsz, soname, info->soname, sizeof(info->soname));
	if (rpath != UINT64_MAX)
		read_str(r, strtab_off, strsz, rpath, info->rpath, sizeof(info->rpath));
	if (runpath != UINT64_MAX)
		read_str(r, strtab_off, strsz, runpath, info->runpath, sizeof(info->runpath));
	for (k = 0; k < nneeded; k++) {
		read_str(r, strtab_off, strsz, needed[k], info->needed[info->nneeded],
			sizeof(info->needed[0]));
		if (info->needed[info->nneeded][0])
			info->nneeded++;
	}
out:
	free(dyn);
}

int
elf_read_fd(int fd, struct elf_info *info)
{
	unsigned char eh[64], *ph = NULL;
	struct load_seg loads[MAX_LOADS];
	uint64_t phoff, dynoff = 0, dynsz = 0;
	unsigned phentsize, phnum, i;
	bool have_dyn = false;
	struct reader r;
	struct stat st;
	int nloads = 0;

	memset(info, 0, sizeof(*info));
	if (fstat(fd, &st) < 0)
		return -1;
	if (!S_ISREG(st.st_mode))
		return 0;
	r.fd = fd;
	r.size = (uint64_t)st.st_size;
	if (read_at(&r, eh, 16, 0) < 0 || memcmp(eh, ELFMAG, SELFMAG) != 0)
		return 0;
	if ((eh[EI_CLASS] != ELFCLASS32 && eh[EI_CLASS] != ELFCLASS64) ||
	    (eh[EI_DATA] != ELFDATA2LSB && eh[EI_DATA] != ELFDATA2MSB))
		return 0;
	r.is64 = eh[EI_CLASS] == ELFCLASS64;
	r.big = eh[EI_DATA] == ELFDATA2MSB;
	if (read_at(&r, eh, r.is64 ? 64 : 52, 0) < 0)
		return 0;
	info->is_elf = true;
	info->elf_class = eh[EI_CLASS];
	info->big_endian = r.big;
	info->type = (unsigned)rd(eh + 16, 2, r.big);
	info->machine = (unsigned)rd(eh + 18, 2, r.big);
	if (r.is64) {
		phoff = rd(eh + 32, 8, r.big);
		phentsize = (unsigned)rd(eh + 54, 2, r.big);
		phnum = (unsigned)rd(eh + 56, 2, r.big);
	} else {
		phoff = rd(eh + 28, 4, r.big);
		phentsize = (unsigned)rd(eh + 42, 2, r.big);
		phnum = (unsigned)rd(eh + 44, 2, r.big);
	}
	if (phnum == 0 || phnum > MAX_PHNUM || phentsize < (r.is64 ? 56u : 32u) ||
	    phentsize > 1024)
		goto done;
	ph = xmalloc((size_t)phnum * phentsize);
	if (read_at(&r, ph, (size_t)phnum * phentsize, phoff) < 0)
		goto done;
	for (i = 0; i < phnum; i++) {
		const unsigned char *p = ph + (size_t)i * phentsize;
		uint32_t type = (uint32_t)rd(p, 4, r.big);
		uint64_t off, vaddr, filesz;

		if (r.is64) {
			off = rd(p + 8, 8, r.big);
			vaddr = rd(p + 16, 8, r.big);
			filesz = rd(p + 32, 8, r.big);
		} else {
			off = rd(p + 4, 4, r.big);
			vaddr = rd(p + 8, 4, r.big);
			filesz = rd(p + 16, 4, r.big);
		}
		if (type == PT_LOAD && nloads < MAX_LOADS) {
			loads[nloads].vaddr = vaddr;
			loads[nloads].offset = off;
			loads[nloads].filesz = filesz;
			nloads++;
		} else if (type == PT_DYNAMIC && !have_dyn) {
			have_dyn = true;
			dynoff = off;
			dynsz = filesz;
		} else if (type == PT_INTERP) {
			info->has_interp = true;
		}
	}
	if (have_dyn)
		read_dynamic(&r, info, dynoff, dynsz, loads, nloads);
done:
	free(ph);
	info->is_shared_lib = info->type == ET_DYN && !info->is_pie &&
		!(info->has_interp && !info->soname[0]);
	return 0;
}

#define MAX_SHNUM 65535u
#define MAX_SHSTRTAB (1u << 20)

int
elf_section_fd(int fd, const char *name, uint64_t *off, uint64_t *size)
{
	unsigned char eh[64], *sh = NULL;
	char *names = NULL;
	uint64_t shoff, stroff, strsz;
	unsigned shentsize, shnum, shstrndx, i;
	size_t want = strlen(name);
	struct reader r;
	struct stat st;
	int rc = -1;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	r.fd = fd;
	r.size = (uint64_t)st.st_size;
	if (read_at(&r, eh, 16, 0) < 0 || memcmp(eh, ELFMAG, SELFMAG) != 0 ||
	    (eh[EI_CLASS] != ELFCLASS32 && eh[EI_CLASS] != ELFCLASS64) ||
	    (eh[EI_DATA] != ELFDATA2LSB && eh[EI_DATA] != ELFDATA2MSB))
		return -1;
	r.is64 = eh[EI_CLASS] == ELFCLASS64;
	r.big = eh[EI_DATA] == ELFDATA2MSB;
	if (read_at(&r, eh, r.is64 ? 64 : 52, 0) < 0)
		return -1;
	if (r.is64) {
		shoff = rd(eh + 40, 8, r.big);
		shentsize = (unsigned)rd(eh + 58, 2, r.big);
		shnum = (unsigned)rd(eh + 60, 2, r.big);
		shstrndx = (unsigned)rd(eh + 62, 2, r.big);
	} else {
		shoff = rd(eh + 32, 4, r.big);
		shentsize = (unsigned)rd(eh + 46, 2, r.big);
		shnum = (unsigned)rd(eh + 48, 2, r.big);
		shstrndx = (unsigned)rd(eh + 50, 2, r.big);
	}
	/* real section headers are 64 (40) bytes: a larger entry size only
	 * makes a hostile file cost memory */
	if (!shoff || shentsize < (r.is64 ? 64u : 40u) || shentsize > 128)
		return -1;
	if (shnum == 0 || shstrndx == SHN_XINDEX) {
		/* extended numbering: the real values are in section 0 */
		unsigned char s0[64];
		if (read_at(&r, s0, shentsize < 64 ? shentsize : 64, shoff) < 0)
			return -1;
		if (shnum == 0)
			shnum = (unsigned)(r.is64 ? rd(s0 + 32, 8, r.big) : rd(s0 + 20, 4, r.big));
		if (shstrndx == SHN_XINDEX)
			shstrndx = (unsigned)rd(s0 + (r.is64 ? 40 : 24), 4, r.big);
	}
	if (shnum == 0 || shnum > MAX_SHNUM || shstrndx >= shnum)
		return -1;
	sh = xmalloc((size_t)shnum * shentsize);
	if (read_at(&r, sh, (size_t)shnum * shentsize, shoff) < 0)
		goto out;
#define SH_FIELD(p, o64, o32) (r.is64 ? rd((p) + (o64), 8, r.big) : rd((p) + (o32), 4, r.big))
	{
		const unsigned char *s = sh + (size_t)shstrndx * shentsize;
		stroff = SH_FIELD(s, 24, 16);
		strsz = SH_FIELD(s, 32, 20);
	}
	if (strsz == 0 || stroff > r.size || strsz > r.size - stroff)
		goto out;
	if (strsz > MAX_SHSTRTAB)
		strsz = MAX_SHSTRTAB;
	names = xmalloc((size_t)strsz + 1);
	if (read_at(&r, names, (size_t)strsz, stroff) < 0)
		goto out;
	names[strsz] = '\0';
	for (i = 0; i < shnum; i++) {
		const unsigned char *s = sh + (size_t)i * shentsize;
		uint32_t nm = (uint32_t)rd(s, 4, r.big), type = (uint32_t)rd(s + 4, 4, r.big);
		uint64_t so = SH_FIELD(s, 24, 16), ss = SH_FIELD(s, 32, 20);

		if (nm >= strsz || strsz - nm < want + 1 || memcmp(names + nm, name, want + 1) != 0)
			continue;
		if (type == SHT_NOBITS || so > r.size || ss > r.size - so)
			continue;
		*off = so;
		*size = ss;
		rc = 0;
		break;
	}
#undef SH_FIELD
out:
	free(names);
	free(sh);
	return rc;
}

int
elf_read(const char *path, struct elf_info *info)
{
	int fd, rc;

	memset(info, 0, sizeof(*info));
	fd = root_open(path);
	if (fd < 0)
		return -1;
	rc = elf_read_fd(fd, info);
	close(fd);
	return rc;
}

int
elf_native_class(void)
{
	return sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
}

unsigned
elf_native_machine(void)
{
#if defined(__x86_64__)
	return EM_X86_64;
#elif defined(__aarch64__)
	return EM_AARCH64;
#elif defined(__powerpc64__)
	return EM_PPC64;
#elif defined(__i386__)
	return EM_386;
#else
	return EM_NONE;
#endif
}

bool
elf_is_native_lib(const struct elf_info *info)
{
	return info->is_elf && info->is_shared_lib && info->elf_class == elf_native_class() &&
		info->machine == elf_native_machine() &&
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		!info->big_endian;
#else
		info->big_endian;
#endif
}
