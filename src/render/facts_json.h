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
/* Read a facts file written by `doctor --json` ("-" = stdin). */
int facts_load_file(const char *path, struct facts *f, char *err, size_t errsize);
/* Make every string of f safe to show on a terminal (base/clean.h), walking
 * the same field tables: the text renderers show facts only after this. */
void facts_clean_text(struct facts *f);
/* Findings as a JSON array (new reference). */
json_t *findings_to_json(const struct findings *fs);

#endif
