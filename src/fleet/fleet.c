/*
 * fleet.c - the fleet's table: outliers judged against the fleet itself,
 * then text or JSON. See fleet.h.
 */
#include "fleet/fleet.h"
#include "base/clean.h"
#include "base/str.h"
#include "base/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_FLOOR 0.9  /* of the fleet's median */

struct fleet_node *
fleet_add(struct fleet *f)
{
	struct fleet_node *n;

	if (f->n == f->alloc) {
		f->alloc = f->alloc ? 2 * f->alloc : 32;
		f->nodes = xrealloc(f->nodes, (size_t)f->alloc * sizeof(*f->nodes));
	}
	n = &f->nodes[f->n++];
	memset(n, 0, sizeof(*n));
	n->up = true;
	n->gpus = n->expected = n->xid = n->throttled = -1;
	n->errors = n->warnings = n->infos = -1;
	n->temp_max = n->util_avg = n->mem_used_mib = n->mem_total_mib = n->ecc_uncorrected = FLEET_NA;
	n->bench = n->age_s = FLEET_NA;
	return n;
}

static void
flag(struct fleet_node *n, const char *what)
{
	if (n->nflags < FLEET_MAX_FLAGS)
		n->flags[n->nflags++] = what;
}

static int
by_host(const void *a, const void *b)
{
	return strcmp(((const struct fleet_node *)a)->host, ((const struct fleet_node *)b)->host);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void
fleet_judge(struct fleet *f)
{
	double *bench = xcalloc((size_t)f->n + 1, sizeof(*bench));
	int i, j, nb = 0, best = 0, max_gpus = 0, with_driver = 0;
	bool skew = false;

	qsort(f->nodes, (size_t)f->n, sizeof(*f->nodes), by_host);
	/* the fleet's driver: the one most nodes run; with no majority every
	 * node differs from the others */
	f->driver_mode[0] = '\0';
	for (i = 0; i < f->n; i++) {
		int count = 0;
		if (!f->nodes[i].driver[0])
			continue;
		with_driver++;
		for (j = 0; j < f->n; j++)
			count += !strcmp(f->nodes[i].driver, f->nodes[j].driver);
		if (count > best) {
			best = count;
			str_copy(f->driver_mode, sizeof(f->driver_mode), f->nodes[i].driver);
		}
	}
	if (2 * best <= with_driver && best < with_driver) {
		f->driver_mode[0] = '\0';
		skew = true;
	}
	for (i = 0; i < f->n; i++) {
		if (f->nodes[i].bench > 0)
			bench[nb++] = f->nodes[i].bench;
		if (f->nodes[i].gpus > max_gpus)
			max_gpus = f->nodes[i].gpus;
	}
	qsort(bench, (size_t)nb, sizeof(*bench), cmp_double);
	f->bench_median = nb ? (nb % 2 ? bench[nb / 2] : (bench[nb / 2 - 1] + bench[nb / 2]) / 2) : FLEET_NA;
	free(bench);
	for (i = 0; i < f->n; i++) {
		struct fleet_node *n = &f->nodes[i];
		int want = f->expect_gpus ? f->expect_gpus : n->expected > 0 ? n->expected : 0;
		if (!n->up) {
			flag(n, "not answering");
			continue;
		}
		if (n->gpus >= 0 && want > 0 && n->gpus < want)
			flag(n, "GPU missing");
		if (n->driver[0] && (skew || (f->driver_mode[0] && strcmp(n->driver, f->driver_mode))))
			flag(n, "driver differs");
		if (n->bench > 0 && f->bench_median > 0 && n->bench < BENCH_FLOOR * f->bench_median)
			flag(n, "slow");
		if (n->ecc_uncorrected > 0)
			flag(n, "uncorrected ECC");
		if (n->xid > 0)
			flag(n, "Xid");
		if (n->throttled > 0)
			flag(n, "throttled");
		if (n->link_degraded)
			flag(n, "PCIe link degraded");
		if (n->errors > 0)
			flag(n, "errors");
		if (f->max_age_s > 0 && n->age_s > f->max_age_s)
			flag(n, "old data");
		if (!strcmp(n->model, "mixed"))
			flag(n, "mixed GPU models");
	}
	(void)max_gpus;
}

/* v rounded, with a unit after it ("71C", "88%"), or "-". */
static void
num(char *out, size_t size, double v, const char *unit)
{
	if (v == FLEET_NA || isnan(v))
		str_copy(out, size, "-");
	else
		str_fmt(out, size, "%.0f%s", v, unit);
}

static void
age(char *out, size_t size, double s)
{
	if (s == FLEET_NA)
		str_copy(out, size, "-");
	else if (s < 120)
		str_fmt(out, size, "%.0fs", s);
	else if (s < 7200)
		str_fmt(out, size, "%.0fm", s / 60);
	else if (s < 172800)
		str_fmt(out, size, "%.0fh", s / 3600);
	else
		str_fmt(out, size, "%.0fd", s / 86400);
}

void
fleet_text(FILE *out, const struct fleet *f, bool color)
{
	int i, k, flagged = 0;

	fprintf(out, "%-18s %-7s %-24s %-12s %-5s %5s %5s %-13s %-4s %-16s %7s %-9s %5s  %s\n", "HOST", "GPUS", "MODEL",
		"DRIVER", "CUDA", "TEMP", "UTIL", "MEMORY", "XID", "PCIE", "BENCH", "FINDINGS", "AGE", "OUTLIERS");
	for (i = 0; i < f->n; i++) {
		const struct fleet_node *n = &f->nodes[i];
		char host[128], model[96], gpus[16], temp[16], util[16], mem[24], xid[8], bench[16], finds[24], ag[16];
		char driver[40], cuda[16], link[24];
		/* every text came from another machine's document or Prometheus labels */
		str_copy(host, sizeof(host), n->host);
		text_clean_str(host, sizeof(host));
		str_copy(driver, sizeof(driver), n->driver[0] ? n->driver : "-");
		text_clean_str(driver, sizeof(driver));
		str_copy(cuda, sizeof(cuda), n->cuda[0] ? n->cuda : "-");
		text_clean_str(cuda, sizeof(cuda));
		str_copy(link, sizeof(link), n->link[0] ? n->link : "-");
		text_clean_str(link, sizeof(link));
		str_copy(model, sizeof(model), n->model[0] ? n->model : "-");
		text_clean_str(model, sizeof(model));
		if (n->gpus < 0)
			str_copy(gpus, sizeof(gpus), "-");
		else if (n->expected > n->gpus || (f->expect_gpus && f->expect_gpus != n->gpus))
			str_fmt(gpus, sizeof(gpus), "%d/%d", n->gpus, f->expect_gpus ? f->expect_gpus : n->expected);
		else
			str_fmt(gpus, sizeof(gpus), "%d", n->gpus);
		num(temp, sizeof(temp), n->temp_max, "C");
		num(util, sizeof(util), n->util_avg, "%");
		if (n->mem_used_mib >= 0 && n->mem_total_mib > 0)
			str_fmt(mem, sizeof(mem), "%.0f/%.0fG", n->mem_used_mib / 1024, n->mem_total_mib / 1024);
		else
			str_copy(mem, sizeof(mem), "-");
		if (n->xid < 0)
			str_copy(xid, sizeof(xid), "-");
		else
			str_fmt(xid, sizeof(xid), "%d", n->xid);
		num(bench, sizeof(bench), n->bench, "");
		if (n->errors < 0)
			str_copy(finds, sizeof(finds), "-");
		else
			str_fmt(finds, sizeof(finds), "%dE %dW", n->errors, n->warnings);
		age(ag, sizeof(ag), n->age_s);
		fprintf(out, "%-18.18s %-7s %-24.24s %-12.12s %-5.5s %5s %5s %-13s %-4s %-16.16s %7s %-9s %5s  ", host, gpus,
			model, driver, cuda, temp, util, mem, xid, link, bench, finds, ag);
		if (n->nflags) {
			flagged++;
			fputs(color ? "\033[31m" : "", out);
			for (k = 0; k < n->nflags; k++)
				fprintf(out, "%s%s", k ? ", " : "", n->flags[k]);
			fputs(color ? "\033[0m" : "", out);
		}
		fputc('\n', out);
	}
	fprintf(out, "\n%d node%s, %d with outliers", f->n, f->n == 1 ? "" : "s", flagged);
	if (f->driver_mode[0]) {
		char mode[40];
		str_copy(mode, sizeof(mode), f->driver_mode);
		text_clean_str(mode, sizeof(mode));
		fprintf(out, "; fleet driver %s", mode);
	}
	else if (f->n > 1)
		fprintf(out, "; no driver that most nodes run");
	if (f->bench_median > 0)
		fprintf(out, "; bench median %.0f TFLOP/s (bf16 GEMM), slow below %.0f", f->bench_median,
			BENCH_FLOOR * f->bench_median);
	fputs(".\n", out);
}

static json_t *
opt(double v)
{
	return v == FLEET_NA || isnan(v) ? json_null() : json_real(v);
}

static json_t *
opt_int(int v)
{
	return v < 0 ? json_null() : json_integer(v);
}

json_t *
fleet_json(const struct fleet *f)
{
	json_t *o = json_pack("{s:s,s:s*,s:o}", "schema", "gpudoctor/fleet/1", "driver", f->driver_mode[0] ? f->driver_mode : NULL,
			      "bench_median", opt(f->bench_median));
	json_t *a = json_array();
	int i, k;

	for (i = 0; i < f->n; i++) {
		const struct fleet_node *n = &f->nodes[i];
		json_t *flags = json_array(), *x;
		for (k = 0; k < n->nflags; k++)
			json_array_append_new(flags, json_string(n->flags[k]));
		x = json_pack("{s:s,s:s,s:b,s:o,s:o,s:s,s:s,s:s}", "host", n->host, "source", n->source, "up", n->up, "gpus",
			      opt_int(n->gpus), "expected_gpus", opt_int(n->expected), "model", n->model, "driver", n->driver,
			      "cuda", n->cuda);
		json_object_set_new(x, "temperature_max_c", opt(n->temp_max));
		json_object_set_new(x, "utilization_avg_pct", opt(n->util_avg));
		json_object_set_new(x, "memory_used_mib", opt(n->mem_used_mib));
		json_object_set_new(x, "memory_total_mib", opt(n->mem_total_mib));
		json_object_set_new(x, "ecc_uncorrected", opt(n->ecc_uncorrected));
		json_object_set_new(x, "xid", opt_int(n->xid));
		json_object_set_new(x, "throttled_gpus", opt_int(n->throttled));
		json_object_set_new(x, "pcie_link", n->link[0] ? json_string(n->link) : json_null());
		json_object_set_new(x, "bench_bf16_tflops", opt(n->bench));
		json_object_set_new(x, "findings", n->errors < 0 ? json_null()
								: json_pack("{s:i,s:i,s:i}", "error", n->errors, "warning",
									    n->warnings, "info", n->infos));
		json_object_set_new(x, "age_s", opt(n->age_s));
		json_object_set_new(x, "outliers", flags);
		json_array_append_new(a, x);
	}
	json_object_set_new(o, "nodes", a);
	return o;
}

void
fleet_release(struct fleet *f)
{
	free(f->nodes);
	f->nodes = NULL;
	f->n = f->alloc = 0;
}
