/*
 * logfacts.h - what a log states about the machine it ran on: the driver
 * (nvidia-smi's banner, nvidia-smi -q, /proc/driver/nvidia/version,
 * PyTorch's collect_env, TensorFlow's "kernel reported version"), the
 * framework builds (collect_env, pip and conda listings, install commands,
 * wheel names), the distributions that share one package (onnxruntime and
 * onnxruntime-gpu), the GPUs (nvidia-smi -L, collect_env, TensorFlow's
 * device lines, deviceQuery) and their compute capabilities, the Python
 * version.
 *
 * The statements become partial facts (struct facts, everything else
 * unknown) and are judged by the doctor's own rules for what a log can
 * state (rules_run_stated): a driver 470 beside a +cu121 wheel is
 * driver.too_old by the rule doctor uses, with the same fix.
 *
 * A fact stated twice with different values (an upgrade in the middle of
 * the log, two machines in one paste) is dropped: unknown, never a guess.
 */
#ifndef GPUDOCTOR_EXPLAIN_LOGFACTS_H
#define GPUDOCTOR_EXPLAIN_LOGFACTS_H

#include "facts.h"

#include <stdbool.h>
#include <stddef.h>

#define LOGFACTS_ENV "the log's environment" /* the environment the log's frameworks go into */
#define LOGFACTS_MAX_FW 4
#define LOGFACTS_MAX_GPUS 4
#define LOGFACTS_MAX_DISTS 8

struct logfact_fw {
	char name[16];                   /* torch, tensorflow */
	char package[48];                /* torch, tensorflow-gpu, tensorflow-cpu */
	char version[40];                /* as stated: 2.1.0+cu121 */
	char built_cuda[16];             /* 12.1; "" not stated */
	int cuda_build;                  /* -1 not stated, 0 CPU-only, 1 CUDA */
	unsigned long line;              /* where it is first stated */
	bool conflict;                   /* stated with two different versions */
};

struct logfact_dist {
	char name[32];                   /* onnxruntime-gpu */
	char version[40];
	unsigned long line;
	bool conflict;                   /* stated with two different versions */
};

struct logfact_gpu {
	char name[F_NAME];               /* "NVIDIA GeForce RTX 3090"; "" not stated */
	char cc[8];                      /* "8.6"; "" not stated */
	unsigned long line;
};

struct logfacts {
	char driver[32];                 /* 470.82.01 */
	char driver_cuda[8];             /* nvidia-smi's "CUDA Version: 11.4" on the driver's line */
	unsigned long driver_line;
	bool driver_conflict;
	char python[16];                 /* 3.10.12 */
	unsigned long python_line;
	struct logfact_fw fw[LOGFACTS_MAX_FW];
	int nfw;
	struct logfact_gpu gpus[LOGFACTS_MAX_GPUS];
	int ngpus;
	struct logfact_dist dists[LOGFACTS_MAX_DISTS]; /* distributions that share a package with
	                                    others (onnxruntime, onnxruntime-gpu) */
	int ndists;
	bool windows;                    /* Windows paths: TensorFlow >= 2.11 has no GPU build there */
	unsigned long macos_line;        /* the log comes from macOS, which has no CUDA; 0 not stated */
	char nvcc[16];                   /* the toolkit nvcc --version names: "9.1" */
	unsigned long nvcc_line;
	bool nvcc_conflict;
	char cuda_dir[48];               /* a CUDA installed, as a path or file names it: "/usr/local/cuda-11.8",
	                                    "CUDA\v11.2", "libcudart.so.12", "nvidia-cuda-runtime-cu12" */
	int cuda_dir_major;              /* its CUDA major: 11 */
	unsigned long cuda_dir_line;
	bool cuda_dir_conflict;          /* two majors named */
	unsigned long tf_cpu_line;       /* TensorFlow listed its CPU device here; 0 never */
	bool tf_gpu_listed;              /* ... and a GPU device somewhere */
	unsigned long tf_xla_gpu_line;   /* ... an XLA_GPU device (TensorFlow 2.0-2.3) */
	unsigned long tf_zero_gpus_line; /* "Num GPUs Available: 0" */
	unsigned long unavailable_line;  /* torch.cuda.is_available() answered False here; 0 never */
	bool unavailable_tf;             /* ... TensorFlow's device list named no GPU there */
	double mem_total_mib, mem_free_mib; /* a framework's device properties (TensorFlow's
	                                    "Total memory"/"Free memory"); 0, -1 not stated */
	unsigned long mem_line;
	double smi_used_mib, smi_total_mib; /* nvidia-smi's table: the first GPU nearly full
	                                    ("15514MiB / 16130MiB", 90 % and more); 0 none */
	unsigned long smi_full_line;     /* its line; 0 none */
	int smi_rows, smi_idle_rows;     /* the table's GPU rows, and those using under 5 % */
	unsigned long cpu_flags_line;    /* /proc/cpuinfo's flags; 0 not stated */
	bool cpu_avx;                    /* those flags name avx */
	char archs_sass[96];             /* the GPU code a build states it carries: "6.0 6.1 9.0a" */
	char archs_ptx[48];              /* its PTX: "8.0"; "" none stated */
	const char *archs_what;          /* whose build: "ggml", "tensorflow" */
	unsigned long archs_line;        /* where; 0 not stated */
	bool hit;                        /* the line logfacts_line read stated something */
	const char *pending;             /* a question whose answer is the next line: ">>> torch.__version__" */
	unsigned long pending_line;      /* the line that asked */
	bool pending_heading;            /* asked by a form's heading: the answer may be words */
};

/* The anchors that begin a statement, for the line matcher: anchor i of
 * n, NULL past the end. */
const char *logfacts_anchor(size_t i);

/* A statement's anchor i ends at end in line s (normalized, any case):
 * read what it states; whether it stated something. */
bool logfacts_line(struct logfacts *lf, size_t anchor, const unsigned char *s, size_t len,
		   size_t end, unsigned long line);

/* The line after one that asked a REPL for a value (lf->pending set):
 * the answer, when the line is a version alone. */
void logfacts_next_line(struct logfacts *lf, const unsigned char *s, size_t len, unsigned long line);

/* Whether the log stated anything the rules can use. */
bool logfacts_any(const struct logfacts *lf);

/*
 * The statements as facts: on a copy of machine (explain --here/--from;
 * the log wins where the two disagree about the run that failed), or on
 * empty facts whose unstated parts are unknown (machine NULL). The log's
 * frameworks go into the active environment (a new one when machine has
 * none). Returns the environment they went into.
 */
struct python_env_facts *logfacts_to_facts(const struct logfacts *lf, const struct facts *machine,
					   struct facts *out);

#endif
