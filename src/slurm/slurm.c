/*
 * slurm.c - scontrol, run directly with a time limit; see slurm.h.
 */
#include "slurm/slurm.h"
#include "base/clean.h"
#include "base/str.h"
#include "sys/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SCONTROL_TIMEOUT_MS 15000

int
slurm_find_scontrol(const char *path, char *out, size_t size, char *why, size_t whysize)
{
	static const char *const dirs[] = {"/usr/bin", "/usr/sbin", "/usr/local/bin", "/opt/slurm/bin",
					   "/usr/local/slurm/bin", NULL};
	char cand[PATH_MAX], real[PATH_MAX], w[256];
	int i;

	for (i = 0; path ? i == 0 : dirs[i] != NULL; i++) {
		if (path)
			str_copy(cand, sizeof(cand), path);
		else
			str_fmt(cand, sizeof(cand), "%s/scontrol", dirs[i]);
		if (!realpath(cand, real) || access(real, X_OK) != 0) {
			if (path) {
				str_fmt(why, whysize, "--scontrol '%s': not an executable file", path);
				return -1;
			}
			continue;
		}
		if (!trust_path(real, getuid(), w, sizeof(w))) {
			str_fmt(why, whysize, "not running '%s': %s", real, w);
			return -1;
		}
		str_copy(out, size, real);
		return 0;
	}
	str_fmt(why, whysize, "scontrol not found in /usr/bin, /usr/sbin, /usr/local/bin, /opt/slurm/bin (--scontrol PATH)");
	return -1;
}

/* Run argv, its stdout into out (NUL-terminated); the exit status, or -1. */
static int
run(char *const argv[], char *out, size_t size, char *why, size_t whysize)
{
	int p[2], status = 0;
	size_t have = 0;
	pid_t pid;
	struct timespec t0, t;

	if (pipe2(p, O_CLOEXEC) < 0) {
		str_fmt(why, whysize, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(p[1], 1);
		signal(SIGPIPE, SIG_DFL);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		str_fmt(why, whysize, "fork: %s", strerror(errno));
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd pfd = {.fd = p[0], .events = POLLIN};
		long left;
		ssize_t n;
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = SCONTROL_TIMEOUT_MS - ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			close(p[0]);
			str_fmt(why, whysize, "%s did not answer within %d s", argv[0], SCONTROL_TIMEOUT_MS / 1000);
			return -1;
		}
		n = read(p[0], out + have, size - 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
		if (have >= size - 1)
			break;
	}
	out[have] = '\0';
	close(p[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* "Key=value" from scontrol's output: the value up to the next blank (the
 * reason: up to " [" or the end of its line). */
static void
field(const char *text, const char *key, char *out, size_t size, bool to_eol)
{
	const char *p = text, *end;
	size_t klen = strlen(key);

	out[0] = '\0';
	while ((p = strstr(p, key))) {
		if ((p == text || p[-1] == ' ' || p[-1] == '\n') && p[klen] == '=')
			break;
		p += klen;
	}
	if (!p)
		return;
	p += klen + 1;
	end = to_eol ? strchr(p, '\n') : p + strcspn(p, " \n");
	if (!end)
		end = p + strlen(p);
	if (to_eol) {
		const char *b = strstr(p, " [");
		if (b && b < end)
			end = b;
	}
	str_fmt(out, size, "%.*s", (int)(end - p), p);
}

int
slurm_show(const char *scontrol, const char *node, struct slurm_node *n, char *why, size_t whysize)
{
	char out[16384];
	char *argv[] = {(char *)scontrol, "show", "node", (char *)node, NULL};
	int rc = run(argv, out, sizeof(out), why, whysize);

	memset(n, 0, sizeof(*n));
	if (rc != 0) {
		if (rc > 0)
			str_fmt(why, whysize, "scontrol show node %s: exit status %d", node, rc);
		return -1;
	}
	str_copy(n->name, sizeof(n->name), node);
	field(out, "State", n->state, sizeof(n->state), false);
	field(out, "Reason", n->reason, sizeof(n->reason), true);
	if (!strcmp(n->reason, "(null)"))
		n->reason[0] = '\0';
	/* scontrol's output is shown to people: no escape sequences through */
	text_clean_str(n->state, sizeof(n->state));
	text_clean_str(n->reason, sizeof(n->reason));
	n->drained = strstr(n->state, "DRAIN") != NULL;
	return 0;
}

int
slurm_drain(const char *scontrol, const char *node, const char *reason, char *why, size_t whysize)
{
	char a1[256], a3[600], out[4096];
	char *argv[] = {(char *)scontrol, "update", a1, "State=DRAIN", a3, NULL};
	int rc;

	str_fmt(a1, sizeof(a1), "NodeName=%s", node);
	str_fmt(a3, sizeof(a3), "Reason=%s %s", SLURM_REASON_PREFIX, reason);
	rc = run(argv, out, sizeof(out), why, whysize);
	if (rc > 0)
		str_fmt(why, whysize, "scontrol update NodeName=%s State=DRAIN: exit status %d", node, rc);
	return rc == 0 ? 0 : -1;
}

int
slurm_resume(const char *scontrol, const char *node, char *why, size_t whysize)
{
	char a1[256], out[4096];
	char *argv[] = {(char *)scontrol, "update", a1, "State=RESUME", NULL};
	int rc;

	str_fmt(a1, sizeof(a1), "NodeName=%s", node);
	rc = run(argv, out, sizeof(out), why, whysize);
	if (rc > 0)
		str_fmt(why, whysize, "scontrol update NodeName=%s State=RESUME: exit status %d", node, rc);
	return rc == 0 ? 0 : -1;
}
