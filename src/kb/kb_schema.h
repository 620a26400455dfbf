/*
 * kb_schema.h - one descriptor per knowledge-base table: its file, its row
 * struct (kb.h), and per column the name, type, checks and where the value
 * goes in the struct. The TSV reader (kb_tsv.c), the generator
 * (tools/gen-kb.c) and run-time loading (kb_load_dir) all work from these,
 * so a table is described exactly once.
 *
 * Adding a table: a struct in kb.h, an enum kb_table value, a descriptor in
 * kb_schema.c, a section in data/kb/README.md, and checks in t_kb.c.
 * Adding a column: the struct field (named as the column) and its
 * descriptor entry; the header in the file must then name it.
 */
#ifndef GPUDOCTOR_KB_SCHEMA_H
#define GPUDOCTOR_KB_SCHEMA_H

#include "kb/kb.h"

#include <stddef.h>

enum kb_type {
	KB_STR,         /* const char *; "" = unknown */
	KB_HEX,         /* unsigned, written "0x2335" */
	KB_UINT,        /* unsigned, decimal */
	KB_BOOL,        /* bool, written yes / no */
};

/* Column flags (checks on top of the type). */
#define KB_REQUIRED   0x01u  /* must not be empty */
#define KB_VERSION    0x02u  /* a dotted version "12.4" when not empty */
#define KB_VLIST      0x04u  /* space-separated dotted versions */
#define KB_WLIST      0x08u  /* space-separated words [a-z0-9_.-] */
#define KB_NUMBER     0x10u  /* decimal number "19.5" when not empty */
#define KB_NOSTORE    0x20u  /* checked, documentation only: not in the struct */
#define KB_CCLIST     0x40u  /* space-separated compute capabilities "8.6 9.0a 10.0f" */

#define KB_MAX_COLS   16
#define KB_MAX_KEYS   4
#define KB_MAX_RANGES 2

struct kb_column {
	const char *name;               /* header name = struct field name */
	enum kb_type type;
	unsigned flags;
	size_t offset;                  /* offsetof in the row struct */
	unsigned long max;              /* KB_HEX/KB_UINT: largest value, 0 = UINT_MAX */
	const char *const *allowed;     /* KB_STR: NULL-terminated allowed values, or NULL */
};

struct kb_schema {
	enum kb_table id;
	const char *name;               /* "tf_builds" */
	const char *file;               /* "tf_builds.tsv" */
	const char *ctype;              /* "struct kb_tf_build" (for gen-kb) */
	size_t row_size;
	size_t ncols;
	struct kb_column cols[KB_MAX_COLS];
	/* Key columns, in sort order (indices into cols); together unique. */
	size_t nkeys;
	size_t keys[KB_MAX_KEYS];
	/* Pairs of version columns (min, max) with min <= max when both set. */
	size_t nranges;
	size_t ranges[KB_MAX_RANGES][2];
	/* Extra per-row rule, or NULL: writes a message and returns -1. */
	int (*check_row)(const void *row, char *msg, size_t size);
};

/* The capture names log_patterns rows may use (NULL-terminated). */
extern const char *const kb_capture_names[];

/* Descriptors indexed by enum kb_table. */
extern const struct kb_schema kb_schemas[KB_NTABLES];

/* Descriptor for a file name ("tf_builds.tsv") or table name; NULL if none. */
const struct kb_schema *kb_schema_find(const char *name);

/* Compiled-in rows (kb_data.c, generated). */
struct kb_rows {
	const void *rows;
	size_t count;
};
extern const struct kb_rows kb_builtin[KB_NTABLES];

#endif
