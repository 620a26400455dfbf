/*
 * libfix.c - the fix for a missing cuDNN library, from the knowledge base
 * and what the log states: the cuDNN major the file name asks for, the
 * CUDA major the program was built for (a framework build the log states,
 * or the CUDA runtime or cuBLAS file names beside it), and the newest
 * release of that cuDNN major for that CUDA (cudnn_cuda.tsv). One
 * recommended path first, the alternatives marked as such.
 */
#include "explain/libfix.h"
#include "base/buf.h"
#include "base/str.h"
#include "base/vers.h"
#include "base/xalloc.h"
#include "kb/kb.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The number after ".so." of a file name; -1 none. */
static int
so_major(const char *name)
{
	const char *so = strstr(name, ".so.");
	int v;

	return so && vers_parse(so + 4, &v, 1) == 1 ? v : -1;
}

/* The CUDA major the log's program was built for: a framework build it
 * states, else a CUDA runtime or cuBLAS file it names (their sonames
 * carry the CUDA major from CUDA 10.1 on); 0 unknown or disagreeing. */
static int
log_cuda_major(const struct explain *x, char *why, size_t size)
{
	int cm = 0, v, i;
	size_t k;

	for (i = 0; i < x->stated.nfw; i++) {
		const struct logfact_fw *s = &x->stated.fw[i];
		if (s->conflict || !s->built_cuda[0] || vers_parse(s->built_cuda, &v, 1) != 1)
			continue;
		if (cm && cm != v)
			return 0;
		cm = v;
		str_fmt(why, size, "line %lu states %s %s, built for CUDA %s", s->line, s->name,
			s->version, s->built_cuda);
	}
	if (cm)
		return cm;
	for (k = 0; k < x->ncauses; k++) {
		const struct explain_cause *c = &x->causes[k];
		const char *name;
		int j;

		for (j = 0; (name = explain_value_at(c, "soname", j)); j++) {
			if ((!str_starts(name, "libcudart.so.") && !str_starts(name, "libcublas.so.") &&
			     !str_starts(name, "libcublasLt.so.")) ||
			    (v = so_major(name)) < 10)
				continue;
			if (cm && cm != v)
				return 0;
			cm = v;
			str_fmt(why, size, "the log also asks for %s, a CUDA %d library (line %lu)", name,
				v, c->lines[0]);
		}
	}
	return cm;
}

/* The newest release of cuDNN major sm for CUDA major cm in the knowledge
 * base ("8.9"), into out; false when none. */
static bool
newest_cudnn(int sm, int cm, char *out, size_t size)
{
	const struct kb_cudnn_cuda *rows;
	char mm[16], best[16] = "";
	size_t n, i;
	int v[2];

	rows = kb_list_cudnn_cuda(&n);
	for (i = 0; rows && i < n; i++) {
		int lo, hi;
		if (vers_parse(rows[i].cudnn, v, 2) < 1 || v[0] != sm ||
		    vers_parse(rows[i].cuda_min, &lo, 1) != 1)
			continue;
		hi = rows[i].cuda_max[0] && vers_parse(rows[i].cuda_max, &hi, 1) == 1 ? hi : 99;
		if (cm < lo || cm > hi)
			continue;
		vers_truncate(rows[i].cudnn, 2, mm, sizeof(mm));
		if (!best[0] || vers_cmp(mm, best) > 0)
			STR_COPY(best, mm);
	}
	str_copy(out, size, best);
	return best[0] != '\0';
}

/* pip's cuDNN wheels: nvidia-cudnn-cu11 from cuDNN 8.5, -cu12 from 8.9;
 * none for cuDNN 7 and older. */
static bool
has_wheel(int sm, int cm, const char *release)
{
	if (sm < 8 || cm < 11)
		return false;
	if (sm == 8)
		return vers_cmp(release, cm == 11 ? "8.5" : "8.9") >= 0;
	return true;
}

static void
install_lines(struct buf *b, int sm, int cm, const char *rel, bool first)
{
	if (has_wheel(sm, cm, rel)) {
		buf_addf(b, "pip install 'nvidia-cudnn-cu%d==%s.*'\n", cm, rel);
		if (!first)
			return;
		buf_adds(b, "# TensorFlow 2.14 and later and PyTorch find the wheel; other programs "
			    "need its directory on the loader's path:\n");
		buf_adds(b, "export LD_LIBRARY_PATH=\"$(python3 -c 'import nvidia.cudnn; "
			    "print(nvidia.cudnn.__path__[0])')/lib:$LD_LIBRARY_PATH\"\n");
	} else {
		buf_addf(b, "conda install -c conda-forge 'cudnn=%s' %s%d%s\n", rel,
			 cm >= 12 ? "'cuda-version=" : "'cudatoolkit=", cm, cm >= 12 ? "'" : ".*'");
	}
}

static void
cudnn_fix(struct explain *x, struct explain_cause *c, const char *soname)
{
	char why[160] = "", rel[16], other[16];
	int sm = so_major(soname), cm, alt;
	struct buf b;

	/* cuDNN 7 is TensorFlow 2.3 and older: derive (rank.c) named the
	 * CUDA and cuDNN of that release already */
	if (sm < 7 || (sm == 7 && c->fix && str_starts(c->fix, soname)))
		return;
	cm = log_cuda_major(x, why, sizeof(why));
	buf_init(&b);
	if (cm && newest_cudnn(sm, cm, rel, sizeof(rel))) {
		buf_addf(&b, "Install cuDNN %s for CUDA %d (%s is cuDNN %d; %s):\n", rel, cm, soname, sm,
			 why);
		install_lines(&b, sm, cm, rel, true);
		buf_adds(&b, "Alternatives:\n");
		if (has_wheel(sm, cm, rel))
			buf_addf(&b, "- conda: conda install -c conda-forge 'cudnn=%s' 'cuda-version=%d'\n",
				 rel, cm);
	} else {
		/* the CUDA major is not in the log: the newest one this cuDNN
		 * major was released for first, the older one as the alternative */
		for (cm = 13; cm >= 9 && !newest_cudnn(sm, cm, rel, sizeof(rel)); cm--)
			;
		if (cm < 9) {
			buf_release(&b);
			return;
		}
		buf_addf(&b, "Install cuDNN %d for the CUDA major the program was built for (the log does "
			     "not say it); for CUDA %d:\n", sm, cm);
		install_lines(&b, sm, cm, rel, true);
		buf_adds(&b, "Alternatives:\n");
		for (alt = cm - 1; alt >= 9 && !newest_cudnn(sm, alt, other, sizeof(other)); alt--)
			;
		if (alt >= 9) {
			buf_addf(&b, "- for CUDA %d: ", alt);
			install_lines(&b, sm, alt, other, false);
		}
	}
	buf_addf(&b, "- the cuDNN %d packages for your distribution: "
		     "https://developer.nvidia.com/cudnn-archive\n",
		 sm);
	buf_adds(&b, "- on the machine, which copies exist and which one loads: gpudoctor doctor\n");
	free(c->fix);
	c->fix = buf_detach(&b);
}

void
explain_library_fixes(struct explain *x)
{
	size_t i;

	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		const char *so = explain_value(c, "soname");

		if (!strcmp(c->id, "lib.cudnn_missing") && so && str_starts(so, "libcudnn"))
			cudnn_fix(x, c, so);
	}
}
