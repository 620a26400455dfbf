/*
 * kb_query.c - questions that span tables: the newest framework release a
 * given CUDA version can run, the releases built for one CUDA version, GPUs
 * by name. Pure functions over the tables in use (kb.h).
 */
#include "kb/kb_query.h"
#include "base/str.h"
#include "base/vers.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* major.minor of v compared with major.minor of w. */
static int
cmp_mm(const char *v, const char *w)
{
	char a[16], b[16];

	vers_truncate(v, 2, a, sizeof(a));
	vers_truncate(w, 2, b, sizeof(b));
	return vers_cmp(a, b);
}

const struct kb_tf_build *
kbq_newest_tf(const char *max_cuda, const char *platform)
{
	const struct kb_tf_build *rows, *best = NULL;
	size_t n, i;

	rows = kb_list_tf_builds(&n);
	for (i = 0; i < n; i++) {
		const struct kb_tf_build *r = &rows[i];
		if (strcmp(r->kind, "gpu") || strcmp(r->platform, platform) || !r->cuda[0])
			continue;
		if (max_cuda && cmp_mm(r->cuda, max_cuda) > 0)
			continue;
		if (!best || vers_cmp(r->version, best->version) > 0)
			best = r;
	}
	return best;
}

const struct kb_torch_build *
kbq_newest_torch(const char *max_cuda, char *variant, size_t size)
{
	const struct kb_torch_build *rows, *best = NULL;
	char best_v[16] = "";
	size_t n, i, k;

	rows = kb_list_torch_builds(&n);
	for (i = 0; i < n; i++) {
		char w[16], pick[16] = "";
		for (k = 0; kb_word(rows[i].cuda_variants, k, w, sizeof(w)) == 0; k++)
			if ((!max_cuda || cmp_mm(w, max_cuda) <= 0) && (!pick[0] || vers_cmp(w, pick) > 0))
				STR_COPY(pick, w);
		if (!pick[0])
			continue;
		if (!best || vers_cmp(rows[i].version, best->version) > 0) {
			best = &rows[i];
			STR_COPY(best_v, pick);
		}
	}
	if (variant && size)
		str_copy(variant, size, best_v);
	return best;
}

const struct kb_jax_build *
kbq_newest_jax(const char *max_cuda)
{
	const struct kb_jax_build *rows, *best = NULL;
	size_t n, i;

	rows = kb_list_jax_builds(&n);
	for (i = 0; i < n; i++) {
		const struct kb_jax_build *r = &rows[i];
		if (!r->cuda_plugins[0])
			continue;
		if (max_cuda && r->cuda_min[0] && cmp_mm(r->cuda_min, max_cuda) > 0)
			continue;
		if (!best || vers_cmp(r->version, best->version) > 0)
			best = r;
	}
	return best;
}

bool
kbq_cuda_matches(const char *v, const char *cuda)
{
	return v && v[0] && cmp_mm(v, cuda) == 0;
}

/* Lower-case copy without spaces, dashes and underscores, and without the
 * brand words a person may or may not write ("NVIDIA GeForce RTX 3060" and
 * "rtx 3060" are both "rtx3060"). */
static void
squash(const char *s, char *out, size_t size)
{
	static const char *const brands[] = {"nvidia", "geforce", "tesla", "quadro", NULL};
	size_t k = 0, i;
	bool again = true;

	for (; *s && k + 1 < size; s++)
		if (*s != ' ' && *s != '-' && *s != '_')
			out[k++] = (char)tolower((unsigned char)*s);
	out[k] = '\0';
	while (again) {
		again = false;
		for (i = 0; brands[i]; i++) {
			size_t n = strlen(brands[i]);
			if (!strncmp(out, brands[i], n) && out[n]) {
				memmove(out, out + n, strlen(out + n) + 1);
				again = true;
			}
		}
	}
}

/* Every row whose squashed name is q (how 0), starts with q (1) or holds q
 * (2), into m->cands; the count. */
static size_t
gpu_candidates(const char *q, int how, struct kbq_gpu_match *m)
{
	const struct kb_gpu *rows = kb_list_gpu_devices(NULL);
	char name[96];
	size_t n = kb_count(KB_GPU_DEVICES), i, found = 0;

	for (i = 0; i < n; i++) {
		squash(rows[i].name, name, sizeof(name));
		if ((how == 0 && !strcmp(name, q)) || (how == 1 && str_starts(name, q)) ||
		    (how == 2 && strstr(name, q))) {
			if (found < KBQ_MAX_CANDIDATES)
				m->cands[found] = &rows[i];
			found++;
		}
	}
	m->n = found < KBQ_MAX_CANDIDATES ? found : KBQ_MAX_CANDIDATES;
	m->total = found;
	return found;
}

/* The candidates are one model: one squashed name (several PCI ids). */
static bool
one_model(const struct kbq_gpu_match *m)
{
	char a[96], b[96];
	size_t i;

	if (!m->n || m->total > m->n)
		return false;
	squash(m->cands[0]->name, a, sizeof(a));
	for (i = 1; i < m->n; i++) {
		squash(m->cands[i]->name, b, sizeof(b));
		if (strcmp(a, b) || strcmp(m->cands[i]->compute_capability, m->cands[0]->compute_capability))
			return false;
	}
	return true;
}

int
kbq_gpu_resolve(const char *query, struct kbq_gpu_match *m)
{
	char q[96], *end;
	unsigned long id;
	int how;

	memset(m, 0, sizeof(*m));
	if (!query)
		return KBQ_GPU_NONE;
	if ((query[0] == '0' && (query[1] == 'x' || query[1] == 'X')) ||
	    (strlen(query) == 4 && strspn(query, "0123456789abcdefABCDEF") == 4)) {
		id = strtoul(query, &end, 16);
		if (*end || end == query || id > 0xffff)
			return KBQ_GPU_NONE;
		m->by_id = true;
		m->gpu = kb_gpu_by_id((unsigned)id);
		if (!m->gpu)
			return KBQ_GPU_NONE;
		m->cands[0] = m->gpu;
		m->n = m->total = 1;
		return KBQ_GPU_FOUND;
	}
	squash(query, q, sizeof(q));
	if (!q[0])
		return KBQ_GPU_NONE;
	/* exact names before prefixes before any match */
	for (how = 0; how < 3; how++) {
		if (!gpu_candidates(q, how, m))
			continue;
		if (one_model(m)) {
			m->gpu = m->cands[0];
			return KBQ_GPU_FOUND;
		}
		return KBQ_GPU_AMBIGUOUS;
	}
	return KBQ_GPU_NONE;
}

void
kbq_gpu_candidates_text(const struct kbq_gpu_match *m, char *out, size_t size)
{
	char seen[KBQ_MAX_CANDIDATES][96];
	size_t i, k, ns = 0, len = 0;

	out[0] = '\0';
	for (i = 0; i < m->n; i++) {
		for (k = 0; k < ns && strcmp(seen[k], m->cands[i]->name); k++)
			;
		if (k < ns)
			continue;
		STR_COPY(seen[ns++], m->cands[i]->name);
		str_fmt(out + len, size - len, "%s%s (%s)", len ? ", " : "", m->cands[i]->name,
			m->cands[i]->compute_capability);
		len = strlen(out);
	}
	if (m->total > m->n)
		str_fmt(out + len, size - len, ", ... (%zu in all)", m->total);
}
