/*
 * codes.h - the status codes of the knowledge base (error_codes.tsv) as
 * patterns for explain's matcher: each code's name, and the message its
 * library prints; rows of log_patterns.tsv win on the same line.
 */
#ifndef GPUDOCTOR_CODES_H
#define GPUDOCTOR_CODES_H

#include "kb/kb.h"

#include <stdbool.h>
#include <stddef.h>

/* The rows for the codes in use (the matcher gives log_patterns.tsv's rows
 * precedence over them); *n their count.
 * NULL when there are none. Free with code_patterns_release. A name row's
 * anchor is the code's name, found by code_lookup after one of the
 * code_prefixes (not put into the matcher: hundreds of names would double
 * its size); a message row's anchor is matched as any row's. */
struct kb_log_pattern *code_patterns(size_t *n);
void code_patterns_release(struct kb_log_pattern *rows, size_t n);
bool code_is_name_row(const struct kb_log_pattern *r);

/* How every code name begins, NULL-terminated: "cudaError", "CUDA_ERROR_"...,
 * then the bindings' spellings ("NVMLError_DriverNotLoaded"), whose
 * code_prefix_canon (same index; NULL for the libraries' own) is the
 * library's prefix the rest of the name goes after, as code_camel_name
 * writes it. */
extern const char *const code_prefixes[];
extern const char *const code_prefix_canon[];

/* canon + "DriverNotLoaded" as "DRIVER_NOT_LOADED" into out; its length,
 * 0 when it does not fit or s is no capitalised name. */
size_t code_camel_name(const char *canon, const unsigned char *s, size_t len, char *out,
		       size_t size);


/* A sorted index of the name rows (rows[i] for i in [0, n)), for
 * code_lookup. */
struct code_index {
	char **names;                    /* lower case */
	size_t *rows;
	size_t n;
};
void code_index_build(struct code_index *ix, const struct kb_log_pattern *rows, size_t n);
void code_index_release(struct code_index *ix);
/* The name row for the identifier in s[0..len) (any letter case), or
 * SIZE_MAX. */
size_t code_lookup(const struct code_index *ix, const unsigned char *s, size_t len);

/* A code stated by number alone after "error", "code", "err" or "failure"
 * ("cudaRuntimeGetVersion() failed with error #35", "cudart init failure:
 * 802"), its library told by the line's words:
 * the code's name row, or SIZE_MAX (also for a code of no known cause). */
size_t code_by_number(const struct code_index *ix, const struct kb_log_pattern *rows,
		      const char *line);

#endif
