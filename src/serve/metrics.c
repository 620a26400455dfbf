/*
 * metrics.c - the exposition `serve` answers /metrics with (Prometheus
 * text format 0.0.4). GPU figures under dcgm-exporter's names, types,
 * units, help text and labels (gpu, UUID, pci_bus_id, device, modelName,
 * Hostname, DCGM_FI_DRIVER_VERSION), so NVIDIA's Grafana dashboard and
 * alert rules written for dcgm-exporter work unchanged; what only
 * gpudoctor knows under gpudoctor_*. A value NVML could not give is left
 * out, never written as a sentinel.
 *
 * Sources: dcgm-exporter etc/default-counters.csv (names, types, help) and
 * internal/pkg/rendermetrics (labels); prometheus.io "Exposition formats".
 */
#include "serve/serve.h"
#include "base/str.h"

#include <math.h>
#include <string.h>

enum {
	F_SM_CLOCK, F_MEM_CLOCK, F_GPU_TEMP, F_POWER, F_ENERGY, F_GPU_UTIL, F_MEM_UTIL, F_XID, F_FB_FREE,
	F_FB_USED, F_FB_RESERVED, F_REMAP_UNC, F_REMAP_COR, F_REMAP_FAIL, F_ECC_SBE, F_ECC_DBE, F_PCIE_TX,
	F_PCIE_RX, NDCGM
};

static const struct serve_family families[] = {
	{"DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz)."},
	{"DCGM_FI_DEV_MEM_CLOCK", "gauge", "Memory clock frequency (in MHz)."},
	{"DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C)."},
	{"DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W)."},
	{"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter", "Total energy consumption since boot (in mJ)."},
	{"DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %)."},
	{"DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", "Memory utilization (in %)."},
	{"DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered."},
	{"DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB)."},
	{"DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB)."},
	{"DCGM_FI_DEV_FB_RESERVED", "gauge", "Framebuffer memory reserved (in MiB)."},
	{"DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "counter", "Number of remapped rows for uncorrectable errors"},
	{"DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", "counter", "Number of remapped rows for correctable errors"},
	{"DCGM_FI_DEV_ROW_REMAP_FAILURE", "gauge", "Whether remapping of rows has failed"},
	{"DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "counter", "Total number of single-bit volatile ECC errors."},
	{"DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "counter", "Total number of double-bit volatile ECC errors."},
	{"DCGM_FI_PROF_PCIE_TX_BYTES", "gauge",
	 "The rate of data transmitted over the PCIe bus - including both protocol headers and data payloads - in bytes per second."},
	{"DCGM_FI_PROF_PCIE_RX_BYTES", "gauge",
	 "The rate of data received over the PCIe bus - including both protocol headers and data payloads - in bytes per second."},
	/* gpudoctor's own */
	{"gpudoctor_gpu_lost", "gauge", "1 when the GPU fell off the bus (NVML_ERROR_GPU_IS_LOST)."},
	{"gpudoctor_power_limit_watts", "gauge", "Enforced power limit (in W)."},
	{"gpudoctor_temperature_slowdown_celsius", "gauge", "Temperature at which the GPU slows itself down (in C)."},
	{"gpudoctor_clock_event_reasons", "gauge", "NVML's clock-event (throttle) reason bits (nvmlClocksEventReasons)."},
	{"gpudoctor_clock_event_active", "gauge", "1 while the named reason holds clocks down."},
	{"gpudoctor_pcie_link_gen", "gauge", "Current PCIe link generation."},
	{"gpudoctor_pcie_link_width", "gauge", "Current PCIe link width (lanes)."},
	{"gpudoctor_pcie_link_gen_max", "gauge", "Maximum PCIe link generation of the GPU."},
	{"gpudoctor_pcie_link_width_max", "gauge", "Maximum PCIe link width of the GPU (lanes)."},
	{"gpudoctor_gpu_processes", "gauge", "Processes holding memory on the GPU."},
	{"gpudoctor_stale_processes", "gauge", "Processes holding GPU memory that are gone or zombies."},
	{"gpudoctor_gpus", "gauge", "GPUs NVML lists."},
	{"gpudoctor_pci_gpus", "gauge", "NVIDIA GPUs on the PCI bus (doctor)."},
	{"gpudoctor_finding", "gauge", "A finding of gpudoctor doctor (1 while it holds), by ID, severity and Python environment."},
	{"gpudoctor_findings", "gauge", "Findings of gpudoctor doctor by severity."},
	{"gpudoctor_driver_info", "gauge", "The NVIDIA driver: version and the CUDA version it supports."},
	{"gpudoctor_framework_info", "gauge", "A framework in the active Python environment: version, CUDA and cuDNN it was built with."},
	{"gpudoctor_bench_result", "gauge", "The last gpudoctor bench result of a test, in its unit."},
	{"gpudoctor_bench_of_reference", "gauge", "The last gpudoctor bench result as a share of the reference for the GPU model."},
	{"gpudoctor_sampler_up", "gauge", "1 while the NVML sampler gives samples."},
	{"gpudoctor_sampler_restarts_total", "counter", "Times the NVML sampler was restarted."},
	{"gpudoctor_last_sample_timestamp_seconds", "gauge", "When the last GPU sample was taken (Unix time)."},
	{"gpudoctor_doctor_last_run_timestamp_seconds", "gauge", "When gpudoctor doctor last ran (Unix time)."},
	{"gpudoctor_doctor_duration_seconds", "gauge", "How long the last gpudoctor doctor run took."},
	{"gpudoctor_kernel_log_readable", "gauge", "1 when Xid errors can be read from the kernel log."},
	{"gpudoctor_build_info", "gauge", "gpudoctor's version."},
};
#define NFAMILIES (sizeof(families) / sizeof(families[0]))

const struct serve_family *
serve_families(size_t *n)
{
	*n = NFAMILIES;
	return families;
}

static const struct serve_family *
family(const char *name)
{
	size_t i;

	for (i = 0; i < NFAMILIES; i++)
		if (!strcmp(families[i].name, name))
			return &families[i];
	return NULL;
}

/* A label value with \\, \" and \n escaped. */
static void
label_value(struct buf *b, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			buf_addch(b, '\\');
		if (*v == '\n') {
			buf_adds(b, "\\n");
			continue;
		}
		buf_addch(b, *v);
	}
}

static void
header(struct buf *b, const struct serve_family *fam)
{
	buf_addf(b, "# HELP %s %s\n# TYPE %s %s\n", fam->name, fam->help, fam->name, fam->type);
}

static void
value(struct buf *b, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		buf_addf(b, " %.0f\n", v);
	else
		buf_addf(b, " %.6g\n", v);
}

/* The dcgm-exporter labels of GPU g (no closing brace). */
static void
gpu_labels(struct buf *b, const struct mon_sample *m, const struct mon_gpu *g, const char *host)
{
	buf_addf(b, "{gpu=\"%d\",UUID=\"", g->index);
	label_value(b, g->uuid);
	buf_adds(b, "\",pci_bus_id=\"");
	label_value(b, g->bus_id);
	buf_addf(b, "\",device=\"nvidia%d\",modelName=\"", g->minor != MON_NA ? g->minor : g->index);
	label_value(b, g->name);
	buf_adds(b, "\",Hostname=\"");
	label_value(b, host);
	buf_adds(b, "\",DCGM_FI_DRIVER_VERSION=\"");
	label_value(b, m->driver);
	buf_addch(b, '"');
}

/* The value of family f on GPU i, or NAN when there is none. */
static double
gpu_value(int f, const struct mon_gpu *g, const struct serve_status *st, int i)
{
	switch (f) {
	case F_SM_CLOCK:
		return g->sm_clock == MON_NA ? NAN : g->sm_clock;
	case F_MEM_CLOCK:
		return g->mem_clock == MON_NA ? NAN : g->mem_clock;
	case F_GPU_TEMP:
		return g->temp == MON_NA ? NAN : g->temp;
	case F_POWER:
		return g->power_mw == MON_NA ? NAN : g->power_mw / 1000.0;
	case F_ENERGY:
		return g->energy_mj == MON_NA ? NAN : (double)g->energy_mj;
	case F_GPU_UTIL:
		return g->util_gpu == MON_NA ? NAN : g->util_gpu;
	case F_MEM_UTIL:
		return g->util_mem == MON_NA ? NAN : g->util_mem;
	case F_XID:
		return st->kmsg_readable ? st->last_xid[i] : NAN;
	case F_FB_FREE:
		return g->mem_free_mib == MON_NA ? NAN : (double)g->mem_free_mib;
	case F_FB_USED:
		return g->mem_used_mib == MON_NA ? NAN : (double)g->mem_used_mib;
	case F_FB_RESERVED:
		return g->mem_reserved_mib == MON_NA ? NAN : (double)g->mem_reserved_mib;
	case F_REMAP_UNC:
		return g->remapped_uncorrected == MON_NA ? NAN : (double)g->remapped_uncorrected;
	case F_REMAP_COR:
		return g->remapped_corrected == MON_NA ? NAN : (double)g->remapped_corrected;
	case F_REMAP_FAIL:
		return g->remap_failure == MON_NA ? NAN : g->remap_failure;
	case F_ECC_SBE:
		return g->ecc_corrected == MON_NA ? NAN : (double)g->ecc_corrected;
	case F_ECC_DBE:
		return g->ecc_uncorrected == MON_NA ? NAN : (double)g->ecc_uncorrected;
	case F_PCIE_TX:
		return g->pcie_tx_kib == MON_NA ? NAN : (double)g->pcie_tx_kib * 1024.0;
	case F_PCIE_RX:
		return g->pcie_rx_kib == MON_NA ? NAN : (double)g->pcie_rx_kib * 1024.0;
	default:
		return NAN;
	}
}

/* One family over every answering GPU; the header only when a value is. */
static void
per_gpu(struct buf *b, const struct serve_family *fam, const struct mon_session *s,
	double (*get)(int f, const struct mon_gpu *g, const struct serve_status *st, int i), int f,
	const struct serve_status *st, bool lost_too)
{
	const struct mon_sample *m = s->cur;
	bool head = false;
	int i;

	for (i = 0; i < m->ngpus; i++) {
		const struct mon_gpu *g = &m->gpus[i];
		double v;
		if (g->state != MON_GPU_OK && !lost_too)
			continue;
		v = get(f, g, st, i);
		if (isnan(v))
			continue;
		if (!head)
			header(b, fam);
		head = true;
		buf_adds(b, fam->name);
		gpu_labels(b, m, g, s->hostname);
		buf_addch(b, '}');
		value(b, v);
	}
}

/* gpudoctor's per-GPU figures, by the family's index past the DCGM ones */
static double
own_value(int f, const struct mon_gpu *g, const struct serve_status *st, int i)
{
	(void)st;
	(void)i;
	switch (f) {
	case 0:
		return g->state == MON_GPU_LOST;
	case 1:
		return g->power_limit_mw == MON_NA ? NAN : g->power_limit_mw / 1000.0;
	case 2:
		return g->temp_slowdown == MON_NA ? NAN : g->temp_slowdown;
	case 3:
		return g->reasons == MON_NA ? NAN : (double)g->reasons;
	case 5:
		return g->pcie_gen == MON_NA ? NAN : g->pcie_gen;
	case 6:
		return g->pcie_width == MON_NA ? NAN : g->pcie_width;
	case 7:
		return g->pcie_gen_max == MON_NA ? NAN : g->pcie_gen_max;
	case 8:
		return g->pcie_width_max == MON_NA ? NAN : g->pcie_width_max;
	default:
		return NAN;
	}
}

static void
processes(struct buf *b, const struct mon_session *s)
{
	const struct mon_sample *m = s->cur;
	const struct serve_family *all = family("gpudoctor_gpu_processes"), *stale = family("gpudoctor_stale_processes");
	int i, j, n[MON_MAX_GPUS] = {0}, ns[MON_MAX_GPUS] = {0};

	for (j = 0; j < m->nprocs; j++) {
		n[m->procs[j].gpu]++;
		ns[m->procs[j].gpu] += m->procs[j].stale;
	}
	header(b, all);
	for (i = 0; i < m->ngpus; i++) {
		buf_adds(b, all->name);
		gpu_labels(b, m, &m->gpus[i], s->hostname);
		buf_addch(b, '}');
		value(b, n[i]);
	}
	header(b, stale);
	for (i = 0; i < m->ngpus; i++) {
		buf_adds(b, stale->name);
		gpu_labels(b, m, &m->gpus[i], s->hostname);
		buf_addch(b, '}');
		value(b, ns[i]);
	}
}

static void
reasons(struct buf *b, const struct mon_session *s)
{
	const struct mon_sample *m = s->cur;
	const struct serve_family *fam = family("gpudoctor_clock_event_active");
	bool head = false;
	int i, bit;

	for (i = 0; i < m->ngpus; i++) {
		const struct mon_gpu *g = &m->gpus[i];
		if (g->state != MON_GPU_OK || g->reasons == MON_NA)
			continue;
		for (bit = 0; bit < 9; bit++) {
			if (!(MON_REASONS_REPORTED & (1ULL << bit)))
				continue;
			if (!head)
				header(b, fam);
			head = true;
			buf_adds(b, fam->name);
			gpu_labels(b, m, g, s->hostname);
			buf_adds(b, ",reason=\"");
			label_value(b, mon_reason_name(bit));
			buf_addch(b, '"');
			buf_addch(b, '}');
			value(b, ((unsigned long long)g->reasons >> bit) & 1);
		}
	}
}

static void
one(struct buf *b, const char *name, double v)
{
	const struct serve_family *fam = family(name);

	header(b, fam);
	buf_adds(b, fam->name);
	value(b, v);
}

static void
doctor_metrics(struct buf *b, const struct serve_status *st, const char *host)
{
	const struct facts *f = st->facts;
	const struct findings *fs = st->findings;
	const struct serve_family *fam;
	int counts[3] = {0}, i, j;
	size_t k;

	if (!f || !fs)
		return;
	one(b, "gpudoctor_pci_gpus", f->ngpus);
	fam = family("gpudoctor_finding");
	if (fs->n)
		header(b, fam);
	for (k = 0; k < fs->n; k++) {
		const struct finding *x = &fs->v[k];
		size_t e;
		if (x->severity >= 0 && x->severity < 3)
			counts[x->severity]++;
		/* one series per ID, severity and environment: a finding raised
		 * for each of several processes is one fact for a fleet */
		for (e = 0; e < k; e++)
			if (!strcmp(fs->v[e].id, x->id) && fs->v[e].severity == x->severity &&
			    !strcmp(fs->v[e].env ? fs->v[e].env : "", x->env ? x->env : ""))
				break;
		if (e < k)
			continue;
		buf_addf(b, "%s{id=\"", fam->name);
		label_value(b, x->id);
		buf_addf(b, "\",severity=\"%s\",env=\"", x->severity == SEV_ERROR ? "error" : x->severity == SEV_WARN ? "warning" : "info");
		label_value(b, x->env ? x->env : "");
		buf_adds(b, "\",Hostname=\"");
		label_value(b, host);
		buf_adds(b, "\"}");
		value(b, 1);
	}
	fam = family("gpudoctor_findings");
	header(b, fam);
	buf_addf(b, "%s{severity=\"error\"} %d\n%s{severity=\"warning\"} %d\n%s{severity=\"info\"} %d\n", fam->name,
		 counts[SEV_ERROR], fam->name, counts[SEV_WARN], fam->name, counts[SEV_INFO]);
	fam = family("gpudoctor_driver_info");
	header(b, fam);
	buf_addf(b, "%s{version=\"", fam->name);
	label_value(b, f->driver.version);
	if (f->driver.cuda_driver_version > 0)
		buf_addf(b, "\",cuda=\"%d.%d\"}", f->driver.cuda_driver_version / 1000,
			 f->driver.cuda_driver_version % 1000 / 10);
	else
		buf_adds(b, "\",cuda=\"\"}");
	value(b, 1);
	fam = family("gpudoctor_framework_info");
	for (i = 0, k = 0; i < f->npython; i++) {
		const struct python_env_facts *e = &f->python[i];
		if (!e->active)
			continue;
		for (j = 0; j < e->nframeworks; j++) {
			const struct framework_facts *w = &e->frameworks[j];
			if (!k++)
				header(b, fam);
			buf_addf(b, "%s{env=\"", fam->name);
			label_value(b, e->path);
			buf_adds(b, "\",framework=\"");
			label_value(b, w->name);
			buf_adds(b, "\",version=\"");
			label_value(b, w->version);
			buf_adds(b, "\",cuda=\"");
			label_value(b, w->built_cuda);
			buf_adds(b, "\",cudnn=\"");
			label_value(b, w->built_cudnn);
			buf_addf(b, "\",gpu_build=\"%s\"}", w->cuda_build == 1 ? "yes" : w->cuda_build == 0 ? "no" : "unknown");
			value(b, 1);
		}
	}
	one(b, "gpudoctor_doctor_last_run_timestamp_seconds", floor(st->doctor_time));
	one(b, "gpudoctor_doctor_duration_seconds", round(st->doctor_seconds * 1000) / 1000);
}

/* One family over the bench document's tests: key's value per test, with
 * the test's unit as a label when with_unit. */
static void
bench_family(struct buf *b, const struct serve_family *fam, json_t *tests, const char *key, bool with_unit)
{
	json_t *t;
	size_t i;
	bool head = false;

	json_array_foreach(tests, i, t) {
		const char *name = json_string_value(json_object_get(t, "name"));
		const char *unit = json_string_value(json_object_get(t, "unit"));
		json_t *v = json_object_get(t, key);
		if (!name || !json_is_number(v))
			continue;
		if (!head)
			header(b, fam);
		head = true;
		buf_addf(b, "%s{test=\"", fam->name);
		label_value(b, name);
		if (with_unit) {
			buf_adds(b, "\",unit=\"");
			label_value(b, unit ? unit : "");
		}
		buf_adds(b, "\"}");
		value(b, json_number_value(v));
	}
}

static void
bench_metrics(struct buf *b, const struct serve_status *st)
{
	json_t *tests = st->bench ? json_object_get(st->bench, "tests") : NULL;

	bench_family(b, family("gpudoctor_bench_result"), tests, "value", true);
	bench_family(b, family("gpudoctor_bench_of_reference"), tests, "of_reference", false);
}

void
serve_metrics(struct buf *b, const struct mon_session *s, const struct serve_status *st)
{
	int f;

	if (st->have_sample && s->cur) {
		for (f = 0; f < NDCGM; f++)
			per_gpu(b, &families[f], s, gpu_value, f, st, false);
		per_gpu(b, family("gpudoctor_gpu_lost"), s, own_value, 0, st, true);
		per_gpu(b, family("gpudoctor_power_limit_watts"), s, own_value, 1, st, false);
		per_gpu(b, family("gpudoctor_temperature_slowdown_celsius"), s, own_value, 2, st, false);
		per_gpu(b, family("gpudoctor_clock_event_reasons"), s, own_value, 3, st, false);
		reasons(b, s);
		per_gpu(b, family("gpudoctor_pcie_link_gen"), s, own_value, 5, st, false);
		per_gpu(b, family("gpudoctor_pcie_link_width"), s, own_value, 6, st, false);
		per_gpu(b, family("gpudoctor_pcie_link_gen_max"), s, own_value, 7, st, false);
		per_gpu(b, family("gpudoctor_pcie_link_width_max"), s, own_value, 8, st, false);
		processes(b, s);
		one(b, "gpudoctor_gpus", s->cur->ngpus);
		one(b, "gpudoctor_last_sample_timestamp_seconds", floor(st->sample_time));
	}
	doctor_metrics(b, st, s->hostname);
	bench_metrics(b, st);
	one(b, "gpudoctor_sampler_up", st->have_sample && !st->sampler_error);
	one(b, "gpudoctor_sampler_restarts_total", st->sampler_restarts);
	one(b, "gpudoctor_kernel_log_readable", st->kmsg_readable);
	header(b, family("gpudoctor_build_info"));
	buf_addf(b, "gpudoctor_build_info{version=\"");
	label_value(b, st->version);
	buf_adds(b, "\"} 1\n");
}
