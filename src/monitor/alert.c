/*
 * alert.c - parse alert rules and judge them on each sample. A rule holds
 * per GPU (per process for stale_process, per Xid code for xid); it fires
 * once when its condition has held for its duration, and clears once when
 * the condition ends (an Xid episode ends after 60 s without that Xid).
 * Durations are measured on the samples' schedule (nvml_sampler.c), so a
 * rule fires at the same sample on every run.
 */
#include "monitor/alert.h"
#include "base/str.h"
#include "nvidia/nvml_api.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

enum what {
	W_TEMP, W_MEM, W_UTIL, W_MEM_UTIL, W_POWER, W_FAN, W_SM_CLOCK, W_ECC_CORRECTED, W_ECC_UNCORRECTED,
	W_RETIRED_PAGES, W_REMAPPED_ROWS, W_PCIE_GEN, W_PCIE_WIDTH,
	W_FIRST_CONDITION,
	W_POWER_THROTTLE = W_FIRST_CONDITION, W_THERMAL_THROTTLE, W_HW_SLOWDOWN, W_THROTTLE, W_REMAP_FAILURE,
	W_PCIE_DOWNGRADED, W_STALE, W_XID, W_GPU_LOST,
};

enum op { OP_GE, OP_GT, OP_LE, OP_LT, OP_EQ, OP_NE };

static const struct {
	const char *name;
	int what;
	const char *unit;
	int severity;
	const char *about;
} kinds[] = {
	{"temp", W_TEMP, "C", ALERT_WARNING, "GPU temperature"},
	{"mem", W_MEM, "MiB", ALERT_WARNING, "memory used (MiB, GiB or % of total)"},
	{"util", W_UTIL, "%", ALERT_WARNING, "GPU (SM) utilization"},
	{"mem_util", W_MEM_UTIL, "%", ALERT_WARNING, "memory controller utilization"},
	{"power", W_POWER, "W", ALERT_WARNING, "power draw (W or % of the limit)"},
	{"fan", W_FAN, "%", ALERT_WARNING, "fan speed"},
	{"sm_clock", W_SM_CLOCK, "MHz", ALERT_WARNING, "SM clock"},
	{"ecc_corrected", W_ECC_CORRECTED, "", ALERT_WARNING, "corrected ECC errors since boot"},
	{"ecc_uncorrected", W_ECC_UNCORRECTED, "", ALERT_ERROR, "uncorrected ECC errors since boot"},
	{"retired_pages", W_RETIRED_PAGES, "", ALERT_ERROR, "pages retired for ECC errors"},
	{"remapped_rows", W_REMAPPED_ROWS, "", ALERT_WARNING, "rows remapped for uncorrectable errors"},
	{"pcie_gen", W_PCIE_GEN, "", ALERT_WARNING, "current PCIe generation"},
	{"pcie_width", W_PCIE_WIDTH, "", ALERT_WARNING, "current PCIe lanes"},
	{"power_throttle", W_POWER_THROTTLE, "", ALERT_WARNING, "clocks held down for power (SW cap, HW brake)"},
	{"thermal_throttle", W_THERMAL_THROTTLE, "", ALERT_WARNING, "clocks held down for heat (SW or HW)"},
	{"hw_slowdown", W_HW_SLOWDOWN, "", ALERT_ERROR, "hardware slowdown (HW slowdown, thermal, power brake)"},
	{"throttle", W_THROTTLE, "", ALERT_WARNING, "any of the above"},
	{"remap_failure", W_REMAP_FAILURE, "", ALERT_ERROR, "a row remapping failed: the GPU needs service"},
	{"pcie_downgraded", W_PCIE_DOWNGRADED, "", ALERT_WARNING, "PCIe link below its maximum while busy"},
	{"stale_process", W_STALE, "", ALERT_WARNING, "GPU memory held by a process that is gone or a zombie"},
	{"xid", W_XID, "", ALERT_ERROR, "an Xid error in the kernel log (xid or xid==N)"},
	{"gpu_lost", W_GPU_LOST, "", ALERT_ERROR, "the GPU fell off the bus (NVML_ERROR_GPU_IS_LOST)"},
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

static int
kind_index(int what)
{
	size_t i;

	for (i = 0; i < NKINDS; i++)
		if (kinds[i].what == what)
			return (int)i;
	return 0;
}

const char *
alert_kind_name(const struct alert_rule *r)
{
	return kinds[kind_index(r->what)].name;
}

const char *
alert_unit(const struct alert_rule *r)
{
	if (r->pct)
		return "%";
	return kinds[kind_index(r->what)].unit;
}

const char *
alert_severity_name(int severity)
{
	return severity >= ALERT_ERROR ? "error" : "warning";
}

const char *
alert_kinds_text(void)
{
	static char buf[2048];
	size_t i, len = 0;

	if (buf[0])
		return buf;
	for (i = 0; i < NKINDS; i++) {
		str_fmt(buf + len, sizeof(buf) - len, "  %-17s %s\n", kinds[i].name, kinds[i].about);
		len = strlen(buf);
	}
	return buf;
}

static const char *
skip_space(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* "30s", "500ms", "2m", "1h", "30" (seconds) into milliseconds. */
static int
parse_duration(const char *p, const char **end, double *ms)
{
	char *e;
	double v = strtod(p, &e);

	if (e == p || v < 0 || !isfinite(v))
		return -1;
	if (!strncasecmp(e, "ms", 2)) {
		*ms = v;
		e += 2;
	} else if (*e == 's' || *e == 'S') {
		*ms = v * 1e3;
		e++;
	} else if (*e == 'm' || *e == 'M') {
		*ms = v * 60e3;
		e++;
	} else if (*e == 'h' || *e == 'H') {
		*ms = v * 3600e3;
		e++;
	} else {
		*ms = v * 1e3;
	}
	*end = e;
	return 0;
}

static int
parse_op(const char **pp)
{
	const char *p = *pp;
	static const struct {
		const char *s;
		int op;
	} ops[] = {{">=", OP_GE}, {"<=", OP_LE}, {"==", OP_EQ}, {"!=", OP_NE}, {">", OP_GT}, {"<", OP_LT}, {"=", OP_EQ}};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(p, ops[i].s, strlen(ops[i].s))) {
			*pp = p + strlen(ops[i].s);
			return ops[i].op;
		}
	return -1;
}

int
alert_parse(const char *text, struct alert_rule *r, char *err, size_t errsize)
{
	const char *p = skip_space(text), *q;
	char name[32];
	size_t n = 0;
	int k = -1;
	size_t i;

	memset(r, 0, sizeof(*r));
	str_copy(r->text, sizeof(r->text), text);
	while (p[n] && (isalnum((unsigned char)p[n]) || p[n] == '_') && n < sizeof(name) - 1) {
		name[n] = (char)tolower((unsigned char)p[n]);
		n++;
	}
	name[n] = '\0';
	for (i = 0; i < NKINDS; i++)
		if (!strcmp(kinds[i].name, name))
			k = (int)i;
	if (k < 0) {
		str_fmt(err, errsize, "'%s': no rule kind '%s' (see gpudoctor watch --help)", text, name);
		return -1;
	}
	r->what = kinds[k].what;
	r->severity = kinds[k].severity;
	p = skip_space(p + n);
	if (r->what < W_FIRST_CONDITION || (r->what == W_XID && (*p == '=' || *p == '!' || *p == '<' || *p == '>'))) {
		char *e;
		if ((r->op = parse_op(&p)) < 0) {
			str_fmt(err, errsize, "'%s': %s needs a comparison, e.g. %s>=90", text, name, name);
			return -1;
		}
		p = skip_space(p);
		r->value = strtod(p, &e);
		if (e == p || !isfinite(r->value)) {
			str_fmt(err, errsize, "'%s': no number after the comparison", text);
			return -1;
		}
		p = skip_space(e);
		if (*p == '%') {
			if (r->what != W_MEM && r->what != W_POWER && kinds[k].unit[0] != '%') {
				str_fmt(err, errsize, "'%s': %s cannot be a percentage", text, name);
				return -1;
			}
			r->pct = r->what == W_MEM || r->what == W_POWER;
			p++;
		} else if (!strncasecmp(p, "GiB", 3) && r->what == W_MEM) {
			r->value *= 1024;
			p += 3;
		} else if (!strncasecmp(p, "MiB", 3) && r->what == W_MEM) {
			p += 3;
		} else if (!strncasecmp(p, "MHz", 3) && r->what == W_SM_CLOCK) {
			p += 3;
		} else if ((*p == 'W' || *p == 'w') && r->what == W_POWER) {
			p++;
		} else if ((*p == 'C' || *p == 'c') && r->what == W_TEMP) {
			p++;
		}
		if (r->what == W_XID) {
			if (r->op != OP_EQ || r->value < 1 || r->value != floor(r->value)) {
				str_fmt(err, errsize, "'%s': an Xid rule is xid or xid==N", text);
				return -1;
			}
			r->xid = (int)r->value;
		}
	}
	p = skip_space(p);
	if (!strncasecmp(p, "for", 3) && isspace((unsigned char)p[3])) {
		if (parse_duration(skip_space(p + 3), &q, &r->for_ms) < 0) {
			str_fmt(err, errsize, "'%s': 'for' needs a duration such as 30s, 500ms or 2m", text);
			return -1;
		}
		p = skip_space(q);
	}
	if (!strncasecmp(p, "as", 2) && isspace((unsigned char)p[2])) {
		p = skip_space(p + 2);
		if (!strncasecmp(p, "error", 5)) {
			r->severity = ALERT_ERROR;
			p += 5;
		} else if (!strncasecmp(p, "warning", 7)) {
			r->severity = ALERT_WARNING;
			p += 7;
		} else {
			str_fmt(err, errsize, "'%s': 'as' takes error or warning", text);
			return -1;
		}
		p = skip_space(p);
	}
	if (*p) {
		str_fmt(err, errsize, "'%s': unexpected '%s'", text, p);
		return -1;
	}
	return 0;
}

void
alert_defaults(struct alert_set *s)
{
	static const char *const rules[] = {
		"temp>=85 for 30s", "mem>=95%", "hw_slowdown for 10s", "ecc_uncorrected>0", "remap_failure",
		"stale_process", "xid", "gpu_lost",
	};
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]) && s->nrules < ALERT_MAX_RULES; i++)
		if (alert_parse(rules[i], &s->rules[s->nrules], err, sizeof(err)) == 0)
			s->nrules++;
}

/* ---- judging --------------------------------------------------------------------------- */

static bool
compare(double v, int op, double t)
{
	switch (op) {
	case OP_GE:
		return v >= t;
	case OP_GT:
		return v > t;
	case OP_LE:
		return v <= t;
	case OP_LT:
		return v < t;
	case OP_EQ:
		return v == t;
	default:
		return v != t;
	}
}

/* The metric's value on g, or NAN when NVML could not say. */
static double
metric(const struct alert_rule *r, const struct mon_gpu *g)
{
	switch (r->what) {
	case W_TEMP:
		return g->temp == MON_NA ? NAN : g->temp;
	case W_MEM:
		if (g->mem_used_mib == MON_NA)
			return NAN;
		if (r->pct)
			return g->mem_total_mib > 0 ? 100.0 * (double)g->mem_used_mib / (double)g->mem_total_mib : NAN;
		return (double)g->mem_used_mib;
	case W_UTIL:
		return g->util_gpu == MON_NA ? NAN : g->util_gpu;
	case W_MEM_UTIL:
		return g->util_mem == MON_NA ? NAN : g->util_mem;
	case W_POWER:
		if (g->power_mw == MON_NA)
			return NAN;
		if (r->pct)
			return g->power_limit_mw > 0 ? 100.0 * g->power_mw / g->power_limit_mw : NAN;
		return g->power_mw / 1000.0;
	case W_FAN:
		return g->fan == MON_NA ? NAN : g->fan;
	case W_SM_CLOCK:
		return g->sm_clock == MON_NA ? NAN : g->sm_clock;
	case W_ECC_CORRECTED:
		return g->ecc_corrected == MON_NA ? NAN : (double)g->ecc_corrected;
	case W_ECC_UNCORRECTED:
		return g->ecc_uncorrected == MON_NA ? NAN : (double)g->ecc_uncorrected;
	case W_RETIRED_PAGES:
		return g->retired_pages == MON_NA ? NAN : (double)g->retired_pages;
	case W_REMAPPED_ROWS:
		return g->remapped_uncorrected == MON_NA ? NAN : (double)g->remapped_uncorrected;
	case W_PCIE_GEN:
		return g->pcie_gen == MON_NA ? NAN : g->pcie_gen;
	case W_PCIE_WIDTH:
		return g->pcie_width == MON_NA ? NAN : g->pcie_width;
	default:
		return NAN;
	}
}

/* A GPU condition: holds, and the value to report. */
static bool
condition(const struct alert_rule *r, const struct mon_gpu *g, double *value)
{
	uint64_t bits = g->reasons == MON_NA ? 0 : (uint64_t)g->reasons;
	uint64_t mask = 0;

	*value = NAN;
	if (r->what == W_GPU_LOST) {
		*value = g->error_rc;
		return g->state == MON_GPU_LOST;
	}
	if (g->state != MON_GPU_OK)
		return false;
	if (r->what < W_FIRST_CONDITION) {
		*value = metric(r, g);
		return !isnan(*value) && compare(*value, r->op, r->value);
	}
	switch (r->what) {
	case W_POWER_THROTTLE:
		mask = NVML_CLOCKS_EVENT_SW_POWER_CAP | NVML_CLOCKS_EVENT_HW_POWER_BRAKE;
		break;
	case W_THERMAL_THROTTLE:
		mask = NVML_CLOCKS_EVENT_SW_THERMAL | NVML_CLOCKS_EVENT_HW_THERMAL;
		break;
	case W_HW_SLOWDOWN:
		mask = NVML_CLOCKS_EVENT_HW_SLOWDOWN | NVML_CLOCKS_EVENT_HW_THERMAL |
			NVML_CLOCKS_EVENT_HW_POWER_BRAKE;
		break;
	case W_THROTTLE:
		mask = MON_REASONS_REPORTED & ~NVML_CLOCKS_EVENT_SYNC_BOOST;
		break;
	case W_REMAP_FAILURE:
		*value = g->remap_failure;
		return g->remap_failure > 0;
	case W_PCIE_DOWNGRADED:
		*value = g->pcie_gen;
		return g->util_gpu > 0 && g->pcie_gen > 0 && g->pcie_width > 0 &&
		       ((g->pcie_gen_max > 0 && g->pcie_gen < g->pcie_gen_max) ||
			(g->pcie_width_max > 0 && g->pcie_width < g->pcie_width_max));
	default:
		return false;
	}
	*value = (double)(bits & mask);
	return (bits & mask) != 0;
}

static struct alert_state *
state_for(struct alert_set *s, int rule, int gpu, uint32_t key, bool create)
{
	int i;

	for (i = 0; i < s->nstates; i++)
		if (s->states[i].rule == rule && s->states[i].gpu == gpu && s->states[i].key == key)
			return &s->states[i];
	if (!create || s->nstates >= ALERT_MAX_STATES)
		return NULL;
	memset(&s->states[s->nstates], 0, sizeof(s->states[0]));
	s->states[s->nstates].rule = rule;
	s->states[s->nstates].gpu = gpu;
	s->states[s->nstates].key = key;
	s->states[s->nstates].since_ms = -1;
	return &s->states[s->nstates++];
}

static void
describe(const struct alert_set *s, const struct alert_event *e, const struct mon_sample *m, char *out,
	 size_t size)
{
	const struct alert_rule *r = &s->rules[e->rule];
	const struct mon_gpu *g = e->gpu >= 0 && e->gpu < m->ngpus ? &m->gpus[e->gpu] : NULL;
	char where[160], what[200], rs[160];

	if (g)
		str_fmt(where, sizeof(where), "GPU %d (%s)", g->index, g->name[0] ? g->name : g->bus_id);
	else
		str_copy(where, sizeof(where), e->xid.bus_id[0] ? e->xid.bus_id : "a GPU");
	switch (r->what) {
	case W_STALE:
		if (e->proc >= 0) {
			const struct mon_proc *p = &m->procs[e->proc];
			char mem[32];
			if (p->mem_mib == MON_NA)
				str_copy(mem, sizeof(mem), "memory");
			else
				str_fmt(mem, sizeof(mem), "%lld MiB", (long long)p->mem_mib);
			str_fmt(what, sizeof(what), "PID %u (%s) is %s and holds %s", p->pid,
				p->command[0] ? p->command : "?", mon_proc_state_name(p->state), mem);
		} else {
			str_copy(what, sizeof(what), "a stale process ended its hold");
		}
		break;
	case W_XID:
		str_fmt(what, sizeof(what), "Xid %d: %s", e->xid.code, e->xid.text);
		break;
	case W_GPU_LOST:
		str_copy(what, sizeof(what), "fell off the bus (NVML_ERROR_GPU_IS_LOST); it needs a reset or reboot");
		break;
	case W_POWER_THROTTLE:
	case W_THERMAL_THROTTLE:
	case W_HW_SLOWDOWN:
	case W_THROTTLE:
		mon_reasons_text(g ? g->reasons : MON_NA, rs, sizeof(rs));
		str_fmt(what, sizeof(what), "clocks held down: %s", rs[0] ? rs : "no longer");
		break;
	default:
		if (r->what < W_FIRST_CONDITION && !isnan(e->value))
			str_fmt(what, sizeof(what), "%s %.4g%s", kinds[kind_index(r->what)].name, e->value,
				alert_unit(r));
		else
			str_copy(what, sizeof(what), kinds[kind_index(r->what)].about);
	}
	if (e->firing && e->held_s >= 1)
		str_fmt(out, size, "%s: %s (for %.0f s)", where, what, e->held_s);
	else
		str_fmt(out, size, "%s: %s", where, what);
}

/* Advance one (rule, gpu, key) state; an event when it fires or clears. */
static bool
step(struct alert_set *s, struct alert_state *st, bool holds, double now, struct alert_event *e)
{
	const struct alert_rule *r = &s->rules[st->rule];

	memset(e, 0, sizeof(*e));
	e->rule = st->rule;
	e->gpu = st->gpu;
	e->proc = -1;
	if (!holds) {
		bool was = st->firing;
		st->since_ms = -1;
		st->firing = false;
		e->firing = false;
		return was;
	}
	if (st->since_ms < 0)
		st->since_ms = now;
	if (st->firing)
		return false;
	if (!s->ignore_durations && now - st->since_ms < r->for_ms)
		return false;
	st->firing = true;
	e->firing = true;
	e->held_s = (now - st->since_ms) / 1e3;
	if (r->severity > s->worst)
		s->worst = r->severity;
	return true;
}

#define XID_QUIET_MS 60000.0

int
alert_eval(struct alert_set *s, const struct mon_sample *m, const struct mon_xid *xids, int nxids,
	   struct alert_event *out, int max)
{
	double now = m->t_ms;
	int n = 0, ri, gi, i;

	for (ri = 0; ri < s->nrules; ri++) {
		const struct alert_rule *r = &s->rules[ri];
		struct alert_state *st;
		struct alert_event e;
		double v;

		if (r->what == W_STALE) {
			for (i = 0; i < m->nprocs; i++) {
				const struct mon_proc *p = &m->procs[i];
				if (!p->stale || !(st = state_for(s, ri, p->gpu, p->pid, true)))
					continue;
				st->seen_seq = m->seq + 1;
				if (step(s, st, true, now, &e) && n < max) {
					e.proc = i;
					e.value = p->mem_mib;
					describe(s, &e, m, e.message, sizeof(e.message));
					out[n++] = e;
				}
			}
			/* a stale process no longer listed (or no longer stale) */
			for (i = 0; i < s->nstates; i++) {
				st = &s->states[i];
				if (st->rule != ri || st->seen_seq == m->seq + 1 || st->since_ms < 0)
					continue;
				if (step(s, st, false, now, &e) && n < max) {
					str_fmt(e.message, sizeof(e.message), "PID %u no longer holds GPU memory", st->key);
					out[n++] = e;
				}
			}
			continue;
		}
		if (r->what == W_XID) {
			for (i = 0; i < nxids; i++) {
				if (r->xid && xids[i].code != r->xid)
					continue;
				if (!(st = state_for(s, ri, xids[i].gpu, (uint32_t)xids[i].code, true)))
					continue;
				st->last_ms = now;
				if (step(s, st, true, now, &e) && n < max) {
					e.xid = xids[i];
					e.value = xids[i].code;
					describe(s, &e, m, e.message, sizeof(e.message));
					out[n++] = e;
				}
			}
			for (i = 0; i < s->nstates; i++) {
				st = &s->states[i];
				if (st->rule != ri || !st->firing || now - st->last_ms < XID_QUIET_MS)
					continue;
				if (step(s, st, false, now, &e) && n < max) {
					e.value = st->key;
					str_fmt(e.message, sizeof(e.message), "no Xid %u for %.0f s", st->key,
						XID_QUIET_MS / 1e3);
					out[n++] = e;
				}
			}
			continue;
		}
		for (gi = 0; gi < m->ngpus; gi++) {
			bool holds = condition(r, &m->gpus[gi], &v);
			if (!(st = state_for(s, ri, gi, 0, holds)))
				continue;
			if (step(s, st, holds, now, &e) && n < max) {
				e.value = v;
				describe(s, &e, m, e.message, sizeof(e.message));
				out[n++] = e;
			}
		}
	}
	return n;
}

/* ---- JSON ----------------------------------------------------------------------------- */

static json_t *
num_or_null(double v)
{
	return isnan(v) ? json_null() : v == floor(v) && fabs(v) < 1e15 ? json_integer((json_int_t)v) : json_real(v);
}

json_t *
alert_event_json(const struct alert_set *s, const struct alert_event *e, const struct mon_sample *m,
		 const char *host)
{
	const struct alert_rule *r = &s->rules[e->rule];
	const struct mon_gpu *g = e->gpu >= 0 && e->gpu < m->ngpus ? &m->gpus[e->gpu] : NULL;
	char when[32];
	time_t t = (time_t)m->wall;
	struct tm tm;
	json_t *o;

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:I,s:f,s:s}", "schema", "gpudoctor/alert/1", "state",
		      e->firing ? "firing" : "cleared", "rule", r->text, "kind", alert_kind_name(r), "severity",
		      alert_severity_name(r->severity), "time", when, "host", host, "sample", (json_int_t)m->seq,
		      "held_s", e->held_s, "message", e->message);
	json_object_set_new(o, "value", r->what == W_STALE || r->what == W_XID || r->what < W_FIRST_CONDITION
						? num_or_null(e->value) : json_null());
	json_object_set_new(o, "threshold", r->what < W_FIRST_CONDITION ? num_or_null(r->value) : json_null());
	json_object_set_new(o, "unit", json_string(alert_unit(r)));
	json_object_set_new(o, "gpu", g ? json_pack("{s:i,s:s,s:s,s:s}", "index", g->index, "name", g->name,
						    "uuid", g->uuid, "bus_id", g->bus_id)
					: json_null());
	if (e->proc >= 0 && e->proc < m->nprocs) {
		const struct mon_proc *p = &m->procs[e->proc];
		char hint[300];
		mon_proc_hint(m, p, hint, sizeof(hint));
		json_object_set_new(o, "process",
				    json_pack("{s:I,s:s,s:s,s:s,s:o,s:s}", "pid", (json_int_t)p->pid, "user", p->user,
					      "command", p->command, "state", mon_proc_state_name(p->state),
					      "memory_mib", p->mem_mib == MON_NA ? json_null()
										 : json_integer((json_int_t)p->mem_mib),
					      "hint", hint));
	} else {
		json_object_set_new(o, "process", json_null());
	}
	json_object_set_new(o, "xid", r->what == W_XID && e->xid.code
					      ? json_pack("{s:i,s:s,s:s}", "code", e->xid.code, "bus_id", e->xid.bus_id,
							  "text", e->xid.text)
					      : json_null());
	return o;
}
