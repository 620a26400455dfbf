/*
 * writer.c - the front of the report writer: every text is redacted here,
 * then handed to the back end (markdown.c, html.c).
 */
#include "report/writer.h"

#include <stdarg.h>
#include <stdlib.h>

void
rw_release(struct rw *w)
{
	buf_release(&w->out);
	buf_release(&w->cur);
}

/* Call back end op with text s redacted. */
#define REDACTED(w, op, s)                                   \
	do {                                                 \
		char *r_ = redact_dup((w)->rd, (s));         \
		(w)->ops->op((w), r_ ? r_ : "");             \
		free(r_);                                    \
	} while (0)

void
rw_begin(struct rw *w, const char *title)
{
	REDACTED(w, begin, title);
}

void
rw_heading(struct rw *w, int level, const char *text)
{
	char *r = redact_dup(w->rd, text);
	w->ops->heading(w, level, r ? r : "");
	free(r);
}

void
rw_para_begin(struct rw *w)
{
	w->ops->para_begin(w);
}

void
rw_para_end(struct rw *w)
{
	w->ops->para_end(w);
}

void
rw_text(struct rw *w, const char *s)
{
	REDACTED(w, text, s);
}

void
rw_textf(struct rw *w, const char *fmt, ...)
{
	struct buf b;
	va_list ap;

	buf_init(&b);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	rw_text(w, b.s ? b.s : "");
	buf_release(&b);
}

void
rw_code(struct rw *w, const char *s)
{
	REDACTED(w, code, s);
}

void
rw_strong(struct rw *w, const char *s)
{
	REDACTED(w, strong, s);
}

void
rw_para(struct rw *w, const char *s)
{
	rw_para_begin(w);
	rw_text(w, s);
	rw_para_end(w);
}

void
rw_list_begin(struct rw *w)
{
	w->ops->list_begin(w);
}

void
rw_item_begin(struct rw *w)
{
	w->ops->item_begin(w);
}

void
rw_item_end(struct rw *w)
{
	w->ops->item_end(w);
}

void
rw_list_end(struct rw *w)
{
	w->ops->list_end(w);
}

void
rw_item(struct rw *w, const char *s)
{
	rw_item_begin(w);
	rw_text(w, s);
	rw_item_end(w);
}

void
rw_table_begin(struct rw *w, int ncols, const char *const *head)
{
	w->ncols = ncols;
	w->ops->table_begin(w, ncols, head);
}

void
rw_row_begin(struct rw *w)
{
	w->col = 0;
	w->ops->row_begin(w);
}

void
rw_cell_begin(struct rw *w)
{
	w->in_cell = true;
	w->ops->cell_begin(w);
}

void
rw_cell_end(struct rw *w)
{
	w->ops->cell_end(w);
	w->in_cell = false;
	w->col++;
}

void
rw_row_end(struct rw *w)
{
	while (w->col < w->ncols) { /* a short row is filled */
		rw_cell_begin(w);
		rw_cell_end(w);
	}
	w->ops->row_end(w);
}

void
rw_table_end(struct rw *w)
{
	w->ops->table_end(w);
}

void
rw_row(struct rw *w, const char *const *cells)
{
	int i;

	rw_row_begin(w);
	for (i = 0; i < w->ncols; i++) {
		rw_cell_begin(w);
		rw_text(w, cells[i] ? cells[i] : "");
		rw_cell_end(w);
	}
	rw_row_end(w);
}

void
rw_block(struct rw *w, const char *lang, const char *text)
{
	char *r = redact_dup(w->rd, text);
	w->ops->block(w, lang, r ? r : "");
	free(r);
}

void
rw_details_begin(struct rw *w, const char *summary)
{
	char *r = redact_dup(w->rd, summary);
	w->ops->details_begin(w, r ? r : "");
	w->depth++;
	free(r);
}

void
rw_details_end(struct rw *w)
{
	if (w->depth <= 0)
		return;
	w->depth--;
	w->ops->details_end(w);
}

void
rw_end(struct rw *w, const char *marker)
{
	while (w->depth > 0)
		rw_details_end(w);
	w->ops->end(w, marker);
}
