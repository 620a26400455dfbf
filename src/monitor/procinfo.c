/*
 * procinfo.c - what the host says about each process NVML lists: its user,
 * command line, container, CPU use, and whether it still exists. NVML
 * always gives host PIDs (the driver knows no PID namespaces), so a PID
 * missing from /proc means a leaked context only when gpudoctor itself
 * runs in the host's PID namespace; inside a container it means "outside
 * this container" and is said so, not called stale.
 *
 * Everything read here is written by other users (a command line, a
 * process name): it is cleaned before anyone prints it, and nothing is
 * run or followed.
 */
#include "monitor/monitor.h"
#include "base/clean.h"
#include "base/str.h"

#include <ctype.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static ssize_t
read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t n, total = 0;

	if (fd < 0)
		return -1;
	while ((size_t)total < size - 1 && (n = read(fd, buf + total, size - 1 - (size_t)total)) > 0)
		total += n;
	close(fd);
	buf[total] = '\0';
	return total;
}

/* Does gpudoctor run in a PID namespace of its own (a container without
 * --pid=host)? PID 1 is then not the host's init; and a container says
 * what it is (/.dockerenv, /run/.containerenv, its cgroup). */
static bool
below_host_pid_ns(void)
{
	char comm[64] = "", cg[4096] = "";

	read_small("/proc/1/comm", comm, sizeof(comm));
	read_small("/proc/1/cgroup", cg, sizeof(cg));
	if ((!strcmp(comm, "systemd\n") || !strcmp(comm, "init\n")) && !strstr(cg, "docker") &&
	    !strstr(cg, "kubepods") && !strstr(cg, "containerd") && !strstr(cg, "libpod"))
		return false;
	if (access("/.dockerenv", F_OK) == 0 || access("/run/.containerenv", F_OK) == 0 || getenv("container"))
		return true;
	read_small("/proc/self/cgroup", cg, sizeof(cg));
	return strstr(cg, "docker") || strstr(cg, "kubepods") || strstr(cg, "containerd") || strstr(cg, "libpod");
}

void
mon_host_init(struct mon_host *h, int pid_ns)
{
	ssize_t n;

	memset(h, 0, sizeof(*h));
	h->in_container = pid_ns == MON_PIDNS_AUTO ? below_host_pid_ns() : pid_ns == MON_PIDNS_PRIVATE;
	n = readlink("/proc/self/ns/pid", h->pid_ns, sizeof(h->pid_ns) - 1);
	h->pid_ns[n > 0 ? n : 0] = '\0';
	h->ticks_per_s = sysconf(_SC_CLK_TCK);
	if (h->ticks_per_s <= 0)
		h->ticks_per_s = 100;
}

/* A container id from /proc/PID/cgroup: docker-<id>.scope, /docker/<id>,
 * cri-containerd-<id>, crio-<id>, libpod-<id>; 12 characters, as docker
 * ps shows it. */
static void
container_of(const char *cgroup, char *out, size_t size)
{
	static const char *const marks[] = {"docker-", "/docker/", "cri-containerd-", "crio-", "libpod-", NULL};
	int i;

	out[0] = '\0';
	for (i = 0; marks[i]; i++) {
		const char *p = strstr(cgroup, marks[i]);
		size_t n = 0;
		if (!p)
			continue;
		p += strlen(marks[i]);
		while (isxdigit((unsigned char)p[n]))
			n++;
		if (n >= 12) {
			str_fmt(out, size, "%.12s", p);
			return;
		}
	}
	if (strstr(cgroup, "kubepods"))
		str_copy(out, size, "k8s-pod");
}

static void
user_of(int uid, char *out, size_t size)
{
	static int cached_uid = -1;
	static char cached[32];
	struct passwd *pw;

	if (uid == cached_uid) {
		str_copy(out, size, cached);
		return;
	}
	pw = getpwuid((uid_t)uid);
	if (pw && pw->pw_name)
		str_copy(out, size, pw->pw_name);
	else
		str_fmt(out, size, "%d", uid);
	text_clean_str(out, size);
	cached_uid = uid;
	STR_COPY(cached, out);
}

static void
fill_one(struct mon_host *h, struct mon_proc *p, const struct mon_sample *prev, double dt_s)
{
	char path[64], buf[4096], *q;
	ssize_t n;
	int i;

	p->ppid = -1;
	p->uid = -1;
	p->cpu_pct = MON_NA;
	str_fmt(path, sizeof(path), "/proc/%u/stat", p->pid);
	if ((n = read_small(path, buf, sizeof(buf))) <= 0 || !(q = strrchr(buf, ')'))) {
		p->state = h->in_container ? MON_PROC_ELSEWHERE : MON_PROC_GONE;
		p->stale = p->state == MON_PROC_GONE;
		str_copy(p->command, sizeof(p->command), "");
		return;
	}
	{
		char st = q[2];
		unsigned long long ut = 0, stt = 0, start = 0;
		int ppid = -1;
		/* fields after the name: state ppid pgrp session tty tpgid
		 * flags minflt cminflt majflt cmajflt utime stime cutime
		 * cstime priority nice threads itrealvalue starttime */
		if (sscanf(q + 2, "%c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d %*d %*d %*d %llu",
			   &st, &ppid, &ut, &stt, &start) >= 2) {
			p->ppid = ppid;
			p->cpu_ticks = ut + stt;
			p->start_ticks = start;
		}
		p->state = st == 'Z' ? MON_PROC_ZOMBIE : (st == 'T' || st == 't') ? MON_PROC_STOPPED : MON_PROC_RUNNING;
		p->stale = p->state == MON_PROC_ZOMBIE;
		/* the name in parentheses, for a zombie's empty command line */
		*q = '\0';
		q = strchr(buf, '(');
		str_copy(p->command, sizeof(p->command), q ? q + 1 : "");
	}
	str_fmt(path, sizeof(path), "/proc/%u/cmdline", p->pid);
	if ((n = read_small(path, buf, sizeof(buf))) > 0) {
		for (i = 0; i < n - 1; i++)
			if (!buf[i])
				buf[i] = ' ';
		str_copy(p->command, sizeof(p->command), buf);
	}
	text_clean_str(p->command, sizeof(p->command));
	str_fmt(path, sizeof(path), "/proc/%u/status", p->pid);
	if (read_small(path, buf, sizeof(buf)) > 0 && (q = strstr(buf, "\nUid:")))
		p->uid = (int)strtol(q + 5, NULL, 10);
	if (p->uid >= 0)
		user_of(p->uid, p->user, sizeof(p->user));
	str_fmt(path, sizeof(path), "/proc/%u/cgroup", p->pid);
	if (read_small(path, buf, sizeof(buf)) > 0)
		container_of(buf, p->container, sizeof(p->container));
	if (!p->container[0] && h->pid_ns[0]) {
		char ns[64];
		str_fmt(path, sizeof(path), "/proc/%u/ns/pid", p->pid);
		n = readlink(path, ns, sizeof(ns) - 1);
		if (n > 0) {
			ns[n] = '\0';
			if (strcmp(ns, h->pid_ns))
				str_copy(p->container, sizeof(p->container), "other-pidns");
		}
	}
	/* CPU since the previous sample, when the same process was in it */
	for (i = 0; prev && dt_s > 0 && i < prev->nprocs; i++) {
		const struct mon_proc *o = &prev->procs[i];
		if (o->pid == p->pid && o->start_ticks == p->start_ticks && o->cpu_ticks <= p->cpu_ticks) {
			p->cpu_pct = (double)(p->cpu_ticks - o->cpu_ticks) / (double)h->ticks_per_s / dt_s * 100.0;
			break;
		}
	}
}

void
mon_procs_fill(struct mon_host *h, struct mon_sample *m, const struct mon_sample *prev)
{
	struct timespec ts;
	double now, dt = 0;
	int i;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
	if (h->prev_wall_ms > 0)
		dt = (now - h->prev_wall_ms) / 1e3;
	h->prev_wall_ms = now;
	for (i = 0; i < m->nprocs; i++)
		fill_one(h, &m->procs[i], prev, dt);
}

const char *
mon_proc_state_name(int state)
{
	switch (state) {
	case MON_PROC_ZOMBIE:
		return "zombie";
	case MON_PROC_STOPPED:
		return "stopped";
	case MON_PROC_GONE:
		return "gone";
	case MON_PROC_ELSEWHERE:
		return "outside-this-container";
	default:
		return "running";
	}
}

void
mon_proc_hint(const struct mon_sample *m, const struct mon_proc *p, char *out, size_t size)
{
	int idx = p->gpu >= 0 && p->gpu < m->ngpus ? m->gpus[p->gpu].index : p->gpu;

	out[0] = '\0';
	if (p->state == MON_PROC_ZOMBIE && p->ppid > 1)
		str_fmt(out, size, "exited, not reaped by its parent: kill %d (the parent) frees it", p->ppid);
	else if (p->state == MON_PROC_ZOMBIE)
		str_fmt(out, size, "exited, not reaped: sudo nvidia-smi --gpu-reset -i %d frees it", idx);
	else if (p->state == MON_PROC_GONE)
		str_fmt(out, size,
			"no such process, memory still held: sudo fuser -v /dev/nvidia* shows the holder; "
			"none: sudo nvidia-smi --gpu-reset -i %d", idx);
	else if (p->state == MON_PROC_ELSEWHERE)
		str_copy(out, size, "a host PID outside this container (run with --pid=host to see it)");
}
