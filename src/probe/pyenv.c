/*
 * pyenv.c - every Python environment on the machine and its GPU-relevant
 * packages, read from files alone: no interpreter is run (that is for
 * `doctor --deep`). Fills facts->python[] except .frameworks, which
 * probe/frameworks.c derives from what is found here.
 *
 * Where environments are found, in this order, de-duplicated by the real
 * path of their prefix and capped at MAX_PYENVS (slots are kept for the
 * ones named with --python):
 *   1. $VIRTUAL_ENV and $CONDA_PREFIX, the active ones;
 *   2. python3 and python in each $PATH directory; the first one is active
 *      when nothing is activated. A venv's bin/python3 is a symlink to the
 *      base interpreter, so the pyvenv.cfg one level above bin/ is looked
 *      for before the link is followed; a pyenv shim is followed to the
 *      version pyenv selects (probe/pyver.c);
 *   3. conda roots (from $CONDA_EXE, $CONDA_PREFIX, $MAMBA_ROOT_PREFIX, the
 *      usual install dirs in each home and /opt), each root and the envs in its envs/,
 *      and the lines of each home's ~/.conda/environments.txt;
 *   4. pyenv versions: the dirs in $PYENV_ROOT/versions and ~/.pyenv/versions;
 *   5. under WSL2 (host.wsl), the Windows installs on drive C, seen through
 *      the automount (/mnt/c, or [automount] root of /etc/wsl.conf): each
 *      user's python.org installs (AppData/Local/Programs/Python/Python3*),
 *      anaconda3/miniconda3/miniforge3 (and their envs), the Microsoft Store
 *      Python's package dir (AppData/Local/Packages/PythonSoftwareFoundation.
 *      Python.3.*), all-users installs in Program Files and conda roots in
 *      ProgramData. Kind "windows": Lib/site-packages, no interpreter run
 *      or recorded (python.exe is a Windows program). /mnt/c is slow (9P),
 *      so only the named dirs are stat'ed and only Users/, Programs/Python,
 *      envs/, Packages/ and Program Files are listed, each capped;
 *   6. the paths named with --python (an interpreter or a prefix).
 *
 * The version comes from pyvenv.cfg, conda-meta/python-X.Y.Z-*.json, a
 * pyenv version directory's name, the interpreter's file name (python3.12)
 * or the lib/pythonX.Y directory, the first that answers; for Windows
 * installs conda-meta, the directory name (Python311) or the python3XX.dll
 * in the prefix. Packages are the
 * *.dist-info and *.egg-info entries of the site dirs the interpreter
 * would search (user site, site-packages, Debian's dist-packages), filtered
 * to the GPU-relevant names; the directory name "name-version.dist-info"
 * is trusted when it parses cleanly (the wheel spec escapes "-" in both
 * parts), and METADATA / PKG-INFO (its first META_READ bytes) is read only
 * when it does not. Names are normalised as PEP 503 says.
 *
 * Every path goes through the sysroot (sys/root.h); the environment
 * variables are the real process's, as for the other probes.
 */
#include "probe/probe.h"
#include "probe/pyver.h"
#include "base/path.h"
#include "base/str.h"
#include "base/vers.h"
#include "base/xalloc.h"
#include "kb/kb.h"
#include "sys/root.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_LISTED 64           /* entries taken from envs/, versions/, /home, PATH */
#define MAX_SITE_ENTRIES 20000  /* entries looked at in one site dir */
#define MAX_SITE_DIRS 6
#define MAX_CONDA_ROOTS 48
#define META_READ 4096          /* METADATA can be megabytes; the headers come first */
#define ENVTXT_MAX (64 * 1024)
#define MAX_WIN_USERS 8         /* Windows user profiles looked into */
#define MAX_WIN_LISTED 16       /* entries taken from one Windows dir listing */
#define WSLCONF_MAX (16 * 1024)

struct scan {
	struct facts *f;
	int limit;                     /* slots for steps 1-4; the rest are for --python */
	char real[MAX_PYENVS][F_PATH]; /* real prefix of each python[] entry */
	bool anything_active;          /* an activated env was found (step 1) */
	bool full_noted;
	int nroots;
	char roots[MAX_CONDA_ROOTS][F_PATH];
};

/* ---- package names ------------------------------------------------------ */

/* PEP 503: lower case, every run of "-", "_", "." becomes one "-". */
static void
normalise(const char *in, size_t n, char *out, size_t size)
{
	size_t i, k = 0;
	bool sep = false;

	for (i = 0; i < n && in[i] && k + 1 < size; i++) {
		char c = in[i];
		if (c == '-' || c == '_' || c == '.') {
			sep = true;
			continue;
		}
		if (sep && k > 0 && k + 2 < size)
			out[k++] = '-';
		sep = false;
		out[k++] = (char)tolower((unsigned char)c);
	}
	out[k] = '\0';
}

/* The distributions a GPU diagnosis cares about (normalised names). */
static bool
relevant(const char *name)
{
	static const char *const exact[] = {
		"tensorflow", "tensorflow-gpu", "tensorflow-cpu", "tf-nightly",
		"tensorflow-intel", "tensorflow-macos", "tensorflow-metal", "torch",
		"torchvision", "torchaudio", "jax", "jaxlib", "keras", "tf-keras", NULL,
	};
	const struct kb_shared_package *rows;
	size_t i, n;

	if (str_among(name, exact))
		return true;
	if (str_starts(name, "jax-cuda") &&
	    (str_ends(name, "-plugin") || str_ends(name, "-pjrt")))
		return true;
	if (str_starts(name, "cupy") || str_starts(name, "nvidia-") || str_starts(name, "tensorrt"))
		return true;
	/* a distribution that shares its package with another (the
	 * knowledge base's shared_packages: onnxruntime, onnxruntime-gpu) */
	rows = kb_list_shared_packages(&n);
	for (i = 0; i < n; i++)
		if (!strcmp(name, rows[i].distribution))
			return true;
	return false;
}

/* A package that is itself a framework: where it lives is the env's
 * site_packages for probe/frameworks.c. */
static bool
is_framework(const char *name)
{
	return !strcmp(name, "torch") || str_starts(name, "tensorflow") ||
	       !strcmp(name, "tf-nightly") || !strcmp(name, "jax") ||
	       !strcmp(name, "jaxlib") || str_starts(name, "cupy");
}

/* A version as the metadata spells it: PEP 440 characters only. */
static bool
version_ok(const char *v)
{
	if (!isdigit((unsigned char)v[0]))
		return false;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && !strchr(".+!_", *v))
			return false;
	return true;
}

/*
 * The fast path: "torch-2.11.0+cu130" (the part before .dist-info) or
 * "PyYAML-6.0-py3.11" (.egg-info, an optional -pyX.Y tail). True only when
 * it splits into exactly one name and one version.
 */
static bool
parse_stem(const char *stem, size_t n, char *name, size_t nsize, char *ver, size_t vsize)
{
	char s[160];
	char *dash, *py;

	if (n == 0 || n >= sizeof(s))
		return false;
	memcpy(s, stem, n);
	s[n] = '\0';
	py = strstr(s, "-py");
	if (py && isdigit((unsigned char)py[3]) && !strchr(py + 1, '-'))
		*py = '\0';
	dash = strchr(s, '-');
	if (!dash || dash == s || strchr(dash + 1, '-'))
		return false;
	*dash = '\0';
	if (!version_ok(dash + 1) || strlen(dash + 1) >= vsize)
		return false;
	normalise(s, strlen(s), name, nsize);
	str_copy(ver, vsize, dash + 1);
	return name[0] != '\0';
}

/* Name: and Version: from the header block of METADATA / PKG-INFO (RFC
 * 822 style; the body after the first blank line is not looked at). */
static bool
read_meta(const char *file, char *name, size_t nsize, char *ver, size_t vsize)
{
	char text[META_READ], *line, *next;
	long n;

	name[0] = ver[0] = '\0';
	n = root_read(file, text, sizeof(text));
	if (n <= 0)
		return false;
	for (line = text; line && *line; line = next) {
		char *colon, *val;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		str_trim(line);
		if (line[0] == '\0')
			break; /* the blank line that ends the headers */
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		val = str_trim(colon + 1);
		if (!strcasecmp(line, "Name") && !name[0])
			normalise(val, strlen(val), name, nsize);
		else if (!strcasecmp(line, "Version") && !ver[0] && version_ok(val) &&
			 strlen(val) < vsize)
			str_copy(ver, vsize, val);
		if (name[0] && ver[0])
			return true;
	}
	return false;
}

static void
add_pkg(struct python_env_facts *e, const char *name, const char *ver)
{
	int i;

	for (i = 0; i < e->npkgs; i++)
		if (!strcmp(e->pkgs[i].name, name))
			return; /* an earlier dir on sys.path wins */
	if (e->npkgs >= MAX_PYPKGS)
		return;
	STR_COPY(e->pkgs[e->npkgs].name, name);
	STR_COPY(e->pkgs[e->npkgs].version, ver);
	e->npkgs++;
}

/* One site dir's distributions. Returns 2 when a framework was found, 1
 * another relevant package, 0 none. */
static int
scan_site(struct python_env_facts *e, const char *dir)
{
	char **names;
	int n, i, found = 0;

	n = root_list(dir, &names);
	for (i = 0; i < n && i < MAX_SITE_ENTRIES; i++) {
		const char *ent = names[i];
		size_t len = strlen(ent), stem;
		char name[sizeof(e->pkgs[0].name)], ver[sizeof(e->pkgs[0].version)];
		char meta[F_PATH];
		bool dist = str_ends(ent, ".dist-info");

		if (!dist && !str_ends(ent, ".egg-info"))
			continue;
		stem = len - (dist ? 10 : 9);
		if (!parse_stem(ent, stem, name, sizeof(name), ver, sizeof(ver))) {
			/* an .egg-info is a directory or the PKG-INFO file itself */
			STR_FMT(meta, "%s/%s", dir, ent);
			if (dist)
				STR_FMT(meta, "%s/%s/METADATA", dir, ent);
			else if (root_is_dir(meta))
				STR_FMT(meta, "%s/%s/PKG-INFO", dir, ent);
			if (!read_meta(meta, name, sizeof(name), ver, sizeof(ver)))
				continue;
		}
		if (!relevant(name))
			continue;
		add_pkg(e, name, ver);
		if (is_framework(name))
			found = 2;
		else if (!found)
			found = 1;
	}
	root_free_list(names, n);
	return found;
}

/* ---- one environment ---------------------------------------------------- */

static const char *
home_dir(void)
{
	const char *h = getenv("HOME");

	return h && h[0] == '/' ? h : NULL;
}

/* The pythonX.Y directory under prefix/lib: the one holding the standard
 * library (os.py) wins over leftovers that hold only dist-packages. */
static bool
version_from_lib(const char *prefix, char *out, size_t size)
{
	char lib[F_PATH], os[F_PATH], v[16];
	char **names;
	int n, i;
	bool ok = false, std = false;

	STR_FMT(lib, "%s/lib", prefix);
	n = root_list(lib, &names);
	for (i = 0; i < n && i < MAX_SITE_ENTRIES; i++) {
		bool has_os;
		if (!str_starts(names[i], "python") || !pyver_clean(names[i] + 6, v, sizeof(v)))
			continue;
		STR_FMT(os, "%s/%s/os.py", lib, names[i]);
		has_os = root_exists(os);
		if (!ok || (has_os && !std) || (has_os == std && vers_cmp(v, out) > 0)) {
			str_copy(out, size, v);
			ok = true;
			std = has_os;
		}
	}
	root_free_list(names, n);
	return ok;
}

static bool
under_pyenv(const char *prefix)
{
	const char *pr = getenv("PYENV_ROOT");
	char dir[F_PATH];

	if (strstr(prefix, "/.pyenv/versions/"))
		return true;
	if (pr && pr[0] == '/') {
		STR_FMT(dir, "%s/versions/", pr);
		return str_starts(prefix, dir);
	}
	return false;
}

static void
find_kind(struct python_env_facts *e, const char *hint, const char *real)
{
	char p[F_PATH];

	if (hint && (!strcmp(hint, "venv") || !strcmp(hint, "conda") || !strcmp(hint, "windows"))) {
		STR_COPY(e->kind, hint);
		return;
	}
	STR_FMT(p, "%s/pyvenv.cfg", e->path);
	if (root_exists(p)) {
		STR_COPY(e->kind, "venv");
		return;
	}
	STR_FMT(p, "%s/conda-meta", e->path);
	if (root_is_dir(p)) {
		STR_COPY(e->kind, "conda");
		return;
	}
	if ((hint && !strcmp(hint, "pyenv")) || under_pyenv(e->path) || under_pyenv(real))
		STR_COPY(e->kind, "pyenv");
	else
		STR_COPY(e->kind, "system");
}

/* ---- Windows installs (seen from WSL2) -------------------------------------------- */

static bool
is_windows(const struct python_env_facts *e)
{
	return !strcmp(e->kind, "windows");
}

/* "311" (the digits of Python311, python311.dll) -> "3.11". */
static bool
win_digits(const char *d, size_t n, char *out, size_t size)
{
	size_t i;

	if (n < 2 || n > 3 || (d[0] != '2' && d[0] != '3'))
		return false;
	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)d[i]))
			return false;
	str_fmt(out, size, "%c.%.*s", d[0], (int)(n - 1), d + 1);
	return true;
}

#define STORE_PKG "PythonSoftwareFoundation.Python."

/* The version in a Windows install's directory name: "Python311",
 * "Python311-32", "Python313-arm64" (python.org), or the Store package
 * "PythonSoftwareFoundation.Python.3.11_qbz5n2kfra8p0". */
static bool
win_dir_version(const char *base, char *out, size_t size)
{
	char v[16];
	size_t n;

	if (str_starts(base, STORE_PKG)) {
		base += strlen(STORE_PKG);
		n = strcspn(base, "_");
		if (n == 0 || n >= sizeof(v) || base[n] != '_')
			return false;
		memcpy(v, base, n);
		v[n] = '\0';
		return strchr(v, '.') && pyver_clean(v, out, size);
	}
	if (!str_starts(base, "Python"))
		return false;
	base += 6;
	n = strspn(base, "0123456789");
	if (base[n] != '\0' && base[n] != '-')
		return false;
	return win_digits(base, n, out, size);
}

/* python311.dll in the prefix (python3.dll, the stable-ABI shim, has no
 * minor version). */
static bool
win_dll_version(const char *prefix, char *out, size_t size)
{
	char **names;
	int n, i;
	bool ok = false;

	n = root_list(prefix, &names);
	for (i = 0; i < n && i < MAX_SITE_ENTRIES && !ok; i++) {
		const char *nm = names[i];
		size_t len = strlen(nm);
		if (len > 10 && !strncasecmp(nm, "python", 6) && !strcasecmp(nm + len - 4, ".dll"))
			ok = win_digits(nm + 6, len - 10, out, size);
	}
	root_free_list(names, n);
	return ok;
}

static void
find_version_windows(struct python_env_facts *e)
{
	const char *base = strrchr(e->path, '/');

	if (pyver_from_conda_meta(e->path, e->version, sizeof(e->version)))
		return;
	if (base && win_dir_version(base + 1, e->version, sizeof(e->version)))
		return;
	if (win_dll_version(e->path, e->version, sizeof(e->version)))
		return;
	e->version[0] = '\0';
}

/* "/mnt/c/Users/bob/anaconda3" -> "/mnt/c/Users/bob"; false outside Users. */
static bool
win_user_home(const char *path, char *out, size_t size)
{
	const char *u = strstr(path, "/Users/"), *end;

	if (!u || !u[7] || u[7] == '/')
		return false;
	end = strchr(u + 7, '/');
	if (!end)
		end = u + strlen(u);
	if ((size_t)(end - path) >= size)
		return false;
	memcpy(out, path, (size_t)(end - path));
	out[end - path] = '\0';
	return true;
}

static void
find_version(struct python_env_facts *e)
{
	char p[F_PATH], real[F_PATH];
	const char *base;

	if (is_windows(e)) {
		find_version_windows(e);
		return;
	}
	STR_FMT(p, "%s/pyvenv.cfg", e->path);
	if (pyver_from_cfg(p, e->version, sizeof(e->version)))
		return;
	if (!strcmp(e->kind, "conda") &&
	    pyver_from_conda_meta(e->path, e->version, sizeof(e->version)))
		return;
	base = strrchr(e->path, '/');
	if (!strcmp(e->kind, "pyenv") && base && pyver_clean(base + 1, e->version, sizeof(e->version)))
		return;
	if (e->interpreter[0] && root_realpath(e->interpreter, real, sizeof(real)) == 0) {
		base = strrchr(real, '/');
		base = base ? base + 1 : real;
		if (str_starts(base, "python") && pyver_clean(base + 6, e->version, sizeof(e->version)))
			return;
	}
	if (version_from_lib(e->path, e->version, sizeof(e->version)))
		return;
	e->version[0] = '\0';
}

static void
find_interpreter(struct python_env_facts *e)
{
	static const char *const names[] = {"python3", "python", NULL};
	char p[F_PATH], xy[16];
	int i;

	for (i = 0; names[i]; i++) {
		STR_FMT(p, "%s/bin/%s", e->path, names[i]);
		if (root_exists(p)) {
			STR_COPY(e->interpreter, p);
			return;
		}
	}
	if (e->version[0]) {
		vers_truncate(e->version, 2, xy, sizeof(xy));
		STR_FMT(p, "%s/bin/python%s", e->path, xy);
		if (root_exists(p))
			STR_COPY(e->interpreter, p);
	}
}

/* Add dir to the list when it exists and is not there yet (by real path). */
static void
push_site(char dirs[][F_PATH], char reals[][F_PATH], int *n, const char *dir)
{
	char real[F_PATH];
	int i;

	if (*n >= MAX_SITE_DIRS || root_realpath(dir, real, sizeof(real)) < 0 || !root_is_dir(real))
		return;
	for (i = 0; i < *n; i++)
		if (!strcmp(reals[i], real))
			return;
	str_copy(dirs[*n], F_PATH, dir);
	str_copy(reals[*n], F_PATH, real);
	(*n)++;
}

/* The site dirs a Windows Python searches: the user site of its user
 * (%APPDATA%\Python\PythonXY\site-packages), then Lib\site-packages; the
 * Store Python keeps pip's packages in its package's LocalCache. */
static int
win_site_dirs(const struct python_env_facts *e, char dirs[][F_PATH], char reals[][F_PATH], int *n)
{
	char p[F_PATH], home[F_PATH], xy[16], digits[8];
	const char *base = strrchr(e->path, '/');
	int user = -1;

	vers_truncate(e->version, 2, xy, sizeof(xy));
	STR_FMT(digits, "%c%s", xy[0], strchr(xy, '.') ? strchr(xy, '.') + 1 : "");
	if (base && str_starts(base + 1, STORE_PKG)) {
		STR_FMT(p, "%s/LocalCache/local-packages/Python%s/site-packages", e->path, digits);
		push_site(dirs, reals, n, p);
		return -1;
	}
	if (win_user_home(e->path, home, sizeof(home))) {
		STR_FMT(p, "%s/AppData/Roaming/Python/Python%s/site-packages", home, digits);
		push_site(dirs, reals, n, p);
		user = *n == 1 ? 0 : -1;
	}
	STR_FMT(p, "%s/Lib/site-packages", e->path);
	push_site(dirs, reals, n, p);
	return user;
}

/* The site dirs in the order sys.path lists them, then their packages.
 * site_packages becomes the dir holding a framework, else the one holding
 * another relevant package, else the first that is not the user site. */
static void
find_packages(struct python_env_facts *e)
{
	char dirs[MAX_SITE_DIRS][F_PATH], reals[MAX_SITE_DIRS][F_PATH], p[F_PATH], xy[16];
	const char *home = home_dir();
	bool venv = !strcmp(e->kind, "venv"), sys = !strcmp(e->kind, "system");
	int n = 0, i, best = 0, user = -1;

	if (!e->version[0])
		return;
	vers_truncate(e->version, 2, xy, sizeof(xy));
	if (is_windows(e)) {
		user = win_site_dirs(e, dirs, reals, &n);
	} else if (!venv && home) {
		STR_FMT(p, "%s/.local/lib/python%s/site-packages", home, xy);
		push_site(dirs, reals, &n, p);
		user = n == 1 ? 0 : -1;
	}
	if (!is_windows(e)) {
		STR_FMT(p, "%s/lib/python%s/site-packages", e->path, xy);
		push_site(dirs, reals, &n, p);
		STR_FMT(p, "%s/lib64/python%s/site-packages", e->path, xy);
		push_site(dirs, reals, &n, p);
	}
	if (sys) {
		STR_FMT(p, "%s/local/lib/python%s/dist-packages", e->path, xy);
		push_site(dirs, reals, &n, p);
		STR_FMT(p, "%s/lib/python3/dist-packages", e->path);
		push_site(dirs, reals, &n, p);
		STR_FMT(p, "%s/lib/python%s/dist-packages", e->path, xy);
		push_site(dirs, reals, &n, p);
	}
	for (i = 0; i < n; i++) {
		int r = scan_site(e, dirs[i]);
		if (r > best) {
			best = r;
			STR_COPY(e->site_packages, dirs[i]);
		}
	}
	for (i = 0; i < n && !e->site_packages[0]; i++)
		if (i != user)
			STR_COPY(e->site_packages, dirs[i]);
}

/*
 * Add the environment at prefix (interp: how it was reached, or NULL).
 * hint: "venv"/"conda" force the kind, "pyenv" suggests it. A prefix that
 * is already listed is only marked active when asked. Returns true when
 * the environment is (now) in the list.
 */
static bool
add_env(struct scan *s, const char *prefix, const char *interp, const char *hint, bool active)
{
	struct facts *f = s->f;
	struct python_env_facts *e;
	char real[F_PATH];
	int i;

	if (!prefix || prefix[0] != '/' || root_realpath(prefix, real, sizeof(real)) < 0 ||
	    !root_is_dir(real))
		return false;
	for (i = 0; i < f->npython; i++)
		if (!strcmp(s->real[i], real)) {
			if (active)
				f->python[i].active = true;
			return true;
		}
	if (f->npython >= s->limit) {
		if (!s->full_noted)
			facts_note(f, "python", "only %d python environments listed; \"%s\" and later ones left out",
				   s->limit, prefix);
		s->full_noted = true;
		return false;
	}
	e = &f->python[f->npython];
	memset(e, 0, sizeof(*e));
	STR_COPY(e->path, prefix);
	if (interp && root_exists(interp))
		STR_COPY(e->interpreter, interp);
	find_kind(e, hint, real);
	find_version(e);
	if (!e->interpreter[0] && !is_windows(e))
		find_interpreter(e);
	if (!e->version[0] && e->interpreter[0])
		find_version(e);
	if (!e->interpreter[0] && !e->version[0])
		return false; /* not a Python environment (an R-only conda env, say) */
	e->active = active;
	find_packages(e);
	str_copy(s->real[f->npython], F_PATH, real);
	f->npython++;
	return true;
}

/* An interpreter path -> its environment's prefix: the dir with pyvenv.cfg
 * above bin/ (checked before the venv's symlink is followed), else the
 * resolved file's grandparent. */
static bool
prefix_of(const char *exe, char *out, size_t size)
{
	char bin[F_PATH], up[F_PATH], cfg[F_PATH], real[F_PATH];

	path_dir(exe, bin, sizeof(bin));
	path_dir(bin, up, sizeof(up));
	STR_FMT(cfg, "%s/pyvenv.cfg", up);
	if (root_exists(cfg)) {
		str_copy(out, size, up);
		return true;
	}
	if (root_realpath(exe, real, sizeof(real)) < 0)
		return false;
	path_dir(real, bin, sizeof(bin));
	path_dir(bin, out, size);
	return out[0] == '/';
}

/* ---- where environments are looked for ---------------------------------- */

static void
scan_active(struct scan *s)
{
	const char *venv = getenv("VIRTUAL_ENV"), *conda = getenv("CONDA_PREFIX");
	bool has_venv = venv && venv[0] == '/';

	if (has_venv) {
		if (add_env(s, venv, NULL, "venv", true))
			s->anything_active = true;
		else
			facts_note(s->f, "python", "VIRTUAL_ENV names \"%s\", which is not a python environment", venv);
	}
	/* a venv activated on top of conda runs the venv's python */
	if (conda && conda[0] == '/') {
		if (add_env(s, conda, NULL, "conda", !has_venv))
			s->anything_active = true;
		else
			facts_note(s->f, "python", "CONDA_PREFIX names \"%s\", which is not a python environment", conda);
	}
}

/* A pyenv shims dir: the prefix of the version pyenv would run (its
 * versions/<name>); false for "system" or when it cannot tell. */
static bool
shim_target(const char *dir, char *prefix, size_t size)
{
	char bin[F_PATH];
	char cwd[F_PATH];
	struct pyver_env pe = {
		.path = dir,
		.pyenv_version = getenv("PYENV_VERSION"),
		.cwd = getcwd(cwd, sizeof(cwd)),
	};
	struct pyver pv;

	if (pyver_probe(&pe, &pv) < 0 || !pv.path[0])
		return false;
	path_dir(pv.path, bin, sizeof(bin));
	path_dir(bin, prefix, size);
	return prefix[0] == '/';
}

/* python3 and python in one $PATH dir; *first: nothing found before. */
static void
scan_path_dir(struct scan *s, const char *dir, bool *first)
{
	static const char *const names[] = {"python3", "python", NULL};
	char exe[F_PATH], prefix[F_PATH];
	bool shims = str_ends(dir, "/shims");
	int i;

	for (i = 0; names[i]; i++) {
		STR_FMT(exe, "%s/%s", dir, names[i]);
		if (!root_exists(exe))
			continue;
		if (shims) {
			/* both names lead to the one version pyenv selects */
			if (shim_target(dir, prefix, sizeof(prefix)) &&
			    add_env(s, prefix, NULL, "pyenv", *first && !s->anything_active))
				*first = false;
			return;
		}
		if (prefix_of(exe, prefix, sizeof(prefix)) &&
		    add_env(s, prefix, exe, NULL, *first && !s->anything_active))
			*first = false;
	}
}

static void
scan_path_dirs(struct scan *s)
{
	const char *path = getenv("PATH"), *p;
	bool first = true;
	int ndirs = 0;

	for (p = path ? path : ""; *p && ndirs < MAX_LISTED;) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char dir[F_PATH];

		if (len > 0 && len < sizeof(dir) && p[0] == '/') {
			memcpy(dir, p, len);
			dir[len] = '\0';
			ndirs++;
			scan_path_dir(s, dir, &first);
		}
		p = end ? end + 1 : p + len;
	}
}

static void
add_root(struct scan *s, const char *root)
{
	char meta[F_PATH];
	int i;

	if (!root || root[0] != '/' || s->nroots >= MAX_CONDA_ROOTS)
		return;
	for (i = 0; i < s->nroots; i++)
		if (!strcmp(s->roots[i], root))
			return;
	STR_FMT(meta, "%s/conda-meta", root);
	if (!root_is_dir(meta))
		return;
	STR_COPY(s->roots[s->nroots], root);
	s->nroots++;
}

/* Calls fn(s, home) for $HOME, /root and every /home/<user>. */
static void
each_home(struct scan *s, void (*fn)(struct scan *, const char *))
{
	const char *home = home_dir();
	char **names, dir[F_PATH];
	int n, i;

	if (home)
		fn(s, home);
	if (!home || strcmp(home, "/root"))
		fn(s, "/root");
	n = root_list("/home", &names);
	for (i = 0; i < n && i < MAX_LISTED; i++) {
		STR_FMT(dir, "/home/%s", names[i]);
		if (!home || strcmp(home, dir))
			fn(s, dir);
	}
	root_free_list(names, n);
}

static void
home_conda_roots(struct scan *s, const char *home)
{
	static const char *const dirs[] = {"anaconda3", "miniconda3", "miniforge3", "mambaforge", NULL};
	char root[F_PATH];
	int i;

	for (i = 0; dirs[i]; i++) {
		STR_FMT(root, "%s/%s", home, dirs[i]);
		add_root(s, root);
	}
}

static void
home_conda_txt(struct scan *s, const char *home)
{
	char file[F_PATH], *text, *line, *save = NULL;
	int nlines = 0;

	STR_FMT(file, "%s/.conda/environments.txt", home);
	text = root_read_all(file, ENVTXT_MAX, NULL, NULL);
	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line && nlines < MAX_LISTED;
	     line = strtok_r(NULL, "\n", &save), nlines++) {
		str_trim(line);
		if (line[0] == '/' && strlen(line) < F_PATH)
			add_env(s, line, NULL, NULL, false);
	}
	free(text);
}

/* root_dir's entries (each a prefix) in name order. */
static void
add_children(struct scan *s, const char *dir, const char *hint)
{
	char **names, p[F_PATH];
	int n, i;

	n = root_list(dir, &names);
	for (i = 0; i < n && i < MAX_LISTED; i++) {
		if (names[i][0] == '.')
			continue;
		STR_FMT(p, "%s/%s", dir, names[i]);
		add_env(s, p, NULL, hint, false);
	}
	root_free_list(names, n);
}

static void
scan_conda(struct scan *s)
{
	static const char *const opt[] = {"/opt/conda", "/opt/miniconda3", "/opt/anaconda3",
					  "/opt/miniforge3", NULL};
	const char *v;
	char root[F_PATH], tmp[F_PATH], envs[F_PATH];
	int i;

	if ((v = getenv("CONDA_EXE")) && v[0] == '/') {
		path_dir(v, tmp, sizeof(tmp));
		path_dir(tmp, root, sizeof(root));
		add_root(s, root);
	}
	if ((v = getenv("CONDA_PREFIX")) && v[0] == '/') {
		const char *at = strstr(v, "/envs/");
		if (at && !strchr(at + 6, '/') && (size_t)(at - v) < sizeof(root)) {
			memcpy(root, v, (size_t)(at - v));
			root[at - v] = '\0';
			add_root(s, root);
		} else {
			add_root(s, v);
		}
	}
	if ((v = getenv("MAMBA_ROOT_PREFIX")) && v[0] == '/')
		add_root(s, v);
	each_home(s, home_conda_roots);
	for (i = 0; opt[i]; i++)
		add_root(s, opt[i]);
	for (i = 0; i < s->nroots; i++) {
		add_env(s, s->roots[i], NULL, "conda", false);
		STR_FMT(envs, "%s/envs", s->roots[i]);
		add_children(s, envs, NULL);
	}
	each_home(s, home_conda_txt);
}

static void
scan_pyenv(struct scan *s)
{
	const char *v = getenv("PYENV_ROOT"), *home = home_dir();
	char dir[F_PATH];

	if (v && v[0] == '/') {
		STR_FMT(dir, "%s/versions", v);
		add_children(s, dir, "pyenv");
	}
	if (home) {
		STR_FMT(dir, "%s/.pyenv/versions", home);
		add_children(s, dir, "pyenv");
	}
}

/* ---- Windows installs, from WSL2 ------------------------------------------------- */

/* Where WSL mounts drive C: [automount] root of /etc/wsl.conf ("/mnt/"
 * by default) followed by "c". */
static void
win_drive_c(char *out, size_t size)
{
	char *text, *line, *save = NULL;
	bool automount = false;

	str_copy(out, size, "/mnt/c");
	text = root_read_all("/etc/wsl.conf", WSLCONF_MAX, NULL, NULL);
	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq, *key, *val;
		size_t n;

		line = str_trim(line);
		if (line[0] == '[') {
			automount = !strncasecmp(line, "[automount]", 11);
			continue;
		}
		eq = strchr(line, '=');
		if (!automount || line[0] == '#' || !eq)
			continue;
		*eq = '\0';
		key = str_trim(line);
		val = str_trim(eq + 1);
		n = strlen(val);
		if (n >= 2 && (val[0] == '"' || val[0] == '\'') && val[n - 1] == val[0]) {
			val[n - 1] = '\0';
			val++;
			n -= 2;
		}
		if (strcasecmp(key, "root") || val[0] != '/' || n + 2 >= size || strstr(val, ".."))
			continue;
		str_fmt(out, size, "%s%sc", val, n && val[n - 1] == '/' ? "" : "/");
	}
	free(text);
}

/* A Windows conda root and the envs in its envs/. */
static void
win_conda_root(struct scan *s, const char *root)
{
	char meta[F_PATH], envs[F_PATH], p[F_PATH];
	char **names;
	int n, i, k = 0;

	STR_FMT(meta, "%s/conda-meta", root);
	if (!root_is_dir(meta))
		return;
	add_env(s, root, NULL, "windows", false);
	STR_FMT(envs, "%s/envs", root);
	n = root_list(envs, &names);
	for (i = 0; i < n && k < MAX_WIN_LISTED; i++) {
		if (names[i][0] == '.')
			continue;
		k++;
		STR_FMT(p, "%s/%s", envs, names[i]);
		add_env(s, p, NULL, "windows", false);
	}
	root_free_list(names, n);
}

/* The entries of dir whose names start with prefix, each an install. */
static void
win_installs(struct scan *s, const char *dir, const char *prefix)
{
	char **names, p[F_PATH], v[16];
	int n, i, k = 0;

	n = root_list(dir, &names);
	for (i = 0; i < n && i < MAX_SITE_ENTRIES && k < MAX_WIN_LISTED; i++) {
		if (!str_starts(names[i], prefix) || !win_dir_version(names[i], v, sizeof(v)))
			continue;
		k++;
		STR_FMT(p, "%s/%s", dir, names[i]);
		add_env(s, p, NULL, "windows", false);
	}
	root_free_list(names, n);
}

/* Profiles that are not a person's: no Python is installed there. */
static bool
win_system_profile(const char *name)
{
	static const char *const skip[] = {"All Users", "Default", "Default User", "Public",
					   "desktop.ini", "WDAGUtilityAccount", NULL};

	return name[0] == '.' || str_among_case(name, skip);
}

static void
win_user(struct scan *s, const char *home)
{
	static const char *const conda[] = {"anaconda3", "miniconda3", "miniforge3", NULL};
	char p[F_PATH];
	int i;

	STR_FMT(p, "%s/AppData/Local/Programs/Python", home);
	win_installs(s, p, "Python");
	for (i = 0; conda[i]; i++) {
		STR_FMT(p, "%s/%s", home, conda[i]);
		win_conda_root(s, p);
	}
	STR_FMT(p, "%s/AppData/Local/Packages", home);
	win_installs(s, p, STORE_PKG);
}

static void
scan_windows(struct scan *s)
{
	static const char *const conda[] = {"anaconda3", "miniconda3", "miniforge3", NULL};
	char c[F_PATH], dir[F_PATH], p[F_PATH];
	char **names;
	int n, i, k = 0;

	if (!s->f->host.wsl)
		return;
	win_drive_c(c, sizeof(c));
	STR_FMT(dir, "%s/Users", c);
	n = root_list(dir, &names);
	for (i = 0; i < n && i < MAX_SITE_ENTRIES && k < MAX_WIN_USERS; i++) {
		if (win_system_profile(names[i]))
			continue;
		k++;
		STR_FMT(p, "%s/%s", dir, names[i]);
		win_user(s, p);
	}
	root_free_list(names, n);
	for (i = 0; conda[i]; i++) {
		STR_FMT(p, "%s/ProgramData/%s", c, conda[i]);
		win_conda_root(s, p);
	}
	STR_FMT(p, "%s/Program Files", c);
	win_installs(s, p, "Python");
}

/* An interpreter named by the user: python* once resolved, or in a venv. */
static bool
looks_like_python(const char *exe)
{
	char bin[F_PATH], up[F_PATH], cfg[F_PATH], real[F_PATH];
	const char *base;

	path_dir(exe, bin, sizeof(bin));
	path_dir(bin, up, sizeof(up));
	STR_FMT(cfg, "%s/pyvenv.cfg", up);
	if (root_exists(cfg))
		return true;
	if (root_realpath(exe, real, sizeof(real)) < 0)
		return false;
	base = strrchr(real, '/');
	return str_starts(base ? base + 1 : real, "python");
}

/* --python PATH: a prefix directory or an interpreter. */
static void
scan_extra(struct scan *s, const struct probe_opts *o)
{
	int i;

	for (i = 0; o && i < o->nextra_pythons && i < 8; i++) {
		const char *p = o->extra_pythons[i];
		char prefix[F_PATH];

		if (!p || p[0] != '/')
			continue;
		if (root_is_dir(p)) {
			if (!add_env(s, p, NULL, NULL, false))
				facts_note(s->f, "python", "--python \"%s\" is not a python environment", p);
		} else if (!looks_like_python(p) || !prefix_of(p, prefix, sizeof(prefix)) ||
			   !add_env(s, prefix, p, NULL, false)) {
			facts_note(s->f, "python", "--python \"%s\" is not a python interpreter", p);
		}
	}
}

void
probe_python(struct facts *f, const struct probe_opts *o)
{
	struct scan *s = xcalloc(1, sizeof(*s));
	int extra = o ? o->nextra_pythons : 0;

	if (extra < 0)
		extra = 0;
	if (extra > 8)
		extra = 8;
	s->f = f;
	s->limit = MAX_PYENVS - extra;
	f->npython = 0;
	scan_active(s);
	scan_path_dirs(s);
	scan_conda(s);
	scan_pyenv(s);
	scan_windows(s);
	s->limit = MAX_PYENVS;
	scan_extra(s, o);
	free(s);
}
