/*
 * writer.h - the report's one document, written through a small set of
 * calls (headings, paragraphs, lists, tables, code blocks, collapsed
 * sections) that a back end turns into Markdown (markdown.c) or a
 * self-contained HTML page (html.c). build.c decides the content once.
 *
 * Every text goes through the redactor on its way in (rw_* below), so no
 * back end and no section can forget it.
 */
#ifndef GPUDOCTOR_REPORT_WRITER_H
#define GPUDOCTOR_REPORT_WRITER_H

#include "base/buf.h"
#include "report/redact.h"

#include <stdbool.h>
#include <stddef.h>

struct rw;

#define RW_MAX_DEPTH 16

struct rw_ops {
	void (*begin)(struct rw *w, const char *title);
	void (*heading)(struct rw *w, int level, const char *text);
	void (*para_begin)(struct rw *w);
	void (*para_end)(struct rw *w);
	void (*text)(struct rw *w, const char *s);    /* inline, one line */
	void (*code)(struct rw *w, const char *s);    /* inline code */
	void (*strong)(struct rw *w, const char *s);
	void (*list_begin)(struct rw *w);
	void (*item_begin)(struct rw *w);
	void (*item_end)(struct rw *w);
	void (*list_end)(struct rw *w);
	void (*table_begin)(struct rw *w, int ncols, const char *const *head);
	void (*row_begin)(struct rw *w);
	void (*cell_begin)(struct rw *w);
	void (*cell_end)(struct rw *w);
	void (*row_end)(struct rw *w);
	void (*table_end)(struct rw *w);
	void (*block)(struct rw *w, const char *lang, const char *text); /* verbatim lines */
	void (*details_begin)(struct rw *w, const char *summary);
	void (*details_end)(struct rw *w);
	void (*end)(struct rw *w, const char *marker);
};

struct rw {
	const struct rw_ops *ops;
	struct redact *rd;
	struct buf out;            /* the finished document */
	/* Markdown: blocks are built in cur and kept only while the document
	 * stays under limit bytes (GitHub's 65,536 characters for an issue) */
	struct buf cur;
	size_t limit;              /* 0: none */
	bool cut;                  /* something was left out */
	int depth;                 /* open collapsed sections */
	bool opened[RW_MAX_DEPTH]; /* per open section: written, not cut */
	int ncols, col;            /* the table being written */
	bool in_cell, line_start;
	unsigned long cut_lines;   /* lines of code blocks left out */
	char cut_sections[512];    /* the sections left out, by summary */
};

void rw_markdown(struct rw *w, struct redact *rd, size_t limit);
void rw_html(struct rw *w, struct redact *rd);
void rw_release(struct rw *w);

/* Front ends: redact, then pass to the back end. */
void rw_begin(struct rw *w, const char *title);
void rw_heading(struct rw *w, int level, const char *text);
void rw_para_begin(struct rw *w);
void rw_para_end(struct rw *w);
void rw_text(struct rw *w, const char *s);
void rw_textf(struct rw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rw_code(struct rw *w, const char *s);
void rw_strong(struct rw *w, const char *s);
/* A paragraph of plain text. */
void rw_para(struct rw *w, const char *s);
void rw_list_begin(struct rw *w);
void rw_item_begin(struct rw *w);
void rw_item_end(struct rw *w);
void rw_list_end(struct rw *w);
/* A list item of plain text. */
void rw_item(struct rw *w, const char *s);
void rw_table_begin(struct rw *w, int ncols, const char *const *head);
void rw_row_begin(struct rw *w);
void rw_cell_begin(struct rw *w);
void rw_cell_end(struct rw *w);
void rw_row_end(struct rw *w);
void rw_table_end(struct rw *w);
/* A row of plain-text cells (ncols of them). */
void rw_row(struct rw *w, const char *const *cells);
void rw_block(struct rw *w, const char *lang, const char *text);
void rw_details_begin(struct rw *w, const char *summary);
void rw_details_end(struct rw *w);
void rw_end(struct rw *w, const char *marker);

#endif
