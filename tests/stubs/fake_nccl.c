/*
 * fake_nccl.c - a mock libnccl.so.2 for bench's nccl_allreduce test: one
 * communicator per GPU of this process (ncclCommInitAll), float sums
 * computed on the CPU when a group ends (device pointers are host pointers,
 * fake_cuda.c), so that bench's check of the sums is exercised.
 *
 * Scenario keys (GPUDOCTOR_FAKE_SCENARIO, see README.md): `nccl_init_error
 * N`, what ncclCommInitAll returns (0: success); `nccl_wrong 1`, sums off
 * by one.
 */
#include "fake_scenario.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COMMS 8
#define MAX_OPS 64

struct ncclComm {
	int rank, n;
};

struct op {
	const float *send;
	float *recv;
	size_t count;
	int rank;
};

static struct {
	int read;
	int init_error, wrong;
	struct ncclComm comms[MAX_COMMS];
	struct op ops[MAX_OPS];
	int nops, depth;
} S;

static void
on_line(const char *key, char **f, int n, void *ctx)
{
	(void)ctx;
	if (!strcmp(key, "nccl_init_error"))
		S.init_error = (int)fake_num(f, n, 0, 0);
	else if (!strcmp(key, "nccl_wrong"))
		S.wrong = (int)fake_num(f, n, 0, 0);
}

static void
load(void)
{
	if (S.read)
		return;
	S.read = 1;
	fake_scenario_read(on_line, NULL);
}

int ncclGetVersion(int *version);
int ncclCommInitAll(struct ncclComm **comms, int n, const int *devs);
int ncclCommDestroy(struct ncclComm *comm);
int ncclGroupStart(void);
int ncclGroupEnd(void);
int ncclAllReduce(const void *send, void *recv, size_t count, int type, int op, struct ncclComm *comm,
		  void *stream);
const char *ncclGetErrorString(int rc);

int
ncclGetVersion(int *version)
{
	*version = 22703;                /* 2.27.3 */
	return 0;
}

const char *
ncclGetErrorString(int rc)
{
	return rc == 0 ? "no error" : rc == 2 ? "unhandled system error" : "invalid argument";
}

int
ncclCommInitAll(struct ncclComm **comms, int n, const int *devs)
{
	int i;

	(void)devs;
	load();
	if (S.init_error)
		return S.init_error;
	if (n < 1 || n > MAX_COMMS)
		return 4;                /* ncclInvalidArgument */
	for (i = 0; i < n; i++) {
		S.comms[i].rank = i;
		S.comms[i].n = n;
		comms[i] = &S.comms[i];
	}
	return 0;
}

int
ncclCommDestroy(struct ncclComm *comm)
{
	(void)comm;
	return 0;
}

int
ncclGroupStart(void)
{
	S.depth++;
	return 0;
}

/* Every queued all-reduce of the same size is one collective: the sum
 * of all ranks' sends goes to every rank's receive buffer. */
static void
reduce_all(void)
{
	size_t k, count;
	float *sum;
	int i;

	if (!S.nops)
		return;
	count = S.ops[0].count;
	sum = calloc(count ? count : 1, sizeof(float));
	if (!sum)
		return;
	for (i = 0; i < S.nops; i++)
		for (k = 0; k < count && k < S.ops[i].count; k++)
			sum[k] += S.ops[i].send[k];
	for (i = 0; i < S.nops; i++)
		for (k = 0; k < count && k < S.ops[i].count; k++)
			S.ops[i].recv[k] = sum[k] + (float)S.wrong;
	free(sum);
	S.nops = 0;
}

int
ncclGroupEnd(void)
{
	if (S.depth > 0 && --S.depth == 0)
		reduce_all();
	return 0;
}

int
ncclAllReduce(const void *send, void *recv, size_t count, int type, int op, struct ncclComm *comm,
	      void *stream)
{
	(void)type;
	(void)op;
	(void)stream;
	if (!comm || S.nops >= MAX_OPS)
		return 4;
	S.ops[S.nops].send = send;
	S.ops[S.nops].recv = recv;
	S.ops[S.nops].count = count;
	S.ops[S.nops].rank = comm->rank;
	S.nops++;
	if (!S.depth)
		reduce_all();
	return 0;
}
