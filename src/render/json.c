/*
 * json.c - the JSON renderer: the facts document with its findings, as
 * described in docs/json.md.
 */
#include "render/facts_json.h"
#include "render/render.h"

int
render_json(FILE *out, const struct facts *f, const struct findings *fs)
{
	json_t *doc = facts_to_json(f, fs);
	int rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(6));

	json_decref(doc);
	if (rc == 0 && fputc('\n', out) == EOF)
		rc = -1;
	return rc;
}
