/*
 * hook.c - the command run when an alert fires (--exec CMD): /bin/sh -c
 * CMD in a process group of its own, the facts in GPUDOCTOR_* environment
 * variables and the event as JSON on stdin (alert_event_json), killed
 * with its group at its time limit. It is never waited for where samples
 * are taken: hook_poll reaps and kills between samples.
 */
#include "monitor/alert.h"
#include "base/clock.h"
#include "base/str.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void
note(struct hook_runner *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
note(struct hook_runner *h, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!h->note)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	h->note(h->ctx, line);
}

static void
set_str(const char *name, json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	setenv(name, v ? v : "", 1);
}

static void
set_num(const char *name, json_t *v)
{
	char buf[64];

	if (json_is_integer(v))
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, sizeof(buf), "%.6g", json_real_value(v));
	else
		buf[0] = '\0';
	setenv(name, buf, 1);
}

/* In the hook's child: the event as GPUDOCTOR_* variables. */
static void
set_env(json_t *ev)
{
	json_t *g = json_object_get(ev, "gpu"), *p = json_object_get(ev, "process"), *x = json_object_get(ev, "xid");
	char buf[64];

	set_str("GPUDOCTOR_ALERT", ev, "rule");
	set_str("GPUDOCTOR_ALERT_KIND", ev, "kind");
	set_str("GPUDOCTOR_STATE", ev, "state");
	set_str("GPUDOCTOR_SEVERITY", ev, "severity");
	set_str("GPUDOCTOR_MESSAGE", ev, "message");
	set_str("GPUDOCTOR_TIME", ev, "time");
	set_str("GPUDOCTOR_HOST", ev, "host");
	set_str("GPUDOCTOR_UNIT", ev, "unit");
	set_num("GPUDOCTOR_VALUE", json_object_get(ev, "value"));
	set_num("GPUDOCTOR_THRESHOLD", json_object_get(ev, "threshold"));
	set_num("GPUDOCTOR_HELD_S", json_object_get(ev, "held_s"));
	if (json_is_object(g)) {
		set_num("GPUDOCTOR_GPU_INDEX", json_object_get(g, "index"));
		set_str("GPUDOCTOR_GPU_NAME", g, "name");
		set_str("GPUDOCTOR_GPU_UUID", g, "uuid");
		set_str("GPUDOCTOR_GPU_BUS_ID", g, "bus_id");
	}
	if (json_is_object(p)) {
		set_num("GPUDOCTOR_PID", json_object_get(p, "pid"));
		set_str("GPUDOCTOR_PROCESS", p, "command");
		set_str("GPUDOCTOR_PROCESS_USER", p, "user");
		set_str("GPUDOCTOR_PROCESS_STATE", p, "state");
		set_num("GPUDOCTOR_PROCESS_MEMORY_MIB", json_object_get(p, "memory_mib"));
		set_str("GPUDOCTOR_HINT", p, "hint");
	}
	if (json_is_object(x)) {
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(json_object_get(x, "code")));
		setenv("GPUDOCTOR_XID", buf, 1);
		set_str("GPUDOCTOR_XID_TEXT", x, "text");
	}
}

void
hook_fire(struct hook_runner *h, const struct alert_set *s, const struct alert_event *e,
	  const struct mon_sample *m, const char *host)
{
	json_t *ev;
	char *doc;
	int p[2];
	pid_t pid;

	if (!h->cmd)
		return;
	hook_poll(h);
	if (h->nrunning >= HOOK_MAX_RUNNING) {
		note(h, "hook not run for '%s': %d hooks still running", s->rules[e->rule].text, h->nrunning);
		return;
	}
	ev = alert_event_json(s, e, m, host);
	doc = json_dumps(ev, JSON_COMPACT | JSON_ENSURE_ASCII);
	if (!doc || pipe2(p, O_CLOEXEC) < 0) {
		note(h, "hook not run for '%s': %s", s->rules[e->rule].text, strerror(errno));
		free(doc);
		json_decref(ev);
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		dup2(p[0], 0);
		if (h->quiet) {
			int null = open("/dev/null", O_WRONLY);
			if (null >= 0) {
				dup2(null, 1);
				dup2(null, 2);
			}
		}
		set_env(ev);
		execl("/bin/sh", "sh", "-c", h->cmd, (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	if (pid < 0) {
		note(h, "hook not run for '%s': %s", s->rules[e->rule].text, strerror(errno));
	} else {
		size_t len = strlen(doc);
		setpgid(pid, pid);
		/* the event is far below a pipe's buffer: this never blocks */
		fcntl(p[1], F_SETFL, O_NONBLOCK);
		if (write(p[1], doc, len) == (ssize_t)len)
			(void)!write(p[1], "\n", 1);
		h->running[h->nrunning].pid = pid;
		h->running[h->nrunning].start_ms = clock_ms();
		STR_COPY(h->running[h->nrunning].rule, s->rules[e->rule].text);
		h->nrunning++;
	}
	close(p[1]);
	free(doc);
	json_decref(ev);
}

static void
drop(struct hook_runner *h, int i)
{
	h->running[i] = h->running[--h->nrunning];
}

void
hook_poll(struct hook_runner *h)
{
	int i, status;

	for (i = 0; i < h->nrunning; i++) {
		pid_t r = waitpid(h->running[i].pid, &status, WNOHANG);
		double ran = clock_ms() - h->running[i].start_ms;
		if (r == h->running[i].pid) {
			if (WIFEXITED(status) && WEXITSTATUS(status))
				note(h, "hook for '%s' exited with status %d", h->running[i].rule, WEXITSTATUS(status));
			else if (WIFSIGNALED(status))
				note(h, "hook for '%s' ended by signal %d", h->running[i].rule, WTERMSIG(status));
			drop(h, i--);
		} else if (r < 0 && errno != EINTR) {
			drop(h, i--);
		} else if (ran > h->timeout_ms) {
			kill(-h->running[i].pid, SIGKILL);
			kill(h->running[i].pid, SIGKILL);
			waitpid(h->running[i].pid, &status, 0);
			note(h, "hook for '%s' killed after its time limit of %.3g s", h->running[i].rule,
			     h->timeout_ms / 1e3);
			drop(h, i--);
		}
	}
}

void
hook_finish(struct hook_runner *h)
{
	while (h->nrunning > 0) {
		hook_poll(h);
		if (h->nrunning > 0)
			usleep(10000);
	}
}
