/*
 * child.h - run a function in a forked child with a time limit and get its
 * answer back over a pipe. This is how everything that loads vendor code
 * (libcuda, NVML, the CUDA libraries) runs: a crash or a hang there becomes
 * a result (CHILD_CRASHED / CHILD_TIMEOUT), never the end of gpudoctor.
 *
 * The child's stdin, stdout and stderr go to /dev/null (set
 * GPUDOCTOR_CHILD_STDERR=1 to keep stderr), it dies with its parent
 * (PR_SET_PDEATHSIG), and fault signals are reset to their defaults so a
 * crash is seen as the signal it is. It runs in a process group of its
 * own, and the whole group is killed when it is collected (or when a
 * signal ends gpudoctor), so nothing vendor code forks outlives it. Its
 * end is watched apart from the pipe (a pidfd, or every 10 ms): a child
 * that crashes while something it forked keeps the pipe open is seen
 * crashing, not waited on until the time limit.
 *
 * Once the whole answer has arrived the parent does not wait for the child
 * to finish exiting (a CUDA process can take a while to tear down): it is
 * killed and reaped if it has already gone, else left to init.
 */
#ifndef GPUDOCTOR_CHILD_H
#define GPUDOCTOR_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The function run in the child; it writes its answer to fd (use
 * child_write) and returns; the child then _exits. */
typedef void (*child_fn)(void *arg, int fd);

struct child {
	pid_t pid;      /* also its process group */
	int fd;
	int exit_fd;    /* pidfd: readable once it exits; -1 without */
	double start_ms;
	int timeout_ms;
};

struct child_result {
	int state;      /* enum child_state (facts.h): OK, CRASHED, TIMEOUT, FAILED */
	int signal;     /* the signal for CRASHED */
	int exit_code;  /* when it exited without a full answer */
	size_t len;     /* answer bytes received */
	double ms;      /* from start to answer (or to giving up) */
};

/* Fork and run fn(arg, fd) in the child. Returns 0, or -1 when the child
 * could not be started (c->pid is then -1). */
int child_start(struct child *c, child_fn fn, void *arg, int timeout_ms);
/* Read the answer into buf (at most size bytes; the answer is complete when
 * exactly `size` bytes arrived) until then, EOF, or the deadline. Fills r;
 * returns 0 when a complete answer arrived, else -1. */
int child_finish(struct child *c, void *buf, size_t size, struct child_result *r);
/* End a child whose answer is a stream read from c->fd by the caller (a
 * sampler): close the pipe, kill its process group and reap it. */
void child_stop(struct child *c);
/* Write all of data to fd, retrying on EINTR; for use inside a child. */
int child_write(int fd, const void *data, size_t n);

#endif
