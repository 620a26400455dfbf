/*
 * stream.c - the parent's end of the sampler child: receive its samples,
 * and restart it when it dies or stalls (a GPU call that hangs, a crash in
 * NVML), so that `top` never freezes and `watch` keeps watching. A sampler
 * that cannot start (no NVML, nvmlInit fails) is not restarted: its
 * first and only sample says why.
 */
#include "monitor/monitor.h"
#include "base/clock.h"
#include "base/str.h"
#include "base/xalloc.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FAILURES 3

void
mon_stream_init(struct mon_stream *s, const struct mon_sampler_opts *o, int start_timeout_ms)
{
	memset(s, 0, sizeof(*s));
	s->o = *o;
	s->start_timeout_ms = start_timeout_ms;
	s->child.pid = -1;
	s->child.fd = -1;
	s->last_seq = -1;
	s->buf = xmalloc(sizeof(struct mon_sample));
}

int
mon_stream_fd(const struct mon_stream *s)
{
	return s->running ? s->child.fd : -1;
}

static int
start(struct mon_stream *s)
{
	/* a restarted sampler counts on from where the last one stopped */
	s->seq_base = s->last_seq + 1;
	s->have = 0;
	if (child_start(&s->child, mon_sampler_child, &s->o, 0) < 0) {
		str_fmt(s->error, sizeof(s->error), "could not start the sampler process: %s", strerror(errno));
		return -1;
	}
	s->running = true;
	s->last_ms = clock_ms();
	return 0;
}

static void
stop(struct mon_stream *s)
{
	if (!s->running)
		return;
	child_stop(&s->child);
	s->running = false;
}

/* The sampler died or stalled: start another, unless that keeps failing. */
static int
restart(struct mon_stream *s, const char *why)
{
	stop(s);
	s->restarts++;
	if (++s->failures > MAX_FAILURES) {
		str_fmt(s->error, sizeof(s->error), "the NVML sampler failed %d times in a row (%s)", s->failures,
			why);
		return -1;
	}
	str_fmt(s->note, sizeof(s->note), "sampler restarted: %s", why);
	return start(s);
}

static int
stall_ms(const struct mon_stream *s)
{
	int ms = 3 * s->o.interval_ms;

	if (s->last_seq < s->seq_base)          /* nothing yet from this one */
		return s->start_timeout_ms;
	return ms < 2000 ? 2000 : ms;
}

int
mon_stream_next(struct mon_stream *s, struct mon_sample *out, int wait_ms)
{
	double until = clock_ms() + wait_ms;

	if (s->error[0])
		return -1;
	if (!s->running && start(s) < 0)
		return -1;
	for (;;) {
		struct pollfd pfd = {.fd = s->child.fd, .events = POLLIN};
		double now = clock_ms();
		int left = (int)(until - now), r;
		ssize_t n;

		if (now - s->last_ms > stall_ms(s)) {
			char why[96];
			str_fmt(why, sizeof(why), "no sample for %.0f s", (now - s->last_ms) / 1e3);
			if (restart(s, why) < 0)
				return -1;
			continue;
		}
		if (left < 0)
			left = 0;
		if (left > stall_ms(s))
			left = stall_ms(s);
		r = poll(&pfd, 1, left);
		if (r < 0 && errno == EINTR)
			return 0;
		if (r <= 0) {
			if (clock_ms() >= until)
				return 0;
			continue;
		}
		n = read(s->child.fd, s->buf + s->have, sizeof(struct mon_sample) - s->have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* the sampler never ends by itself: it crashed */
			if (restart(s, "the sampler process ended") < 0)
				return -1;
			continue;
		}
		s->have += (size_t)n;
		if (s->have < sizeof(struct mon_sample))
			continue;
		s->have = 0;
		memcpy(out, s->buf, sizeof(*out));
		if (out->magic != MON_SAMPLE_MAGIC || out->size != sizeof(*out)) {
			if (restart(s, "a garbled sample") < 0)
				return -1;
			continue;
		}
		if (out->init_rc != 0) {
			STR_COPY(s->error, out->error);
			stop(s);
			return -1;
		}
		s->last_ms = clock_ms();
		s->failures = 0;
		out->seq += s->seq_base;
		out->t_ms += (double)s->seq_base * s->o.interval_ms;
		s->last_seq = out->seq;
		return 1;
	}
}

void
mon_stream_stop(struct mon_stream *s)
{
	stop(s);
	free(s->buf);
	s->buf = NULL;
}
