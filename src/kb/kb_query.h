/*
 * kb_query.h - questions across knowledge-base tables, for `compat` (and
 * later `plan`): which framework release a CUDA version can run, which GPU
 * a name means. Pure functions over the tables in use; no I/O.
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
/* GPUs whose name matches query loosely (case, spaces and dashes ignored;
 * "RTX 3050" finds "GeForce RTX 3050"): exact names first, else every name
 * containing it. Returns how many were written to out (at most max). */
size_t kbq_gpus_by_name(const char *query, const struct kb_gpu **out, size_t max);
/* The one GPU a name most likely means: an exact name, else the first whose
 * name ends with the query ("RTX 3090" is the RTX 3090, not the 3090 Ti),
 * else the first containing it; NULL when none matches. */
const struct kb_gpu *kbq_gpu_best(const char *query);

#endif
