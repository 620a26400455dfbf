/*
 * page.c - what `serve` answers / with: the HTML report of `gpudoctor
 * report` (report/report.h) for the last doctor run, with the GPUs of the
 * last sample as a section of its own and where the metrics and facts are.
 * Not redacted: it is this machine's own exporter. Before the first doctor
 * run ends, a short page that says so.
 */
#include "serve/serve.h"
#include "report/report.h"
#include "report/writer.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

struct page_ctx {
	const struct mon_session *s;
	const struct serve_status *st;
};

/* The GPUs of the last sample, or why there is none. */
static void
live_gpus(struct rw *w, void *arg)
{
	const struct page_ctx *c = arg;
	static const char *const head[] = {"GPU", "name", "bus", "util", "memory", "temp", "power", "state"};
	char when[48] = "";
	int g;

	rw_heading(w, 2, "GPUs now");
	if (c->st->have_sample && c->s->cur) {
		const struct mon_sample *m = c->s->cur;
		time_t t = (time_t)c->st->sample_time;
		struct tm tm;

		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "sampled %Y-%m-%d %H:%M:%S UTC", &tm);
		rw_para(w, when);
		rw_table_begin(w, 8, head);
		for (g = 0; g < m->ngpus; g++) {
			const struct mon_gpu *x = &m->gpus[g];
			char idx[16], util[16], mem[80], used[32], total[32], temp[16], power[24];

			snprintf(idx, sizeof(idx), "%d", x->index);
			if (x->state != MON_GPU_OK) {
				const char *cells[] = {idx, x->name, x->bus_id, "", "", "", "",
						       x->state == MON_GPU_LOST ? "lost (fell off the bus)" : "not answering"};
				rw_row(w, cells);
				continue;
			}
			mon_fmt_mib(x->mem_used_mib, used, sizeof(used));
			mon_fmt_mib(x->mem_total_mib, total, sizeof(total));
			snprintf(util, sizeof(util), "%d %%", x->util_gpu);
			snprintf(mem, sizeof(mem), "%s / %s", used, total);
			snprintf(temp, sizeof(temp), "%d C", x->temp);
			snprintf(power, sizeof(power), "%.0f W", x->power_mw / 1000.0);
			const char *cells[] = {idx, x->name, x->bus_id, util, mem, temp, power, "ok"};
			rw_row(w, cells);
		}
		rw_table_end(w);
	} else if (c->st->sampler_error) {
		rw_para_begin(w);
		rw_strong(w, "ERROR");
		rw_text(w, " no GPU can be sampled: ");
		rw_text(w, c->st->sampler_error);
		rw_para_end(w);
	} else {
		rw_para(w, "The first sample has not come yet.");
	}
	rw_para_begin(w);
	rw_text(w, "Metrics for Prometheus at ");
	rw_code(w, "/metrics");
	rw_text(w, ", the facts document at ");
	rw_code(w, "/facts");
	rw_text(w, ".");
	rw_para_end(w);
}

void
serve_page(struct buf *b, const struct mon_session *s, const struct serve_status *st)
{
	struct page_ctx c = {.s = s, .st = st};
	struct report_input in = {
		.f = st->facts, .fs = st->findings, .redact = false, .more = live_gpus, .more_arg = &c,
	};
	char title[160];
	struct rw w;

	if (st->facts && st->findings) {
		report_render(&in, REPORT_HTML, b);
		return;
	}
	/* before the first doctor run: the GPUs alone */
	snprintf(title, sizeof(title), "gpudoctor on %s", s->hostname);
	rw_html(&w, NULL);
	rw_begin(&w, title);
	rw_heading(&w, 1, title);
	rw_para(&w, "The first doctor run has not finished yet.");
	live_gpus(&w, &c);
	rw_end(&w, st->version ? st->version : "");
	buf_add(b, w.out.s ? w.out.s : "", w.out.len);
	rw_release(&w);
}
