/*
 * rule_fw_libs.c - the CUDA libraries a framework would load: missing, of
 * another cuDNN or CUDA release, shadowed by an earlier copy, and
 * LD_LIBRARY_PATH directories of another CUDA major than the framework.
 */
#include "diag/fw_common.h"
#include "diag/fix.h"
#include "diag/rule_util.h"
#include "base/buf.h"
#include "base/path.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"

#include <string.h>

enum missing_kind { MISS_CUDART, MISS_CUDNN, MISS_OTHER, MISS_N };

/* A copy of soname in the environment's own lib directory (a conda env's
 * cudatoolkit / cudnn packages put them in <env>/lib), which the loader
 * does not search unless something points it there; NULL none. */
static const struct lib_facts *
env_lib_copy(const struct facts *f, const struct python_env_facts *e, const char *soname)
{
	char lib[F_PATH], dir[F_PATH];
	int i;

	if (!e->path[0])
		return NULL;
	STR_FMT(lib, "%s/lib", e->path);
	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++) {
		const struct lib_facts *l = &f->libs[i];
		const char *base = strrchr(l->path, '/');

		/* the file by the name asked for, or its soname (a stand-in
		 * without DT_SONAME gets one from its file name) */
		if (strcmp(l->soname, soname) && (!base || strcmp(base + 1, soname)))
			continue;
		path_dir(l->path, dir, sizeof(dir));
		if (path_same_dir(dir, lib))
			return l;
	}
	return NULL;
}

/* The libraries are in <env>/lib, not on the loader's path: point it there
 * for this environment. */
static void
env_lib_fix(struct buf *b, const struct python_env_facts *e, const char *sonames[], int ns)
{
	char lib[F_PATH], val[F_PATH + 32];
	int i;

	STR_FMT(lib, "%s/lib", e->path);
	buf_adds(b, "The librar");
	buf_adds(b, ns == 1 ? "y exists" : "ies exist");
	buf_addf(b, " in this environment's own lib directory, %s (", lib);
	for (i = 0; i < ns; i++)
		buf_addf(b, "%s%s", i ? ", " : "", sonames[i]);
	buf_adds(b, "), but nothing points the dynamic loader there. Point it there:\n"
		    "export LD_LIBRARY_PATH=");
	buf_add_shquoted(b, lib);
	buf_adds(b, "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n");
	if (fw_is_conda(e)) {
		buf_adds(b, "and to make it part of the environment's activation:\n"
			    "conda env config vars set -p ");
		buf_add_shquoted(b, e->path);
		STR_FMT(val, "LD_LIBRARY_PATH=%s", lib);
		buf_addch(b, ' ');
		buf_add_shquoted(b, val);
		buf_adds(b, "\nconda deactivate && conda activate ");
		buf_add_shquoted(b, e->path);
		buf_addch(b, '\n');
	}
}

static void
missing_fix(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	    struct finding *fd, const char *all[], int nall)
{
	const char *sonames[MAX_RESOLVED], *inenv[MAX_RESOLVED];
	char rel[40], spec[96];
	struct buf b;
	size_t base;
	int i, specs = 0, ns = 0, nin = 0;

	vers_release(fw->version, rel, sizeof(rel));
	buf_init(&b);
	for (i = 0; i < nall && i < MAX_RESOLVED; i++) {
		const struct lib_facts *l = env_lib_copy(f, e, all[i]);

		if (l) {
			inenv[nin++] = all[i];
			finding_evidence(fd, "%s: %s%s%s, in the environment but not on the loader's path",
					 all[i], l->path, l->version[0] ? " version " : "", l->version);
		} else {
			sonames[ns++] = all[i];
		}
	}
	if (nin) {
		env_lib_fix(&b, e, inenv, nin);
		if (!ns) {
			finding_fix(fd, b.s);
			buf_release(&b);
			return;
		}
		buf_adds(&b, "and for the rest:\n");
	}
	if (!strcmp(fw->name, "tensorflow") && rel[0] && !fw_tf_has_and_cuda(rel)) {
		size_t before = b.len;

		fw_tf_system_fix(&b, f, e, fw, rel, sonames, ns);
		if (b.len == before)
			buf_addf(&b, "Install the CUDA %s libraries TensorFlow %s was built with.\n",
				 fw->built_cuda, rel);
		finding_fix(fd, b.s);
		buf_release(&b);
		return;
	}
	base = b.len;
	if (!strcmp(fw->name, "tensorflow") && rel[0]) {
		STR_FMT(spec, "tensorflow[and-cuda]==%s", rel);
		buf_adds(&b, "Install TensorFlow's CUDA libraries:\n");
		fw_add_pip(&b, e);
		buf_adds(&b, "install ");
		buf_add_shquoted(&b, spec);
		buf_addch(&b, '\n');
		buf_adds(&b, "or the wheel(s) alone:\n");
	} else {
		buf_addf(&b, "Install the pip wheel(s) that provide %s:\n", ns == 1 ? sonames[0] : "them");
	}
	fw_add_pip(&b, e);
	buf_adds(&b, "install");
	for (i = 0; i < ns; i++) {
		if (!fw_wheel_spec(fw, sonames[i], spec, sizeof(spec)))
			continue;
		buf_addch(&b, ' ');
		buf_add_shquoted(&b, spec);
		specs++;
	}
	if (!specs) {
		b.len = base; /* keep what env_lib_fix wrote */
		b.s[base] = '\0';
		buf_addf(&b, "Install the CUDA %s libraries %s needs (%s).\n", fw->built_cuda, fw->name,
			 sonames[0]);
	} else {
		buf_addch(&b, '\n');
	}
	if (!strcmp(fw->name, "torch") && rel[0]) {
		buf_adds(&b, "or reinstall torch, which depends on the exact wheels:\n");
		if (!fw_torch_install(&b, f, e, rel)) {
			fw_add_pip(&b, e);
			buf_adds(&b, "install --force-reinstall ");
			STR_FMT(spec, "torch==%s", rel);
			buf_add_shquoted(&b, spec);
			buf_addch(&b, '\n');
		}
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* The version of cuDNN installed on the machine (f->libs), another major
 * than `want`; NULL when none. */
static const struct lib_facts *
other_cudnn(const struct facts *f, int want)
{
	int i;

	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++) {
		const struct lib_facts *l = &f->libs[i];
		int m;

		if (strcmp(l->name, "cudnn") || !l->version[0] || (m = fw_major_of(l->version)) <= 0)
			continue;
		if (m != want)
			return l;
	}
	return NULL;
}

static void
cudnn_mismatch_fix(const struct python_env_facts *e, const struct framework_facts *fw, struct finding *fd,
		   const char *soname)
{
	char spec[96], rel[40], dir[F_PATH];
	struct buf b;

	vers_release(fw->version, rel, sizeof(rel));
	buf_init(&b);
	if (rel[0] && fw_tf_has_and_cuda(rel)) {
		buf_addf(&b, "Install the cuDNN TensorFlow %s was built with:\n", rel);
		STR_FMT(spec, "tensorflow[and-cuda]==%s", rel);
		fw_add_pip(&b, e);
		buf_adds(&b, "install ");
		buf_add_shquoted(&b, spec);
		buf_addch(&b, '\n');
	} else if (fw_wheel_spec(fw, soname, spec, sizeof(spec))) {
		buf_addf(&b, "Install cuDNN %s into this environment and let the loader find it first:\n",
			 fw->built_cudnn);
		fw_add_pip(&b, e);
		buf_adds(&b, "install ");
		buf_add_shquoted(&b, spec);
		buf_addch(&b, '\n');
		if (e->site_packages[0]) {
			STR_FMT(dir, "%s/nvidia/cudnn/lib", e->site_packages);
			buf_adds(&b, "export LD_LIBRARY_PATH=");
			buf_add_shquoted(&b, dir);
			buf_adds(&b, "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n");
		}
		if (fw_is_conda(e)) {
			char mm[16];
			vers_truncate(fw->built_cudnn, 2, mm, sizeof(mm));
			buf_adds(&b, "or with conda:\n");
			fw_add_conda(&b, e);
			STR_FMT(spec, "cudnn=%s", mm);
			buf_add_shquoted(&b, spec);
			buf_addch(&b, '\n');
		}
	} else {
		buf_addf(&b, "Install cuDNN %s, the release %s was built with.\n", fw->built_cudnn, fw->name);
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* lib.cudnn_version_mismatch; returns true when it fired for this build
 * (lib.cudnn_missing then stays quiet). */
bool
fw_check_cudnn_version(const struct facts *f, const struct python_env_facts *e,
		    const struct framework_facts *fw, struct findings *out)
{
	int bm = fw_major_of(fw->built_cudnn), i;
	char title[F_TEXT], built[16];
	bool from_kb = false;
	struct finding *fd;

	if (fw->cuda_build != 1 || bm <= 0)
		return false;
	/* TensorFlow's build_info.py gives only the major ("8"); its tested
	 * build configuration names the minor it needs (2.15: 8.9) */
	STR_COPY(built, fw->built_cudnn);
	if (!strcmp(fw->name, "tensorflow") && !strchr(built, '.')) {
		const struct kb_tf_build *b = kb_tf_build(fw->version, "linux", "gpu");
		if (b && b->cudnn[0] && fw_major_of(b->cudnn) == bm) {
			STR_COPY(built, b->cudnn);
			from_kb = strchr(built, '.') != NULL;
		}
	}
	for (i = 0; i < fw->nresolved && i < MAX_RESOLVED; i++) {
		const struct resolved_lib_facts *r = &fw->resolved[i];
		const struct lib_facts *other;
		int lm;

		if (!str_starts(r->soname, "libcudnn.so"))
			continue;
		if (!r->path[0]) {
			/* not found: is only another major installed? */
			if (fw_soname_major(r->soname) != bm || !(other = other_cudnn(f, bm)))
				continue;
			STR_FMT(title, "%s %s needs cuDNN %d; only cuDNN %s is installed", fw->name,
				fw->version, bm, other->version);
			fd = fw_finding(out, e, fw, "lib.cudnn_version_mismatch", SEV_ERROR, title);
			finding_evidence(fd, "built with cuDNN %s (build_info.py); it loads %s", fw->built_cudnn,
					 r->soname);
			finding_evidence(fd, "%s: not found by the dynamic loader", r->soname);
			finding_evidence(fd, "cuDNN %s at %s: another major, which it cannot use",
					 other->version, other->path);
			cudnn_mismatch_fix(e, fw, fd, r->soname);
			return true;
		}
		if (!r->version[0] || (lm = fw_major_of(r->version)) <= 0)
			continue;
		if (lm != bm) {
			STR_FMT(title, "%s %s was built with cuDNN %s but loads cuDNN %s", fw->name, fw->version,
				fw->built_cudnn, r->version);
		} else if (!strcmp(fw->name, "tensorflow") && strchr(built, '.') &&
			   vers_cmp(r->version, built) < 0) {
			char mm[16];
			vers_truncate(r->version, 2, mm, sizeof(mm));
			if (vers_cmp(mm, built) >= 0)
				continue;
			STR_FMT(title, "%s %s was built with cuDNN %s but loads the older cuDNN %s", fw->name,
				fw->version, built, r->version);
		} else {
			continue;
		}
		fd = fw_finding(out, e, fw, "lib.cudnn_version_mismatch", SEV_ERROR, title);
		if (from_kb)
			finding_evidence(fd, "built with cuDNN %s (build_info.py); TensorFlow %s's tested "
					 "build configuration: cuDNN %s", fw->built_cudnn, fw->version, built);
		else
			finding_evidence(fd, "built with cuDNN %s (build_info.py)", fw->built_cudnn);
		finding_evidence(fd, "%s -> %s (cuDNN %s, via %s)", r->soname, r->path, r->version,
				 r->via[0] ? r->via : "?");
		cudnn_mismatch_fix(e, fw, fd, r->soname);
		return true;
	}
	return false;
}

void
fw_check_missing(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	      bool skip_cudnn, struct findings *out)
{
	static const char *const ids[MISS_N] = {"lib.cudart_missing", "lib.cudnn_missing", "lib.cuda_lib_missing"};
	const char *sonames[MISS_N][MAX_RESOLVED];
	int ns[MISS_N] = {0, 0, 0}, k, i;
	bool optional_only[MISS_N] = {true, true, true};
	char title[F_TEXT];

	if (fw->cuda_build != 1)
		return;
	for (i = 0; i < fw->nresolved && i < MAX_RESOLVED; i++) {
		const struct resolved_lib_facts *r = &fw->resolved[i];

		if (r->path[0] || !r->soname[0])
			continue;
		if (str_starts(r->soname, "libcudart.so"))
			k = MISS_CUDART;
		else if (str_starts(r->soname, "libcudnn"))
			k = MISS_CUDNN;
		else
			k = MISS_OTHER;
		if (k == MISS_CUDNN && skip_cudnn)
			continue;
		sonames[k][ns[k]++] = r->soname;
		if (!str_starts(r->soname, "libnvinfer"))
			optional_only[k] = false;
	}
	for (k = 0; k < MISS_N; k++) {
		struct finding *fd;

		if (!ns[k])
			continue;
		if (k == MISS_CUDART)
			STR_FMT(title, "%s %s cannot find the CUDA runtime %s", fw->name, fw->version, sonames[k][0]);
		else if (k == MISS_CUDNN)
			STR_FMT(title, "%s %s cannot find cuDNN (%s)", fw->name, fw->version, sonames[k][0]);
		else if (ns[k] == 1)
			STR_FMT(title, "%s %s cannot find the CUDA library %s", fw->name, fw->version,
				sonames[k][0]);
		else
			STR_FMT(title, "%s %s cannot find %d CUDA libraries", fw->name, fw->version, ns[k]);
		fd = fw_finding(out, e, fw, ids[k], optional_only[k] ? SEV_WARN : SEV_ERROR, title);
		if (fw->built_cuda[0])
			finding_evidence(fd, "built for CUDA %s%s%s", fw->built_cuda,
					 fw->built_cudnn[0] ? ", cuDNN " : "", fw->built_cudnn);
		for (i = 0; i < ns[k]; i++)
			finding_evidence(fd, "%s: not found by the dynamic loader (%s%s)", sonames[k][i],
					 fw->extension[0] ? "from " : "run-time dlopen",
					 fw->extension[0] ? fw->extension : "");
		if (optional_only[k])
			finding_evidence(fd, "TensorRT is optional: without it TF-TRT is unavailable");
		missing_fix(f, e, fw, fd, sonames[k], ns[k]);
	}
}

/* lib.cuda_version_mismatch: a library whose version follows CUDA's of
 * another major than the build. */
void
fw_check_cuda_version(const struct python_env_facts *e, const struct framework_facts *fw,
		   struct findings *out)
{
	static const char *const follows[] = {"cudart", "cublas", "cublasLt", "nvrtc", "nvJitLink", NULL};
	int bm = fw_major_of(fw->built_cuda), i, j;
	struct finding *fd = NULL;
	char title[F_TEXT], stem[32], spec[96];
	struct buf b;

	if (fw->cuda_build != 1 || bm <= 0)
		return;
	buf_init(&b);
	for (i = 0; i < fw->nresolved && i < MAX_RESOLVED; i++) {
		const struct resolved_lib_facts *r = &fw->resolved[i];
		int lm;
		bool f_ = false;

		if (!r->path[0] || !r->version[0] || (lm = fw_major_of(r->version)) <= 0 || lm == bm)
			continue;
		fw_soname_stem(r->soname, stem, sizeof(stem));
		for (j = 0; follows[j]; j++)
			f_ |= !strcmp(stem, follows[j]);
		if (!f_)
			continue;
		if (!fd) {
			STR_FMT(title, "%s %s, built for CUDA %s, loads CUDA %d libraries", fw->name, fw->version,
				fw->built_cuda, lm);
			fd = fw_finding(out, e, fw, "lib.cuda_version_mismatch", SEV_ERROR, title);
			buf_adds(&b, "Install the CUDA libraries of the build's CUDA release and remove the "
				     "foreign copy (or the symlink that renames it):\n");
			fw_add_pip(&b, e);
			buf_adds(&b, "install");
		}
		finding_evidence(fd, "%s -> %s (version %s, via %s)", r->soname, r->path, r->version,
				 r->via[0] ? r->via : "?");
		if (fw_wheel_spec(fw, r->soname, spec, sizeof(spec))) {
			buf_addch(&b, ' ');
			buf_add_shquoted(&b, spec);
		}
	}
	if (fd) {
		buf_addch(&b, '\n');
		finding_fix(fd, b.s);
	}
	buf_release(&b);
}

/* The LD_LIBRARY_PATH value without the entries naming dir; false when
 * LD_LIBRARY_PATH is unset or no entry names it. */
static bool
ldpath_without(const struct facts *f, const char *dir, char *out, size_t size)
{
	const char *v = facts_env_value(f, "LD_LIBRARY_PATH"), *p, *c;
	struct buf b;
	bool dropped = false, first = true;
	char ent[F_PATH];

	if (!v)
		return false;
	buf_init(&b);
	for (p = v;; p = c + 1) {
		size_t n;

		c = strchr(p, ':');
		n = c ? (size_t)(c - p) : strlen(p);
		if (n < sizeof(ent)) {
			memcpy(ent, p, n);
			ent[n] = '\0';
			if (n && path_same_dir(ent, dir)) {
				dropped = true;
			} else if (n) {
				if (!first)
					buf_addch(&b, ':');
				buf_adds(&b, ent);
				first = false;
			}
		}
		if (!c)
			break;
	}
	if (dropped)
		str_copy(out, size, b.s);
	buf_release(&b);
	return dropped;
}

/* The framework's own pip copy of a soname in this environment. */
static const struct lib_facts *
pip_copy(const struct facts *f, const struct python_env_facts *e, const char *soname)
{
	int i;

	if (!e->site_packages[0])
		return NULL;
	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++) {
		const struct lib_facts *l = &f->libs[i];

		if (l->origin == ORIGIN_PIP && !strcmp(l->soname, soname) && l->version[0] &&
		    str_starts(l->path, e->site_packages) && strstr(l->path, "/nvidia/"))
			return l;
	}
	return NULL;
}

void
fw_check_shadowed(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	       struct findings *out)
{
	char title[F_TEXT], dir[F_PATH], pdir[F_PATH], val[F_PATH * 2];
	int i;

	if (fw->cuda_build == 0)
		return;
	for (i = 0; i < fw->nresolved && i < MAX_RESOLVED; i++) {
		const struct resolved_lib_facts *r = &fw->resolved[i];
		const struct lib_facts *own;
		struct finding *fd;
		bool by_ld, older;
		struct buf b;

		if (!r->path[0] || !r->version[0])
			continue;
		by_ld = !strcmp(r->via, "ld_library_path");
		if (!by_ld && strcmp(r->via, "ld_so_cache"))
			continue;
		if (str_starts(r->path, e->path) && e->path[0])
			continue;
		if (!(own = pip_copy(f, e, r->soname)) || vers_cmp(own->version, r->version) == 0)
			continue;
		older = vers_cmp(r->version, own->version) < 0;
		path_dir(r->path, dir, sizeof(dir));
		path_dir(own->path, pdir, sizeof(pdir));
		STR_FMT(title, "%s %s loads %s %s from %s, not the environment's %s", fw->name, fw->version,
			r->soname, r->version, by_ld ? "LD_LIBRARY_PATH" : "the system", own->version);
		fd = fw_finding(out, e, fw, "lib.shadowed", SEV_WARN, title);
		finding_evidence(fd, "%s -> %s (%s, via %s)", r->soname, r->path, r->version, r->via);
		finding_evidence(fd, "the pip wheel's %s %s (%s) is %s", r->soname, own->version, own->path,
				 older ? "newer" : "older");
		buf_init(&b);
		if (by_ld && ldpath_without(f, dir, val, sizeof(val))) {
			buf_addf(&b, "Drop %s from LD_LIBRARY_PATH so the wheel's copy is used:\n", dir);
			if (val[0]) {
				buf_adds(&b, "export LD_LIBRARY_PATH=");
				buf_add_shquoted(&b, val);
				buf_addch(&b, '\n');
			} else {
				buf_adds(&b, "unset LD_LIBRARY_PATH\n");
			}
		} else if (by_ld) {
			buf_addf(&b, "Drop %s from LD_LIBRARY_PATH so the wheel's copy is used:\n", dir);
			buf_adds(&b, "export LD_LIBRARY_PATH=$(echo \"$LD_LIBRARY_PATH\" | tr : '\\n' | "
				     "grep -v -x -F ");
			buf_add_shquoted(&b, dir);
			buf_adds(&b, " | paste -sd:)\n");
		} else {
			buf_adds(&b, "Put the wheel's directory first for this environment:\n");
			buf_adds(&b, "export LD_LIBRARY_PATH=");
			buf_add_shquoted(&b, pdir);
			buf_adds(&b, "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n");
		}
		finding_fix(fd, b.s);
		buf_release(&b);
	}
}


/* ---- env.ld_library_path_stale (framework) -------------------------------------------------- */

/* The framework consults LD_LIBRARY_PATH: some library was not found, or
 * was found there. A build whose libraries all come by RPATH does not
 * care what LD_LIBRARY_PATH holds. */
static bool
uses_ldpath(const struct framework_facts *fw)
{
	int i;

	for (i = 0; i < fw->nresolved && i < MAX_RESOLVED; i++)
		if (!fw->resolved[i].path[0] || !strcmp(fw->resolved[i].via, "ld_library_path"))
			return true;
	return false;
}

void
fw_check_ldpath(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	     struct findings *out)
{
	int bm = fw_major_of(fw->built_cuda), i;
	struct finding *fd = NULL;
	char title[F_TEXT];

	if (fw->cuda_build != 1 || bm <= 0 || !uses_ldpath(fw))
		return;
	for (i = 0; i < f->env.nldpath && i < MAX_LDPATH_DIRS; i++) {
		const struct ldpath_dir_facts *d = &f->env.ldpath[i];
		int m = fw_major_of(d->cuda_major);

		if (!d->exists || m <= 0 || m == bm)
			continue;
		if (!fd) {
			STR_FMT(title, "LD_LIBRARY_PATH holds CUDA %d libraries; %s %s needs CUDA %s", m,
				fw->name, fw->version, fw->built_cuda);
			fd = fw_finding(out, e, fw, "env.ld_library_path_stale", SEV_WARN, title);
		}
		finding_evidence(fd, "LD_LIBRARY_PATH entry %d: %s holds CUDA %d libraries", i + 1, d->dir, m);
	}
	if (fd)
		finding_fixf(fd, "Point LD_LIBRARY_PATH at a CUDA %s installation for this environment "
				 "(or drop the CUDA %s-incompatible entries): a directory of another CUDA "
				 "major cannot provide the libraries %s asks for.",
			     fw->built_cuda, fw->built_cuda, fw->name);
}
