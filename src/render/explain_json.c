/*
 * explain_json.c - `explain --json`: the causes in rank order, each with
 * its lines, quoted messages, captured values, derived facts, fix and
 * what it also explains (schema gpudoctor/explain/1, docs/explain.md).
 */
#include "render/explain_render.h"

#include <jansson.h>

static const char *const role_names[] = {
	[EXPLAIN_CAUSE] = "cause",
	[EXPLAIN_SYMPTOM] = "symptom",
	[EXPLAIN_BENIGN] = "harmless",
	[EXPLAIN_UNKNOWN] = "unknown",
};

static json_t *
jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *
cause_json(const struct explain_cause *c, size_t rank)
{
	json_t *o = json_object(), *a, *ev;
	size_t i;
	int k;

	json_object_set_new(o, "rank", json_integer((json_int_t)rank));
	json_object_set_new(o, "id", json_string(c->id));
	json_object_set_new(o, "severity", json_string(severity_name(c->severity)));
	json_object_set_new(o, "role", json_string(role_names[c->role]));
	json_object_set_new(o, "title", jstr(c->title));
	json_object_set_new(o, "explain", jstr(c->explain));
	a = json_array();
	for (i = 0; i < c->nlines; i++)
		json_array_append_new(a, json_integer((json_int_t)c->lines[i]));
	json_object_set_new(o, "lines", a);
	json_object_set_new(o, "count", json_integer((json_int_t)c->count));
	a = json_array();
	for (i = 0; i < c->nquotes; i++) {
		json_t *q = json_object();
		json_object_set_new(q, "line", json_integer((json_int_t)c->quotes[i].line));
		json_object_set_new(q, "text", jstr(c->quotes[i].text));
		json_array_append_new(a, q);
	}
	json_object_set_new(o, "messages", a);
	ev = json_object();
	for (i = 0; i < c->ncaps; i++) {
		a = json_array();
		for (k = 0; k < c->caps[i].nvalues; k++)
			json_array_append_new(a, jstr(c->caps[i].values[k]));
		json_object_set_new(ev, c->caps[i].name, a);
	}
	json_object_set_new(o, "evidence", ev);
	a = json_array();
	for (k = 0; k < c->nevidence; k++)
		json_array_append_new(a, jstr(c->evidence[k]));
	json_object_set_new(o, "details", a);
	json_object_set_new(o, "fix", jstr(c->fix));
	a = json_array();
	for (i = 0; i < c->nfolded; i++) {
		json_t *f = json_object();
		json_object_set_new(f, "id", json_string(c->folded[i].id));
		json_object_set_new(f, "title", jstr(c->folded[i].title));
		json_object_set_new(f, "line", json_integer((json_int_t)c->folded[i].line));
		json_object_set_new(f, "count", json_integer((json_int_t)c->folded[i].count));
		json_array_append_new(a, f);
	}
	json_object_set_new(o, "also_explains", a);
	json_object_set_new(o, "pattern", c->pattern ? json_string(c->pattern->key) : json_null());
	json_object_set_new(o, "source", c->pattern ? json_string(c->pattern->source) : json_null());
	return o;
}

int
explain_render_json(FILE *out, const struct explain *x, const char *name, const char *machine)
{
	json_t *doc = json_object(), *in = json_object(), *a = json_array();
	size_t i;
	int rc;

	json_object_set_new(doc, "schema", json_string("gpudoctor/explain/1"));
	json_object_set_new(in, "name", json_string(name));
	json_object_set_new(in, "bytes", json_integer((json_int_t)x->bytes));
	json_object_set_new(in, "lines", json_integer((json_int_t)x->lines));
	json_object_set_new(doc, "input", in);
	json_object_set_new(doc, "machine", jstr(machine));
	json_object_set_new(doc, "worst", json_string(severity_name(explain_worst(x))));
	for (i = 0; i < x->ncauses; i++)
		json_array_append_new(a, cause_json(&x->causes[i], i + 1));
	json_object_set_new(doc, "causes", a);
	rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_ENSURE_ASCII);
	fputc('\n', out);
	json_decref(doc);
	return rc;
}
