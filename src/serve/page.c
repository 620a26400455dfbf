/*
 * page.c - what `serve` answers / with: one self-contained HTML page for a
 * person who opens the exporter in a browser: the verdict of the last
 * doctor run, its findings with their fixes, and the GPUs of the last
 * sample. Inline CSS, no script, light and dark by the reader's setting.
 * Every text is escaped: names and paths come from the machine.
 */
#include "serve/serve.h"
#include "base/str.h"

#include <string.h>
#include <time.h>

static void
esc(struct buf *b, const char *s)
{
	for (; s && *s; s++) {
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

static const char *
sev_name(enum severity s)
{
	return s == SEV_ERROR ? "error" : s == SEV_WARN ? "warning" : "info";
}

void
serve_page(struct buf *b, const struct mon_session *s, const struct serve_status *st)
{
	const struct findings *fs = st->findings;
	char when[32] = "";
	size_t i;
	int g;

	buf_adds(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
		    "<title>gpudoctor: ");
	esc(b, s->hostname);
	buf_adds(b, "</title><style>"
		    ":root{color-scheme:light dark}body{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;"
		    "max-width:60em;padding:0 1em}table{border-collapse:collapse}td,th{padding:.2em .6em;"
		    "border-bottom:1px solid #8884;text-align:left}.error{color:#c22}.warning{color:#b70}"
		    ".info{color:#37a}pre{white-space:pre-wrap;background:#8881;padding:.5em}"
		    "</style></head><body>\n<h1>gpudoctor on ");
	esc(b, s->hostname);
	buf_adds(b, "</h1>\n");
	if (!fs) {
		buf_adds(b, "<p>The first doctor run has not finished yet.</p>\n");
	} else {
		enum severity worst = findings_worst(fs);
		time_t t = (time_t)st->doctor_time;
		struct tm tm;
		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
		buf_addf(b, "<p class=\"%s\"><strong>%s</strong> (doctor at %s)</p>\n",
			 fs->n ? sev_name(worst) : "info",
			 !fs->n ? "Nothing to fix." : worst == SEV_ERROR ? "Something stops the GPU from working."
			 : worst == SEV_WARN ? "The GPU works, with warnings." : "The GPU works.", when);
		for (i = 0; i < fs->n; i++) {
			const struct finding *x = &fs->v[i];
			int e;
			buf_addf(b, "<h3 class=\"%s\">", sev_name(x->severity));
			esc(b, x->title);
			buf_addf(b, " <small>(%s, ", sev_name(x->severity));
			esc(b, x->id);
			buf_adds(b, ")</small></h3>\n<ul>");
			for (e = 0; e < x->nevidence; e++) {
				buf_adds(b, "<li>");
				esc(b, x->evidence[e]);
				buf_adds(b, "</li>");
			}
			buf_adds(b, "</ul>\n");
			if (x->fix) {
				buf_adds(b, "<pre>");
				esc(b, x->fix);
				buf_adds(b, "</pre>\n");
			}
		}
	}
	if (st->have_sample && s->cur) {
		const struct mon_sample *m = s->cur;
		buf_adds(b, "<h2>GPUs</h2>\n<table><tr><th>GPU</th><th>name</th><th>bus</th><th>util</th><th>memory</th>"
			    "<th>temp</th><th>power</th><th>state</th></tr>\n");
		for (g = 0; g < m->ngpus; g++) {
			const struct mon_gpu *x = &m->gpus[g];
			char used[32], total[32];
			mon_fmt_mib(x->mem_used_mib, used, sizeof(used));
			mon_fmt_mib(x->mem_total_mib, total, sizeof(total));
			buf_addf(b, "<tr><td>%d</td><td>", x->index);
			esc(b, x->name);
			buf_adds(b, "</td><td>");
			esc(b, x->bus_id);
			if (x->state != MON_GPU_OK) {
				buf_addf(b, "</td><td colspan=\"4\"></td><td class=\"error\">%s</td></tr>\n",
					 x->state == MON_GPU_LOST ? "lost (fell off the bus)" : "not answering");
				continue;
			}
			buf_addf(b, "</td><td>%d %%</td><td>%s / %s</td><td>%d C</td><td>%.0f W</td><td>ok</td></tr>\n",
				 x->util_gpu, used, total, x->temp, x->power_mw / 1000.0);
		}
		buf_adds(b, "</table>\n");
	} else if (st->sampler_error) {
		buf_adds(b, "<p class=\"error\">No GPU can be sampled: ");
		esc(b, st->sampler_error);
		buf_adds(b, "</p>\n");
	}
	buf_addf(b, "<p><a href=\"/metrics\">/metrics</a> &middot; <a href=\"/facts\">/facts</a> &middot; gpudoctor ");
	esc(b, st->version);
	buf_adds(b, "</p>\n</body></html>\n");
}
