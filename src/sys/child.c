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
#include <sys/syscall.h>
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

/* The process groups of the children still running, so that a signal that
 * ends gpudoctor (Ctrl-C goes to its own group only) ends theirs too. */
#define MAX_LIVE 64
static volatile sig_atomic_t live[MAX_LIVE];

static void
live_add(pid_t pgid)
{
	int i;

	for (i = 0; i < MAX_LIVE; i++)
		if (!live[i]) {
			live[i] = pgid;
			return;
		}
}

static void
live_remove(pid_t pgid)
{
	int i;

	for (i = 0; i < MAX_LIVE; i++)
		if (live[i] == pgid)
			live[i] = 0;
}

static void
on_fatal_signal(int sig)
{
	int i;

	for (i = 0; i < MAX_LIVE; i++)
		if (live[i] > 0)
			kill(-live[i], SIGKILL);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Once: end the children's groups with gpudoctor on the signals that end
 * it, unless something above chose to ignore them (nohup). */
static void
install_handlers(void)
{
	static bool done;
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
	size_t i;

	if (done)
		return;
	done = true;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old, sa;

		if (sigaction(sigs[i], NULL, &old) < 0 || old.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

static void
child_setup(int keep_fd, pid_t parent)
{
	static const int faults[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};
	static const int ends[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
	int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	size_t i;

	/* its own process group: whatever vendor code forks is in it, and
	 * goes when the group is killed */
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		signal(faults[i], SIG_DFL);
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		signal(ends[i], SIG_DFL);
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

/* A descriptor that becomes readable when pid exits (Linux 5.3), or -1. */
static int
exit_fd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

int
child_start(struct child *c, child_fn fn, void *arg, int timeout_ms)
{
	pid_t parent = getpid();
	int p[2];

	c->pid = -1;
	c->fd = -1;
	c->exit_fd = -1;
	c->timeout_ms = timeout_ms;
	c->start_ms = clock_ms();
	install_handlers();
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
	/* both sides set the group, so it is set before either goes on */
	setpgid(c->pid, c->pid);
	live_add(c->pid);
	close(p[1]);
	c->fd = p[0];
	c->exit_fd = exit_fd(c->pid);
	if (c->exit_fd >= 0)
		fcntl(c->exit_fd, F_SETFD, FD_CLOEXEC);
	return 0;
}

/* Has the child exited? Its status then, left to be reaped (WNOWAIT), so
 * its process group cannot be reused before it is killed. */
static bool
exited(pid_t pid, siginfo_t *si)
{
	memset(si, 0, sizeof(*si));
	return waitid(P_PID, (id_t)pid, si, WEXITED | WNOHANG | WNOWAIT) == 0 && si->si_pid == pid;
}

/* Reap pid if it has exited within grace_ms; returns 0 or -1. */
static int
reap(pid_t pid, int grace_ms)
{
	double until = clock_ms() + grace_ms;
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		if (clock_ms() >= until)
			return -1;
		usleep(1000);
	}
}

/* Take what the pipe holds now, without waiting. */
static void
drain(struct child *c, char *p, size_t size, struct child_result *r)
{
	while (r->len < size) {
		struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
		ssize_t n;

		if (poll(&pfd, 1, 0) <= 0)
			return;
		n = read(c->fd, p + r->len, size - r->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		r->len += (size_t)n;
	}
}

/* End the child and all it started: kill the group, then reap the leader
 * (in that order: its group id stays its own until it is reaped). The
 * leader is waited for grace_ms at most; one stuck in the kernel may never
 * go, and is left to init. */
static void
end_group(struct child *c, int grace_ms)
{
	kill(-c->pid, SIGKILL);
	kill(c->pid, SIGKILL); /* in case setpgid lost a race with exec */
	reap(c->pid, grace_ms);
	live_remove(c->pid);
	if (c->exit_fd >= 0)
		close(c->exit_fd);
	c->exit_fd = -1;
	c->pid = -1;
}

int
child_finish(struct child *c, void *buf, size_t size, struct child_result *r)
{
	double deadline = c->start_ms + c->timeout_ms;
	bool timed_out = false, eof = false, gone = false;
	char *p = buf;
	siginfo_t si;

	memset(r, 0, sizeof(*r));
	if (c->pid < 0) {
		r->state = CHILD_FAILED;
		return -1;
	}
	/* until the whole answer, the child's end, or the deadline: a child
	 * that dies while something it forked holds the pipe is seen dying */
	while (r->len < size) {
		double left = deadline - clock_ms();
		struct pollfd pfd[2] = {{.fd = eof ? -1 : c->fd, .events = POLLIN},
					{.fd = c->exit_fd, .events = POLLIN}};
		int k, wait_ms;

		if (exited(c->pid, &si)) {
			drain(c, p, size, r);
			gone = true;
			break;
		}
		/* past the deadline, still take what already arrived: the
		 * caller may collect one child after waiting on another */
		wait_ms = left > 0 ? (int)left + 1 : 0;
		if (c->exit_fd < 0 && wait_ms > 10)
			wait_ms = 10; /* no pidfd: look at the child every 10 ms */
		k = poll(pfd, 2, wait_ms);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			break;
		if (k == 0 || (pfd[0].revents == 0 && pfd[1].revents)) {
			if (k == 0 && left <= 0) {
				timed_out = !exited(c->pid, &si);
				gone = !timed_out;
				if (gone)
					drain(c, p, size, r);
				break;
			}
			continue;
		}
		{
			ssize_t n = read(c->fd, p + r->len, size - r->len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				break;
			if (n == 0) {
				/* EOF: the answer is short; wait for the exit to say why */
				eof = true;
				if (deadline < clock_ms() + 50)
					deadline = clock_ms() + 50;
				continue;
			}
			r->len += (size_t)n;
		}
	}
	r->ms = clock_ms() - c->start_ms;
	close(c->fd);
	c->fd = -1;

	if (r->len == size) {
		/* complete: don't wait for the teardown */
		end_group(c, 0);
		r->state = CHILD_OK;
		return 0;
	}
	if (!gone && !timed_out && exited(c->pid, &si))
		gone = true;
	if (!gone) {
		end_group(c, 200);
		r->state = CHILD_TIMEOUT;
		return -1;
	}
	/* it ended before the whole answer: how? */
	if (si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED) {
		r->state = CHILD_CRASHED;
		r->signal = si.si_status;
	} else {
		r->state = CHILD_FAILED;
		r->exit_code = si.si_code == CLD_EXITED ? si.si_status : -1;
	}
	end_group(c, 200);
	return -1;
}

void
child_stop(struct child *c)
{
	if (c->pid <= 0)
		return;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	end_group(c, 100);
}
