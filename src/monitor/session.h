/*
 * session.h - one run of `top` or `watch`: the sampler stream, the host's
 * view of the processes, the kernel log, the alert rules and their hook,
 * advanced one sample at a time (session.c); and the outputs of a sample
 * (show_text.c, show_json.c, tui.c).
 */
#ifndef GPUDOCTOR_MONITOR_SESSION_H
#define GPUDOCTOR_MONITOR_SESSION_H

#include "monitor/alert.h"
#include "monitor/monitor.h"

#include <jansson.h>
#include <signal.h>
#include <stdio.h>

#define MON_MAX_NOTES 16

struct mon_opts {
	struct mon_sampler_opts sampler;
	int start_timeout_ms;
	int64_t count;               /* samples; 0 until stopped */
	const char *kmsg;            /* NULL: /dev/kmsg */
	bool want_xid;               /* read the kernel log at all */
	const char *exec;
	int exec_timeout_ms;
	bool quiet_hooks;
	int pid_ns;                  /* MON_PIDNS_* */
};

struct mon_session {
	struct mon_opts o;
	struct mon_stream stream;
	struct mon_host host;
	struct mon_kmsg kmsg;
	struct hook_runner hooks;
	struct alert_set *alerts;
	struct mon_sample *cur, *prev;
	int64_t taken;
	char hostname[128];
	struct alert_event events[ALERT_MAX_EVENTS];
	int nevents;
	struct mon_xid xids[MON_MAX_XIDS];
	int nxids;
	char notes[MON_MAX_NOTES][512];  /* hook results, sampler restarts: since the last sample */
	int nnotes;
};

void mon_session_start(struct mon_session *s, const struct mon_opts *o, struct alert_set *alerts);
/* Wait up to wait_ms for the next sample and judge it. 1: s->cur is new;
 * 0: none yet; -1: no samples will come (s->stream.error). */
int mon_session_next(struct mon_session *s, int wait_ms);
void mon_session_end(struct mon_session *s);
/* Add a line to s->notes (also the hooks' note callback). */
void mon_session_note(void *session, const char *line);

/* ---- outputs ------------------------------------------------------------------ */

/* One sample as JSON (schema gpudoctor/top/1), its events and notes. */
json_t *mon_sample_json(const struct mon_session *s);
/* The CSV header and one row per GPU (nvidia-smi --query-gpu style). */
void mon_csv_header(FILE *out);
void mon_csv_rows(FILE *out, const struct mon_session *s);
/* The sample as plain text: a block per GPU, then the processes. */
void mon_text_snapshot(FILE *out, const struct mon_session *s, bool color);
/* One line per GPU (dmon style), for top when stdout is not a terminal. */
void mon_text_lines(FILE *out, const struct mon_session *s, bool header);
/* An alert event as one line of text. */
void mon_text_event(FILE *out, const struct mon_session *s, const struct alert_event *e, bool color);
/* The full-screen view until q (or *stop turns non-zero: Ctrl-C, TERM);
 * returns the exit status. */
int mon_tui_run(struct mon_session *s, int interval_ms, volatile sig_atomic_t *stop);

/* "143771" MiB as "140.4 GiB"-style short text. */
void mon_fmt_mib(int64_t mib, char *out, size_t size);

#endif
