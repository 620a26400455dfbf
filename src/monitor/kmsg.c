/*
 * kmsg.c - Xid lines from the kernel log, for the `xid` alert rule: the
 * NVIDIA driver reports GPU faults as "NVRM: Xid (PCI:0000:06:00): 79,
 * pid=..., GPU has fallen off the bus." Read from /dev/kmsg (root, or
 * kernel.dmesg_restrict=0) starting at its end, so only what is logged
 * while gpudoctor runs counts; or from a saved log (--kmsg FILE, dmesg or
 * journal text) from its start, and whatever is appended to it.
 */
#include "monitor/monitor.h"
#include "base/clean.h"
#include "base/str.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void
mon_kmsg_open(struct mon_kmsg *k, const char *path)
{
	struct stat st;

	memset(k, 0, sizeof(*k));
	k->fd = open(path ? path : "/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0) {
		str_fmt(k->why, sizeof(k->why), "%s: %s%s", path ? path : "/dev/kmsg", strerror(errno),
			!path && (errno == EPERM || errno == EACCES)
				? " (the kernel log needs root, or sysctl kernel.dmesg_restrict=0)" : "");
		return;
	}
	k->is_file = fstat(k->fd, &st) == 0 && S_ISREG(st.st_mode);
	if (!k->is_file)
		lseek(k->fd, 0, SEEK_END);
}

/* "0000:06:00" or "00000000:06:00.0" into domain, bus, device. */
static bool
parse_bus(const char *s, unsigned *dom, unsigned *bus, unsigned *dev)
{
	return sscanf(s, "%x:%x:%x", dom, bus, dev) == 3;
}

static int
gpu_for(const struct mon_sample *m, const char *bus_id)
{
	unsigned d, b, v, d2, b2, v2;
	int i;

	if (!m || !parse_bus(bus_id, &d, &b, &v))
		return -1;
	for (i = 0; i < m->ngpus; i++)
		if (parse_bus(m->gpus[i].bus_id, &d2, &b2, &v2) && d == d2 && b == b2 && v == v2)
			return i;
	return -1;
}

/* One line of the log; fills x when it is an Xid report. */
static bool
parse_line(const char *line, const struct mon_sample *m, struct mon_xid *x)
{
	const char *p = strstr(line, "Xid (");
	const char *close;
	char *end;
	size_t n;
	long code;

	if (!p)
		return false;
	p += 5;
	if (!strncmp(p, "PCI:", 4))
		p += 4;
	if (!(close = strchr(p, ')')) || (n = (size_t)(close - p)) >= sizeof(x->bus_id))
		return false;
	memset(x, 0, sizeof(*x));
	memcpy(x->bus_id, p, n);
	x->bus_id[n] = '\0';
	p = close + 1;
	if (*p == ':')
		p++;
	code = strtol(p, &end, 10);
	if (end == p || code <= 0 || code > 100000)
		return false;
	x->code = (int)code;
	x->gpu = gpu_for(m, x->bus_id);
	p = strstr(line, "NVRM:");
	str_copy(x->text, sizeof(x->text), p ? p : line);
	text_clean_str(x->text, sizeof(x->text));
	text_clean_str(x->bus_id, sizeof(x->bus_id));
	return true;
}

int
mon_kmsg_xids(struct mon_kmsg *k, const struct mon_sample *m, struct mon_xid *out, int max)
{
	char buf[8192];
	int found = 0;

	if (k->fd < 0)
		return 0;
	for (;;) {
		ssize_t n = read(k->fd, buf, sizeof(buf) - 1);
		char *line, *nl;
		if (n < 0 && errno == EPIPE)
			continue;        /* /dev/kmsg: records overwritten before we read them */
		if (n <= 0)
			break;
		buf[n] = '\0';
		if (!k->is_file) {
			/* one record per read: "prio,seq,usec,flags;message\n" */
			char *msg = strchr(buf, ';');
			struct mon_xid x;
			if ((nl = strchr(buf, '\n')))
				*nl = '\0';
			if (msg && found < max && parse_line(msg + 1, m, &x))
				out[found++] = x;
			continue;
		}
		/* a file: lines, the last perhaps cut in the middle */
		line = buf;
		while ((nl = memchr(line, '\n', (size_t)(buf + n - line)))) {
			struct mon_xid x;
			*nl = '\0';
			if (k->plen) {
				str_fmt(k->partial + k->plen, sizeof(k->partial) - k->plen, "%s", line);
				if (found < max && parse_line(k->partial, m, &x))
					out[found++] = x;
				k->plen = 0;
			} else if (found < max && parse_line(line, m, &x)) {
				out[found++] = x;
			}
			line = nl + 1;
		}
		if (line < buf + n) {
			size_t rest = (size_t)(buf + n - line);
			if (k->plen + rest >= sizeof(k->partial))
				rest = sizeof(k->partial) - 1 - k->plen;
			memcpy(k->partial + k->plen, line, rest);
			k->plen += rest;
			k->partial[k->plen] = '\0';
		}
	}
	return found;
}

void
mon_kmsg_close(struct mon_kmsg *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}
