/*
 * monitor.h - the live view behind `gpudoctor top` and `gpudoctor watch`:
 * an NVML sampler in a child process that streams samples (nvml_sampler.c,
 * stream.c), the host's view of each GPU process (procinfo.c), Xid lines
 * from the kernel log (kmsg.c). Alert rules and hooks are in alert.h,
 * the outputs in show.h.
 */
#ifndef GPUDOCTOR_MONITOR_H
#define GPUDOCTOR_MONITOR_H

#include "monitor/sample.h"
#include "sys/child.h"

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

/* ---- nvml_sampler.c: runs in the child ---------------------------------- */

struct mon_sampler_opts {
	char nvml[PATH_MAX];        /* what to dlopen: the soname, or a fixture's file */
	int interval_ms;            /* one sample per interval */
	int slow_every;             /* ECC, remapped rows, PCIe link: every N samples */
	int pcie_ms;                /* PCIe throughput and energy: every pcie_ms (0 never) */
	int64_t count;              /* samples to take; 0 until killed */
};

/* child_fn: sample until killed (or count samples); arg is the options. */
void mon_sampler_child(void *arg, int fd);
/* "NVML_ERROR_GPU_IS_LOST" for 15, from the knowledge base. */
void mon_nvml_error_name(int rc, char *out, size_t size);

/* ---- stream.c: the parent's end --------------------------------------------- */

struct mon_stream {
	struct mon_sampler_opts o;
	int start_timeout_ms;       /* the first sample (nvmlInit) may take this long */
	struct child child;
	bool running;
	unsigned char *buf;         /* a sample being received */
	size_t have;
	double last_ms;             /* when the last sample arrived */
	int64_t seq_base;           /* samples before the last restart */
	int64_t last_seq;
	int failures;               /* restarts in a row without a sample */
	int restarts;               /* in all */
	char note[256];             /* the last restart's reason, for the screen */
	char error[300];            /* why there will be no samples */
};

void mon_stream_init(struct mon_stream *s, const struct mon_sampler_opts *o, int start_timeout_ms);
/* The descriptor to poll for the next sample, -1 when none is running. */
int mon_stream_fd(const struct mon_stream *s);
/* Wait up to wait_ms for a sample. 1: *out filled; 0: none yet (a
 * stalled or dead sampler is restarted here); -1: no samples will come,
 * s->error says why. */
int mon_stream_next(struct mon_stream *s, struct mon_sample *out, int wait_ms);
void mon_stream_stop(struct mon_stream *s);

/* ---- procinfo.c --------------------------------------------------------------- */

struct mon_host {
	bool in_container;           /* gpudoctor's own PID namespace is not the host's */
	char pid_ns[64];             /* readlink /proc/self/ns/pid */
	long ticks_per_s;
	double prev_wall_ms;
};

/* pid_ns: where gpudoctor's PIDs come from; AUTO decides (procinfo.c) */
enum { MON_PIDNS_AUTO, MON_PIDNS_HOST, MON_PIDNS_PRIVATE };
void mon_host_init(struct mon_host *h, int pid_ns);
/* Each process of m: user, command, container, host CPU % since prev (may
 * be NULL), state and the stale mark. */
void mon_procs_fill(struct mon_host *h, struct mon_sample *m, const struct mon_sample *prev);
/* The command that would end a stale process's hold, or "" (the text of
 * the STALE mark in top). */
void mon_proc_hint(const struct mon_sample *m, const struct mon_proc *p, char *out, size_t size);
/* "zombie", "gone", ... */
const char *mon_proc_state_name(int state);

/* ---- kmsg.c ---------------------------------------------------------------------- */

#define MON_MAX_XIDS 16

struct mon_xid {
	char bus_id[32];             /* "0000:06:00" as the kernel prints it */
	int gpu;                     /* index in the sample, -1 unknown */
	int code;
	char text[200];              /* the message, cleaned */
};

struct mon_kmsg {
	int fd;                      /* -1: not readable */
	bool is_file;                /* a saved log (--kmsg FILE), read from its start */
	char partial[1024];
	size_t plen;
	char why[200];               /* why it is not readable */
};

/* Open path (NULL: /dev/kmsg, from now on). Never fails: k->fd -1 and
 * k->why say so. */
void mon_kmsg_open(struct mon_kmsg *k, const char *path);
/* The Xid lines logged since the last call, up to max; matched to m's GPUs. */
int mon_kmsg_xids(struct mon_kmsg *k, const struct mon_sample *m, struct mon_xid *out, int max);
void mon_kmsg_close(struct mon_kmsg *k);

/* ---- decoding --------------------------------------------------------------------- */

/* The clock-event reasons that matter (idle, user-set application clocks
 * and display clocks left out), as "SW power cap, HW thermal slowdown";
 * "" when none. */
void mon_reasons_text(int64_t bits, char *out, size_t size);
/* One name per reason bit, NULL for an unnamed bit. */
const char *mon_reason_name(int bit);
/* The bits mon_reasons_text reports. */
#define MON_REASONS_REPORTED 0xfcULL

#endif
