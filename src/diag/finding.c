/*
 * finding.c - the findings list; see finding.h.
 */
#include "diag/finding.h"
#include "base/buf.h"
#include "base/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const layers[] = {"host", "hw", "kmod", "driver", "lib",
				     "fw", "env", "mem", "rt", "perf"};

void
findings_init(struct findings *fs)
{
	memset(fs, 0, sizeof(*fs));
}

void
finding_release(struct finding *f)
{
	int i;

	free(f->id);
	free(f->layer);
	free(f->title);
	for (i = 0; i < f->nevidence; i++)
		free(f->evidence[i]);
	free(f->fix);
	free(f->env);
}

void
findings_release(struct findings *fs)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		finding_release(&fs->v[i]);
	free(fs->v);
	findings_init(fs);
}

struct finding *
findings_add(struct findings *fs, const char *id, enum severity sev, const char *fmt, ...)
{
	struct finding *f;
	const char *dot = strchr(id, '.');
	struct buf b;
	va_list ap;

	if (fs->n == fs->alloc) {
		fs->alloc = fs->alloc ? fs->alloc * 2 : 16;
		fs->v = xrealloc(fs->v, fs->alloc * sizeof(*fs->v));
	}
	f = &fs->v[fs->n++];
	memset(f, 0, sizeof(*f));
	f->id = xstrdup(id);
	f->layer = dot ? xstrndup(id, (size_t)(dot - id)) : xstrdup(id);
	f->severity = sev;
	buf_init(&b);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	f->title = buf_detach(&b);
	return f;
}

void
finding_evidence(struct finding *f, const char *fmt, ...)
{
	struct buf b;
	va_list ap;

	if (f->nevidence >= FINDING_MAX_EVIDENCE)
		return;
	buf_init(&b);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	f->evidence[f->nevidence++] = buf_detach(&b);
}

void
finding_env(struct finding *f, const char *prefix)
{
	free(f->env);
	f->env = prefix && *prefix ? xstrdup(prefix) : NULL;
}

void
finding_fix(struct finding *f, const char *text)
{
	free(f->fix);
	f->fix = text ? xstrdup(text) : NULL;
}

void
finding_fixf(struct finding *f, const char *fmt, ...)
{
	struct buf b;
	va_list ap;

	buf_init(&b);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(f->fix);
	f->fix = buf_detach(&b);
}

bool
findings_has(const struct findings *fs, const char *id)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].id, id))
			return true;
	return false;
}

enum severity
findings_worst(const struct findings *fs)
{
	enum severity w = SEV_INFO;
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (fs->v[i].severity > w)
			w = fs->v[i].severity;
	return w;
}

int
layer_rank(const char *layer)
{
	size_t i;

	for (i = 0; i < sizeof(layers) / sizeof(layers[0]); i++)
		if (!strcmp(layer, layers[i]))
			return (int)i;
	return (int)(sizeof(layers) / sizeof(layers[0]));
}

void
findings_sort(struct findings *fs)
{
	size_t i, j;

	/* insertion sort: stable, and lists are short */
	for (i = 1; i < fs->n; i++) {
		struct finding t = fs->v[i];
		int rt = layer_rank(t.layer);
		for (j = i; j > 0; j--) {
			struct finding *p = &fs->v[j - 1];
			int rp = layer_rank(p->layer);
			if (rp < rt || (rp == rt && p->severity >= t.severity))
				break;
			fs->v[j] = *p;
		}
		fs->v[j] = t;
	}
}

const char *
severity_name(enum severity s)
{
	switch (s) {
	case SEV_ERROR:
		return "error";
	case SEV_WARN:
		return "warn";
	default:
		return "info";
	}
}

int
severity_parse(const char *s)
{
	if (!strcmp(s, "error"))
		return SEV_ERROR;
	if (!strcmp(s, "warn") || !strcmp(s, "warning"))
		return SEV_WARN;
	if (!strcmp(s, "info"))
		return SEV_INFO;
	return -1;
}
