/*
 * kb_query.h - questions across knowledge-base tables, for `compat` and
 * `plan`: which framework release a CUDA version can run, which GPU a name
 * means. Pure functions over the tables in use; no I/O.
 */
#ifndef GPUDOCTOR_KB_QUERY_H
#define GPUDOCTOR_KB_QUERY_H

#include "kb/kb.h"

#include <stdbool.h>
#include <stddef.h>

/* Newest TensorFlow GPU build for `platform` (linux, windows) whose CUDA is
 * at most max_cuda (major.minor compared; NULL = any). */
const struct kb_tf_build *kbq_newest_tf(const char *max_cuda, const char *platform);
/* Newest PyTorch release with a CUDA wheel at most max_cuda; the newest such
 * variant of it is written to variant. */
const struct kb_torch_build *kbq_newest_torch(const char *max_cuda, char *variant, size_t size);
/* Newest JAX release with CUDA plugins whose minimum CUDA is at most max_cuda. */
const struct kb_jax_build *kbq_newest_jax(const char *max_cuda);
/* v and cuda name the same major.minor ("11.8.0" and "11.8"). */
bool kbq_cuda_matches(const char *v, const char *cuda);
/* The one GPU lookup of every command (plan --gpu, compat --gpu): a PCI
 * device id ("0x2684", "2684"), or a name matched loosely (case, spaces,
 * dashes and the words NVIDIA, GeForce, Tesla, Quadro ignored): exact names
 * first, then names that start with it, then names that contain it. A
 * match is found when all candidates are one model (one name and compute
 * capability, however many PCI ids); otherwise it is ambiguous and the
 * candidates say between what. */
#define KBQ_MAX_CANDIDATES 24
enum { KBQ_GPU_FOUND = 0, KBQ_GPU_NONE = 1, KBQ_GPU_AMBIGUOUS = 2 };
struct kbq_gpu_match {
	const struct kb_gpu *gpu;        /* KBQ_GPU_FOUND: the GPU meant */
	bool by_id;                      /* given as a PCI device id */
	size_t n;                        /* candidates in cands */
	size_t total;                    /* candidates in all (may exceed n) */
	const struct kb_gpu *cands[KBQ_MAX_CANDIDATES];
};
int kbq_gpu_resolve(const char *query, struct kbq_gpu_match *m);
/* "NVIDIA GeForce RTX 3050 (8.6), NVIDIA GeForce RTX 3060 (8.6), ..."
 * (each name once) for an error message. */
void kbq_gpu_candidates_text(const struct kbq_gpu_match *m, char *out, size_t size);

#endif
