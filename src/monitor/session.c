/*
 * session.c - advance `top` / `watch` one sample at a time: receive it
 * from the sampler, add the host's view of its processes, read the Xid
 * lines logged since, judge the alert rules and start the hook of each
 * rule that fires. The hooks are reaped between samples, never waited for.
 */
#include "monitor/session.h"
#include "base/clean.h"
#include "base/str.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void
mon_session_note(void *session, const char *line)
{
	struct mon_session *s = session;

	if (s->nnotes < MON_MAX_NOTES)
		STR_COPY(s->notes[s->nnotes++], line);
}

void
mon_session_start(struct mon_session *s, const struct mon_opts *o, struct alert_set *alerts)
{
	memset(s, 0, sizeof(*s));
	s->o = *o;
	s->alerts = alerts;
	s->cur = xcalloc(1, sizeof(*s->cur));
	s->prev = xcalloc(1, sizeof(*s->prev));
	mon_stream_init(&s->stream, &o->sampler, o->start_timeout_ms);
	mon_host_init(&s->host, o->pid_ns);
	if (o->want_xid)
		mon_kmsg_open(&s->kmsg, o->kmsg);
	else
		s->kmsg.fd = -1;
	s->hooks.cmd = o->exec;
	s->hooks.timeout_ms = o->exec_timeout_ms;
	s->hooks.quiet = o->quiet_hooks;
	s->hooks.note = mon_session_note;
	s->hooks.ctx = s;
	if (gethostname(s->hostname, sizeof(s->hostname) - 1) < 0)
		STR_COPY(s->hostname, "localhost");
	text_clean_str(s->hostname, sizeof(s->hostname));
}

int
mon_session_next(struct mon_session *s, int wait_ms)
{
	struct mon_sample *t;
	int restarts = s->stream.restarts, r, i;

	hook_poll(&s->hooks);
	t = s->prev;
	s->prev = s->cur;
	s->cur = t;
	r = mon_stream_next(&s->stream, s->cur, wait_ms);
	if (s->stream.restarts != restarts)
		mon_session_note(s, s->stream.note);
	if (r <= 0) {
		t = s->prev;
		s->prev = s->cur;
		s->cur = t;
		return r;
	}
	mon_procs_fill(&s->host, s->cur, s->taken ? s->prev : NULL);
	s->nxids = mon_kmsg_xids(&s->kmsg, s->cur, s->xids, MON_MAX_XIDS);
	s->nevents = s->alerts ? alert_eval(s->alerts, s->cur, s->xids, s->nxids, s->events, ALERT_MAX_EVENTS) : 0;
	for (i = 0; i < s->nevents; i++)
		if (s->events[i].firing)
			hook_fire(&s->hooks, s->alerts, &s->events[i], s->cur, s->hostname);
	s->taken++;
	return 1;
}

void
mon_session_end(struct mon_session *s)
{
	mon_stream_stop(&s->stream);
	hook_finish(&s->hooks);
	mon_kmsg_close(&s->kmsg);
	free(s->cur);
	free(s->prev);
	s->cur = s->prev = NULL;
}
