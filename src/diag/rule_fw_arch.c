/*
 * rule_fw_arch.c - fw.arch_not_in_build: a GPU whose architecture the
 * framework build carries no code for.
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

/* ---- fw.arch_not_in_build ------------------------------------------------------------- */

/* Whether one entry of a build's capability list runs on capability gm.gn:
 * sm_XY (cubin) on X.Z with Z >= Y, sm_XYa only on X.Y, compute_XY (PTX)
 * on everything >= X.Y. -1 when the word is not a capability. */
static int
cap_covers(const char *w, int gm, int gn)
{
	bool ptx = false, exact = false;
	const char *d;
	int v, m, n;
	size_t k, i;

	if (!strncmp(w, "sm_", 3)) {
		d = w + 3;
	} else if (!strncmp(w, "compute_", 8)) {
		d = w + 8;
		ptx = true;
	} else if (w[0] >= '1' && w[0] <= '9' && w[1] == '.') {
		/* "7.5" as older builds list it: a cubin */
		if (vers_parse(w, &v, 1) != 1 || w[2] < '0' || w[2] > '9')
			return -1;
		m = w[0] - '0';
		n = w[2] - '0';
		return m == gm && gn >= n;
	} else {
		return -1;
	}
	k = strspn(d, "0123456789");
	if (k < 2 || k > 3)
		return -1;
	if (d[k] == 'a' || d[k] == 'f')
		exact = true;
	else if (d[k])
		return -1;
	v = 0;
	for (i = 0; i < k; i++)
		v = v * 10 + (d[i] - '0');
	m = v / 10;
	n = v % 10;
	if (ptx)
		return gm > m || (gm == m && gn >= n);
	if (exact)
		return gm == m && gn == n;
	return gm == m && gn >= n;
}

void
fw_check_arch(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	   struct findings *out)
{
	char w[24], label[F_TEXT], title[F_TEXT], rel[40];
	int gi;

	if (strcmp(fw->name, "tensorflow") || fw->cuda_build == 0 || !fw->compute_capabilities[0])
		return;
	vers_release(fw->version, rel, sizeof(rel));
	for (gi = 0; gi < f->ngpus && gi < MAX_GPUS; gi++) {
		const struct gpu_facts *g = &f->gpus[gi];
		int cc[2], known = 0, ok = 0, r;
		size_t i;
		struct finding *fd;
		struct buf b;

		if (vers_parse(g->compute_capability, cc, 2) != 2)
			continue;
		for (i = 0; kb_word(fw->compute_capabilities, i, w, sizeof(w)) == 0; i++) {
			/* lists may be written "sm_75,sm_80" too */
			char *c = strchr(w, ',');
			if (c)
				*c = '\0';
			if ((r = cap_covers(w, cc[0], cc[1])) < 0)
				continue;
			known++;
			ok |= r;
		}
		if (!known || ok)
			continue;
		rule_gpu_label(g, label, sizeof(label));
		STR_FMT(title, "%s %s has no kernels for compute capability %s (%s)", fw->name,
			fw->version, g->compute_capability, label);
		fd = fw_finding(out, e, fw, "fw.arch_not_in_build", SEV_ERROR, title);
		finding_evidence(fd, "built for %s (build_info.py cuda_compute_capabilities)",
				 fw->compute_capabilities);
		finding_evidence(fd, "%s has compute capability %s: no sm_%d%d cubin of its major and no "
				     "compute_ (PTX) entry at or below it, so CUDA reports \"no kernel "
				     "image is available for execution on the device\"",
				 label, g->compute_capability, cc[0], cc[1]);
		buf_init(&b);
		buf_addf(&b, "Install a TensorFlow release built for compute capability %s, or build "
			     "TensorFlow %s from source with TF_CUDA_COMPUTE_CAPABILITIES=%s.\n",
			 g->compute_capability, rel[0] ? rel : "", g->compute_capability);
		finding_fix(fd, b.s);
		buf_release(&b);
	}
}
