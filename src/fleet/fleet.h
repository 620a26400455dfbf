/*
 * fleet.h - many machines in one table: a row per node, read from facts
 * documents (from_facts.c) or from a Prometheus server that scrapes
 * `gpudoctor serve` (from_prom.c, over libcurl loaded at run time), the
 * outliers marked against the fleet (fleet.c): a node with fewer GPUs than
 * expected, a driver other than the fleet's most common, a bench result
 * far below the fleet's median, data that is old.
 */
#ifndef GPUDOCTOR_FLEET_H
#define GPUDOCTOR_FLEET_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#define FLEET_NA (-1.0)
#define FLEET_MAX_FLAGS 8

struct fleet_node {
	char host[128];
	char source[256];            /* the file, or the Prometheus instance */
	bool up;                     /* Prometheus: the target answers */
	int gpus;                    /* GPUs answering NVML/CUDA; -1 unknown */
	int expected;                /* GPUs on the PCI bus (or --expect-gpus); -1 unknown */
	char model[96];              /* "NVIDIA H200", "mixed" */
	char driver[40];
	char cuda[16];               /* the CUDA the driver supports */
	double temp_max, util_avg;   /* C, %; FLEET_NA */
	double mem_used_mib, mem_total_mib;
	double ecc_uncorrected;      /* volatile double-bit count */
	int xid;                     /* the last Xid, 0 none, -1 unknown */
	int throttled;               /* GPUs held down by heat or hardware; -1 unknown */
	char link[24];               /* the worst PCIe link: "gen5 x16", "gen4 x8 (of x16)" */
	bool link_degraded;
	double bench;                /* bf16 GEMM TFLOP/s; FLEET_NA */
	int errors, warnings, infos; /* findings; -1 unknown */
	double age_s;                /* since the data was taken; FLEET_NA */
	const char *flags[FLEET_MAX_FLAGS]; /* outliers, in words */
	int nflags;
};

struct fleet {
	struct fleet_node *nodes;
	int n, alloc;
	char driver_mode[40];        /* the most common driver */
	double bench_median;
	int expect_gpus;             /* --expect-gpus; 0 from the data */
	double max_age_s;            /* older is an outlier */
};

struct fleet_node *fleet_add(struct fleet *f);
/* Mark the outliers; sort by host. */
void fleet_judge(struct fleet *f);
void fleet_text(FILE *out, const struct fleet *f, bool color);
json_t *fleet_json(const struct fleet *f);
void fleet_release(struct fleet *f);

/* from_facts.c: every facts document named by the paths (files,
 * directories: their *.json). 0, or -1 with one line in err. */
int fleet_from_facts(struct fleet *f, char **paths, int npaths, char *err, size_t errsize);

/* from_prom.c: the instant queries against a Prometheus server's HTTP API
 * (url: "http://prometheus:9090"); user:password for basic auth or NULL.
 * 0, or -1 with one line in err. */
int fleet_from_prom(struct fleet *f, const char *url, const char *userpwd, int timeout_ms, char *err,
		    size_t errsize);

#endif
