/*
 * factsdiff.c - see factsdiff.h. The documents are flattened into
 * path -> value pairs and the two sets compared. What always differs
 * between two runs and says nothing of the machine is left out: times
 * (collected_at, *_ms), the probes' notes, the tool's version.
 */
#include "diff/factsdiff.h"
#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct flat {
	char **path;
	char **value;
	const char **layer;
	bool *item;                  /* a whole list item: value is its summary */
	size_t n, alloc;
};

static const char *const skipped[] = {"schema", "tool_version", "collected_at", "total_ms", "notes", "root", NULL};

/* The layer of a top-level key. */
static const char *
layer_of(const char *top)
{
	static const struct {
		const char *key, *layer;
	} map[] = {
		{"host", "host"}, {"hostname", "host"}, {"gpus", "hw"}, {"other_gpus", "hw"}, {"pci_valid", "hw"},
		{"kmod", "kmod"}, {"driver", "driver"}, {"libs", "libs"}, {"env", "env"}, {"python", "python"},
		{"procs", "procs"},
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].key, top))
			return map[i].layer;
	return "other";
}

static bool
skip_key(const char *k)
{
	size_t n = strlen(k);
	int i;

	for (i = 0; skipped[i]; i++)
		if (!strcmp(k, skipped[i]))
			return true;
	return n > 3 && !strcmp(k + n - 3, "_ms");
}

/* What names an item of a list: the first of these it has. */
static char *
item_key(json_t *v, size_t index)
{
	static const char *const keys[] = {"pci_bus_id", "uuid", "path", "name", "id", "pid", NULL};
	int i;

	if (json_is_object(v))
		for (i = 0; keys[i]; i++) {
			json_t *k = json_object_get(v, keys[i]);
			if (json_is_string(k) && json_string_value(k)[0])
				return xstrdup(json_string_value(k));
			if (json_is_integer(k))
				return xasprintf("%lld", (long long)json_integer_value(k));
		}
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	return xasprintf("%zu", index);
}

static void
add(struct flat *f, const char *layer, const char *path, json_t *v, bool item)
{
	if (f->n == f->alloc) {
		f->alloc = f->alloc ? 2 * f->alloc : 256;
		f->path = xrealloc(f->path, f->alloc * sizeof(*f->path));
		f->value = xrealloc(f->value, f->alloc * sizeof(*f->value));
		f->layer = xrealloc(f->layer, f->alloc * sizeof(*f->layer));
		f->item = xrealloc(f->item, f->alloc * sizeof(*f->item));
	}
	f->path[f->n] = xstrdup(path);
	f->value[f->n] = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	f->layer[f->n] = layer;
	f->item[f->n] = item;
	f->n++;
}

/* What a list item is, in a few words: "NVIDIA RTX A5000", "cublas 12.4.5.8". */
static json_t *
summary(json_t *x)
{
	const char *name = json_string_value(json_object_get(x, "name"));
	const char *version = json_string_value(json_object_get(x, "version"));

	if (name && version)
		return json_sprintf("%s %s", name, version);
	if (name)
		return json_string(name);
	if (version)
		return json_string(version);
	return json_string("present");
}

static void
flatten(struct flat *f, const char *layer, const char *path, json_t *v)
{
	const char *k;
	json_t *x;
	size_t i;

	if (json_is_object(v)) {
		json_object_foreach(v, k, x) {
			char *p;
			if (skip_key(k))
				continue;
			p = path[0] ? xasprintf("%s.%s", path, k) : xstrdup(k);
			flatten(f, path[0] ? layer : layer_of(k), p, x);
			free(p);
		}
		return;
	}
	if (json_is_array(v) && json_array_size(v) && (json_is_object(json_array_get(v, 0)) ||
						      json_is_string(json_array_get(v, 0)))) {
		json_array_foreach(v, i, x) {
			char *key = item_key(x, i), *p = xasprintf("%s[%s]", path, key);
			if (json_is_object(x)) {
				json_t *sum = summary(x);
				add(f, layer, p, sum, true);
				json_decref(sum);
				flatten(f, layer, p, x);
			} else {
				add(f, layer, p, json_true(), true);
			}
			free(key);
			free(p);
		}
		return;
	}
	if (json_is_array(v) && !json_array_size(v))
		return;              /* an empty list is no fact */
	add(f, layer, path, v, false);
}

static void
flat_release(struct flat *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->path[i]);
		free(f->value[i]);
	}
	free(f->path);
	free(f->value);
	free(f->layer);
	free(f->item);
}

static void
item(struct factsdiff *d, const char *layer, const char *path, const char *a, const char *b)
{
	struct factsdiff_item *it;

	if (d->nitems == d->alloc) {
		d->alloc = d->alloc ? 2 * d->alloc : 64;
		d->items = xrealloc(d->items, d->alloc * sizeof(*d->items));
	}
	it = &d->items[d->nitems++];
	it->layer = layer;
	it->path = xstrdup(path);
	it->a = a ? xstrdup(a) : NULL;
	it->b = b ? xstrdup(b) : NULL;
}

static long
find(const struct flat *f, const char *path)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (!strcmp(f->path[i], path))
			return (long)i;
	return -1;
}

/* Is path inside a list item that x lacks (already reported whole)? */
static bool
inside_missing(const struct flat *x, const char *path, const char *missing)
{
	size_t n = strlen(missing);

	(void)x;
	return missing[0] && !strncmp(path, missing, n) && path[n] == '.';
}

/* What `from` has that `to` lacks or has otherwise; only_side: the second
 * pass, which reports only what is missing from the first document. */
static void
compare(const struct flat *from, const struct flat *to, struct factsdiff *d, bool only_side)
{
	char missing[1024] = "";
	size_t i;

	for (i = 0; i < from->n; i++) {
		long j;
		if (inside_missing(to, from->path[i], missing))
			continue;
		j = find(to, from->path[i]);
		if (j < 0) {
			if (from->item[i])
				snprintf(missing, sizeof(missing), "%s", from->path[i]);
			if (only_side)
				item(d, from->layer[i], from->path[i], NULL, from->value[i]);
			else
				item(d, from->layer[i], from->path[i], from->value[i], NULL);
		} else if (!only_side && !from->item[i] && strcmp(from->value[i], to->value[j])) {
			item(d, from->layer[i], from->path[i], from->value[i], to->value[j]);
		}
	}
}

static const char *
str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static void
findings(json_t *a, json_t *b, int side, struct factsdiff *d)
{
	json_t *fa = json_object_get(a, "findings"), *fb = json_object_get(b, "findings"), *x, *y;
	size_t i, j;

	json_array_foreach(fa, i, x) {
		bool same = false;
		json_array_foreach(fb, j, y) {
			if (!strcmp(str(x, "id"), str(y, "id")) && !strcmp(str(x, "env"), str(y, "env")) &&
			    !strcmp(str(x, "severity"), str(y, "severity")))
				same = true;
		}
		/* one entry per id and environment, however often it is raised */
		for (j = 0; !same && j < d->nfindings; j++)
			if (d->findings[j].side == side && !strcmp(d->findings[j].id, str(x, "id")) &&
			    !strcmp(d->findings[j].env, str(x, "env")))
				same = true;
		if (same)
			continue;
		if (d->nfindings == d->falloc) {
			d->falloc = d->falloc ? 2 * d->falloc : 16;
			d->findings = xrealloc(d->findings, d->falloc * sizeof(*d->findings));
		}
		d->findings[d->nfindings].id = xstrdup(str(x, "id"));
		d->findings[d->nfindings].severity = xstrdup(str(x, "severity"));
		d->findings[d->nfindings].title = xstrdup(str(x, "title"));
		d->findings[d->nfindings].env = xstrdup(str(x, "env"));
		d->findings[d->nfindings].side = side;
		d->nfindings++;
	}
}

void
factsdiff_run(json_t *a, json_t *b, struct factsdiff *d)
{
	struct flat fa = {0}, fb = {0};
	json_t *ca = json_deep_copy(a), *cb = json_deep_copy(b);

	memset(d, 0, sizeof(*d));
	json_object_del(ca, "findings");
	json_object_del(cb, "findings");
	flatten(&fa, "other", "", ca);
	flatten(&fb, "other", "", cb);
	compare(&fa, &fb, d, false);
	compare(&fb, &fa, d, true);
	findings(a, b, 0, d);
	findings(b, a, 1, d);
	flat_release(&fa);
	flat_release(&fb);
	json_decref(ca);
	json_decref(cb);
}

void
factsdiff_release(struct factsdiff *d)
{
	size_t i;

	for (i = 0; i < d->nitems; i++) {
		free(d->items[i].path);
		free(d->items[i].a);
		free(d->items[i].b);
	}
	for (i = 0; i < d->nfindings; i++) {
		free(d->findings[i].id);
		free(d->findings[i].severity);
		free(d->findings[i].title);
		free(d->findings[i].env);
	}
	free(d->items);
	free(d->findings);
	memset(d, 0, sizeof(*d));
}
