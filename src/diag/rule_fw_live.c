/*
 * rule_fw_live.c - doctor --deep: the framework's own answer, asked in its
 * interpreter: fw.no_gpu_at_runtime and fw.prediction_mismatch.
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

/* ---- doctor --deep: the framework's own answer --------------------------------------------------- */

/* "libcudnn.so.9.19.0" -> "libcudnn": a library family, the name before ".so". */
static void
lib_family(const char *name, char *out, size_t size)
{
	const char *base = strrchr(name, '/'), *so;
	size_t n;

	base = base ? base + 1 : name;
	so = strstr(base, ".so");
	n = so ? (size_t)(so - base) : strlen(base);
	if (n + 1 > size)
		n = size - 1;
	memcpy(out, base, n);
	out[n] = '\0';
}

/* The real file behind a predicted path, where libs.c recorded one. */
static const char *
real_of(const struct facts *f, const char *path)
{
	int i;

	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++)
		if (!strcmp(f->libs[i].path, path) && f->libs[i].real_path[0])
			return f->libs[i].real_path;
	return path;
}

/* a and b agree on the components both give ("13" vs "13.0.96": yes);
 * true when either is unknown. */
static bool
same_release(const char *a, const char *b)
{
	int va[4], vb[4], na, nb, n, i;

	na = vers_parse(a, va, 4);
	nb = vers_parse(b, vb, 4);
	n = na < nb ? na : nb;
	for (i = 0; i < n; i++)
		if (va[i] != vb[i])
			return false;
	return true;
}

/* The command that makes the framework say why it sees no GPU. */
static void
add_why_command(struct buf *b, const struct python_env_facts *e, const struct framework_facts *fw)
{
	static const struct {
		const char *name, *code;
	} why[] = {
		{"torch", "import torch; print(torch.cuda.is_available()); torch.cuda.init()"},
		{"tensorflow", "import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))"},
		{"jax", "import jax; print(jax.devices('gpu'))"},
		{"cupy", "import cupy; print(cupy.cuda.runtime.getDeviceCount())"},
	};
	size_t i;

	for (i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
		if (strcmp(why[i].name, fw->name))
			continue;
		if (!strcmp(fw->name, "tensorflow"))
			buf_adds(b, "TF_CPP_MIN_LOG_LEVEL=0 ");
		buf_add_shquoted(b, e->interpreter[0] ? e->interpreter : "python3");
		buf_adds(b, " -c ");
		buf_add_shquoted(b, why[i].code);
		buf_addch(b, '\n');
	}
}

/* CUDA_VISIBLE_DEVICES set so that it hides every GPU (env.visible_devices_hides_all's case). */
static bool
visible_devices_empty(const struct facts *f)
{
	const char *v = facts_env_value(f, "CUDA_VISIBLE_DEVICES");

	return v && (!v[0] || v[0] == '-' || !strcmp(v, "none") || !strcmp(v, "NoDevFiles"));
}

/* Whether a finding present in out explains why the framework sees no GPU:
 * one about this framework from the static checks (out->v[first..]), or a
 * machine-wide error below the frameworks (kmod, driver, ...). */
static bool
no_gpu_explained(const struct facts *f, const struct python_env_facts *e, struct findings *out, size_t first)
{
	size_t i;

	if (visible_devices_empty(f))
		return true;
	for (i = 0; i < out->n; i++) {
		const struct finding *fi = &out->v[i];

		if (i >= first && fi->severity >= SEV_WARN && fi->env && !strcmp(fi->env, e->path))
			return true;
		if (!fi->env && fi->severity == SEV_ERROR && layer_rank(fi->layer) < layer_rank("fw"))
			return true;
	}
	return false;
}

/* fw.no_gpu_at_runtime: the framework, asked, uses no GPU (or cannot even
 * be imported, or crashes) on a machine that has one. */
void
fw_check_live_gpu(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	       struct findings *out, size_t first)
{
	const struct framework_live_facts *lv = &fw->live;
	bool crashed = lv->state == CHILD_CRASHED;
	bool import_failed = lv->state == CHILD_OK && lv->error[0] && !lv->version[0];
	char title[F_TEXT];
	struct finding *fd;
	struct buf b;

	if (!fw_has_gpu(f) || fw->cuda_build == 0 || (!crashed && lv->state != CHILD_OK))
		return;
	if (!crashed && !import_failed && lv->cuda_available && lv->gpu_count != 0)
		return;
	if (no_gpu_explained(f, e, out, first))
		return;
	if (crashed)
		STR_FMT(title, "importing %s %s crashes the interpreter (signal %d)", fw->name, fw->version,
			lv->signal);
	else if (import_failed)
		STR_FMT(title, "%s %s cannot be imported", fw->name, fw->version);
	else
		STR_FMT(title, "%s %s sees no GPU when it runs", fw->name, fw->version);
	fd = fw_finding(out, e, fw, "fw.no_gpu_at_runtime", SEV_ERROR, title);
	finding_evidence(fd, "static prediction: %s%s%s", fw->cuda_build == 1 ? "a CUDA build" : "build unknown",
			 fw->built_cuda[0] ? " for CUDA " : "", fw->built_cuda);
	if (crashed || import_failed)
		finding_evidence(fd, "live: %s", lv->error);
	else
		finding_evidence(fd, "live: cuda_available %s, %d GPU%s%s%s", lv->cuda_available ? "true" : "false",
				 lv->gpu_count < 0 ? 0 : lv->gpu_count, lv->gpu_count == 1 ? "" : "s",
				 lv->error[0] ? "; " : "", lv->error);
	if (lv->cuda_build == 0)
		finding_evidence(fd, "live: %s says it was built without CUDA", fw->name);
	finding_evidence(fd, "the machine has %d NVIDIA GPU%s%s%s", f->ngpus, f->ngpus == 1 ? "" : "s",
			 f->gpus[0].name[0] ? ": " : "", f->gpus[0].name);
	if (facts_env_value(f, "CUDA_VISIBLE_DEVICES"))
		finding_evidence(fd, "CUDA_VISIBLE_DEVICES=%s", facts_env_value(f, "CUDA_VISIBLE_DEVICES"));
	buf_init(&b);
	buf_addf(&b, "Nothing gpudoctor read from the files explains it; let %s say why:\n", fw->name);
	add_why_command(&b, e, fw);
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* fw.prediction_mismatch: the framework's own answer contradicts what was
 * read from its files: another version imported, another CUDA build, other
 * library files mapped than the loader was predicted to pick. */
void
fw_check_live_mismatch(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
		    struct findings *out)
{
	const struct framework_live_facts *lv = &fw->live;
	struct finding *fd = NULL;
	char title[F_TEXT], a[40], b2[40];
	bool other_copy = false, libs = false;
	struct buf b;
	int i, k;

	if (lv->state != CHILD_OK || !lv->version[0])
		return;
	STR_FMT(title, "%s %s: the framework's own answer differs from the prediction", fw->name, fw->version);
#define MISMATCH(...) \
	do { \
		if (!fd) \
			fd = fw_finding(out, e, fw, "fw.prediction_mismatch", SEV_WARN, title); \
		finding_evidence(fd, __VA_ARGS__); \
	} while (0)
	vers_release(fw->version, a, sizeof(a));
	vers_release(lv->version, b2, sizeof(b2));
	if (a[0] && b2[0] && strcmp(a, b2)) {
		other_copy = true;
		MISMATCH("version: predicted %s, imported %s%s%s", fw->version, lv->version,
			 lv->module[0] ? " from " : "", lv->module);
	}
	if (fw->cuda_build >= 0 && lv->cuda_build >= 0 && fw->cuda_build != lv->cuda_build)
		MISMATCH("CUDA build: predicted %s, it says %s", fw->cuda_build ? "yes" : "no",
			 lv->cuda_build ? "yes" : "no");
	if (fw->built_cuda[0] && lv->cuda[0] && !same_release(fw->built_cuda, lv->cuda))
		MISMATCH("built for CUDA: predicted %s, it says %s", fw->built_cuda, lv->cuda);
	if (fw->built_cudnn[0] && lv->cudnn[0] && !same_release(fw->built_cudnn, lv->cudnn))
		MISMATCH("cuDNN: predicted %s, it says %s", fw->built_cudnn, lv->cudnn);
	if (fw->cuda_build == 0 && lv->cuda_available)
		MISMATCH("predicted a CPU-only build, yet it uses a GPU");
	for (i = 0; i < fw->nresolved && i < MAX_RESOLVED; i++) {
		const struct resolved_lib_facts *r = &fw->resolved[i];
		const char *want = r->path[0] ? real_of(f, r->path) : "", *other = NULL;
		char fam[F_NAME], mf[F_NAME];
		bool same = false;

		lib_family(r->soname, fam, sizeof(fam));
		for (k = 0; k < lv->nmapped && k < MAX_LIVE_MAPPED; k++) {
			lib_family(lv->mapped[k], mf, sizeof(mf));
			if (strcmp(fam, mf))
				continue;
			if (r->path[0] && (!strcmp(lv->mapped[k], r->path) || !strcmp(lv->mapped[k], want)))
				same = true;
			else if (!other)
				other = lv->mapped[k];
		}
		if (same || !other)
			continue; /* agrees, or not loaded yet (loaded lazily) */
		libs = true;
		if (r->path[0])
			MISMATCH("%s: predicted %s (%s%s%s), mapped %s", r->soname, r->path,
				 r->version[0] ? r->version : "?", r->via[0] ? ", via " : "", r->via, other);
		else
			MISMATCH("%s: predicted not found, mapped %s", r->soname, other);
	}
#undef MISMATCH
	if (!fd)
		return;
	buf_init(&b);
	buf_adds(&b, "What the framework says is what runs; the prediction missed something:\n");
	if (other_copy)
		buf_addf(&b, "- another %s is imported before the environment's own (user site-packages, "
			     "PYTHONPATH, a .pth file): see `%s -m pip show -f %s` and remove the stray copy.\n",
			 fw->name, e->interpreter[0] ? e->interpreter : "python3", fw->package[0] ? fw->package : fw->name);
	if (libs)
		buf_adds(&b, "- the loader picked other files than predicted (LD_PRELOAD, a library loaded earlier "
			     "under the same soname, a changed LD_LIBRARY_PATH): `LD_DEBUG=libs` on the import shows "
			     "where each one came from.\n");
	if (!other_copy && !libs)
		buf_adds(&b, "- the build's own answer wins over the version files read from site-packages; "
			     "reinstall the package if its files were edited or mixed.\n");
	finding_fix(fd, b.s);
	buf_release(&b);
}
