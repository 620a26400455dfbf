/*
 * pyver.c - the default python3's version without running it (see
 * pyver.h). Sources, in order: $VIRTUAL_ENV/pyvenv.cfg, $CONDA_PREFIX
 * (its python3 link, then conda-meta/python-X.Y.Z-*.json), then each
 * directory of $PATH: a pyvenv.cfg one level up (a venv's bin/), else the
 * file name python3 resolves to (python3 -> python3.12), or for a pyenv
 * shim the version pyenv selects (PYENV_VERSION, .python-version, the
 * global version file).
 *
 * pyvenv.cfg is written by the venv module (`version = 3.12.3`) or by uv
 * and virtualenv (`version_info = 3.12.3.final.0`); both are read.
 */
#include "probe/pyver.h"
#include "base/path.h"
#include "base/str.h"
#include "base/vers.h"
#include "sys/root.h"

#include <string.h>

bool
pyver_clean(const char *in, char *out, size_t size)
{
	size_t k = strspn(in, "0123456789.");
	char tmp[32];
	int v[3];

	if (k == 0 || k >= sizeof(tmp))
		return false;
	memcpy(tmp, in, k);
	tmp[k] = '\0';
	while (k > 0 && tmp[k - 1] == '.')
		tmp[--k] = '\0';
	if (vers_parse(tmp, v, 3) < 2 || (v[0] != 2 && v[0] != 3))
		return false;
	str_copy(out, size, tmp);
	return true;
}

bool
pyver_from_cfg(const char *cfg, char *out, size_t size)
{
	char text[4096], *line, *save = NULL;

	if (root_read(cfg, text, sizeof(text)) < 0)
		return false;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '='), *key = line, *val;
		if (!eq)
			continue;
		*eq = '\0';
		val = str_trim(eq + 1);
		str_trim(key);
		if ((!strcmp(key, "version") || !strcmp(key, "version_info")) && pyver_clean(val, out, size))
			return true;
	}
	return false;
}

/* The interpreter's resolved file name: ".../python3.12" -> "3.12". */
static bool
from_file_name(const char *exe, char *out, size_t size, char *real, size_t rsize)
{
	const char *base;

	if (root_realpath(exe, real, rsize) < 0)
		return false;
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (!str_starts(base, "python"))
		return false;
	return pyver_clean(base + 6, out, size);
}

bool
pyver_from_conda_meta(const char *prefix, char *out, size_t size)
{
	char dir[F_PATH], **names;
	int n, i;
	bool ok = false;

	STR_FMT(dir, "%s/conda-meta", prefix);
	n = root_list(dir, &names);
	for (i = 0; i < n && !ok; i++)
		if (str_starts(names[i], "python-") && str_ends(names[i], ".json"))
			ok = pyver_clean(names[i] + 7, out, size);
	root_free_list(names, n);
	return ok;
}

/* One environment prefix (a venv or conda env). */
static bool
from_prefix(const char *prefix, const char *how, struct pyver *out)
{
	char path[F_PATH], real[F_PATH];

	STR_FMT(path, "%s/pyvenv.cfg", prefix);
	if (pyver_from_cfg(path, out->version, sizeof(out->version))) {
		STR_FMT(out->path, "%s/bin/python3", prefix);
		STR_COPY(out->how, "pyvenv_cfg");
		return true;
	}
	STR_FMT(path, "%s/bin/python3", prefix);
	if (from_file_name(path, out->version, sizeof(out->version), real, sizeof(real))) {
		STR_COPY(out->path, path);
		STR_COPY(out->how, how);
		return true;
	}
	if (pyver_from_conda_meta(prefix, out->version, sizeof(out->version))) {
		STR_COPY(out->path, path);
		STR_COPY(out->how, "conda_meta");
		return true;
	}
	return false;
}

/* The first word of a pyenv version file ("3.11.7\n" -> "3.11.7"). */
static bool
read_word(const char *file, char *out, size_t size)
{
	char line[128];

	if (root_read_line(file, line, sizeof(line)) < 0)
		return false;
	line[strcspn(line, " \t:")] = '\0';
	str_copy(out, size, line);
	return out[0] != '\0';
}

/* What pyenv would run for the shims in pyenv_root: 1 found, 0 "system"
 * (go on along PATH), -1 unknown. */
static int
from_pyenv(const char *pyenv_root, const struct pyver_env *env, struct pyver *out)
{
	char name[64] = "", file[F_PATH], dir[F_PATH], up[F_PATH];
	int depth;

	if (env->pyenv_version && env->pyenv_version[0]) {
		str_copy(name, sizeof(name), env->pyenv_version);
		name[strcspn(name, " \t:")] = '\0';
	}
	if (!name[0] && env->cwd && env->cwd[0] == '/') {
		STR_COPY(dir, env->cwd);
		for (depth = 0; depth < 64 && !name[0]; depth++) {
			STR_FMT(file, "%s/.python-version", strcmp(dir, "/") ? dir : "");
			if (read_word(file, name, sizeof(name)))
				break;
			if (!strcmp(dir, "/"))
				break;
			path_dir(dir, up, sizeof(up));
			STR_COPY(dir, up);
		}
	}
	if (!name[0]) {
		STR_FMT(file, "%s/version", pyenv_root);
		if (!read_word(file, name, sizeof(name)))
			return 0; /* no version file: pyenv runs the system Python */
	}
	if (!strcmp(name, "system"))
		return 0;
	STR_FMT(dir, "%s/versions/%s", pyenv_root, name);
	if (pyver_clean(name, out->version, sizeof(out->version)) ||
	    from_prefix(dir, "pyenv", out)) {
		STR_FMT(out->path, "%s/bin/python3", dir);
		STR_COPY(out->how, "pyenv");
		return 1;
	}
	return -1;
}

int
pyver_probe(const struct pyver_env *env, struct pyver *out)
{
	const char *p;

	memset(out, 0, sizeof(*out));
	if (env->virtual_env && env->virtual_env[0] == '/' &&
	    from_prefix(env->virtual_env, "virtual_env", out))
		return 0;
	if (env->conda_prefix && env->conda_prefix[0] == '/' &&
	    from_prefix(env->conda_prefix, "conda_prefix", out))
		return 0;
	for (p = env->path ? env->path : ""; *p;) {
		const char *e = strchr(p, ':');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char dir[F_PATH], exe[F_PATH + 16], up[F_PATH], cfg[F_PATH + 16], real[F_PATH];

		if (len > 0 && len < sizeof(dir) && p[0] == '/') {
			memcpy(dir, p, len);
			dir[len] = '\0';
			STR_FMT(exe, "%s/python3", dir);
			if (root_exists(exe)) {
				path_dir(dir, up, sizeof(up));
				if (str_ends(dir, "/shims")) {
					int r = from_pyenv(up, env, out);
					if (r > 0)
						return 0;
					if (r < 0)
						return -1;
					p = e ? e + 1 : p + len; /* "system": the next python3 */
					continue;
				}
				STR_COPY(out->path, exe);
				STR_FMT(cfg, "%s/pyvenv.cfg", up);
				if (pyver_from_cfg(cfg, out->version, sizeof(out->version))) {
					STR_COPY(out->how, "pyvenv_cfg");
					return 0;
				}
				if (from_file_name(exe, out->version, sizeof(out->version), real,
						   sizeof(real))) {
					STR_COPY(out->how, "file_name");
					return 0;
				}
				/* the first python3 on PATH is the one the user gets */
				return -1;
			}
		}
		p = e ? e + 1 : p + len;
	}
	return -1;
}
