/*
 * build.c - what the report says, in the order a reader of a bug report
 * needs it: the verdict, the machine in a few rows and a verdict per layer,
 * the findings (evidence and fix, commands in blocks that paste as they
 * are), the log's causes, then everything else collapsed: the doctor report
 * by part and the facts document. Written through writer.h, so Markdown and
 * HTML say the same and every text is redacted on its way.
 */
#include "report/report.h"
#include "base/clean.h"
#include "base/str.h"
#include "render/facts_json.h"
#include "render/render.h"
#include "render/wrap.h"
#include "report/writer.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *
sev_word(enum severity s)
{
	return s == SEV_ERROR ? "ERROR" : s == SEV_WARN ? "WARN" : "INFO";
}

/* ---- what the redactor must know ------------------------------------------- */

static void
learn(struct redact *rd, const struct facts *f, const struct explain *x, const char *facts_text)
{
	const char *v;
	int i, j;
	size_t k;

	redact_host(rd, f->hostname);
	if ((v = facts_env_value(f, "USER")))
		redact_user(rd, v);
	if ((v = facts_env_value(f, "LOGNAME")))
		redact_user(rd, v);
	redact_learn(rd, facts_text);
	/* versions are never addresses */
	redact_version(rd, f->driver.version);
	redact_version(rd, f->kmod.nvidia_version);
	for (i = 0; i < f->nlibs; i++)
		redact_version(rd, f->libs[i].version);
	for (i = 0; i < f->driver.nlibs; i++)
		redact_version(rd, f->driver.libs[i].version);
	for (i = 0; i < f->npython; i++) {
		const struct python_env_facts *e = &f->python[i];
		for (j = 0; j < e->npkgs; j++)
			redact_version(rd, e->pkgs[j].version);
		for (j = 0; j < e->nframeworks; j++)
			redact_version(rd, e->frameworks[j].version);
	}
	if (x)
		for (k = 0; k < x->ncauses; k++) {
			const struct explain_cause *c = &x->causes[k];
			size_t q;
			for (q = 0; q < c->nquotes; q++)
				redact_learn(rd, c->quotes[q].text);
		}
}

/* ---- the summary ------------------------------------------------------------- */

static void
gpu_summary(const struct facts *f, struct buf *b)
{
	int i, j;

	if (!f->pci_valid && !f->ngpus) {
		buf_adds(b, "unknown (the PCI bus was not read)");
		return;
	}
	if (!f->ngpus) {
		buf_adds(b, "no NVIDIA GPU on the PCI bus");
		return;
	}
	for (i = 0; i < f->ngpus; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		int same = 0;
		for (j = 0; j < i; j++)
			same |= !strcmp(f->gpus[j].name, g->name);
		if (same)
			continue;
		int count = 0;
		for (j = i; j < f->ngpus; j++)
			count += !strcmp(f->gpus[j].name, g->name);
		if (b->len)
			buf_adds(b, "; ");
		if (count > 1)
			buf_addf(b, "%d x ", count);
		buf_adds(b, g->name[0] ? g->name : "NVIDIA GPU");
		if (g->compute_capability[0] || g->memory_total_mib || g->kb_memory_mib) {
			buf_adds(b, " (");
			if (g->compute_capability[0])
				buf_addf(b, "compute %s", g->compute_capability);
			uint64_t mib = g->memory_total_mib ? g->memory_total_mib : g->kb_memory_mib;
			if (mib)
				buf_addf(b, "%s%.0f GiB", g->compute_capability[0] ? ", " : "", mib / 1024.0);
			buf_adds(b, ")");
		}
		if (g->kernel_driver[0] && strcmp(g->kernel_driver, "nvidia"))
			buf_addf(b, ", bound to %s", g->kernel_driver);
	}
}

static void
driver_summary(const struct facts *f, struct buf *b)
{
	const struct driver_facts *d = &f->driver;

	if (d->version[0]) {
		buf_adds(b, d->version);
		if (d->cuda_version[0])
			buf_addf(b, ", runs CUDA up to %s", d->cuda_version);
		if (f->kmod.flavour[0])
			buf_addf(b, ", %s kernel module", f->kmod.flavour);
	} else if (f->kmod.nvidia) {
		buf_adds(b, "kernel module loaded, version unknown");
	} else {
		buf_adds(b, "none found");
	}
	if (d->cuinit_called && d->cuinit_rc)
		buf_addf(b, "; cuInit fails: %s", d->cuinit_name[0] ? d->cuinit_name : "error");
}

static const struct lib_facts *
lib_pick(const struct facts *f, const char *name)
{
	const struct lib_facts *any = NULL;
	int i;

	for (i = 0; i < f->nlibs; i++) {
		if (strcmp(f->libs[i].name, name))
			continue;
		if (f->libs[i].loader_pick)
			return &f->libs[i];
		if (!any)
			any = &f->libs[i];
	}
	return any;
}

static void
libs_summary(const struct facts *f, struct buf *b)
{
	static const char *const names[] = {"cudart", "cublas", "cudnn", "nccl", NULL};
	static const char *const shown[] = {"CUDA runtime", "cuBLAS", "cuDNN", "NCCL", NULL};
	int i, n = 0;

	for (i = 0; names[i]; i++) {
		const struct lib_facts *l = lib_pick(f, names[i]);
		if (!l)
			continue;
		buf_addf(b, "%s%s %s", n++ ? ", " : "", shown[i], l->version[0] ? l->version : "(version unknown)");
	}
	if (!n)
		buf_adds(b, "none outside Python environments");
}

static void
frameworks_summary(const struct facts *f, struct buf *b)
{
	int i, j, n = 0;

	for (i = 0; i < f->npython; i++) {
		const struct python_env_facts *e = &f->python[i];
		for (j = 0; j < e->nframeworks; j++) {
			const struct framework_facts *fw = &e->frameworks[j];
			if (n == 6) {
				buf_adds(b, "; ...");
				return;
			}
			buf_addf(b, "%s%s %s", n++ ? "; " : "", fw->package[0] ? fw->package : fw->name,
				 fw->version);
			if (fw->cuda_build == 0)
				buf_adds(b, " (CPU build)");
			else if (fw->built_cuda[0])
				buf_addf(b, " (CUDA %s)", fw->built_cuda);
			buf_addf(b, " in %s", e->path);
			if (fw->live.ran)
				buf_addf(b, ", %s", fw->live.cuda_available ? "sees the GPU" : "sees no GPU");
		}
	}
	if (!n)
		buf_addf(b, f->npython ? "none installed (%d Python environments)" : "no Python environment found",
			 f->npython);
}

static void
system_summary(const struct facts *f, struct buf *b)
{
	const struct host_facts *h = &f->host;

	buf_adds(b, h->os_pretty[0] ? h->os_pretty : h->os_id[0] ? h->os_id : "unknown system");
	if (h->kernel_release[0])
		buf_addf(b, ", kernel %s", h->kernel_release);
	if (h->arch[0])
		buf_addf(b, ", %s", h->arch);
	if (h->wsl)
		buf_adds(b, ", WSL2");
	if (h->container)
		buf_addf(b, ", in a %s container", h->container_kind[0] ? h->container_kind : "");
	if (h->hypervisor[0])
		buf_adds(b, ", virtual machine");
}

static void
summary(struct rw *w, const struct facts *f)
{
	static const char *const head[] = {"Machine", ""};
	struct {
		const char *label;
		void (*fn)(const struct facts *, struct buf *);
	} rows[] = {
		{"GPU", gpu_summary},
		{"Driver", driver_summary},
		{"CUDA libraries", libs_summary},
		{"Frameworks", frameworks_summary},
		{"System", system_summary},
	};
	size_t i;

	rw_table_begin(w, 2, head);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct buf b;
		buf_init(&b);
		rows[i].fn(f, &b);
		const char *cells[] = {rows[i].label, b.s ? b.s : ""};
		rw_row(w, cells);
		buf_release(&b);
	}
	rw_table_end(w);
}

/* Layer | Verdict: the worst finding of each layer, "ok" when none. */
static enum severity bench_worst(const json_t *b);

static void
layers(struct rw *w, const struct facts *f, const struct findings *fs, const struct explain *x,
       const json_t *bench)
{
	static const char *const head[] = {"Layer", "Verdict"};
	static const struct {
		const char *id, *name;
		unsigned part;
	} L[] = {
		{"host", "system", FACTS_PART_HOST},
		{"hw", "GPU hardware", FACTS_PART_GPUS},
		{"kmod", "kernel module", FACTS_PART_KMOD},
		{"driver", "driver", FACTS_PART_DRIVER},
		{"lib", "CUDA libraries", FACTS_PART_LIBS},
		{"fw", "frameworks", FACTS_PART_PYTHON},
		{"env", "environment", FACTS_PART_ENV},
		{"mem", "GPU memory", FACTS_PART_PROCS},
	};
	size_t i, k;

	rw_table_begin(w, 2, head);
	for (i = 0; i < sizeof(L) / sizeof(L[0]); i++) {
		int shown = 0;
		rw_row_begin(w);
		rw_cell_begin(w);
		rw_text(w, L[i].name);
		rw_text(w, " ");
		rw_code(w, L[i].id);
		rw_cell_end(w);
		rw_cell_begin(w);
		for (k = 0; k < fs->n; k++) {
			const struct finding *fi = &fs->v[k];
			if (strcmp(fi->layer, L[i].id))
				continue;
			if (shown == 3) {
				rw_text(w, ", ...");
				break;
			}
			if (shown++)
				rw_text(w, ", ");
			rw_strong(w, sev_word(fi->severity));
			rw_text(w, " ");
			rw_code(w, fi->id);
		}
		if (!shown)
			rw_text(w, f->unknown_parts & L[i].part ? "not recorded" : "ok");
		rw_cell_end(w);
		rw_row_end(w);
	}
	if (x) {
		size_t n = 0;
		rw_row_begin(w);
		rw_cell_begin(w);
		rw_text(w, "the log (explain)");
		rw_cell_end(w);
		rw_cell_begin(w);
		for (k = 0; k < x->ncauses && n < 3; k++) {
			const struct explain_cause *c = &x->causes[k];
			if (c->role != EXPLAIN_CAUSE && c->role != EXPLAIN_SYMPTOM)
				continue;
			if (n++)
				rw_text(w, ", ");
			rw_strong(w, sev_word(c->severity));
			rw_text(w, " ");
			rw_code(w, c->id);
		}
		if (!n)
			rw_text(w, "no known error");
		rw_cell_end(w);
		rw_row_end(w);
	}
	if (bench) {
		enum severity sv = bench_worst(bench);
		rw_row_begin(w);
		rw_cell_begin(w);
		rw_text(w, "the benchmark (bench)");
		rw_cell_end(w);
		rw_cell_begin(w);
		if (sv > SEV_INFO) {
			rw_strong(w, sev_word(sv));
			rw_text(w, " (see the benchmark)");
		} else {
			rw_text(w, "ok");
		}
		rw_cell_end(w);
		rw_row_end(w);
	}
	rw_table_end(w);
}

/* ---- findings and fixes ---------------------------------------------------------- */

/* A fix: prose as paragraphs, each run of commands as one block to paste. */
static void
fix(struct rw *w, const char *text)
{
	struct buf cmds;
	const char *p = text;

	buf_init(&cmds);
	rw_para_begin(w);
	rw_strong(w, "Fix:");
	rw_para_end(w);
	while (*p) {
		size_t n = strcspn(p, "\n");
		char *line = strndup(p, n);

		if (line && wrap_is_command(line)) {
			const char *s = line;
			while (*s == ' ')
				s++;
			buf_adds(&cmds, s);
			buf_addch(&cmds, '\n');
		} else if (line) {
			if (cmds.len) {
				rw_block(w, "sh", cmds.s);
				buf_reset(&cmds);
			}
			if (*str_trim(line))
				rw_para(w, line);
		}
		free(line);
		p += n;
		if (*p == '\n')
			p++;
	}
	if (cmds.len)
		rw_block(w, "sh", cmds.s);
	buf_release(&cmds);
}

static void
findings(struct rw *w, const struct findings *fs)
{
	size_t i;
	int k;

	size_t *order = malloc((fs->n ? fs->n : 1) * sizeof(*order)), n = 0;
	int sev;

	if (!order)
		return;
	/* worst first, each severity in the rules' order */
	for (sev = SEV_ERROR; sev >= SEV_INFO; sev--)
		for (i = 0; i < fs->n; i++)
			if ((int)fs->v[i].severity == sev)
				order[n++] = i;
	rw_heading(w, 2, "Findings");
	if (!fs->n)
		rw_para(w, "No problems found.");
	for (size_t r = 0; r < fs->n; r++) {
		const struct finding *fi = &fs->v[order[r]];
		struct buf h;

		buf_init(&h);
		buf_addf(&h, "%s %s: %s", sev_word(fi->severity), fi->id, fi->title);
		rw_heading(w, 3, h.s);
		buf_release(&h);
		if (fi->env) {
			rw_para_begin(w);
			rw_text(w, "In the Python environment ");
			rw_code(w, fi->env);
			rw_para_end(w);
		}
		if (fi->nevidence) {
			rw_list_begin(w);
			for (k = 0; k < fi->nevidence; k++)
				rw_item(w, fi->evidence[k]);
			rw_list_end(w);
		}
		if (fi->fix)
			fix(w, fi->fix);
	}
	free(order);
}

/* ---- the log --------------------------------------------------------------------- */

static void
quotes_block(struct rw *w, const struct explain_cause *c, size_t max)
{
	struct buf b;
	size_t i;

	if (!c->nquotes)
		return;
	buf_init(&b);
	for (i = 0; i < c->nquotes && i < max; i++)
		buf_addf(&b, "%6lu | %s\n", c->quotes[i].line, c->quotes[i].text);
	rw_block(w, "text", b.s);
	buf_release(&b);
}

static void
log_section(struct rw *w, const struct explain *x, const char *name)
{
	size_t i, rank = 0, nbenign = 0;
	const struct explain_cause *unknown = NULL;
	struct buf h;
	int k;

	buf_init(&h);
	buf_addf(&h, "The log: %s (%lu line%s)", name, x->lines, x->lines == 1 ? "" : "s");
	rw_heading(w, 2, h.s);
	for (i = 0; i < x->ncauses; i++) {
		const struct explain_cause *c = &x->causes[i];
		if (c->role == EXPLAIN_BENIGN) {
			nbenign++;
			continue;
		}
		if (c->role == EXPLAIN_UNKNOWN) {
			unknown = c;
			continue;
		}
		buf_reset(&h);
		buf_addf(&h, "%zu. %s %s: %s", ++rank, sev_word(c->severity), c->id, c->title);
		rw_heading(w, 3, h.s);
		quotes_block(w, c, EXPLAIN_MAX_QUOTES);
		if (c->explain)
			rw_para(w, c->explain);
		if (c->nevidence || c->nfolded) {
			rw_list_begin(w);
			for (k = 0; k < c->nevidence; k++)
				rw_item(w, c->evidence[k]);
			for (k = 0; k < (int)c->nfolded; k++) {
				buf_reset(&h);
				buf_addf(&h, "also explains line %lu: %s (%s)", c->folded[k].line, c->folded[k].title,
					 c->folded[k].id);
				rw_item(w, h.s);
			}
			rw_list_end(w);
		}
		if (c->fix)
			fix(w, c->fix);
	}
	if (!rank)
		rw_para(w, "No known error from the GPU stack (driver, CUDA, cuDNN, TensorFlow, PyTorch, JAX, "
			   "containers) in it.");
	if (nbenign) {
		rw_details_begin(w, "Harmless messages in the log (rt.benign_warning)");
		rw_list_begin(w);
		for (i = 0; i < x->ncauses; i++) {
			const struct explain_cause *c = &x->causes[i];
			if (c->role != EXPLAIN_BENIGN)
				continue;
			buf_reset(&h);
			buf_addf(&h, "line %lu: %s. %s", c->lines[0], c->title, c->explain ? c->explain : "");
			rw_item(w, h.s);
		}
		rw_list_end(w);
		rw_details_end(w);
	}
	if (unknown && unknown->nquotes) {
		rw_details_begin(w, "GPU-related lines nothing explains (rt.unknown)");
		quotes_block(w, unknown, EXPLAIN_MAX_UNKNOWN);
		rw_details_end(w);
	}
	buf_release(&h);
}

/* ---- a benchmark ------------------------------------------------------------------ */

/* A string of the bench document, made safe to show on a terminal (the
 * document is a file anyone may have written): at most 160 bytes, in one of
 * four rotating buffers so a call can take several. */
static const char *
jstr(const json_t *o, const char *key)
{
	static char bufs[4][160];
	static int next;
	const char *v = json_string_value(json_object_get(o, key));
	char *b = bufs[next++ % 4];

	str_copy(b, sizeof(bufs[0]), v ? v : "");
	text_clean_str(b, sizeof(bufs[0]));
	return b;
}

/* "88 %" of a share, "" when the document has none. */
static void
share(char *out, size_t size, const json_t *v)
{
	if (json_is_number(v))
		snprintf(out, size, "%.0f %%", json_number_value(v) * 100);
	else
		str_copy(out, size, "");
}

static enum severity
bench_worst(const json_t *b)
{
	enum severity worst = SEV_INFO;
	size_t i;
	json_t *fi;

	json_array_foreach(json_object_get(b, "findings"), i, fi) {
		int s = severity_parse(jstr(fi, "severity"));
		if (s > (int)worst)
			worst = (enum severity)s;
	}
	return worst;
}

static void
bench_section(struct rw *w, const json_t *b)
{
	static const char *const head[] = {"test", "result", "of peak", "of reference", "state"};
	const json_t *gpu = json_object_get(b, "gpu"), *t, *fi;
	size_t i;

	rw_heading(w, 2, "Benchmark (gpudoctor bench)");
	rw_para_begin(w);
	if (json_is_object(gpu)) {
		rw_text(w, "Measured on ");
		rw_text(w, jstr(gpu, "name"));
		rw_textf(w, " (%s, compute %s)", jstr(gpu, "pci_bus_id"), jstr(gpu, "compute_capability"));
	} else {
		rw_text(w, "No GPU measured: ");
		rw_text(w, jstr(b, "no_gpu"));
	}
	{
		size_t n = 0, ok = 0;
		json_array_foreach(json_object_get(b, "tests"), i, t) {
			n++;
			ok += json_is_true(json_object_get(t, "verified"));
		}
		rw_textf(w, "; each result the median of its timed runs, %zu of %zu checked against a "
			    "reference computation.", ok, n);
	}
	rw_para_end(w);
	rw_table_begin(w, 5, head);
	json_array_foreach(json_object_get(b, "tests"), i, t) {
		char value[64] = "", peak[16], ref[16], state[200];
		const json_t *v = json_object_get(t, "value");

		if (json_is_number(v))
			snprintf(value, sizeof(value), "%.1f %s", json_number_value(v), jstr(t, "unit"));
		share(peak, sizeof(peak), json_object_get(t, "of_peak"));
		share(ref, sizeof(ref), json_object_get(t, "of_reference"));
		if (json_is_false(json_object_get(t, "verified")))
			snprintf(state, sizeof(state), "WRONG RESULT");
		else if (*jstr(t, "error"))
			snprintf(state, sizeof(state), "%s: %s", jstr(t, "state"), jstr(t, "error"));
		else
			snprintf(state, sizeof(state), "%s", jstr(t, "state"));
		const char *cells[] = {jstr(t, "name"), value, peak, ref, state};
		rw_row(w, cells);
	}
	rw_table_end(w);
	if (json_array_size(json_object_get(b, "findings"))) {
		rw_list_begin(w);
		json_array_foreach(json_object_get(b, "findings"), i, fi) {
			int sv = severity_parse(jstr(fi, "severity"));
			rw_item_begin(w);
			rw_strong(w, sev_word(sv < 0 ? SEV_INFO : (enum severity)sv));
			rw_text(w, " ");
			rw_code(w, jstr(fi, "id"));
			rw_text(w, ": ");
			rw_text(w, jstr(fi, "title"));
			rw_item_end(w);
		}
		rw_list_end(w);
	}
}

/* ---- the rest, collapsed ---------------------------------------------------------- */

/* The verbose doctor report, one collapsed section per group of its parts. */
static void
doctor_parts(struct rw *w, const struct facts *f)
{
	static const struct {
		const char *first, *summary;
	} parts[] = {
		{"HOST", "System, GPU, kernel module and driver"},
		{"CUDA LIBRARIES", "CUDA libraries (* = the copy the loader picks)"},
		{"PYTHON", "Python environments and frameworks"},
		{"ENVIRONMENT", "Environment variables"},
		{"RESOURCES", "GPU state and processes"},
		{"PROBE NOTES", "Probe notes"},
	};
	struct render_opts ro = {.width = 80, .verbose = true};
	struct findings none = {0};
	char *text = NULL, *end;
	size_t len = 0, i;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return;
	render_text(mem, f, &none, &ro);
	fclose(mem);
	if (!text)
		return;
	end = strstr(text, "\nFINDINGS\n");
	if (end)
		*end = 0;
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		char key[48];
		char *s, *e = NULL;
		size_t j;

		snprintf(key, sizeof(key), "\n%s\n", parts[i].first);
		s = strstr(text, key);
		if (!s)
			continue;
		s++;
		for (j = i + 1; j < sizeof(parts) / sizeof(parts[0]) && !e; j++) {
			snprintf(key, sizeof(key), "\n%s\n", parts[j].first);
			e = strstr(s, key);
		}
		{
			size_t n = e ? (size_t)(e - s) : strlen(s);
			char *part = strndup(s, n);
			if (!part)
				break;
			while (n && part[n - 1] == '\n')
				part[--n] = 0;
			rw_details_begin(w, parts[i].summary);
			rw_block(w, "text", part);
			rw_details_end(w);
			free(part);
		}
	}
	free(text);
}

static void
facts_section(struct rw *w, const char *facts_text)
{
	if (!facts_text)
		return;
	rw_details_begin(w, "Facts (gpudoctor doctor --json)");
	rw_block(w, "json", facts_text);
	rw_details_end(w);
}

/* ---- the whole --------------------------------------------------------------------- */

static void
verdict(struct rw *w, const struct facts *f, const struct findings *fs, const struct explain *x)
{
	size_t i, nerr = 0, nwarn = 0;
	const struct finding *first = NULL;
	const struct explain_cause *cause = NULL;
	enum severity worst = SEV_INFO;

	for (i = 0; i < fs->n; i++) {
		const struct finding *fi = &fs->v[i];
		nerr += fi->severity == SEV_ERROR;
		nwarn += fi->severity == SEV_WARN;
		if (fi->severity > SEV_INFO && (!first || fi->severity > first->severity))
			first = fi;
		if (fi->severity > worst)
			worst = fi->severity;
	}
	if (x)
		for (i = 0; i < x->ncauses && !cause; i++)
			if (x->causes[i].role == EXPLAIN_CAUSE || x->causes[i].role == EXPLAIN_SYMPTOM)
				cause = &x->causes[i];
	if (cause && cause->severity > worst)
		worst = cause->severity;
	rw_para_begin(w);
	rw_strong(w, worst == SEV_INFO ? "OK" : sev_word(worst));
	rw_text(w, " ");
	if (cause) {
		/* the log is why the report is written: its cause first */
		rw_text(w, "the log: ");
		rw_text(w, cause->title);
		rw_text(w, " (");
		rw_code(w, cause->id);
		rw_text(w, "); this machine: ");
	}
	if (!first && f) {
		struct buf m;
		buf_init(&m);
		gpu_summary(f, &m);
		rw_text(w, "no problem found: ");
		rw_text(w, m.s ? m.s : "");
		if (f->driver.version[0])
			rw_textf(w, ", driver %s", f->driver.version);
		buf_release(&m);
	} else if (!first) {
		rw_text(w, "no problem found");
	} else {
		rw_textf(w, "%zu error%s, %zu warning%s: ", nerr, nerr == 1 ? "" : "s", nwarn,
			 nwarn == 1 ? "" : "s");
		rw_text(w, first->title);
		rw_text(w, " (");
		rw_code(w, first->id);
		rw_text(w, ")");
	}
	rw_text(w, ".");
	rw_para_end(w);
}

static char *
facts_json_text(const struct facts *f, const struct findings *fs)
{
	json_t *doc = facts_to_json(f, fs);
	char *s;

	if (!doc)
		return NULL;
	s = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	return s;
}

int
report_render(const struct report_input *in, enum report_format fmt, struct buf *out)
{
	struct redact *rd = redact_new(in->redact);
	struct rw w;
	char *facts_text, marker[256];
	struct buf title;

	if (!rd)
		return -1;
	facts_text = facts_json_text(in->f, in->fs);
	learn(rd, in->f, in->x, facts_text);
	if (fmt == REPORT_HTML)
		rw_html(&w, rd);
	else
		rw_markdown(&w, rd, in->limit);

	buf_init(&title);
	buf_adds(&title, "gpudoctor report");
	if (in->f->hostname[0])
		buf_addf(&title, ": %s", in->redact ? "<host>" : in->f->hostname);
	rw_begin(&w, title.s);
	if (fmt == REPORT_HTML)
		rw_heading(&w, 1, title.s);
	buf_release(&title);

	verdict(&w, in->f, in->fs, in->x);
	summary(&w, in->f);
	layers(&w, in->f, in->fs, in->x, in->bench);
	if (in->more)
		in->more(&w, in->more_arg);
	findings(&w, in->fs);
	if (in->x)
		log_section(&w, in->x, in->log_name ? in->log_name : "log");
	if (in->bench)
		bench_section(&w, in->bench);
	rw_heading(&w, 2, "Details");
	doctor_parts(&w, in->f);
	facts_section(&w, facts_text);

	snprintf(marker, sizeof(marker), "gpudoctor %s report (facts %s)%s",
		 in->f->tool_version[0] ? in->f->tool_version : GPUDOCTOR_VERSION, FACTS_SCHEMA,
		 in->redact ? ", user names, host names, UUIDs, serial numbers and addresses redacted" : "");
	rw_end(&w, marker);
	buf_add(out, w.out.s ? w.out.s : "", w.out.len);
	rw_release(&w);
	free(facts_text);
	redact_free(rd);
	return out->truncated ? -1 : 0;
}
