/*
 * ldresolve.c - the dynamic loader's search for a soname; see ldresolve.h.
 */
#include "sys/ldresolve.h"
#include "base/str.h"
#include "sys/elf.h"
#include "sys/ldcache.h"
#include "sys/root.h"

#include <string.h>
#include <sys/stat.h>

#if defined(__x86_64__)
#define LIB_MULTIARCH "lib/x86_64-linux-gnu"
#define PLATFORM "x86_64"
#define TRIPLET "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define LIB_MULTIARCH "lib/aarch64-linux-gnu"
#define PLATFORM "aarch64"
#define TRIPLET "aarch64-linux-gnu"
#else
#define LIB_MULTIARCH "lib"
#define PLATFORM ""
#define TRIPLET ""
#endif

const char *const ldresolve_default_dirs[] = {
	"/lib/" TRIPLET,
	"/usr/lib/" TRIPLET,
	"/lib64",
	"/usr/lib64",
	"/lib",
	"/usr/lib",
	NULL,
};

const char *
ld_how_name(int how)
{
	switch (how) {
	case LD_HOW_DIRECT:
		return "direct";
	case LD_HOW_RPATH:
		return "rpath";
	case LD_HOW_LD_LIBRARY_PATH:
		return "ld_library_path";
	case LD_HOW_RUNPATH:
		return "runpath";
	case LD_HOW_LD_SO_CACHE:
		return "ld_so_cache";
	case LD_HOW_DEFAULT:
		return "default";
	default:
		return "none";
	}
}

/* Length of the variable name at s (after '$'), its value, and how many
 * bytes of s it takes; 0 when s names no known variable. */
static size_t
dst_var(const char *s, const char *origin, const char **value, bool *unknown)
{
	static const struct {
		const char *name;
		int which;
	} vars[] = {{"ORIGIN", 0}, {"LIB", 1}, {"PLATFORM", 2}};
	size_t i;

	*unknown = false;
	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		size_t n = strlen(vars[i].name);
		size_t used = 0;

		if (s[0] == '{' && strncmp(s + 1, vars[i].name, n) == 0 && s[1 + n] == '}')
			used = n + 2;
		else if (strncmp(s, vars[i].name, n) == 0 &&
			 !((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= 'a' && s[n] <= 'z') ||
			   (s[n] >= '0' && s[n] <= '9') || s[n] == '_'))
			used = n;
		if (!used)
			continue;
		switch (vars[i].which) {
		case 0:
			*value = origin;
			*unknown = !origin;
			break;
		case 1:
			*value = LIB_MULTIARCH;
			break;
		default:
			*value = PLATFORM;
			break;
		}
		return used;
	}
	return 0;
}

int
ldresolve_expand(const char *elem, const char *origin, char *out, size_t size)
{
	size_t len = 0;
	const char *p;

	if (!size)
		return -1;
	for (p = elem; *p;) {
		const char *val = NULL;
		size_t used = 0, vn;
		bool unknown;

		if (*p == '$')
			used = dst_var(p + 1, origin, &val, &unknown);
		if (!used) {
			if (len + 1 >= size)
				return -1;
			out[len++] = *p++;
			continue;
		}
		if (unknown)
			return -1;
		vn = strlen(val);
		if (len + vn >= size)
			return -1;
		memcpy(out + len, val, vn);
		len += vn;
		p += 1 + used;
	}
	out[len] = '\0';
	return 0;
}

/* Would ld.so take the file at machine path `path`? 1 take, 0 skip. */
static int
candidate(const char *path, int cls, unsigned machine, struct ld_result *r)
{
	struct elf_info info;
	struct stat st;

	if (root_stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	if (elf_read(path, &info) < 0)
		return 0;
	if (info.is_elf && (info.elf_class != cls || info.machine != machine))
		return 0;
	str_copy(r->path, sizeof(r->path), path);
	r->is_elf = info.is_elf;
	return 1;
}

/* Search the list `dirs` (separators `seps`) for soname. */
static int
search_list(const char *dirs, const char *seps, const char *origin, const char *soname, int cls,
	unsigned machine, struct ld_result *r)
{
	const char *p = dirs;

	if (!dirs)
		return 0;
	while (*p) {
		char elem[PATH_MAX], dir[PATH_MAX], path[PATH_MAX];
		size_t n = strcspn(p, seps);

		if (n > 0 && n < sizeof(elem)) {
			memcpy(elem, p, n);
			elem[n] = '\0';
			if (ldresolve_expand(elem, origin, dir, sizeof(dir)) == 0 && dir[0] == '/') {
				size_t dl = strlen(dir);
				while (dl > 1 && dir[dl - 1] == '/')
					dir[--dl] = '\0';
				str_fmt(path, sizeof(path), "%s/%s", dl > 1 ? dir : "", soname);
				if (candidate(path, cls, machine, r))
					return 1;
			}
		}
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

int
ldresolve(const char *soname, const struct ld_consumer *c, const char *ld_library_path,
	const struct ldcache *cache, struct ld_result *r)
{
	static const struct ld_consumer none;
	int cls;
	unsigned machine;
	int i;

	memset(r, 0, sizeof(*r));
	if (!soname || !*soname)
		return 0;
	if (!c)
		c = &none;
	cls = c->elf_class ? c->elf_class : elf_native_class();
	machine = c->machine ? c->machine : elf_native_machine();

	if (strchr(soname, '/')) {
		if (candidate(soname, cls, machine, r)) {
			r->how = LD_HOW_DIRECT;
			return 1;
		}
		return 0;
	}
	if (!c->runpath && c->rpath &&
	    search_list(c->rpath, ":", c->origin, soname, cls, machine, r)) {
		r->how = LD_HOW_RPATH;
		return 1;
	}
	if (ld_library_path &&
	    search_list(ld_library_path, ":;", NULL, soname, cls, machine, r)) {
		r->how = LD_HOW_LD_LIBRARY_PATH;
		return 1;
	}
	if (c->runpath && search_list(c->runpath, ":", c->origin, soname, cls, machine, r)) {
		r->how = LD_HOW_RUNPATH;
		return 1;
	}
	if (cache) {
		const struct ldcache_entry *e = ldcache_lookup(cache, soname);
		if (e && e->value[0] == '/' && candidate(e->value, cls, machine, r)) {
			r->how = LD_HOW_LD_SO_CACHE;
			return 1;
		}
	}
	for (i = 0; ldresolve_default_dirs[i]; i++) {
		char path[PATH_MAX];

		str_fmt(path, sizeof(path), "%s/%s", ldresolve_default_dirs[i], soname);
		if (candidate(path, cls, machine, r)) {
			r->how = LD_HOW_DEFAULT;
			return 1;
		}
	}
	memset(r, 0, sizeof(*r));
	return 0;
}
