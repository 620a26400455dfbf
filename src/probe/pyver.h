/*
 * pyver.h - the Python a user gets from `python3`, and its version, found
 * WITHOUT running it: the active virtual environment or conda environment
 * first, then the first python3 on PATH, its symlink chain resolved to a
 * pythonX.Y file name, or the pyvenv.cfg of the venv it sits in. All file
 * access goes through the sysroot (sys/root.h).
 */
#ifndef GPUDOCTOR_PYVER_H
#define GPUDOCTOR_PYVER_H

#include "facts.h"

#include <stdbool.h>
#include <stddef.h>

struct pyver {
	char version[16];            /* "3.12" or "3.12.3" as precise as found */
	char path[F_PATH];           /* the interpreter (or environment) it belongs to */
	char how[24];                /* virtual_env, conda_prefix, pyvenv_cfg, file_name, conda_meta, pyenv */
};

/* The environment the search depends on; each NULL or "" when unset. */
struct pyver_env {
	const char *path;            /* $PATH */
	const char *virtual_env;     /* $VIRTUAL_ENV */
	const char *conda_prefix;    /* $CONDA_PREFIX */
	const char *pyenv_version;   /* $PYENV_VERSION */
	const char *cwd;             /* where .python-version files are looked for (pyenv) */
};

/*
 * Find the default python3. A pyenv shim (a python3 in <root>/shims) is
 * followed to the version pyenv would pick: $PYENV_VERSION, else the
 * nearest .python-version from cwd up, else <root>/version ("system" goes
 * on along PATH). Returns 0 with *out filled, or -1 when no version could
 * be established (out->version ""; out->path may name the interpreter).
 */
int pyver_probe(const struct pyver_env *env, struct pyver *out);

/* The pieces, for probe/pyenv.c, which reads every environment. Each
 * writes a version "X.Y" or "X.Y.Z" to out[size] and returns true, or
 * returns false and leaves out unspecified. */
/* "3.12.3.final.0" -> "3.12.3"; only 2.x and 3.x versions are accepted. */
bool pyver_clean(const char *in, char *out, size_t size);
/* `version =` or `version_info =` of a pyvenv.cfg (a machine path). */
bool pyver_from_cfg(const char *cfg, char *out, size_t size);
/* <prefix>/conda-meta/python-X.Y.Z-<build>.json, conda's record of the
 * python package in that environment. */
bool pyver_from_conda_meta(const char *prefix, char *out, size_t size);

#endif
