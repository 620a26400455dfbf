/*
 * html.c - the report as one self-contained HTML page: inline CSS, no
 * script, nothing fetched; collapsed sections are native <details>.
 * Readable on a phone (nothing wider than the screen: long words break,
 * tables scroll inside their own box), printable, light and dark by the
 * reader's setting. Every text is escaped.
 */
#include "report/writer.h"

#include <string.h>

static const char page_css[] =
	":root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--mute:#5b636d;--line:#d5dae0;"
	"--code:#f3f5f7;--err:#b42318;--warn:#9a5b00;--info:#1d5fa8;--ok:#1a7f37}"
	"@media (prefers-color-scheme:dark){:root{--fg:#e6e9ed;--bg:#14171b;--mute:#9aa3ad;"
	"--line:#39414a;--code:#1f242a;--err:#ff7b72;--warn:#e3b341;--info:#79b8ff;--ok:#56d364}}"
	"*{box-sizing:border-box}"
	"body{font:16px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg);"
	"background:var(--bg);margin:0 auto;padding:1em;max-width:62em;overflow-wrap:break-word}"
	"h1{font-size:1.35em;margin:.2em 0 .6em}h2{font-size:1.2em;margin:1.6em 0 .5em;"
	"border-bottom:1px solid var(--line);padding-bottom:.2em}h3{font-size:1.05em;margin:1.2em 0 .3em}"
	"code,pre{font:13.5px/1.45 ui-monospace,'SFMono-Regular',Menlo,Consolas,monospace}"
	"code{background:var(--code);padding:.1em .3em;border-radius:4px}"
	"pre{background:var(--code);padding:.7em .9em;border-radius:6px;white-space:pre-wrap;"
	"overflow-wrap:anywhere}pre code{padding:0;background:none}"
	".t{overflow-x:auto;max-width:100%}table{border-collapse:collapse;margin:.4em 0 1em}"
	"th,td{text-align:left;vertical-align:top;padding:.3em .7em;border-bottom:1px solid var(--line)}"
	"th{color:var(--mute);font-weight:600}td:first-child{white-space:nowrap}"
	"details{border:1px solid var(--line);border-radius:6px;padding:.4em .8em;margin:.6em 0}"
	"summary{cursor:pointer;font-weight:600}ul{padding-left:1.3em}"
	".verdict{font-size:1.1em}.ERROR{color:var(--err)}.WARN{color:var(--warn)}"
	".INFO{color:var(--info)}.OK{color:var(--ok)}footer{color:var(--mute);font-size:.85em;margin-top:2em}"
	"@media print{body{max-width:none}details{border:none}details::details-content{"
	"content-visibility:visible;display:block}pre{white-space:pre-wrap}}";

static void
esc(struct buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			buf_adds(b, "&lt;");
			break;
		case '>':
			buf_adds(b, "&gt;");
			break;
		case '&':
			buf_adds(b, "&amp;");
			break;
		case '"':
			buf_adds(b, "&quot;");
			break;
		default:
			buf_addch(b, *s);
		}
	}
}

static void
h_begin(struct rw *w, const char *title)
{
	buf_adds(&w->out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
			  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	esc(&w->out, title);
	buf_adds(&w->out, "</title>\n<style>");
	buf_adds(&w->out, page_css);
	buf_adds(&w->out, "</style></head>\n<body>\n");
}

/* A heading that starts with a severity word is coloured by it. */
static void
h_heading(struct rw *w, int level, const char *text)
{
	static const char *const sev[] = {"ERROR", "WARN", "INFO", "OK", NULL};
	const char *cls = NULL;
	int i;

	for (i = 0; sev[i]; i++)
		if (!strncmp(text, sev[i], strlen(sev[i])) && text[strlen(sev[i])] == ' ')
			cls = sev[i];
	buf_addf(&w->out, "<h%d>", level);
	if (cls) {
		buf_addf(&w->out, "<span class=\"%s\">%s</span>", cls, cls);
		esc(&w->out, text + strlen(cls));
	} else {
		esc(&w->out, text);
	}
	buf_addf(&w->out, "</h%d>\n", level);
}

static void
h_para_begin(struct rw *w)
{
	buf_adds(&w->out, "<p>");
}

static void
h_para_end(struct rw *w)
{
	buf_adds(&w->out, "</p>\n");
}

static void
h_text(struct rw *w, const char *s)
{
	esc(&w->out, s);
}

static void
h_code(struct rw *w, const char *s)
{
	buf_adds(&w->out, "<code>");
	esc(&w->out, s);
	buf_adds(&w->out, "</code>");
}

static void
h_strong(struct rw *w, const char *s)
{
	static const char *const sev[] = {"ERROR", "WARN", "INFO", "OK", NULL};
	int i;

	for (i = 0; sev[i]; i++)
		if (!strcmp(s, sev[i])) {
			buf_addf(&w->out, "<strong class=\"%s\">%s</strong>", s, s);
			return;
		}
	buf_adds(&w->out, "<strong>");
	esc(&w->out, s);
	buf_adds(&w->out, "</strong>");
}

static void
h_list_begin(struct rw *w)
{
	buf_adds(&w->out, "<ul>\n");
}

static void
h_item_begin(struct rw *w)
{
	buf_adds(&w->out, "<li>");
}

static void
h_item_end(struct rw *w)
{
	buf_adds(&w->out, "</li>\n");
}

static void
h_list_end(struct rw *w)
{
	buf_adds(&w->out, "</ul>\n");
}

static void
h_table_begin(struct rw *w, int ncols, const char *const *head)
{
	int i;

	buf_adds(&w->out, "<div class=\"t\"><table><thead><tr>");
	for (i = 0; i < ncols; i++) {
		buf_adds(&w->out, "<th>");
		esc(&w->out, head[i] ? head[i] : "");
		buf_adds(&w->out, "</th>");
	}
	buf_adds(&w->out, "</tr></thead><tbody>\n");
}

static void
h_row_begin(struct rw *w)
{
	buf_adds(&w->out, "<tr>");
}

static void
h_cell_begin(struct rw *w)
{
	buf_adds(&w->out, "<td>");
}

static void
h_cell_end(struct rw *w)
{
	buf_adds(&w->out, "</td>");
}

static void
h_row_end(struct rw *w)
{
	buf_adds(&w->out, "</tr>\n");
}

static void
h_table_end(struct rw *w)
{
	buf_adds(&w->out, "</tbody></table></div>\n");
}

static void
h_block(struct rw *w, const char *lang, const char *text)
{
	buf_adds(&w->out, "<pre><code");
	if (lang && *lang) {
		buf_adds(&w->out, " class=\"language-");
		esc(&w->out, lang);
		buf_adds(&w->out, "\"");
	}
	buf_adds(&w->out, ">");
	esc(&w->out, text);
	buf_adds(&w->out, "</code></pre>\n");
}

static void
h_details_begin(struct rw *w, const char *summary)
{
	buf_adds(&w->out, "<details><summary>");
	esc(&w->out, summary);
	buf_adds(&w->out, "</summary>\n");
}

static void
h_details_end(struct rw *w)
{
	buf_adds(&w->out, "</details>\n");
}

static void
h_end(struct rw *w, const char *marker)
{
	buf_adds(&w->out, "<footer>");
	esc(&w->out, marker);
	buf_adds(&w->out, "</footer>\n</body></html>\n");
}

static const struct rw_ops html_ops = {
	.begin = h_begin,
	.heading = h_heading,
	.para_begin = h_para_begin,
	.para_end = h_para_end,
	.text = h_text,
	.code = h_code,
	.strong = h_strong,
	.list_begin = h_list_begin,
	.item_begin = h_item_begin,
	.item_end = h_item_end,
	.list_end = h_list_end,
	.table_begin = h_table_begin,
	.row_begin = h_row_begin,
	.cell_begin = h_cell_begin,
	.cell_end = h_cell_end,
	.row_end = h_row_end,
	.table_end = h_table_end,
	.block = h_block,
	.details_begin = h_details_begin,
	.details_end = h_details_end,
	.end = h_end,
};

void
rw_html(struct rw *w, struct redact *rd)
{
	memset(w, 0, sizeof(*w));
	w->ops = &html_ops;
	w->rd = rd;
	buf_init(&w->out);
	buf_init(&w->cur);
}
