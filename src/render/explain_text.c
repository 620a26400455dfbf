/*
 * explain_text.c - `explain` for people: the causes in rank order, each
 * with the lines that show it, why it happens, the facts its values imply
 * and the fix (commands verbatim, to paste); then the harmless messages,
 * said to be harmless; then the GPU-related lines nothing explains. Fits
 * 80 columns; colour only when asked for.
 */
#include "render/explain_render.h"
#include "base/buf.h"
#include "render/wrap.h"

#include <stdlib.h>
#include <string.h>

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_DIM "\033[2m"
#define C_RED "\033[31m"
#define C_GREEN "\033[32m"
#define C_YELLOW "\033[33m"
#define C_CYAN "\033[36m"

struct out {
	FILE *fp;
	const struct render_opts *o;
};

static const char *
col(const struct out *w, const char *code)
{
	return w->o->color ? code : "";
}

static void
wrap(const struct out *w, int first, int indent, const char *text)
{
	wrap_hanging(w->fp, w->o->width, first, indent, text);
}

/* "  line 57  <text>" wrapped under the text. */
static void
quote(const struct out *w, unsigned long line, const char *text)
{
	char label[32], pad[32];
	int n;

	n = snprintf(label, sizeof(label), "  line %lu  ", line);
	snprintf(pad, sizeof(pad), "%*s", n, "");
	fputs(col(w, C_DIM), w->fp);
	wrap_text(w->fp, w->o->width > 20 ? w->o->width : 80, label, pad, text);
	fputs(col(w, C_RESET), w->fp);
}

/* Lines quoted in the text report per cause (the JSON has all kept). */
#define TEXT_QUOTES 2

static void
more_lines(const struct out *w, const struct explain_cause *c, size_t shown)
{
	struct buf b;
	size_t i;

	if (c->count <= shown)
		return;
	buf_init_cap(&b, 1024);
	buf_adds(&b, "  (lines");
	for (i = 0; i < c->nlines; i++)
		buf_addf(&b, "%s %lu", i ? "," : "", c->lines[i]);
	if (c->count > c->nlines)
		buf_adds(&b, ", ...");
	buf_addf(&b, "; %lu time%s in all)", c->count, c->count == 1 ? "" : "s");
	wrap(w, 0, 4, b.s);
	buf_release(&b);
}

static void
fix_lines(const struct out *w, const char *fix)
{
	const char *p = fix;

	fprintf(w->fp, "  %sfix:%s\n", col(w, C_BOLD), col(w, C_RESET));
	while (*p) {
		size_t n = strcspn(p, "\n");
		char *line = strndup(p, n);

		if (line && wrap_is_command(line))
			fprintf(w->fp, "    %s%s%s\n", col(w, C_GREEN), line, col(w, C_RESET));
		else if (line)
			wrap(w, 4, 4, line);
		free(line);
		p += n;
		if (*p == '\n')
			p++;
	}
}

static void
cause(const struct out *w, const struct explain_cause *c, size_t rank)
{
	const char *mark = "INFO", *colour = C_CYAN;
	struct buf b;
	size_t i;
	int k;

	if (c->severity == SEV_ERROR) {
		mark = "ERROR";
		colour = C_RED;
	} else if (c->severity == SEV_WARN) {
		mark = "WARN";
		colour = C_YELLOW;
	}
	fprintf(w->fp, "\n%s%s%zu. %s %s%s\n", col(w, C_BOLD), col(w, colour), rank, mark, c->id,
		col(w, C_RESET));
	wrap(w, 2, 2, c->title);
	for (i = 0; i < c->nquotes && i < TEXT_QUOTES; i++)
		quote(w, c->quotes[i].line, c->quotes[i].text);
	more_lines(w, c, i);
	buf_init_cap(&b, 8192);
	buf_addf(&b, "why: %s", c->explain);
	wrap(w, 2, 4, b.s);
	for (k = 0; k < c->nevidence; k++) {
		buf_reset(&b);
		buf_addf(&b, "- %s", c->evidence[k]);
		wrap(w, 2, 4, b.s);
	}
	for (i = 0; i < c->nfolded; i++) {
		buf_reset(&b);
		buf_addf(&b, "- also explains line %lu: %s (%s%s)", c->folded[i].line,
			 c->folded[i].title, c->folded[i].id,
			 c->folded[i].count > 1 ? ", more than once" : "");
		wrap(w, 2, 4, b.s);
	}
	if (c->nfolded_all > c->nfolded) {
		buf_reset(&b);
		buf_addf(&b, "- and %lu more messages that follow from it",
			 c->nfolded_all - (unsigned long)c->nfolded);
		wrap(w, 2, 4, b.s);
	}
	buf_release(&b);
	if (c->fix)
		fix_lines(w, c->fix);
}

void
explain_render_text(FILE *out, const struct explain *x, const char *name, const char *machine,
		    const struct render_opts *o)
{
	struct out w = {.fp = out, .o = o};
	size_t i, ncause = 0, nbenign = 0, rank = 0;
	const struct explain_cause *unknown = NULL;

	for (i = 0; i < x->ncauses; i++) {
		if (x->causes[i].role == EXPLAIN_BENIGN)
			nbenign++;
		else if (x->causes[i].role == EXPLAIN_UNKNOWN)
			unknown = &x->causes[i];
		else
			ncause++;
	}
	fprintf(out, "%sgpudoctor explain%s %s: %lu line%s, ", col(&w, C_BOLD), col(&w, C_RESET),
		name, x->lines, x->lines == 1 ? "" : "s");
	fprintf(out, "%zu cause%s", ncause, ncause == 1 ? "" : "s");
	if (nbenign)
		fprintf(out, ", %zu harmless message%s", nbenign, nbenign == 1 ? "" : "s");
	fputc('\n', out);
	if (machine)
		fprintf(out, "facts of %s\n", machine);
	if (!ncause && !unknown)
		fprintf(out, "\nNo known error from the GPU stack (driver, CUDA, cuDNN, TensorFlow,\n"
			     "PyTorch, JAX, containers) in it.\n");
	for (i = 0; i < x->ncauses; i++)
		if (x->causes[i].role == EXPLAIN_CAUSE || x->causes[i].role == EXPLAIN_SYMPTOM)
			cause(&w, &x->causes[i], ++rank);
	if (nbenign)
		fprintf(out, "\n%sHarmless%s (rt.benign_warning): nothing to do about these\n",
			col(&w, C_BOLD), col(&w, C_RESET));
	for (i = 0; i < x->ncauses; i++) {
		const struct explain_cause *c = &x->causes[i];
		struct buf b;

		if (c->role != EXPLAIN_BENIGN)
			continue;
		buf_init_cap(&b, 8192);
		buf_addf(&b, "- %s, line %lu%s: %s", c->title, c->lines[0],
			 c->count > 1 ? " and more" : "", c->explain);
		wrap(&w, 2, 4, b.s);
		buf_release(&b);
	}
	if (unknown) {
		fprintf(out, "\n%sNot recognised%s (rt.unknown): %s\n", col(&w, C_BOLD),
			col(&w, C_RESET), unknown->title);
		for (i = 0; i < unknown->nquotes; i++)
			quote(&w, unknown->quotes[i].line, unknown->quotes[i].text);
		more_lines(&w, unknown, unknown->nquotes);
	}
}
