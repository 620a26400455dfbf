/*
 * child.c - forked children with a time limit; see child.h.
 */
#include "sys/child.h"
#include "base/clock.h"
#include "facts.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int
child_write(int fd, const void *data, size_t n)
{
	const char *p = data;

	while (n) {
		ssize_t k = write(fd, p, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static void
child_setup(int keep_fd, pid_t parent)
{
	static const int faults[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};
	int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	size_t i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		signal(faults[i], SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (devnull >= 0) {
		dup2(devnull, 0);
		dup2(devnull, 1);
		if (!getenv("GPUDOCTOR_CHILD_STDERR"))
			dup2(devnull, 2);
		if (devnull > 2 && devnull != keep_fd)
			close(devnull);
	}
}

int
child_start(struct child *c, child_fn fn, void *arg, int timeout_ms)
{
	pid_t parent = getpid();
	int p[2];

	c->pid = -1;
	c->fd = -1;
	c->timeout_ms = timeout_ms;
	c->start_ms = clock_ms();
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (c->pid == 0) {
		close(p[0]);
		child_setup(p[1], parent);
		fn(arg, p[1]);
		close(p[1]);
		_exit(0);
	}
	close(p[1]);
	c->fd = p[0];
	return 0;
}

/* Reap pid if it has exited within grace_ms; returns the wait status or -1. */
static int
reap(pid_t pid, int grace_ms)
{
	double until = clock_ms() + grace_ms;
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		if (clock_ms() >= until)
			return -1;
		usleep(1000);
	}
}

int
child_finish(struct child *c, void *buf, size_t size, struct child_result *r)
{
	double deadline = c->start_ms + c->timeout_ms;
	bool timed_out = false;
	char *p = buf;
	int status;

	memset(r, 0, sizeof(*r));
	if (c->pid < 0) {
		r->state = CHILD_FAILED;
		return -1;
	}
	while (r->len < size) {
		double left = deadline - clock_ms();
		struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
		int k;

		/* past the deadline, still take what already arrived: the
		 * caller may collect one child after waiting on another */
		k = poll(&pfd, 1, left > 0 ? (int)left + 1 : 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			break;
		if (k == 0) {
			if (left <= 0) {
				timed_out = true;
				break;
			}
			continue;
		}
		{
			ssize_t n = read(c->fd, p + r->len, size - r->len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			r->len += (size_t)n;
		}
	}
	r->ms = clock_ms() - c->start_ms;
	close(c->fd);
	c->fd = -1;

	if (r->len == size) {
		/* complete: don't wait for the teardown */
		status = reap(c->pid, 0);
		if (status < 0)
			kill(c->pid, SIGKILL), reap(c->pid, 0);
		r->state = CHILD_OK;
		c->pid = -1;
		return 0;
	}
	if (timed_out) {
		kill(c->pid, SIGKILL);
		reap(c->pid, 200); /* a child stuck in the kernel may never go */
		r->state = CHILD_TIMEOUT;
		c->pid = -1;
		return -1;
	}
	/* EOF before the whole answer: it died or gave up; how? */
	status = reap(c->pid, (int)(deadline - clock_ms() > 0 ? deadline - clock_ms() : 0) + 50);
	if (status < 0) {
		kill(c->pid, SIGKILL);
		reap(c->pid, 200);
		r->state = CHILD_TIMEOUT;
	} else if (WIFSIGNALED(status)) {
		r->state = CHILD_CRASHED;
		r->signal = WTERMSIG(status);
	} else {
		r->state = CHILD_FAILED;
		r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	}
	r->ms = clock_ms() - c->start_ms;
	c->pid = -1;
	return -1;
}
