/*
 * probe.c - the probe table and the order they run in.
 *
 * The children that load vendor code start first (the driver child as soon
 * as the loader's view of libcuda is known, the library-version child as
 * soon as the libraries are found); the file probes run while they work;
 * then both are collected and the process-liveness probe reads what NVML
 * reported.
 */
#include "probe/probe.h"
#include "base/clock.h"
#include "base/str.h"
#include "sys/root.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The file probes, in the order they run while the children work. */
const struct probe probes[] = {
	{.name = "host", .run = probe_host},
	{.name = "pci", .run = probe_pci},
	{.name = "kmod", .run = probe_kmod},
	{.name = "devnodes", .run = probe_devnodes},
	{.name = "env", .run = probe_env},
	{.name = "python", .run = probe_python},         /* after env */
	{.name = "frameworks", .run = probe_frameworks}, /* after python and libs */
	{.name = NULL, .run = NULL},
};

static void
stamp(struct facts *f)
{
	time_t t = time(NULL);
	struct tm tm;

	STR_COPY(f->tool_version, GPUDOCTOR_VERSION);
	STR_COPY(f->root, root_get());
	if (root_read_line("/proc/sys/kernel/hostname", f->hostname, sizeof(f->hostname)) < 0 &&
	    root_read_line("/etc/hostname", f->hostname, sizeof(f->hostname)) < 0)
		f->hostname[0] = '\0';
	if (gmtime_r(&t, &tm))
		strftime(f->collected_at, sizeof(f->collected_at), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* A file read only in part: the facts say so (unknown is not absent). */
static void
note_cut(void *ctx, const char *path, size_t kept)
{
	facts_note(ctx, "read", "%s holds more than %zu bytes: only those were read", path, kept);
}

void
probe_all(struct facts *f, const struct probe_opts *o)
{
	struct driver_job *dj;
	struct libver_job *lj;
	const struct probe *p;
	double t0 = clock_ms();

	stamp(f);
	root_on_cut(note_cut, f);
	probe_driverlibs(f, o);
	dj = driver_probe_start(f, o);
	probe_libs(f, o);
	lj = libver_probe_start(f, o);
	for (p = probes; p->name; p++)
		p->run(f, o);
	driver_probe_finish(dj, f);
	libver_probe_finish(lj, f);
	facts_derive(f);
	if (o->deep)
		probe_deep(f, o); /* after frameworks: compares with what it found */
	probe_procs(f, o);
	root_on_cut(NULL, NULL);
	f->total_ms = clock_ms() - t0;
}
