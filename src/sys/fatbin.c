/*
 * fatbin.c - the fat-binary headers of a CUDA shared object; see fatbin.h.
 *
 * The .nv_fatbin section is a sequence of fat binaries, one per compiled
 * unit, each starting on an 8-byte boundary:
 *
 *   fat binary header (16 bytes, little-endian)
 *     +0 u32 magic 0xBA55ED50   +4 u16 version (1)   +6 u16 header size
 *     +8 u64 size of the entries that follow the header
 *   entry header (its own size at +4, 64 bytes or more)
 *     +0 u16 kind: 1 PTX, 2 cubin (ELF)        +4 u32 header size
 *     +8 u64 payload size (the entry's code follows its header)
 *     +24 u16 minor, +26 u16 major: for PTX the PTX ISA version (9.0)
 *     +28 u32 arch: 75 for sm_75 / compute_75
 *     +40 u64 flags: 0x100000 arch-specific ("sm_90a"), 0x200000 family-
 *         specific ("sm_100f"); other bits (64-bit, host, compression) unused
 *
 * That is the layout nvcc's `fatbinary` writes (CUDA 8 to 13) and the CUDA
 * driver reads; the tests build fat binaries with known targets and check
 * the walk against them (tests/unit/t_fatbin.c), and the GPU suite checks
 * it against torch.cuda.get_arch_list() on a real machine.
 */
#include "sys/fatbin.h"
#include "base/clock.h"
#include "base/str.h"
#include "sys/elf.h"
#include "sys/root.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FATBIN_MAGIC 0xBA55ED50u
#define KIND_PTX 1
#define KIND_CUBIN 2
#define FLAG_ARCH_SPECIFIC 0x100000u
#define FLAG_FAMILY 0x200000u
#define MAX_BLOBS 2000000u
#define MAX_ENTRIES 8000000u
#define MAX_ENTRY_HEADER 4096u
#define MAX_PADDING 4096u       /* bytes searched for the next fat binary */
#define WINDOW 4096u

/* A window of the file: headers are read through it, so small entries
 * that lie close together cost one pread. */
struct window {
	int fd;
	uint64_t end;           /* end of the section in the file */
	uint64_t base;          /* file offset of buf[0] */
	size_t len;             /* valid bytes in buf */
	unsigned char buf[WINDOW];
};

/* n bytes (n <= WINDOW) at file offset off, or NULL past the section. */
static const unsigned char *
win_get(struct window *w, uint64_t off, size_t n)
{
	size_t want;

	if (off > w->end || n > w->end - off)
		return NULL;
	if (off >= w->base && off - w->base + n <= w->len)
		return w->buf + (off - w->base);
	want = WINDOW;
	if (want > w->end - off)
		want = (size_t)(w->end - off);
	w->base = off;
	w->len = 0;
	while (w->len < want) {
		ssize_t k = pread(w->fd, w->buf + w->len, want - w->len, (off_t)(off + w->len));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		w->len += (size_t)k;
	}
	return w->len >= n ? w->buf : NULL;
}

static uint64_t
le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/* The target's slot, added when new; -1 when the table is full. */
static int
slot(struct fatbin_info *info, unsigned arch, char suffix, bool ptx)
{
	int i;

	for (i = 0; i < info->ntargets; i++) {
		const struct fatbin_target *t = &info->targets[i];
		if (t->arch == arch && t->suffix == suffix && t->ptx == ptx)
			return i;
	}
	if (info->ntargets >= FATBIN_MAX_ARCHS)
		return -1;
	info->targets[i].arch = arch;
	info->targets[i].suffix = suffix;
	info->targets[i].ptx = ptx;
	info->ntargets++;
	return i;
}

/* Walk the entries of one fat binary, [first, end). Returns false on a
 * damaged header. */
static bool
walk_blob(struct window *w, struct fatbin_info *info, uint64_t first, uint64_t end)
{
	bool seen[FATBIN_MAX_ARCHS] = {false};
	uint64_t pos = first;
	int i;

	while (pos < end) {
		const unsigned char *h = win_get(w, pos, 64);
		unsigned kind, arch, hsize;
		uint64_t payload, flags;
		char suffix = 0;
		int k;

		if (!h || end - pos < 64 || ++info->nentries > MAX_ENTRIES)
			return false;
		kind = (unsigned)le(h, 2);
		hsize = (unsigned)le(h + 4, 4);
		payload = le(h + 8, 8);
		arch = (unsigned)le(h + 28, 4);
		flags = le(h + 40, 8);
		if ((kind != KIND_PTX && kind != KIND_CUBIN) || hsize < 64 || hsize > MAX_ENTRY_HEADER ||
		    hsize > end - pos || payload > end - pos - hsize || arch < 10 || arch > 999)
			return false;
		if (flags & FLAG_ARCH_SPECIFIC)
			suffix = 'a';
		else if (flags & FLAG_FAMILY)
			suffix = 'f';
		k = slot(info, arch, suffix, kind == KIND_PTX);
		if (k >= 0) {
			struct fatbin_target *t = &info->targets[k];
			seen[k] = true;
			if (kind == KIND_PTX) {
				unsigned mi = (unsigned)le(h + 24, 2), ma = (unsigned)le(h + 26, 2);
				if (ma > t->isa_major || (ma == t->isa_major && mi > t->isa_minor)) {
					t->isa_major = ma;
					t->isa_minor = mi;
				}
			}
		}
		pos += hsize + payload;
	}
	for (i = 0; i < info->ntargets; i++)
		if (seen[i])
			info->targets[i].blobs++;
	return true;
}

/* The offset of the next fat binary at or after pos (8-byte aligned,
 * within MAX_PADDING), or end when there is none. */
static uint64_t
next_blob(struct window *w, uint64_t pos, uint64_t end)
{
	uint64_t limit;

	pos = (pos + 7) & ~(uint64_t)7;
	limit = end - pos > MAX_PADDING ? pos + MAX_PADDING : end;
	for (; pos + 16 <= limit; pos += 8) {
		const unsigned char *h = win_get(w, pos, 4);
		if (!h)
			return end;
		if (le(h, 4) == FATBIN_MAGIC)
			return pos;
	}
	return end;
}

int
fatbin_read_fd(int fd, struct fatbin_info *info, double budget_ms)
{
	double deadline = budget_ms > 0 ? clock_ms() + budget_ms : 0;
	struct window win = {.fd = fd};
	struct window *w = &win;
	struct stat st;
	uint64_t off, size, pos, end;

	memset(info, 0, sizeof(*info));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	if (elf_section_fd(fd, ".nv_fatbin", &off, &size) < 0 || size < 16)
		return 0;
	info->has_section = true;
	info->section_size = size;
	w->end = end = off + size;
	pos = next_blob(w, off, end);
	if (pos == end)
		info->truncated = true; /* a section without a fat binary in it */
	while (pos < end) {
		const unsigned char *h = win_get(w, pos, 16);
		uint64_t hsize, body;

		if (!h || le(h, 4) != FATBIN_MAGIC || ++info->nblobs > MAX_BLOBS) {
			info->truncated = true;
			break;
		}
		hsize = le(h + 6, 2);
		body = le(h + 8, 8);
		if (hsize < 16 || hsize > end - pos || body > end - pos - hsize ||
		    !walk_blob(w, info, pos + hsize, pos + hsize + body)) {
			info->truncated = true;
			break;
		}
		pos = next_blob(w, pos + hsize + body, end);
		if (deadline > 0 && pos < end && clock_ms() > deadline) {
			info->sampled = true;
			break;
		}
	}
	return 0;
}

int
fatbin_read(const char *path, struct fatbin_info *info, double budget_ms)
{
	int fd, rc;

	memset(info, 0, sizeof(*info));
	fd = root_open(path);
	if (fd < 0)
		return -1;
	rc = fatbin_read_fd(fd, info, budget_ms);
	close(fd);
	return rc;
}

void
fatbin_target_name(const struct fatbin_target *t, char *out, size_t size)
{
	if (t->suffix)
		str_fmt(out, size, "%u.%u%c", t->arch / 10, t->arch % 10, t->suffix);
	else
		str_fmt(out, size, "%u.%u", t->arch / 10, t->arch % 10);
}

/* Order: by arch, plain before 'a' before 'f'. */
static int
target_cmp(const struct fatbin_target *a, const struct fatbin_target *b)
{
	if (a->arch != b->arch)
		return a->arch < b->arch ? -1 : 1;
	return (a->suffix > b->suffix) - (a->suffix < b->suffix);
}

void
fatbin_lists(const struct fatbin_info *info, double share, char *sass, size_t sass_size, char *ptx,
	     size_t ptx_size, char *ptx_isa, size_t isa_size)
{
	const struct fatbin_target *order[FATBIN_MAX_ARCHS];
	unsigned most = 0, isa_ma = 0, isa_mi = 0;
	int i, j, n = 0;

	sass[0] = ptx[0] = ptx_isa[0] = '\0';
	for (i = 0; i < info->ntargets; i++)
		if (info->targets[i].blobs > most)
			most = info->targets[i].blobs;
	for (i = 0; i < info->ntargets; i++) {
		const struct fatbin_target *t = &info->targets[i];
		if (!t->blobs || (double)t->blobs < share * most)
			continue;
		for (j = n; j > 0 && target_cmp(order[j - 1], t) > 0; j--)
			order[j] = order[j - 1];
		order[j] = t;
		n++;
	}
	for (i = 0; i < n; i++) {
		const struct fatbin_target *t = order[i];
		char name[16], *list = t->ptx ? ptx : sass;
		size_t lsize = t->ptx ? ptx_size : sass_size, len = strlen(list);

		fatbin_target_name(t, name, sizeof(name));
		str_fmt(list + len, lsize - len, "%s%s", len ? " " : "", name);
		if (t->ptx && (t->isa_major > isa_ma || (t->isa_major == isa_ma && t->isa_minor > isa_mi))) {
			isa_ma = t->isa_major;
			isa_mi = t->isa_minor;
		}
	}
	if (isa_ma)
		str_fmt(ptx_isa, isa_size, "%u.%u", isa_ma, isa_mi);
}
