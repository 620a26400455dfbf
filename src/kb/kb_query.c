/*
 * kb_query.c - questions that span tables: the newest framework release a
 * given CUDA version can run, the releases built for one CUDA version, GPUs
 * by name. Pure functions over the tables in use (kb.h).
 */
#include "kb/kb_query.h"
#include "base/str.h"
#include "base/vers.h"

#include <ctype.h>
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

/* Lower-case copy without spaces and dashes, for loose name matching. */
static void
squash(const char *s, char *out, size_t size)
{
	size_t k = 0;

	for (; *s && k + 1 < size; s++)
		if (*s != ' ' && *s != '-' && *s != '_')
			out[k++] = (char)tolower((unsigned char)*s);
	out[k] = '\0';
}

size_t
kbq_gpus_by_name(const char *query, const struct kb_gpu **out, size_t max)
{
	const struct kb_gpu *rows;
	char q[96], name[96];
	size_t n, i, found = 0;

	squash(query, q, sizeof(q));
	if (!q[0])
		return 0;
	rows = kb_list_gpu_devices(&n);
	/* an exact name first, then every name containing the words */
	for (i = 0; i < n && found < max; i++) {
		squash(rows[i].name, name, sizeof(name));
		if (!strcmp(name, q) || (str_starts(name, "nvidia") && !strcmp(name + 6, q)))
			out[found++] = &rows[i];
	}
	if (found)
		return found;
	for (i = 0; i < n && found < max; i++) {
		squash(rows[i].name, name, sizeof(name));
		if (strstr(name, q))
			out[found++] = &rows[i];
	}
	return found;
}

const struct kb_gpu *
kbq_gpu_best(const char *query)
{
	const struct kb_gpu *found[64];
	char q[96], name[96];
	size_t n, i, ln, lq;

	n = kbq_gpus_by_name(query, found, sizeof(found) / sizeof(found[0]));
	if (!n)
		return NULL;
	squash(query, q, sizeof(q));
	lq = strlen(q);
	/* "RTX 3090" means the GeForce RTX 3090, not the RTX 3090 Ti */
	for (i = 0; i < n; i++) {
		squash(found[i]->name, name, sizeof(name));
		ln = strlen(name);
		if (ln >= lq && !strcmp(name + ln - lq, q))
			return found[i];
	}
	return found[0];
}
