/*
 * t_alert.c - alert rules (monitor/alert.c): every form the parser takes
 * and each error it gives; rules judged on hand-built samples: a duration
 * reached at the right sample, one firing and one clearing per episode,
 * GPUs and processes apart, Xid episodes ending after 60 s of quiet,
 * --once's durations, and the severities that set the exit status.
 */
#include "unit.h"

#include "monitor/alert.h"

#include <math.h>
#include <string.h>

static struct alert_rule
rule(const char *text)
{
	struct alert_rule r;
	char err[256];

	assert_int_equal(alert_parse(text, &r, err, sizeof(err)), 0);
	return r;
}

static void
parse_err(const char *text, const char *want)
{
	struct alert_rule r;
	char err[256] = "";

	assert_int_equal(alert_parse(text, &r, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("'%s': got '%s', want '%s'", text, err, want);
}

static void
parsing(void **state)
{
	struct alert_rule r;

	r = rule("temp>=85 for 30s");
	assert_string_equal(alert_kind_name(&r), "temp");
	assert_true(r.value == 85 && r.for_ms == 30000 && r.severity == ALERT_WARNING && !r.pct);
	r = rule("  MEM >= 95 %  ");
	assert_true(r.pct && r.value == 95);
	assert_string_equal(alert_unit(&r), "%");
	r = rule("mem>40GiB");
	assert_true(!r.pct && r.value == 40960);
	r = rule("power>=98% for 1m as error");
	assert_true(r.pct && r.for_ms == 60000 && r.severity == ALERT_ERROR);
	r = rule("power>600W for 500ms");
	assert_true(!r.pct && r.value == 600 && r.for_ms == 500);
	r = rule("xid");
	assert_int_equal(r.xid, 0);
	r = rule("xid==79");
	assert_int_equal(r.xid, 79);
	r = rule("gpu_lost as warning");
	assert_int_equal(r.severity, ALERT_WARNING);
	r = rule("hw_slowdown for 2h");
	assert_true(r.for_ms == 7200000 && r.severity == ALERT_ERROR);
	r = rule("temp<30 for 10");
	assert_true(r.for_ms == 10000);
	parse_err("tmp>=85", "no rule kind 'tmp'");
	parse_err("temp", "temp needs a comparison");
	parse_err("temp>=", "no number after the comparison");
	parse_err("temp>=85%", "cannot be a percentage");
	parse_err("temp>=85 for ever", "needs a duration");
	parse_err("temp>=85 as fatal", "'as' takes error or warning");
	parse_err("xid>=3", "xid or xid==N");
	parse_err("gpu_lost now", "unexpected 'now'");
	(void)state;
}

static struct mon_sample *
sample(int ngpus)
{
	struct mon_sample *m = test_calloc(1, sizeof(*m));
	int i;

	m->ngpus = ngpus;
	for (i = 0; i < ngpus; i++) {
		m->gpus[i].index = i;
		strcpy(m->gpus[i].name, "NVIDIA H200");
		m->gpus[i].mem_total_mib = 143771;
		m->gpus[i].mem_used_mib = 1000;
		m->gpus[i].temp = 40;
		m->gpus[i].reasons = 0x1;
		m->gpus[i].power_mw = 100000;
		m->gpus[i].power_limit_mw = 700000;
	}
	return m;
}

/* Advance m to sample k at 1 s per sample and judge it. */
static int
at(struct alert_set *s, struct mon_sample *m, int k, struct alert_event *ev)
{
	m->seq = k;
	m->t_ms = k * 1000.0;
	return alert_eval(s, m, NULL, 0, ev, ALERT_MAX_EVENTS);
}

static void
durations_and_episodes(void **state)
{
	struct alert_set *s = test_calloc(1, sizeof(*s));
	struct mon_sample *m = sample(2);
	struct alert_event ev[ALERT_MAX_EVENTS];
	int k, n, fired = 0, cleared = 0, fired_at = -1, cleared_at = -1;

	s->rules[s->nrules++] = rule("temp>=85 for 3s");
	for (k = 0; k < 20; k++) {
		m->gpus[0].temp = (k >= 2 && k < 8) || k >= 12 ? 90 : 40;
		n = at(s, m, k, ev);
		while (n--) {
			assert_int_equal(ev[n].gpu, 0);
			if (ev[n].firing) {
				fired++;
				if (fired_at < 0)
					fired_at = k;
				assert_true(ev[n].value == 90);
			} else {
				cleared++;
				if (cleared_at < 0)
					cleared_at = k;
			}
		}
	}
	/* holds from 2: 3 s later, at 5; ends at 8; again from 12, fires at 15 */
	assert_int_equal(fired_at, 5);
	assert_int_equal(cleared_at, 8);
	assert_int_equal(fired, 2);
	assert_int_equal(cleared, 1);
	assert_int_equal(s->worst, ALERT_WARNING);
	test_free(s);
	test_free(m);
	(void)state;
}

static void
conditions(void **state)
{
	struct alert_set *s = test_calloc(1, sizeof(*s));
	struct mon_sample *m = sample(2);
	struct alert_event ev[ALERT_MAX_EVENTS];
	int n;

	s->rules[s->nrules++] = rule("mem>=95%");
	s->rules[s->nrules++] = rule("power_throttle");
	s->rules[s->nrules++] = rule("hw_slowdown");
	s->rules[s->nrules++] = rule("gpu_lost");
	m->gpus[1].mem_used_mib = 140000;          /* 97 % */
	m->gpus[0].reasons = 0x1 | 0x2 | 0x100;    /* idle, app clocks, display: never an alert */
	m->gpus[1].reasons = 0x4;
	n = at(s, m, 0, ev);
	assert_int_equal(n, 2);
	assert_true(ev[0].rule == 0 && ev[0].gpu == 1 && fabs(ev[0].value - 97.376) < 0.01);
	assert_true(ev[1].rule == 1 && ev[1].gpu == 1);
	assert_non_null(strstr(ev[1].message, "SW power cap"));
	assert_int_equal(s->worst, ALERT_WARNING);
	/* a value NVML cannot give never holds */
	m->gpus[1].mem_used_mib = MON_NA;
	m->gpus[1].reasons = 0x40;
	n = at(s, m, 1, ev);
	assert_int_equal(n, 3);                    /* mem cleared, power cleared, hw_slowdown fired */
	assert_true(!ev[0].firing && !ev[1].firing && ev[2].firing && ev[2].rule == 2);
	assert_int_equal(s->worst, ALERT_ERROR);
	/* a lost GPU: lost fires; its other rules clear, they no longer hold */
	m->gpus[1].state = MON_GPU_LOST;
	m->gpus[1].error_rc = 15;
	n = at(s, m, 2, ev);
	assert_int_equal(n, 2);
	assert_true(!ev[0].firing && ev[0].rule == 2);
	assert_true(ev[1].firing && ev[1].rule == 3 && ev[1].gpu == 1);
	assert_int_equal(at(s, m, 3, ev), 0);       /* once per episode */
	test_free(s);
	test_free(m);
	(void)state;
}

static void
stale_processes(void **state)
{
	struct alert_set *s = test_calloc(1, sizeof(*s));
	struct mon_sample *m = sample(1);
	struct alert_event ev[ALERT_MAX_EVENTS];
	int n;

	s->rules[s->nrules++] = rule("stale_process");
	m->nprocs = 2;
	m->procs[0].pid = 100;
	m->procs[0].mem_mib = 2048;
	m->procs[0].state = MON_PROC_ZOMBIE;
	m->procs[0].stale = true;
	m->procs[0].ppid = 99;
	m->procs[1].pid = 200;
	m->procs[1].state = MON_PROC_RUNNING;
	n = at(s, m, 0, ev);
	assert_int_equal(n, 1);
	assert_true(ev[0].firing && ev[0].proc == 0 && ev[0].value == 2048);
	assert_non_null(strstr(ev[0].message, "PID 100"));
	assert_int_equal(at(s, m, 1, ev), 0);
	/* a second stale process is its own episode */
	m->procs[1].state = MON_PROC_GONE;
	m->procs[1].stale = true;
	n = at(s, m, 2, ev);
	assert_true(n == 1 && ev[0].proc == 1);
	/* the first one reaped: only it clears */
	m->procs[0] = m->procs[1];
	m->nprocs = 1;
	n = at(s, m, 3, ev);
	assert_true(n == 1 && !ev[0].firing);
	assert_non_null(strstr(ev[0].message, "PID 100 no longer"));
	test_free(s);
	test_free(m);
	(void)state;
}

static void
xid_episodes(void **state)
{
	struct alert_set *s = test_calloc(1, sizeof(*s));
	struct mon_sample *m = sample(1);
	struct alert_event ev[ALERT_MAX_EVENTS];
	struct mon_xid x[2];
	int k, n, firings = 0, clears = 0;

	s->rules[s->nrules++] = rule("xid==79");
	memset(x, 0, sizeof(x));
	x[0].code = 79;
	x[0].gpu = 0;
	x[1].code = 13;
	x[1].gpu = 0;
	for (k = 0; k < 200; k++) {
		m->seq = k;
		m->t_ms = k * 1000.0;
		/* 79 at 5, 6 and 30 (one episode), then at 150 (another) */
		int nx = k == 5 || k == 6 || k == 30 || k == 150 ? 2 : 0;
		n = alert_eval(s, m, x, nx, ev, ALERT_MAX_EVENTS);
		while (n--) {
			if (ev[n].firing) {
				firings++;
				assert_int_equal(ev[n].xid.code, 79);
			} else {
				clears++;
				assert_true(k == 90);
			}
		}
	}
	assert_int_equal(firings, 2);
	assert_int_equal(clears, 1);
	test_free(s);
	test_free(m);
	(void)state;
}

static void
once_ignores_durations(void **state)
{
	struct alert_set *s = test_calloc(1, sizeof(*s));
	struct mon_sample *m = sample(1);
	struct alert_event ev[ALERT_MAX_EVENTS];

	s->rules[s->nrules++] = rule("temp>=85 for 30s");
	m->gpus[0].temp = 95;
	assert_int_equal(at(s, m, 0, ev), 0);
	memset(s->states, 0, sizeof(s->states));
	s->nstates = 0;
	s->ignore_durations = true;
	assert_int_equal(at(s, m, 0, ev), 1);
	test_free(s);
	test_free(m);
	(void)state;
}

static void
defaults(void **state)
{
	struct alert_set *s = test_calloc(1, sizeof(*s));

	alert_defaults(s);
	assert_int_equal(s->nrules, 8);
	assert_string_equal(s->rules[0].text, "temp>=85 for 30s");
	assert_string_equal(alert_kind_name(&s->rules[7]), "gpu_lost");
	test_free(s);
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parsing),
		cmocka_unit_test(durations_and_episodes),
		cmocka_unit_test(conditions),
		cmocka_unit_test(stale_processes),
		cmocka_unit_test(xid_episodes),
		cmocka_unit_test(once_ignores_durations),
		cmocka_unit_test(defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
