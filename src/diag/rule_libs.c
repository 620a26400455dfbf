/*
 * rule_libs.c - findings about the CUDA libraries on the machine that need
 * no framework to judge: a toolkit newer than the driver, an older copy
 * that the loader picks over a newer one on its search path, libraries of
 * different CUDA majors mixed in one directory.
 *
 * Pure: reads facts and the knowledge base. Copies private to a consumer
 * (pip wheels, conda envs, framework bundles) are reached through that
 * consumer's RPATH, not the loader's search path, so they are never
 * "shadowed" here; the framework rules judge them. Missing libraries need
 * a consumer too and belong to the framework rules.
 */
#include "diag/fix.h"
#include "diag/rule.h"
#include "base/path.h"
#include "diag/rule_util.h"
#include "base/buf.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"

#include <string.h>

static bool
in_ld_library_path(const struct facts *f, const char *path)
{
	char dir[F_PATH];
	int i;

	path_dir(path, dir, sizeof(dir));
	for (i = 0; i < f->env.nldpath && i < MAX_LDPATH_DIRS; i++)
		if (path_same_dir(f->env.ldpath[i].dir, dir))
			return true;
	return false;
}

/*
 * The CUDA major a library belongs to: the probe's cuda_major, else, for
 * the libraries whose soname major is the CUDA major (libcudart.so.13,
 * libcublas.so.12, libnvrtc.so.11.2, libnvJitLink.so.13, libcupti.so.13),
 * that number. cuFFT, cuRAND, cuSOLVER, cuSPARSE number themselves (cuFFT
 * 12 ships with CUDA 13), and CUPTI's file version is a year (2025.3.1),
 * so only the soname counts. Returns 0 when unknown.
 */
static int
lib_cuda_major(const struct lib_facts *l)
{
	static const char *const own[] = {"cudart", "cublas", "cublasLt", "nvrtc", "nvjitlink", "cupti"};
	const char *so;
	int v[1] = {0};
	size_t i;

	if (l->cuda_major[0] && vers_parse(l->cuda_major, v, 1) == 1)
		return v[0];
	so = strstr(l->soname, ".so.");
	if (!so)
		return 0;
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (!strcmp(l->name, own[i]) && vers_parse(so + 4, v, 1) == 1)
			return v[0];
	return 0;
}

/* ---- lib.toolkit_newer_than_driver ---------------------------------------------- */

static void
check_toolkit_newer(const struct facts *f, struct findings *out)
{
	const char *seen[MAX_LIBS];
	int nseen = 0;
	char drv[16];
	int i, j, dv[2] = {0, 0};

	rule_driver_cuda(f, drv, sizeof(drv));
	if (!drv[0] || vers_parse(drv, dv, 2) < 2)
		return;
	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++) {
		const struct lib_facts *l = &f->libs[i];
		const struct kb_cuda_driver *row;
		const char *root = l->origin_root[0] ? l->origin_root : l->path;
		struct finding *fd;
		struct buf b;
		char mm[16];
		int v[2] = {0, 0};
		bool dup = false;

		/* the copy the loader picks is driver.too_old's */
		if (strcmp(l->name, "cudart") || l->origin != ORIGIN_TOOLKIT || l->loader_pick)
			continue;
		vers_truncate(l->version, 2, mm, sizeof(mm));
		if (vers_parse(mm, v, 2) < 2)
			continue;
		if (v[0] < dv[0] || (v[0] == dv[0] && v[1] <= dv[1]))
			continue;
		for (j = 0; j < nseen; j++)
			if (!strcmp(seen[j], root))
				dup = true;
		if (dup)
			continue;
		seen[nseen++] = root;
		fd = findings_add(out, "lib.toolkit_newer_than_driver", SEV_WARN,
				  "The CUDA %s toolkit in %s is newer than the driver supports (CUDA %s)",
				  mm, root, drv);
		finding_evidence(fd, "libcudart %s (%s)", l->version, l->path);
		finding_evidence(fd, "the driver%s%s runs CUDA up to %s", f->driver.version[0] ? " " : "",
				 f->driver.version, drv);
		row = kb_cuda_driver(mm);
		buf_init(&b);
		if (row && row->linux_min) {
			finding_evidence(fd, "CUDA %s needs Linux driver >= %s", mm, row->linux_min);
			buf_addf(&b, "Programs built with or loading this toolkit fail on this driver. "
				     "Upgrade the driver to %s or newer:\n",
				 row->linux_min);
		} else {
			buf_adds(&b, "Programs built with or loading this toolkit fail on this driver. "
				     "Upgrade the driver:\n");
		}
		fix_install_driver(&b, f);
		buf_addf(&b, "Or point CUDA_HOME, PATH and LD_LIBRARY_PATH at a toolkit of CUDA %s or "
			     "older.\n",
			 drv);
		finding_fix(fd, b.s);
		buf_release(&b);
	}
}

/* ---- lib.shadowed ------------------------------------------------------------------- */

/* On the loader's search path (not a consumer-private copy). */
static bool
searchable(const struct facts *f, const struct lib_facts *l)
{
	return l->in_ld_cache || l->loader_pick || in_ld_library_path(f, l->path);
}

static bool
comparable(const char *a, const char *b)
{
	int va[4], vb[4];

	return vers_parse(a, va, 4) >= 2 && vers_parse(b, vb, 4) >= 2;
}

static const char *
where(const struct facts *f, const struct lib_facts *l)
{
	if (in_ld_library_path(f, l->path))
		return "LD_LIBRARY_PATH";
	if (l->in_ld_cache)
		return "ld.so.cache";
	return "default directories";
}

static void
check_shadowed(const struct facts *f, struct findings *out)
{
	int i, j;

	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++) {
		const struct lib_facts *pick = &f->libs[i];
		const struct lib_facts *best = NULL;
		struct finding *fd;
		struct buf b;
		char dir[F_PATH];

		if (!pick->loader_pick || !pick->soname[0] || !pick->version[0])
			continue;
		for (j = 0; j < f->nlibs && j < MAX_LIBS; j++) {
			const struct lib_facts *o = &f->libs[j];
			if (j == i || strcmp(o->soname, pick->soname) || !searchable(f, o))
				continue;
			if (o->real_path[0] && !strcmp(o->real_path, pick->real_path))
				continue;
			if (!comparable(o->version, pick->version) || vers_cmp(o->version, pick->version) <= 0)
				continue;
			if (!best || vers_cmp(o->version, best->version) > 0)
				best = o;
		}
		if (!best)
			continue;
		fd = findings_add(out, "lib.shadowed", SEV_WARN,
				  "An older %s (%s) hides the newer %s", pick->soname, pick->version,
				  best->version);
		finding_evidence(fd, "the loader picks %s %s (%s)", pick->path, pick->version, where(f, pick));
		finding_evidence(fd, "also on the search path: %s %s (%s)", best->path, best->version,
				 where(f, best));
		buf_init(&b);
		path_dir(pick->path, dir, sizeof(dir));
		if (in_ld_library_path(f, pick->path)) {
			buf_adds(&b, "LD_LIBRARY_PATH puts the older copy first. Remove ");
			buf_add_shquoted(&b, dir);
			buf_adds(&b, " from LD_LIBRARY_PATH (look in ~/.bashrc, ~/.profile, the conda or "
				     "venv activation scripts), or put the newer copy's directory before it.");
		} else {
			buf_adds(&b, "Remove the older copy (or the package that installed it) if nothing "
				     "needs it, then refresh the loader cache: ");
			buf_addf(&b, "%sldconfig", fix_sudo(f));
		}
		finding_fix(fd, b.s);
		buf_release(&b);
	}
}

/* ---- lib.cuda_version_mismatch -------------------------------------------------------- */

static void
check_mixed_majors(const struct facts *f, struct findings *out)
{
	char done[8][F_PATH];
	int ndone = 0;
	int i, j, k;

	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++) {
		const struct lib_facts *a = &f->libs[i];
		const struct lib_facts *other = NULL;
		char dir[F_PATH], odir[F_PATH];
		struct finding *fd;
		bool dup = false;
		int ma = lib_cuda_major(a);

		if (!ma || a->origin == ORIGIN_FRAMEWORK)
			continue;
		path_dir(a->path, dir, sizeof(dir));
		for (k = 0; k < ndone; k++)
			if (!strcmp(done[k], dir))
				dup = true;
		if (dup)
			continue;
		for (j = i + 1; j < f->nlibs && j < MAX_LIBS && !other; j++) {
			const struct lib_facts *o = &f->libs[j];
			int mo = lib_cuda_major(o);
			if (!mo || mo == ma)
				continue;
			path_dir(o->path, odir, sizeof(odir));
			if (!strcmp(odir, dir))
				other = o;
		}
		if (!other)
			continue;
		if (ndone < 8)
			STR_COPY(done[ndone++], dir);
		fd = findings_add(out, "lib.cuda_version_mismatch", SEV_WARN,
				  "Libraries of CUDA %d and CUDA %d are mixed in %s", ma,
				  lib_cuda_major(other), dir);
		finding_evidence(fd, "%s %s (%s) belongs to CUDA %d", a->name, a->version, a->path, ma);
		finding_evidence(fd, "%s %s (%s) belongs to CUDA %d", other->name, other->version,
				 other->path, lib_cuda_major(other));
		finding_fix(fd, "A program that loads both gets libraries built for different CUDA "
				"releases and fails with missing symbols or \"CUDA driver version is "
				"insufficient\". Remove the copies that do not belong to this directory's "
				"CUDA release (they were probably copied in by hand) and install each CUDA "
				"release in its own directory.");
	}
}

void
rule_libs(const struct facts *f, struct findings *out)
{
	check_toolkit_newer(f, out);
	check_shadowed(f, out);
	check_mixed_majors(f, out);
}
