/*
 * explain.h - a log in, the causes out: each line is matched against the
 * pattern table of the knowledge base (data/kb/log_patterns.tsv), the
 * matches are gathered per finding ID with their line numbers and the
 * values they captured, and at the end the causes are folded (a root
 * cause takes its consequences) and ranked.
 *
 * Memory stays flat whatever the log's size: per cause a fixed number of
 * line numbers, quoted lines and distinct captured values is kept, the
 * rest only counted.
 *
 *   struct explain x;
 *   explain_init(&x, err, sizeof(err));
 *   explain_stream(&x, &reader);        (or explain_line for each line)
 *   explain_finish(&x);
 *   ... x.causes[0 .. x.ncauses) in rank order ...
 *   explain_release(&x);
 */
#ifndef GPUDOCTOR_EXPLAIN_H
#define GPUDOCTOR_EXPLAIN_H

#include "diag/finding.h"
#include "explain/logread.h"
#include "explain/codes.h"
#include "explain/cues.h"
#include "explain/linememo.h"
#include "explain/listing.h"
#include "explain/logfacts.h"
#include "facts.h"
#include "kb/kb.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXPLAIN_MAX_LINES 12     /* line numbers kept per cause */
#define EXPLAIN_MAX_QUOTES 3     /* lines quoted per cause */
#define EXPLAIN_MAX_VALUES 6     /* distinct values kept per capture name */
#define EXPLAIN_MAX_CAPS 8       /* capture names per cause */
#define EXPLAIN_MAX_EVIDENCE 10
#define EXPLAIN_MAX_FOLDED 8
#define EXPLAIN_MAX_UNKNOWN 10   /* unexplained lines quoted */
#define EXPLAIN_QUOTE_MAX 240    /* characters of a quoted line */
#define EXPLAIN_TAIL 512         /* bytes of a line kept to join it with the next */

enum explain_role {
	EXPLAIN_CAUSE,
	EXPLAIN_SYMPTOM,
	EXPLAIN_BENIGN,
	EXPLAIN_UNKNOWN,
};

struct explain_quote {
	unsigned long line;
	char *text;                      /* cleaned: no colour codes, valid UTF-8 */
};

struct explain_capture {
	const char *name;                /* one of kb_capture_names */
	char *values[EXPLAIN_MAX_VALUES];
	int nvalues;
};

/* A cause folded into another, or a symptom attached to it. */
struct explain_folded {
	const char *id;
	char *title;
	unsigned long line;              /* its first line */
	unsigned long count;
};

struct explain_cause {
	const char *id;                  /* finding ID */
	enum severity severity;
	enum explain_role role;
	const struct kb_log_pattern *pattern; /* the first row that matched */
	char *title, *explain, *fix;     /* placeholders filled (explain_finish) */
	unsigned long lines[EXPLAIN_MAX_LINES];
	size_t nlines;
	unsigned long count;             /* matching lines, all of them */
	struct explain_quote quotes[EXPLAIN_MAX_UNKNOWN]; /* EXPLAIN_MAX_QUOTES for known ones */
	size_t nquotes;
	struct explain_capture caps[EXPLAIN_MAX_CAPS];
	size_t ncaps;
	char *evidence[EXPLAIN_MAX_EVIDENCE]; /* derived facts, then this machine's */
	int nevidence;
	struct explain_folded folded[EXPLAIN_MAX_FOLDED];
	size_t nfolded;
	unsigned long nfolded_all;
	bool hidden;                     /* folded into another cause */
};

struct explain {
	/* the compiled pattern table */
	struct acm *acm;
	struct acm *cue_acm;             /* the cues' words (cues.h), built when first needed */
	const struct kb_log_pattern *pats; /* the table's rows, then the status codes' (codes.h),
	                                    then the cues' (cues.h: npats does not count them) */
	size_t npats;
	struct kb_log_pattern *all;      /* owned: pats */
	struct kb_log_pattern *code_rows;
	size_t ncode_rows;
	struct code_index codes;         /* the code rows by name (codes.h) */
	struct cue_table cues;           /* the cue table (cues.h): its rows follow pats */
	struct cue_line cue_line;        /* scratch: the cues on the line being matched */
	regex_t *re;                     /* per pattern and cue; compiled where re_state > 0 */
	signed char *re_state;           /* 0 not yet compiled, 1 compiled, -1 does not compile */
	/* what was read */
	uint64_t bytes;
	unsigned long lines;             /* last line number seen */
	unsigned long wsl_line;          /* first line that says WSL2; 0 none */
	unsigned long cvd_line;          /* first line that sets CUDA_VISIBLE_DEVICES; 0 none */
	char cvd_value[64];              /* the value it sets */
	unsigned long run_line;          /* first `docker run` without GPUs; 0 none */
	unsigned long container_line;    /* first sign of a container or a pod; 0 none */
	unsigned long image_build_line;  /* first sign of an image build (docker build's steps); 0 none */
	unsigned long notebook_line;     /* first sign of a hosted notebook (Colab, Kaggle); 0 none */
	unsigned long gpu_request_line;  /* first request of GPUs for a container; 0 none */
	unsigned long job_line;          /* first Slurm job step (srun, sbatch, salloc) without GPUs; 0 none */
	unsigned long job_gpu_line;      /* first Slurm request of GPUs (--gres=gpu, --gpus, -G); 0 none */
	unsigned long l4t_line;          /* first JetPack 4 (L4T r32) container image; 0 none */
	unsigned long source_build_line; /* first sign of a source build naming its GPU targets; 0 none */
	unsigned long bus_line;          /* last bus error (SIGBUS); 0 none */
	unsigned long nccl_bus_line;     /* a bus error with NCCL's code in the lines after it; 0 none */
	struct listing listing;          /* an IPython traceback's quoted source */
	struct logfacts stated;          /* versions, builds, GPUs the log states */
	const struct facts *machine;     /* --here/--from: the machine's facts, set before
	                                    explain_finish; NULL: the log's alone */
	struct explain_cause *causes;    /* after explain_finish: ranked, hidden removed */
	size_t ncauses, acauses;
	char *line;                      /* scratch: the cleaned line */
	size_t line_size;
	unsigned char *norm;             /* scratch: the normalized line (lognorm.h) */
	struct linememo memo;            /* lines matched before, by shape (linememo.h) */
	/* what kind of input it is (explain_input) */
	bool has_text;                   /* a segment with something other than blanks */
	uint64_t sample, sample_nul;     /* bytes of the first segments looked at, NULs among them */
	bool bom16;                      /* it starts with a UTF-16 byte-order mark */
	/* a line that ends inside an anchor, kept to join it with the next
	 * (a message wrapped by a terminal or a log collector) */
	unsigned char *tail;             /* its last EXPLAIN_TAIL bytes at most */
	size_t tail_len;                 /* 0: nothing kept */
	unsigned tail_state;             /* the matcher's state at its end */
	size_t tail_row;                 /* a row its anchor found and its expression did not; SIZE_MAX none */
	unsigned char *join_misses;      /* per row: tries in a row to join a line its expression failed on */
	unsigned long tail_line;
	unsigned char *joined;           /* scratch: tail + the next line */
	bool joining;
};

/* Build the matcher for the pattern table in use (kb_list_log_patterns);
 * a row's expression is compiled when its anchor is first seen. 0, or -1
 * with a message (an empty table, an anchor too long). */
int explain_init(struct explain *x, char *err, size_t errsize);
void explain_release(struct explain *x);
/* Forget what was read, keep the matcher: ready for another log. */
void explain_reset(struct explain *x);

/* Match one line (raw bytes, any content). */
void explain_line(struct explain *x, const unsigned char *s, size_t len, unsigned long line);
/* Match every segment of r; 0, or -1 on a read error (r->error). */
int explain_stream(struct explain *x, struct logread *r);
/* Fill placeholders, derive evidence, fold and rank. Call once. */
void explain_finish(struct explain *x);

/* What was read, when it is not a log: empty, blank lines only, UTF-16
 * text (as PowerShell's > writes it), or binary (NUL bytes). */
enum explain_input {
	EXPLAIN_INPUT_TEXT,
	EXPLAIN_INPUT_EMPTY,
	EXPLAIN_INPUT_BLANK,
	EXPLAIN_INPUT_UTF16,
	EXPLAIN_INPUT_BINARY,
};
enum explain_input explain_input(const struct explain *x);

/* The cause for finding id in this role (a new one when none): pattern
 * NULL for a cause no row matched. */
struct explain_cause *explain_cause_for(struct explain *x, const struct kb_log_pattern *p,
					const char *id, enum explain_role role);

/* Free a cause's strings and zero it (the slot belongs to the list). */
void explain_cause_release(struct explain_cause *c);

/* Add a line of evidence to a cause (after explain_finish). */
void explain_evidence(struct explain_cause *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The first value captured under name, or NULL. */
const char *explain_value(const struct explain_cause *c, const char *name);
/* Value k of those captured under name, or NULL past the last. */
const char *explain_value_at(const struct explain_cause *c, const char *name, int k);
/* Fold c into the cause that explains it: c is hidden and listed among
 * what into also explains, with what c had taken. */
void explain_fold(struct explain_cause *into, struct explain_cause *c);
/* Whether finding id is a library not found: the driver's libcuda, the
 * CUDA runtime, cuDNN or another CUDA library. */
bool explain_library_missing(const char *id);
/* The worst severity of the causes that are not harmless; SEV_INFO when
 * none. */
enum severity explain_worst(const struct explain *x);


#endif
