/*
 * driverlibs.c - every libcuda.so* and libnvidia-ml.so* the loader could
 * reach, and the copy it would really pick (probe_driverlibs).
 *
 * Looked for in: the ld.so.cache entries and their directories,
 * LD_LIBRARY_PATH, the default directories, /usr/local/nvidia/lib{64,}
 * (the NVIDIA container runtime), /usr/lib/wsl/lib (WSL2) and the CUDA
 * toolkit's stub directories, whose libcuda.so only lets programs link and
 * is never a driver. One row per real file: symlinks are followed and the
 * soname-named link (libcuda.so.1) is kept as the path. The version comes
 * from the real file's name (libcuda.so.580.159.04); nothing is loaded.
 */
#include "probe/probe.h"
#include "base/str.h"
#include "base/vers.h"
#include "sys/elf.h"
#include "sys/ldcache.h"
#include "sys/ldresolve.h"
#include "sys/root.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DIRS 64

static const struct {
	const char *name;    /* driver_lib_facts.name */
	const char *prefix;  /* file names start with it */
	const char *soname;  /* what programs dlopen */
} drv[] = {
	{"libcuda", "libcuda.so", "libcuda.so.1"},
	{"libnvidia-ml", "libnvidia-ml.so", "libnvidia-ml.so.1"},
};
#define NDRV ((int)(sizeof(drv) / sizeof(drv[0])))

struct scan {
	struct facts *f;
	int ndirs;
	char dirs[MAX_DIRS][F_PATH]; /* real paths of the directories scanned */
	bool full_noted;
};

/* Which drv[] a file name belongs to: "libcuda.so" or "libcuda.so.<...>". */
static int
drv_index(const char *fname)
{
	int i;

	for (i = 0; i < NDRV; i++) {
		size_t n = strlen(drv[i].prefix);
		if (strncmp(fname, drv[i].prefix, n) == 0 && (fname[n] == '\0' || fname[n] == '.'))
			return i;
	}
	return -1;
}

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* "580.159.04" from libcuda.so.580.159.04; "" for .so, .so.1, WSL's .so.1.1. */
static void
version_from_name(const char *fname, const char *prefix, char *out, size_t size)
{
	const char *v = fname + strlen(prefix);
	int parts[4];
	size_t i;

	out[0] = '\0';
	if (*v != '.')
		return;
	v++;
	for (i = 0; v[i]; i++)
		if (!((v[i] >= '0' && v[i] <= '9') || v[i] == '.'))
			return;
	if (vers_parse(v, parts, 4) < 2 || parts[0] < 100)
		return;
	str_copy(out, size, v);
}

static bool
is_stub_path(const char *path)
{
	return strstr(path, "/stubs/") != NULL;
}

static void
add_file(struct scan *s, const char *path, const char *via)
{
	struct facts *f = s->f;
	struct driver_lib_facts *d;
	char real[F_PATH];
	struct elf_info info;
	struct stat st;
	int k = drv_index(base_name(path)), i;

	if (k < 0)
		return;
	if (root_realpath(path, real, sizeof(real)) < 0 || root_stat(real, &st) < 0) {
		struct stat lst;
		if (root_lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
			facts_note(f, "driverlibs", "'%s' is a broken symbolic link", path);
		return;
	}
	if (!S_ISREG(st.st_mode))
		return;
	for (i = 0; i < f->driver.nlibs; i++) {
		d = &f->driver.libs[i];
		if (strcmp(d->real_path, real) != 0)
			continue;
		/* keep the soname-named link as the path */
		if (strcmp(base_name(path), drv[k].soname) == 0 &&
		    strcmp(base_name(d->path), drv[k].soname) != 0)
			STR_COPY(d->path, path);
		return;
	}
	if (f->driver.nlibs >= MAX_DRIVER_LIBS) {
		if (!s->full_noted)
			facts_note(f, "driverlibs", "more than %d driver library files: the rest not listed",
				MAX_DRIVER_LIBS);
		s->full_noted = true;
		return;
	}
	d = &f->driver.libs[f->driver.nlibs++];
	memset(d, 0, sizeof(*d));
	STR_COPY(d->path, path);
	STR_COPY(d->real_path, real);
	STR_COPY(d->name, drv[k].name);
	STR_COPY(d->found_via, via);
	d->is_stub = is_stub_path(path) || is_stub_path(real);
	if (!d->is_stub)
		version_from_name(base_name(real), drv[k].prefix, d->version, sizeof(d->version));
	d->is_elf = elf_read(real, &info) == 0 && elf_is_native_lib(&info);
}

/* Scan directory `dir` once (by its real path) for driver library files. */
static void
scan_dir(struct scan *s, const char *dir, const char *via)
{
	char real[F_PATH], path[F_PATH];
	char **names;
	int n, i;

	if (!dir[0] || dir[0] != '/' || root_realpath(dir, real, sizeof(real)) < 0 ||
	    !root_is_dir(real))
		return;
	for (i = 0; i < s->ndirs; i++)
		if (strcmp(s->dirs[i], real) == 0)
			return;
	if (s->ndirs >= MAX_DIRS)
		return;
	STR_COPY(s->dirs[s->ndirs], real);
	s->ndirs++;
	n = root_list(real, &names);
	/* soname-named links first, so they become the paths */
	for (i = 0; i < n; i++) {
		int k = drv_index(names[i]);
		if (k >= 0 && strcmp(names[i], drv[k].soname) == 0) {
			str_fmt(path, sizeof(path), "%s/%s", strcmp(dir, "/") ? dir : "", names[i]);
			add_file(s, path, via);
		}
	}
	for (i = 0; i < n; i++) {
		if (drv_index(names[i]) < 0)
			continue;
		str_fmt(path, sizeof(path), "%s/%s", strcmp(dir, "/") ? dir : "", names[i]);
		add_file(s, path, via);
	}
	root_free_list(names, n);
}

static void
scan_list(struct scan *s, const char *list, const char *via)
{
	const char *p = list;

	while (p && *p) {
		char dir[F_PATH];
		size_t n = strcspn(p, ":;");

		if (n > 0 && n < sizeof(dir)) {
			memcpy(dir, p, n);
			dir[n] = '\0';
			while (n > 1 && dir[n - 1] == '/')
				dir[--n] = '\0';
			scan_dir(s, dir, via);
		}
		p += n;
		if (*p)
			p++;
	}
}

/* The toolkits' stub directories: /usr/local/cuda*, $CUDA_HOME, /opt/cuda. */
static void
scan_stubs_under(struct scan *s, const char *top)
{
	char dir[F_PATH];
	char **targets;
	int n, i;

	str_fmt(dir, sizeof(dir), "%s/lib64/stubs", top);
	scan_dir(s, dir, "stubs");
	str_fmt(dir, sizeof(dir), "%s/lib/stubs", top);
	scan_dir(s, dir, "stubs");
	str_fmt(dir, sizeof(dir), "%s/targets", top);
	n = root_list(dir, &targets);
	for (i = 0; i < n; i++) {
		str_fmt(dir, sizeof(dir), "%s/targets/%s/lib/stubs", top, targets[i]);
		scan_dir(s, dir, "stubs");
	}
	root_free_list(targets, n);
}

static void
scan_stubs(struct scan *s)
{
	const char *env[] = {"CUDA_HOME", "CUDA_PATH"};
	char top[F_PATH];
	char **names;
	size_t e;
	int n, i;

	for (e = 0; e < sizeof(env) / sizeof(env[0]); e++) {
		const char *v = getenv(env[e]);
		if (v && v[0] == '/')
			scan_stubs_under(s, v);
	}
	n = root_list("/usr/local", &names);
	for (i = 0; i < n; i++) {
		if (!str_starts(names[i], "cuda"))
			continue;
		str_fmt(top, sizeof(top), "/usr/local/%s", names[i]);
		scan_stubs_under(s, top);
	}
	root_free_list(names, n);
	scan_stubs_under(s, "/opt/cuda");
}

static void
mark_loader_picks(struct facts *f, const struct ldcache *cache)
{
	const char *ldp = getenv("LD_LIBRARY_PATH");
	int k, i;

	for (k = 0; k < NDRV; k++) {
		struct ld_result r;
		char real[F_PATH];

		if (!ldresolve(drv[k].soname, NULL, ldp, cache, &r))
			continue;
		if (root_realpath(r.path, real, sizeof(real)) < 0)
			continue;
		for (i = 0; i < f->driver.nlibs; i++) {
			struct driver_lib_facts *d = &f->driver.libs[i];
			if (strcmp(d->name, drv[k].name) == 0 && strcmp(d->real_path, real) == 0)
				d->loader_pick = true;
		}
	}
}

void
probe_driverlibs(struct facts *f, const struct probe_opts *o)
{
	struct scan *s = calloc(1, sizeof(*s));
	const struct ldcache *cache = ldcache_system();
	int i;

	(void)o;
	if (!s)
		return;
	s->f = f;
	if (!cache && root_exists("/etc/ld.so.cache"))
		facts_note(f, "driverlibs", "/etc/ld.so.cache is not a valid loader cache: ignored");
	if (cache) {
		/* the cached files themselves first, then their directories */
		for (i = 0; i < cache->n; i++) {
			const struct ldcache_entry *e = &cache->entries[i];
			if (e->flags == LDCACHE_FLAGS_NATIVE && drv_index(e->key) >= 0 &&
			    e->value[0] == '/')
				add_file(s, e->value, "ld_so_cache");
		}
		for (i = 0; i < cache->n; i++) {
			const struct ldcache_entry *e = &cache->entries[i];
			char dir[F_PATH], *slash;

			if (e->flags != LDCACHE_FLAGS_NATIVE || drv_index(e->key) < 0 ||
			    e->value[0] != '/')
				continue;
			STR_COPY(dir, e->value);
			slash = strrchr(dir, '/');
			if (slash == dir)
				slash[1] = '\0';
			else
				*slash = '\0';
			scan_dir(s, dir, "ld_so_cache");
		}
	}
	scan_list(s, getenv("LD_LIBRARY_PATH"), "ld_library_path");
	for (i = 0; ldresolve_default_dirs[i]; i++)
		scan_dir(s, ldresolve_default_dirs[i], "default");
	scan_dir(s, "/usr/local/nvidia/lib64", "nvidia_dir");
	scan_dir(s, "/usr/local/nvidia/lib", "nvidia_dir");
	scan_dir(s, "/usr/lib/wsl/lib", "wsl");
	scan_stubs(s);
	mark_loader_picks(f, cache);
	free(s);
}
