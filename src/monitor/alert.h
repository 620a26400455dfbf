/*
 * alert.h - alert rules for `watch` and `top` ("temp>=85 for 30s",
 * "mem>=95%", "power_throttle for 10s", "ecc_uncorrected>0",
 * "stale_process", "xid", "gpu_lost"): parsed once, judged on every
 * sample, each episode firing once and clearing once (alert.c). The hook
 * run on each firing, with a time limit, off the sampling loop (hook.c).
 * docs/top.md has the syntax.
 */
#ifndef GPUDOCTOR_ALERT_H
#define GPUDOCTOR_ALERT_H

#include "monitor/monitor.h"

#include <jansson.h>
#include <stdbool.h>

#define ALERT_MAX_RULES 32
#define ALERT_MAX_STATES 512
#define ALERT_MAX_EVENTS 64

enum alert_severity { ALERT_WARNING = 1, ALERT_ERROR = 2 };

struct alert_rule {
	char text[128];              /* as written */
	int what;                    /* enum in alert.c: a metric or a condition */
	int op;                      /* for metrics */
	double value;                /* threshold, in the metric's unit (% when pct) */
	bool pct;                    /* mem or power as % of total/limit */
	double for_ms;               /* how long it must hold; 0 at once */
	int xid;                     /* xid==N; 0 any */
	int severity;
};

struct alert_state {
	int rule, gpu;
	uint32_t key;                /* pid for stale_process, Xid code for xid */
	double since_ms;             /* the condition holds since */
	double last_ms;              /* last seen holding (xid: last logged) */
	bool firing;
	int64_t seen_seq;
};

struct alert_event {
	int rule, gpu;
	bool firing;                 /* else cleared */
	double value;                /* the metric's value, or the Xid code */
	double held_s;               /* how long the condition had held */
	int proc;                    /* index into the sample's procs, -1 */
	struct mon_xid xid;          /* for xid rules */
	char message[300];
};

struct alert_set {
	struct alert_rule rules[ALERT_MAX_RULES];
	int nrules;
	struct alert_state states[ALERT_MAX_STATES];
	int nstates;
	bool ignore_durations;       /* --once: "is it so now" */
	int worst;                   /* the highest severity that fired so far */
};

/* Parse one rule; 0, or -1 with one line in err. */
int alert_parse(const char *text, struct alert_rule *r, char *err, size_t errsize);
/* The rules used when none is given (docs/top.md). */
void alert_defaults(struct alert_set *s);
/* Judge sample m (and the Xid lines logged since the last one) and return
 * the events: rules that started firing and ones that cleared. */
int alert_eval(struct alert_set *s, const struct mon_sample *m, const struct mon_xid *xids, int nxids,
	       struct alert_event *out, int max);
/* The rule kinds and metrics, for --help and errors. */
const char *alert_kinds_text(void);
const char *alert_kind_name(const struct alert_rule *r);
const char *alert_unit(const struct alert_rule *r);
const char *alert_severity_name(int severity);

/* The event as JSON (schema gpudoctor/alert/1): what the hook reads on
 * stdin and what `watch --json` prints. */
json_t *alert_event_json(const struct alert_set *s, const struct alert_event *e, const struct mon_sample *m,
			 const char *host);

/* ---- hook.c ------------------------------------------------------------------------ */

#define HOOK_MAX_RUNNING 8

struct hook_runner {
	const char *cmd;             /* run as /bin/sh -c CMD; NULL: no hook */
	int timeout_ms;
	bool quiet;                  /* its output to /dev/null (under top's screen) */
	struct {
		pid_t pid;
		double start_ms;
		char rule[128];
	} running[HOOK_MAX_RUNNING];
	int nrunning;
	void (*note)(void *ctx, const char *line);  /* how a hook ended, or why it did not run */
	void *ctx;
};

/* Start the hook for event e (environment variables and JSON on stdin);
 * never waits for it. */
void hook_fire(struct hook_runner *h, const struct alert_set *s, const struct alert_event *e,
	       const struct mon_sample *m, const char *host);
/* Reap hooks that ended, kill those past their time limit. */
void hook_poll(struct hook_runner *h);
/* At exit: give running hooks up to their time limit, then kill them. */
void hook_finish(struct hook_runner *h);

#endif
