/*
 * markdown.c - the report as Markdown for an issue tracker (GitHub's
 * dialect, CommonMark underneath): text escaped outside code (`<` and `&`
 * as entities, Markdown's punctuation with a backslash, `|` in tables),
 * code fences longer than any backtick run they hold, collapsed sections
 * as <details>. Each block is built apart and kept only while the whole
 * stays under the limit; a code block that does not fit is cut at a line
 * and its fence closed, what is left out is named at the end.
 */
#include "report/writer.h"

#include <stdio.h>
#include <string.h>

/* Room kept for closing sections, the note on what was cut, the marker. */
#define MD_RESERVE 1024
#define MD_MAX_DEPTH RW_MAX_DEPTH

static void
esc_text(struct rw *w, const char *s)
{
	struct buf *b = &w->cur;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (w->line_start) {
			/* what would start a list, a heading or a quote at a line's start */
			size_t d = strspn(s, "0123456789");
			if (d && (s[d] == '.' || s[d] == ')')) {
				buf_add(b, s, d);
				buf_addch(b, '\\');
				s += d - 1;
				w->line_start = false;
				continue;
			}
			if (c == '-' || c == '+' || c == '=' || c == '>')
				buf_addch(b, '\\');
			w->line_start = false;
		}
		switch (c) {
		case '<':
			buf_adds(b, "&lt;");
			break;
		case '&':
			buf_adds(b, "&amp;");
			break;
		case '\n':
		case '\r':
		case '\t':
			buf_addch(b, ' ');
			break;
		case '\\': case '`': case '*': case '_': case '[': case ']': case '#': case '|': case '~':
		case '!':
			buf_addch(b, '\\');
			buf_addch(b, (char)c);
			break;
		default:
			buf_addch(b, (char)c);
		}
	}
}

/* Longest run of c in s. */
static size_t
longest_run(const char *s, char c)
{
	size_t best = 0, n = 0;

	for (; *s; s++) {
		n = *s == c ? n + 1 : 0;
		if (n > best)
			best = n;
	}
	return best;
}

static void
commit(struct rw *w)
{
	if (!w->cut && w->out.len + w->cur.len + MD_RESERVE <= w->limit) {
		buf_add(&w->out, w->cur.s ? w->cur.s : "", w->cur.len);
	} else if (w->cur.len) {
		w->cut = true;
	}
	buf_reset(&w->cur);
}

static void
md_begin(struct rw *w, const char *title)
{
	(void)title; /* the verdict line is the title */
}

static void
md_heading(struct rw *w, int level, const char *text)
{
	int i;

	for (i = 0; i < level; i++)
		buf_addch(&w->cur, '#');
	buf_addch(&w->cur, ' ');
	w->line_start = false;
	esc_text(w, text);
	buf_adds(&w->cur, "\n\n");
	commit(w);
}

static void
md_para_begin(struct rw *w)
{
	w->line_start = true;
}

static void
md_para_end(struct rw *w)
{
	buf_adds(&w->cur, "\n\n");
	commit(w);
}

static void
md_text(struct rw *w, const char *s)
{
	esc_text(w, s);
}

static void
md_code(struct rw *w, const char *s)
{
	size_t n = longest_run(s, '`') + 1, i;
	bool pad = s[0] == '`' || (*s && s[strlen(s) - 1] == '`');
	const char *p;

	w->line_start = false;
	for (i = 0; i < n; i++)
		buf_addch(&w->cur, '`');
	if (pad)
		buf_addch(&w->cur, ' ');
	for (p = s; *p; p++) {
		if (*p == '\n' || *p == '\r')
			buf_addch(&w->cur, ' ');
		else if (*p == '|' && w->in_cell)
			buf_adds(&w->cur, "\\|"); /* GFM splits cells even inside code */
		else
			buf_addch(&w->cur, *p);
	}
	if (pad)
		buf_addch(&w->cur, ' ');
	for (i = 0; i < n; i++)
		buf_addch(&w->cur, '`');
}

static void
md_strong(struct rw *w, const char *s)
{
	buf_adds(&w->cur, "**");
	w->line_start = false;
	esc_text(w, s);
	buf_adds(&w->cur, "**");
}

static void
md_list_begin(struct rw *w)
{
}

static void
md_item_begin(struct rw *w)
{
	buf_adds(&w->cur, "- ");
	w->line_start = false;
}

static void
md_item_end(struct rw *w)
{
	buf_addch(&w->cur, '\n');
	commit(w);
}

static void
md_list_end(struct rw *w)
{
	buf_addch(&w->cur, '\n');
	commit(w);
}

static void
md_table_begin(struct rw *w, int ncols, const char *const *head)
{
	int i;

	buf_addch(&w->cur, '|');
	for (i = 0; i < ncols; i++) {
		buf_addch(&w->cur, ' ');
		w->in_cell = true;
		esc_text(w, head[i] ? head[i] : "");
		w->in_cell = false;
		buf_adds(&w->cur, " |");
	}
	buf_adds(&w->cur, "\n|");
	for (i = 0; i < ncols; i++)
		buf_adds(&w->cur, " --- |");
	buf_addch(&w->cur, '\n');
}

static void
md_row_begin(struct rw *w)
{
	buf_addch(&w->cur, '|');
}

static void
md_cell_begin(struct rw *w)
{
	buf_addch(&w->cur, ' ');
	w->line_start = false;
}

static void
md_cell_end(struct rw *w)
{
	buf_adds(&w->cur, " |");
}

static void
md_row_end(struct rw *w)
{
	buf_addch(&w->cur, '\n');
}

static void
md_table_end(struct rw *w)
{
	buf_addch(&w->cur, '\n');
	commit(w); /* a table is kept whole or not at all */
}

static void
fence(struct buf *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf_addch(b, '`');
}

static void
md_block(struct rw *w, const char *lang, const char *text)
{
	size_t n = longest_run(text, '`') + 1, len = strlen(text), room, used = 0;
	unsigned long left = 0;
	const char *p;

	if (n < 3)
		n = 3;
	fence(&w->cur, n);
	buf_adds(&w->cur, lang ? lang : "");
	buf_addch(&w->cur, '\n');
	buf_add(&w->cur, text, len);
	if (len && text[len - 1] != '\n')
		buf_addch(&w->cur, '\n');
	fence(&w->cur, n);
	buf_adds(&w->cur, "\n\n");
	if (w->cut || w->out.len + w->cur.len + MD_RESERVE <= w->limit) {
		commit(w);
		return;
	}
	/* cut it at a line, keep the fence whole */
	buf_reset(&w->cur);
	room = w->limit - MD_RESERVE - w->out.len;
	if (room < 2 * n + 256) {
		w->cut = true;
		for (p = text; *p; p++)
			left += *p == '\n';
		w->cut_lines += left + 1;
		return;
	}
	room -= 2 * n + 256;
	for (p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) + 1 : strlen(p);
		if (used + l > room)
			break;
		used += l;
		p += l;
	}
	for (; *p; p++)
		left += *p == '\n';
	left++;
	fence(&w->cur, n);
	buf_adds(&w->cur, lang ? lang : "");
	buf_addch(&w->cur, '\n');
	buf_add(&w->cur, text, used);
	fence(&w->cur, n);
	buf_addf(&w->cur, "\n\n*(%lu more lines left out here)*\n\n", left);
	buf_add(&w->out, w->cur.s, w->cur.len);
	buf_reset(&w->cur);
	w->cut = true;
	w->cut_lines += left;
}

static void
md_details_begin(struct rw *w, const char *summary)
{
	const char *p;
	int d = w->depth < MD_MAX_DEPTH ? w->depth : MD_MAX_DEPTH - 1;

	w->opened[d] = false;
	if (w->cut) {
		size_t l = strlen(w->cut_sections);
		if (l + strlen(summary) + 4 < sizeof(w->cut_sections))
			snprintf(w->cut_sections + l, sizeof(w->cut_sections) - l, "%s\"%s\"", l ? ", " : "",
				 summary);
		return;
	}
	buf_adds(&w->cur, "<details><summary>");
	for (p = summary; *p; p++) {
		if (*p == '<')
			buf_adds(&w->cur, "&lt;");
		else if (*p == '&')
			buf_adds(&w->cur, "&amp;");
		else if (*p == '>')
			buf_adds(&w->cur, "&gt;");
		else
			buf_addch(&w->cur, *p);
	}
	buf_adds(&w->cur, "</summary>\n\n");
	commit(w);
	w->opened[d] = !w->cut;
}

static void
md_details_end(struct rw *w)
{
	int d = w->depth < MD_MAX_DEPTH ? w->depth : MD_MAX_DEPTH - 1;

	/* written even after a cut: the reserve holds it */
	if (w->opened[d])
		buf_adds(&w->out, "</details>\n\n");
	w->opened[d] = false;
}

static void
md_end(struct rw *w, const char *marker)
{
	buf_reset(&w->cur);
	if (w->cut) {
		buf_adds(&w->out, "*Cut to stay under GitHub's 65,536 characters");
		if (w->cut_lines)
			buf_addf(&w->out, " (%lu lines left out)", w->cut_lines);
		if (w->cut_sections[0]) {
			buf_adds(&w->out, "; left out: ");
			w->cur.len = 0;
			esc_text(w, w->cut_sections);
			buf_add(&w->out, w->cur.s, w->cur.len);
			buf_reset(&w->cur);
		}
		buf_adds(&w->out, ". `gpudoctor report --no-limit -o report.md` writes it whole, to attach "
				  "as a file.*\n\n");
	}
	buf_addf(&w->out, "<!-- %s -->\n", marker);
}

static const struct rw_ops md_ops = {
	.begin = md_begin,
	.heading = md_heading,
	.para_begin = md_para_begin,
	.para_end = md_para_end,
	.text = md_text,
	.code = md_code,
	.strong = md_strong,
	.list_begin = md_list_begin,
	.item_begin = md_item_begin,
	.item_end = md_item_end,
	.list_end = md_list_end,
	.table_begin = md_table_begin,
	.row_begin = md_row_begin,
	.cell_begin = md_cell_begin,
	.cell_end = md_cell_end,
	.row_end = md_row_end,
	.table_end = md_table_end,
	.block = md_block,
	.details_begin = md_details_begin,
	.details_end = md_details_end,
	.end = md_end,
};

void
rw_markdown(struct rw *w, struct redact *rd, size_t limit)
{
	memset(w, 0, sizeof(*w));
	w->ops = &md_ops;
	w->rd = rd;
	w->limit = limit ? limit : (size_t)-1 / 2;
	buf_init(&w->out);
	buf_init(&w->cur);
}
