/*
 * procs.c - are the processes NVML says hold GPU memory still alive, and
 * what are they? Reads /proc/PID/stat and /proc/PID/comm under the root for
 * each facts->procs[] entry (filled by driver.c from NVML).
 *
 * A missing /proc/PID is not proof that the process is gone: in a container
 * NVML reports host pids that are not in our pid namespace. We record what
 * we see (alive=false, state '?') and say so in a note; the rules decide.
 */
#include "probe/probe.h"
#include "base/str.h"
#include "sys/root.h"

#include <stdio.h>
#include <string.h>

/* Parse "PID (COMM) S ..." from /proc/PID/stat: comm may hold spaces and
 * parentheses, so the state follows the last ')'. */
static void
parse_stat(const char *stat, struct proc_facts *p)
{
	const char *open = strchr(stat, '(');
	const char *close = strrchr(stat, ')');

	if (!open || !close || close < open)
		return;
	if (!p->name[0]) {
		size_t n = (size_t)(close - open - 1);
		if (n >= sizeof(p->name))
			n = sizeof(p->name) - 1;
		memcpy(p->name, open + 1, n);
		p->name[n] = '\0';
	}
	if (close[1] == ' ' && close[2] >= 'A' && close[2] <= 'z')
		p->state = close[2];
}

static void
read_proc(struct proc_facts *p)
{
	char path[48], buf[512];

	p->state = '?';
	p->name[0] = '\0';
	STR_FMT(path, "/proc/%u", p->pid);
	p->alive = root_is_dir(path);
	if (!p->alive)
		return;
	STR_FMT(path, "/proc/%u/comm", p->pid);
	if (root_read_line(path, buf, sizeof(buf)) == 0)
		STR_COPY(p->name, buf);
	STR_FMT(path, "/proc/%u/stat", p->pid);
	if (root_read(path, buf, sizeof(buf)) > 0)
		parse_stat(buf, p);
}

void
probe_procs(struct facts *f, const struct probe_opts *o)
{
	char missing[F_TEXT] = "";
	int i, nmissing = 0, n = f->nprocs;

	(void)o;
	if (n > MAX_PROCS)
		n = MAX_PROCS;
	for (i = 0; i < n; i++) {
		struct proc_facts *p = &f->procs[i];
		size_t len;

		read_proc(p);
		if (p->alive)
			continue;
		len = strlen(missing);
		if (len + 12 < sizeof(missing))
			str_fmt(missing + len, sizeof(missing) - len, "%s%u", nmissing ? " " : "",
				p->pid);
		nmissing++;
	}
	if (nmissing)
		facts_note(f, "procs", "%d GPU process(es) not in /proc (%s): gone, or in another "
			"pid namespace%s", nmissing, missing,
			f->host.container ? " (this is a container: NVML reports host pids)" : "");
}
