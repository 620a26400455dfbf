/*
 * facts_json.h - struct facts <-> JSON, both ways, from one field table so
 * that what `doctor --json` writes `doctor --from` reads back whole.
 */
#ifndef GPUDOCTOR_FACTS_JSON_H
#define GPUDOCTOR_FACTS_JSON_H

#include "diag/finding.h"
#include "facts.h"

#include <jansson.h>
#include <stddef.h>

/* The facts document; findings are added as .findings[] when fs != NULL.
 * Returns a new reference. */
json_t *facts_to_json(const struct facts *f, const struct findings *fs);
/* Fill f (after facts_init) from a facts document. Unknown keys are ignored,
 * missing ones stay unknown. Returns 0, or -1 with a message in err. */
int facts_from_json(json_t *doc, struct facts *f, char *err, size_t errsize);
/* Limits on a facts file: real ones are 20-200 KB with under 40000
 * objects, arrays and commas; these keep a hostile one to about 60 MB of
 * memory (without them 16 MiB of "[{},{},...]" takes 1.3 GB). */
#define FACTS_MAX_BYTES (16u << 20)
#define FACTS_MAX_STRUCTURE 500000u
/* Read a facts file written by `doctor --json` ("-" = stdin), within the
 * limits above. */
int facts_load_file(const char *path, struct facts *f, char *err, size_t errsize);
/* The same for a document already in memory; name is what messages call
 * it. */
int facts_load_text(const char *text, size_t len, const char *name, struct facts *f, char *err,
		    size_t errsize);
/* Make every string of f safe to show on a terminal (base/clean.h), walking
 * the same field tables: the text renderers show facts only after this. */
void facts_clean_text(struct facts *f);
/* Findings as a JSON array (new reference). */
json_t *findings_to_json(const struct findings *fs);

#endif
