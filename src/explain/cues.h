/*
 * cues.h - the cue table (log_cues.tsv) for the matcher: the words by
 * which programs state a cause ("out of memory" with "GPU", "not compiled
 * with" with "CUDA"), for a line that no row of log_patterns.tsv and no
 * status code explains. Each cue is groups of alternative words that must
 * all be on the line, each word at a word start and, unless it ends in
 * '*', at a word end; an "unless" word keeps the cue silent. The words go
 * into the matcher's automaton beside the anchors, so a line is scanned
 * once for both; a cue that fires becomes a row like the table's (a
 * kb_log_pattern without an anchor) and is ranked as one.
 */
#ifndef GPUDOCTOR_EXPLAIN_CUES_H
#define GPUDOCTOR_EXPLAIN_CUES_H

#include "kb/kb.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CUES_MAX 64               /* cues in a table; more are not used */
#define CUE_UNLESS 0xff           /* a word's group: it silences its cue */

/* Where a word stands in the table: a word ("fail*", "gpu") is in many
 * cues, and is one string of the automaton for all of them. */
struct cue_use {
	unsigned cue;                    /* index into the cue rows */
	unsigned char group;             /* 0..7, or CUE_UNLESS */
};

struct cue_word {
	char *text;                      /* as written, without the '*' */
	size_t len;
	bool prefix;                     /* ended in '*': no word end needed */
	size_t use0, nuses;              /* its uses: uses[use0 .. use0 + nuses) */
};

struct cue_table {
	struct kb_log_pattern *rows;     /* one per cue: finding, texts, regex; no anchor */
	size_t nrows;
	unsigned char ngroups[CUES_MAX];
	struct cue_word *words;          /* distinct words, sorted */
	size_t nwords;
	struct cue_use *uses;
	size_t nuses;
};

/* What one line holds of the cues: reset it before each line. */
struct cue_line {
	uint8_t seen[CUES_MAX];          /* groups found, a bit each */
	uint16_t weight[CUES_MAX];       /* bytes of the words that found them */
	uint64_t silenced;               /* a bit per cue with an unless word */
	bool any;                        /* a word found */
};

/* The table in use (kb_list_log_cues) as rows and words; 0, or -1 with a
 * message (a table the schema check let through cannot fail here). */
int cue_table_build(struct cue_table *t, char *err, size_t errsize);
void cue_table_release(struct cue_table *t);

/* Word w was found ending at offset end of the line s (len bytes): count
 * it when it stands at word bounds. */
void cue_line_hit(struct cue_line *l, const struct cue_table *t, size_t w,
		  const unsigned char *s, size_t len, size_t end);
/* The cue the line states (every group found, none silenced): the one with
 * the most groups, then the longest words, then the first; SIZE_MAX none. */
size_t cue_line_pick(const struct cue_line *l, const struct cue_table *t);

#endif
