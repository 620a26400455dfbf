/*
 * vers.h - dotted version numbers: parse, compare, and the CUDA integer
 * encoding (13000 = 13.0, 11040 = 11.4).
 */
#ifndef GPUDOCTOR_VERS_H
#define GPUDOCTOR_VERS_H

#include <stddef.h>

/* Compare two dotted numeric versions ("580.159.04" vs "525.60.13")
 * component by component as integers; missing components count as 0;
 * non-numeric tails are ignored. Returns <0, 0, >0. */
int vers_cmp(const char *a, const char *b);
/* Parse up to n numeric components into v[]; returns how many were read. */
int vers_parse(const char *s, int *v, int n);
/* 13000 -> "13.0", 11040 -> "11.4", 12080 -> "12.8". */
void vers_from_cuda_int(int v, char *out, size_t size);
/* NCCL_VERSION_CODE -> "2.21.5": major*10000 + minor*100 + patch from
 * NCCL 2.9 on (22105), major*1000 + minor*100 + patch before (2708 is
 * 2.7.8); "" for a code <= 0. */
void vers_from_nccl_code(long v, char *out, size_t size);
/* "13.0" -> 13000; -1 when unparsable. */
int vers_to_cuda_int(const char *s);
/* The leading numeric release of a version: "2.11.0+cu130" -> "2.11.0",
 * "2.15.0.post1" -> "2.15.0". */
void vers_release(const char *v, char *out, size_t size);
/* Keep only the first n components: ("12.4.131", 2) -> "12.4". */
void vers_truncate(const char *s, int n, char *out, size_t size);

#endif
