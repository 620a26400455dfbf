/*
 * from_prom.c - fleet rows from a Prometheus server that scrapes
 * `gpudoctor serve` (or dcgm-exporter: the GPU columns use its names):
 * instant queries over the HTTP API (GET /api/v1/query), grouped by the
 * target's `instance`. HTTP goes through the machine's libcurl, loaded at
 * run time (libcurl.so.4), so gpudoctor needs it only for this.
 */
#include "fleet/fleet.h"
#include "base/str.h"
#include "base/xalloc.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static struct {
	bool loaded;
	__typeof__(curl_easy_init) *init;
	__typeof__(curl_easy_setopt) *setopt;
	__typeof__(curl_easy_perform) *perform;
	__typeof__(curl_easy_cleanup) *cleanup;
	__typeof__(curl_easy_strerror) *strerror_;
	__typeof__(curl_easy_escape) *escape;
	__typeof__(curl_easy_getinfo) *getinfo;
	__typeof__(curl_free) *free_;
} curl;

static int
load_curl(char *err, size_t errsize)
{
	void *h;

	if (curl.loaded)
		return 0;
	if (!(h = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL))) {
		snprintf(err, errsize, "--prom needs libcurl (libcurl.so.4, Debian's libcurl4): %s", dlerror());
		return -1;
	}
	*(void **)&curl.init = dlsym(h, "curl_easy_init");
	*(void **)&curl.setopt = dlsym(h, "curl_easy_setopt");
	*(void **)&curl.perform = dlsym(h, "curl_easy_perform");
	*(void **)&curl.cleanup = dlsym(h, "curl_easy_cleanup");
	*(void **)&curl.strerror_ = dlsym(h, "curl_easy_strerror");
	*(void **)&curl.escape = dlsym(h, "curl_easy_escape");
	*(void **)&curl.getinfo = dlsym(h, "curl_easy_getinfo");
	*(void **)&curl.free_ = dlsym(h, "curl_free");
	if (!curl.init || !curl.setopt || !curl.perform || !curl.cleanup || !curl.strerror_ || !curl.escape ||
	    !curl.getinfo || !curl.free_) {
		snprintf(err, errsize, "libcurl.so.4 lacks the easy interface");
		return -1;
	}
	curl.loaded = true;
	return 0;
}

struct body {
	char *s;
	size_t n;
};

static size_t
on_data(char *p, size_t size, size_t nmemb, void *arg)
{
	struct body *b = arg;
	size_t k = size * nmemb;

	if (b->n + k > (64u << 20))
		return 0;            /* an answer past 64 MiB: refuse */
	b->s = xrealloc(b->s, b->n + k + 1);
	memcpy(b->s + b->n, p, k);
	b->n += k;
	b->s[b->n] = '\0';
	return k;
}

/* The result vector of one instant query, or NULL with err. */
static json_t *
query(const char *base, const char *q, const char *userpwd, int timeout_ms, char *err, size_t errsize)
{
	CURL *c = curl.init();
	struct body b = {0};
	char *esc, *url;
	long code = 0;
	CURLcode rc;
	json_t *doc, *res;
	json_error_t e;

	if (!c) {
		snprintf(err, errsize, "curl_easy_init failed");
		return NULL;
	}
	esc = curl.escape(c, q, 0);
	url = xasprintf("%s/api/v1/query?query=%s", base, esc ? esc : "");
	curl.free_(esc);
	curl.setopt(c, CURLOPT_URL, url);
	curl.setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl.setopt(c, CURLOPT_WRITEDATA, &b);
	curl.setopt(c, CURLOPT_TIMEOUT_MS, (long)timeout_ms);
	curl.setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl.setopt(c, CURLOPT_USERAGENT, "gpudoctor-fleet");
	if (userpwd)
		curl.setopt(c, CURLOPT_USERPWD, userpwd);
	rc = curl.perform(c);
	curl.getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	curl.cleanup(c);
	free(url);
	if (rc != CURLE_OK) {
		snprintf(err, errsize, "%s: %s", base, curl.strerror_(rc));
		free(b.s);
		return NULL;
	}
	doc = b.s ? json_loads(b.s, 0, &e) : NULL;
	free(b.s);
	if (code != 200 || !doc || !json_string_value(json_object_get(doc, "status")) ||
	    strcmp(json_string_value(json_object_get(doc, "status")), "success")) {
		const char *why = doc ? json_string_value(json_object_get(doc, "error")) : NULL;
		snprintf(err, errsize, "%s answered HTTP %ld%s%s (is it a Prometheus server?)", base, code, why ? ": " : "",
			 why ? why : "");
		json_decref(doc);
		return NULL;
	}
	res = json_incref(json_object_get(json_object_get(doc, "data"), "result"));
	json_decref(doc);
	return res;
}

static struct fleet_node *
node_for(struct fleet *f, const char *instance)
{
	int i;
	struct fleet_node *n;

	for (i = 0; i < f->n; i++)
		if (!strcmp(f->nodes[i].source, instance))
			return &f->nodes[i];
	n = fleet_add(f);
	str_copy(n->source, sizeof(n->source), instance);
	str_copy(n->host, sizeof(n->host), instance);
	return n;
}

static double
value_of(json_t *r)
{
	const char *v = json_string_value(json_array_get(json_object_get(r, "value"), 1));

	return v ? strtod(v, NULL) : FLEET_NA;
}

static const char *
label(json_t *r, const char *k)
{
	const char *s = json_string_value(json_object_get(json_object_get(r, "metric"), k));

	return s ? s : "";
}

enum {
	Q_JOBS, Q_GPUS, Q_EXPECT, Q_LABELS, Q_CUDA, Q_TEMP, Q_UTIL, Q_USED, Q_TOTAL, Q_ECC, Q_XID, Q_THROTTLED,
	Q_LINK_W, Q_LINK_WMAX, Q_LINK_G, Q_LINK_GMAX, Q_BENCH, Q_FINDINGS, Q_AGE, NQ
};

static const char *const queries[NQ] = {
	"count by (job) (last_over_time(gpudoctor_build_info[1d]))",
	"count by (instance) (DCGM_FI_DEV_GPU_TEMP)",
	"max by (instance) (gpudoctor_pci_gpus)",
	"count by (instance, modelName, Hostname, DCGM_FI_DRIVER_VERSION) (DCGM_FI_DEV_GPU_TEMP)",
	"max by (instance, version, cuda) (gpudoctor_driver_info)",
	"max by (instance) (DCGM_FI_DEV_GPU_TEMP)",
	"avg by (instance) (DCGM_FI_DEV_GPU_UTIL)",
	"sum by (instance) (DCGM_FI_DEV_FB_USED)",
	"sum by (instance) (DCGM_FI_DEV_FB_USED + DCGM_FI_DEV_FB_FREE)",
	"sum by (instance) (DCGM_FI_DEV_ECC_DBE_VOL_TOTAL)",
	"max by (instance) (DCGM_FI_DEV_XID_ERRORS)",
	"count by (instance) (sum by (instance, gpu) (gpudoctor_clock_event_active{reason=~\"HW slowdown|HW thermal slowdown|HW power brake|SW thermal slowdown\"}) > 0)",
	"min by (instance) (gpudoctor_pcie_link_width)",
	"max by (instance) (gpudoctor_pcie_link_width_max)",
	"min by (instance) (gpudoctor_pcie_link_gen)",
	"max by (instance) (gpudoctor_pcie_link_gen_max)",
	"max by (instance) (gpudoctor_bench_result{test=\"gemm_bf16\"})",
	"sum by (instance, severity) (gpudoctor_findings)",
	"time() - max by (instance) (gpudoctor_last_sample_timestamp_seconds)",
};

int
fleet_from_prom(struct fleet *f, const char *url, const char *userpwd, int timeout_ms, char *err, size_t errsize)
{
	json_t *r[NQ], *x, *up;
	char base[2048], jobs[1024] = "", *q;
	double lw[4][256];
	size_t i;
	int k;

	if (load_curl(err, errsize) < 0)
		return -1;
	str_copy(base, sizeof(base), url);
	while (base[0] && base[strlen(base) - 1] == '/')
		base[strlen(base) - 1] = '\0';
	for (k = 0; k < NQ; k++) {
		if (!(r[k] = query(base, queries[k], userpwd, timeout_ms, err, errsize))) {
			while (k--)
				json_decref(r[k]);
			return -1;
		}
	}
	/* every target of the jobs that scrape gpudoctor, answering or not */
	json_array_foreach(r[Q_JOBS], i, x)
		str_fmt(jobs + strlen(jobs), sizeof(jobs) - strlen(jobs), "%s%s", jobs[0] ? "|" : "", label(x, "job"));
	q = xasprintf("up{job=~\"%s\"}", jobs);
	up = jobs[0] ? query(base, q, userpwd, timeout_ms, err, errsize) : json_array();
	free(q);
	if (!up) {
		for (k = 0; k < NQ; k++)
			json_decref(r[k]);
		return -1;
	}
	json_array_foreach(up, i, x)
		node_for(f, label(x, "instance"))->up = value_of(x) == 1;
	json_array_foreach(r[Q_GPUS], i, x)
		node_for(f, label(x, "instance"))->gpus = (int)value_of(x);
	json_array_foreach(r[Q_EXPECT], i, x)
		node_for(f, label(x, "instance"))->expected = (int)value_of(x);
	json_array_foreach(r[Q_LABELS], i, x) {
		struct fleet_node *n = node_for(f, label(x, "instance"));
		if (!n->model[0])
			str_copy(n->model, sizeof(n->model), label(x, "modelName"));
		else if (strcmp(n->model, label(x, "modelName")))
			str_copy(n->model, sizeof(n->model), "mixed");
		if (label(x, "Hostname")[0])
			str_copy(n->host, sizeof(n->host), label(x, "Hostname"));
		str_copy(n->driver, sizeof(n->driver), label(x, "DCGM_FI_DRIVER_VERSION"));
	}
	json_array_foreach(r[Q_CUDA], i, x) {
		struct fleet_node *n = node_for(f, label(x, "instance"));
		str_copy(n->cuda, sizeof(n->cuda), label(x, "cuda"));
		if (!n->driver[0])
			str_copy(n->driver, sizeof(n->driver), label(x, "version"));
	}
	json_array_foreach(r[Q_TEMP], i, x)
		node_for(f, label(x, "instance"))->temp_max = value_of(x);
	json_array_foreach(r[Q_UTIL], i, x)
		node_for(f, label(x, "instance"))->util_avg = value_of(x);
	json_array_foreach(r[Q_USED], i, x)
		node_for(f, label(x, "instance"))->mem_used_mib = value_of(x);
	json_array_foreach(r[Q_TOTAL], i, x)
		node_for(f, label(x, "instance"))->mem_total_mib = value_of(x);
	json_array_foreach(r[Q_ECC], i, x)
		node_for(f, label(x, "instance"))->ecc_uncorrected = value_of(x);
	json_array_foreach(r[Q_XID], i, x)
		node_for(f, label(x, "instance"))->xid = (int)value_of(x);
	for (k = 0; k < f->n; k++)
		if (f->nodes[k].up && f->nodes[k].gpus >= 0)
			f->nodes[k].throttled = 0;
	json_array_foreach(r[Q_THROTTLED], i, x)
		node_for(f, label(x, "instance"))->throttled = (int)value_of(x);
	for (k = 0; k < f->n && k < 256; k++)
		lw[0][k] = lw[1][k] = lw[2][k] = lw[3][k] = 0;
	for (k = Q_LINK_W; k <= Q_LINK_GMAX; k++)
		json_array_foreach(r[k], i, x) {
			struct fleet_node *n = node_for(f, label(x, "instance"));
			long idx = n - f->nodes;
			if (idx < 256)
				lw[k - Q_LINK_W][idx] = value_of(x);
		}
	for (k = 0; k < f->n && k < 256; k++) {
		struct fleet_node *n = &f->nodes[k];
		double w = lw[0][k], wm = lw[1][k], g = lw[2][k], gm = lw[3][k];
		if (w <= 0 || g <= 0)
			continue;
		n->link_degraded = (wm > 0 && w < wm) || (gm > 0 && g < gm);
		if (n->link_degraded)
			str_fmt(n->link, sizeof(n->link), "gen%.0f x%.0f (of %.0f x%.0f)", g, w, gm, wm);
		else
			str_fmt(n->link, sizeof(n->link), "gen%.0f x%.0f", g, w);
	}
	json_array_foreach(r[Q_BENCH], i, x)
		node_for(f, label(x, "instance"))->bench = value_of(x);
	json_array_foreach(r[Q_FINDINGS], i, x) {
		struct fleet_node *n = node_for(f, label(x, "instance"));
		const char *sev = label(x, "severity");
		if (n->errors < 0)
			n->errors = n->warnings = n->infos = 0;
		if (!strcmp(sev, "error"))
			n->errors = (int)value_of(x);
		else if (!strcmp(sev, "warning"))
			n->warnings = (int)value_of(x);
		else
			n->infos = (int)value_of(x);
	}
	json_array_foreach(r[Q_AGE], i, x)
		node_for(f, label(x, "instance"))->age_s = value_of(x);
	for (k = 0; k < NQ; k++)
		json_decref(r[k]);
	json_decref(up);
	if (!f->n) {
		snprintf(err, errsize, "%s has no gpudoctor serve (or dcgm-exporter) targets", base);
		return -1;
	}
	return 0;
}
