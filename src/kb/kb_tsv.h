/*
 * kb_tsv.h - read one knowledge-base table (TSV text in memory) against its
 * schema (kb_schema.h) into a sorted heap array of row structs. The one
 * parser and validator for both tools/gen-kb (build time) and kb_load_dir
 * (`--kb DIR`, run time); no file I/O here.
 *
 * Format (data/kb/README.md): UTF-8, fields separated by one TAB, `#` lines
 * and blank lines are comments, the first other line is exactly the
 * schema's header, every row has every field, no leading/trailing spaces or
 * control characters, a unique key, a non-empty source; types and checks
 * per column (kb_schema.h). A trailing CR is dropped.
 *
 * Input is treated as hostile: caps below, every error is a message, never
 * a crash.
 */
#ifndef GPUDOCTOR_KB_TSV_H
#define GPUDOCTOR_KB_TSV_H

#include "kb/kb_schema.h"

#include <stddef.h>

#define KB_TSV_MAX_BYTES (16u << 20)  /* whole file */
#define KB_TSV_MAX_LINE  16384u       /* one line, bytes */
#define KB_TSV_MAX_ROWS  100000u
#define KB_TSV_MAX_ERRORS 20          /* messages collected before giving up */

/* A parsed table. rows is schema->row_size * count bytes, sorted by the
 * schema's keys; its strings point into text, which the table owns. */
struct kb_tsv {
	const struct kb_schema *schema;
	void *rows;
	size_t count;
	char *text;
};

/*
 * Parse text[len] (need not be NUL-terminated) as table schema; file names
 * it in messages ("tf_builds.tsv"). Returns 0 with *out filled, or -1 with
 * out empty and the errors in err, one "file:line: message" per line (the
 * first KB_TSV_MAX_ERRORS; cut to errsize).
 */
int kb_tsv_parse(const struct kb_schema *schema, const char *file, const char *text,
		 size_t len, struct kb_tsv *out, char *err, size_t errsize);
void kb_tsv_release(struct kb_tsv *t);

/* Order of two rows of schema by its key columns: <0, 0 (same key), >0.
 * Versions compare numerically, then as text ("8.9" before "8.9.0"). */
int kb_tsv_keycmp(const struct kb_schema *schema, const void *a, const void *b);
/* Key column k of row as text (hex as 0x%04x) into out. */
void kb_tsv_key_str(const struct kb_schema *schema, const void *row, size_t k, char *out,
		    size_t size);

#endif
