/*
 * explain.c - the log matcher (see explain.h).
 *
 * One Aho-Corasick pass per line finds every pattern anchor and the GPU
 * and error words at once; a line where it finds any, and that holds
 * typographic quotes, dashes, odd spaces or full-width characters, is
 * given one spelling (lognorm.h) and scanned again. Only a line that
 * holds an anchor is cleaned and put to the pattern's regular expression.
 * When several patterns match a line, a row of the table before a status
 * code's (codes.h), then the one with the longest anchor (then the
 * longer expression): it is the most
 * specific. A line that no pattern explains is read by its words
 * (cues.h, a second automaton run only then); one with a GPU word and an
 * error word that no cue explains either is kept as rt.unknown.
 */
#include "explain/explain.h"
#include "base/clean.h"
#include "base/buf.h"
#include "base/str.h"
#include "base/vers.h"
#include "base/xalloc.h"
#include "explain/acmatch.h"
#include "explain/codes.h"
#include "explain/lognorm.h"
#include "kb/kb_schema.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define KW_GPU 0x100000u
#define KW_ERR 0x200000u
#define KW_WSL 0x400000u
#define KW_CVD 0x800000u
#define KW_RUN 0x1000000u        /* "docker run", "podman run": a container started here */
#define KW_CODE 0x2000000u       /* how a status code's name begins (codes.h) */
#define KW_FACT 0x4000000u       /* a statement of a version, a build, a GPU (logfacts.h) */
#define KW_TRIG 0x8000000u       /* a word that makes the line worth its cues (cues.h) */
#define KW_CTR 0x10000000u       /* a sign that the log comes from a container (container_words) */
#define KW_GREQ 0x20000000u      /* a container asked for GPUs (gpu_request_words) */
#define KW_SRC 0x40000000u       /* a build from source chose its GPU targets (source_build_words) */
#define KW_BUS 0x80000000u      /* a process killed by a bus error (bus_words) */
#define KW_ANY (KW_GPU | KW_ERR | KW_WSL | KW_CVD | KW_RUN | KW_CODE | KW_FACT | KW_TRIG | KW_CTR | KW_GREQ | \
		KW_SRC | KW_BUS)
#define BUS_NCCL_LINES 40        /* lines after a bus error in which NCCL's code makes it NCCL's */
#define MAX_HITS 64
#define MAX_CUE_HITS 64
#define MAX_GROUPS 10
#define WINDOW 4096              /* bytes of a long line put to a regex */
#define NORM_MAX 65536           /* longer lines are matched as they are */
#define SAMPLE (64u << 10)       /* bytes looked at for NULs (explain_input) */

/* Words that make a line GPU-related, and words that make it an error;
 * a line with both that no pattern explains is reported as rt.unknown. */
static const char *const gpu_words[] = {
	"cuda", "cudnn", "cublas", "cufft", "curand", "cusolver", "cusparse", "nccl", "nvidia",
	"nvml", "gpu", "tensorrt", "nvrtc", "ptxas", "libdevice", "cuinit", NULL,
};
static const char *const error_words[] = {
	"error", "err:", "failed", "failure", "fatal", "exception", "abort", "cannot", "could not",
	"couldn't", "unable to", "not found", "segmentation fault", NULL,
};

/* Words that make a line with no anchor and no GPU error worth its cues
 * (cues.h): at least one of them or an error word is on every line a cue
 * can fire on (tests/scripts/explain_corpus.sh checks it for each cue).
 * A line that merely names the GPU, as a monitor prints at every sample,
 * is not scanned again. */
static const char *const trigger_words[] = {
	"out of memory", "oom", "memory", "avx", "python", "nouveau", "paging file", "driver",
	"secure boot", "lockdown", "insufficient", "incompatible", "not supported", "unsupported",
	"not available", "fail", "compatible", "no longer supported", "not compiled", "not built",
	"built without", "compiled without", "mismatch", "busy", "dkms", "no nvidia", "no gpu",
	"no cuda", "no devices", "no compatible", "no supported", "overheat", "thermal",
	"temperature", "too hot", "uvm", "cuinit", "does not match", "doesn't match",
	"does not support", "doesn't support", "only support", "newer gpu", "requires an ampere",
	"requires ampere", "requires a gpu", "sigkill", "signal 9", "exit code 137", "exitcode",
	"illegal instruction", "sigill", "but loaded", "running against", "requires at least",
	"minimum required", "and higher are supported", "or higher are supported",
	"and above are supported", "or above are supported", "is not enough", "are not enough",
	"cuda-enabled gpu", "cuda enabled gpu", NULL,
};

/* Words that say the log comes from WSL2, where a missing libcuda means
 * the Windows driver is missing or too old (rank.c): its kernel's name
 * (4.19.128-microsoft-standard, 5.15.153.1-microsoft-standard-WSL2), and
 * a Linux shell prompt on a host Windows named (wsl_sign). */
static const char *const wsl_words[] = {
	"wsl2", "/usr/lib/wsl/", "-microsoft-standard", "@desktop-", "@laptop-", NULL,
};

/* The tags of JetPack 4 (L4T r32) images, whose CUDA libraries the NVIDIA
 * runtime mounts from the Jetson host (l4t_line). */
#define L4T_R32_WORDS "l4t-r32", "l4t:r32", "l4t-base:r32", "l4t-ml:r32", "l4t-pytorch:r32"

/* The words of an image build, whose steps run in containers that have no
 * GPU: Docker's command, the classic builder's failed step ("The command
 * '/bin/sh -c ...' returned a non-zero code: 1") and BuildKit's ("process
 * \"/bin/sh -c ...\" did not complete successfully: exit code: 1",
 * "executor failed running [/bin/sh -c ...]"). A sign of a container too
 * (image_build_line); their ids follow container_words' from
 * IMAGE_BUILD_BASE on. */
#define IMAGE_BUILD_BASE 0x4000u
static const char *const image_build_words[] = {
	"docker build", "returned a non-zero code", "did not complete successfully: exit code",
	"executor failed running", NULL,
};

/* Words that say the log comes from a container or a cluster's pod, where
 * a GPU that is not there is most often a GPU not asked for (rank.c):
 * compose's "Attaching to" and its containers' names ("Creating
 * app_web_run ... done", "Starting app_web_1 ... done"), an image's
 * entrypoint.sh, a JetPack 4 image's tag. "root@" and "on this host ("
 * count only before the host name Docker gives a container, its 12-digit
 * hexadecimal ID (container_sign). */
static const char *const container_words[] = {
	"docker-compose", "docker compose", "docker exec", "/.dockerenv", "kubectl ", "kubernetes",
	"podman ", "apptainer", "singularity", "nvcr.io/", "root@", "on this host (", "entrypoint.sh",
	"attaching to ", "_run ... done", "_1 ... done", L4T_R32_WORDS, NULL,
};

/* Words of a hosted notebook's virtual machine (Colab's /content working
 * directory and module, Kaggle's /kaggle directories), which has an NVIDIA
 * driver whenever a GPU is attached to it (notebook_line). Their ids
 * follow container_words' from NOTEBOOK_BASE on. */
#define NOTEBOOK_BASE 0x8000u
static const char *const notebook_words[] = {
	"/content/", "colab.research.google.com", "google.colab", "/kaggle/working", "/kaggle/input", NULL,
};

/* Commands that start a Slurm job step (job_step). */
#define RUN_JOB 2                /* KW_RUN ids from here on are job_words */
static const char *const job_words[] = {
	"srun ", "sbatch ", "salloc ", NULL,
};

/* Words that ask a container for GPUs, anywhere in the log: with one the
 * container had GPUs asked for (the container toolkit's hook runs only
 * then; the GPU operator manages the driver of a cluster's GPU nodes), and
 * a missing GPU has another cause. */
static const char *const gpu_request_words[] = {
	"--gpus", "--runtime=nvidia", "--runtime nvidia", "nvidia.com/gpu", "capabilities: [gpu]",
	"runtime: nvidia", "driver: nvidia", "nvidia-docker", "NVIDIA_VISIBLE_DEVICES=", "--nv ",
	"nvidia-container-cli", "nvidia-container-runtime", "gpu-operator", NULL,
};

/* Words of a process killed by a bus error: gdb's "received signal
 * SIGBUS", UCX's "Caught signal 7 (Bus error", the shell's "Bus error".
 * With NCCL's code in the backtrace below, it is NCCL's shared memory in
 * /dev/shm that ran out (stated.c). */
static const char *const bus_words[] = {
	"sigbus", "bus error", NULL,
};

/* Words of a build from source that names its own GPU targets: its
 * minimum compute capability is then its own choice, not TensorFlow's. */
static const char *const source_build_words[] = {
	"TF_CUDA_COMPUTE_CAPABILITIES", "TORCH_CUDA_ARCH_LIST", "CMAKE_CUDA_ARCHITECTURES", "CUDA_ARCH_BIN",
	"bazel build", NULL,
};

/* Whether the container word that ends at end in s is a sign of one: the
 * two words of a host name stand only before a container's ID, 12
 * hexadecimal digits ("root@16c54693e7f2:", "on this host (16c54693e7f2)"),
 * and "Attaching to" not before a debugger's process. */
static bool
container_sign(const unsigned char *s, size_t len, size_t end, unsigned word)
{
	size_t i;

	/* compose's "Attaching to app-1", not a debugger's "Attaching to process 4242" */
	if (!strcmp(container_words[word], "attaching to "))
		return !(len - end >= 7 && (!strncasecmp((const char *)s + end, "process", 7) ||
					    !strncasecmp((const char *)s + end, "program", 7)));
	if (strcmp(container_words[word], "root@") && strcmp(container_words[word], "on this host ("))
		return true;
	if (len - end < 13)
		return false;
	for (i = 0; i < 12; i++)
		if (!isdigit(s[end + i]) && (s[end + i] < 'a' || s[end + i] > 'f'))
			return false;
	return s[end + 12] == ':' || s[end + 12] == ')';
}

/* Whether the notebook word that ends at end in s is a sign of one: Colab's
 * "/content/" only as a path's start (after a blank, a quote, a bracket,
 * "=" or ":"), not inside another path ("/var/www/content/", "wp-content/"). */
static bool
notebook_sign(const unsigned char *s, size_t end, unsigned word)
{
	size_t start = end - strlen(notebook_words[word]);

	if (strcmp(notebook_words[word], "/content/"))
		return true;
	return start == 0 || (s[start - 1] && strchr(" \t\"'`(=:", s[start - 1]) != NULL);
}

/* Whether the WSL word that ends at end in s is a sign of WSL: a prompt's
 * "@DESKTOP-" or "@LAPTOP-" counts only before the seven letters and
 * digits of the host name Windows gives a machine and the colon of a Linux
 * shell's prompt ("user@DESKTOP-930EG0A:~$"). */
static bool
wsl_sign(const unsigned char *s, size_t len, size_t end, unsigned word)
{
	size_t i;

	if (wsl_words[word][0] != '@')
		return true;
	if (len - end < 8)
		return false;
	for (i = 0; i < 7; i++)
		if (!isalnum(s[end + i]))
			return false;
	return s[end + 7] == ':';
}

/* Whether a line begins with the prefix compose gives each container's
 * output: its name (a letter first), ending in the replica's number,
 * padded with blanks to a bar ("web_1      | ", "qna-transformers-1  | "). */
static bool
compose_prefix(const unsigned char *s, size_t len)
{
	size_t i = 0, digits;

	if (!len || !isalpha(s[0]))
		return false;
	while (i < len && (isalnum(s[i]) || s[i] == '_' || s[i] == '-' || s[i] == '.'))
		i++;
	if (i < 3 || i == len || s[i] != ' ')
		return false;
	for (digits = 0; digits < i && isdigit(s[i - 1 - digits]); digits++)
		;
	if (!digits || digits + 1 >= i || (s[i - 1 - digits] != '_' && s[i - 1 - digits] != '-'))
		return false;
	while (i < len && s[i] == ' ')
		i++;
	return i + 1 < len && s[i] == '|' && s[i + 1] == ' ';
}

/* The value given to CUDA_VISIBLE_DEVICES right after the name in s
 * (`CUDA_VISIBLE_DEVICES="2,3"`, `CUDA_VISIBLE_DEVICES: -1`, Python's
 * `os.environ["CUDA_VISIBLE_DEVICES"] = "1"`); false when
 * no '=' or ':' follows (the name only mentioned). */
static bool
visible_devices_value(const unsigned char *s, size_t len, char *out, size_t size)
{
	size_t i = 0, o = 0;
	unsigned char quote = 0;

	while (i < len && (s[i] == ' ' || s[i] == '"' || s[i] == '\'' || s[i] == ']'))
		i++;
	if (i >= len || (s[i] != '=' && s[i] != ':'))
		return false;
	i++;
	while (i < len && s[i] == ' ')
		i++;
	/* a quoted value ends at its quote: '' is the empty value, not the
	 * word after it */
	if (i < len && (s[i] == '"' || s[i] == '\''))
		quote = s[i++];
	while (i < len && o + 1 < size && s[i] != quote &&
	       (isalnum(s[i]) || s[i] == ',' || s[i] == '-' || s[i] == '_'))
		out[o++] = (char)s[i++];
	out[o] = '\0';
	return true;
}

/* Whether a `docker run` / `podman run` command (ending at end in s) asks
 * for GPUs: --gpus, the nvidia runtime, a CDI device; nvidia-docker is
 * GPU-enabled by itself. */
static bool
gpu_flags(const unsigned char *s, size_t len, size_t end)
{
	static const char *const flags[] = {
		"--gpus", "--runtime=nvidia", "--runtime nvidia", "nvidia.com/gpu", NULL,
	};
	size_t i, start = end >= strlen("docker run ") ? end - strlen("docker run ") : 0;

	if (start >= 7 && !memcmp(s + start - 7, "nvidia-", 7))
		return true;
	for (i = 0; flags[i]; i++)
		if (memmem(s + end, len - end, flags[i], strlen(flags[i])))
			return true;
	return false;
}

/*
 * Slurm: a job step sees only the GPUs its job asked for. A line that
 * starts one (srun, sbatch, salloc at a word's start) without --gres=gpu,
 * --gpus or -G is a job without GPUs; a line that asks for them anywhere
 * (a "#SBATCH --gres=gpu:1" of the script, too) says the job had some.
 * "#SBATCH" lines of other options start nothing.
 */
static void
job_step(struct explain *x, const unsigned char *s, size_t len, const struct acm_hit *h,
	 unsigned long line)
{
	static const char *const flags[] = {
		"--gres=gpu", "--gres gpu", "gres/gpu", "--gpus", "-G ", "-G=", NULL,
	};
	size_t wlen = strlen(job_words[(h->id & 0xffffu) - RUN_JOB]), start = h->end - wlen, i;

	for (i = 0; flags[i]; i++)
		if (memmem(s, len, flags[i], strlen(flags[i]))) {
			if (!x->job_gpu_line)
				x->job_gpu_line = line;
			return;
		}
	if (start > 0 && (isalnum(s[start - 1]) || s[start - 1] == '_' || s[start - 1] == '#' ||
			  s[start - 1] == '-' || s[start - 1] == '/'))
		return;
	if (!x->job_line)
		x->job_line = line;
}

/* Whether pattern id is a status code's row (after the table's). */
/* Whether row id is a note that names no cause (rt.unknown at info, such
 * as the advice PyTorch appends to every CUDA error). */
static int
no_cause(const struct explain *x, size_t id)
{
	return !strcmp(x->pats[id].finding, "rt.unknown") && !strcmp(x->pats[id].severity, "info");
}

static int
is_code(const struct explain *x, size_t id)
{
	return id >= x->npats - x->ncode_rows;
}

/* A code name's beginning was found: the whole identifier there names a
 * code's row (the hit becomes that row's), or nothing (it stays a word). */
static void
code_hit(const struct explain *x, const unsigned char *s, size_t len, struct acm_hit *h)
{
	const char *prefix = code_prefixes[h->id & 0xffu];
	size_t plen = strlen(prefix), start, end, row;

	if (h->end < plen)
		return;
	/* the matcher reports a prefix once a line: "NCCL error: ncclRemoteError"
	 * needs the later ones looked at too */
	for (start = h->end - plen; start + plen <= len; start++) {
		if (strncasecmp((const char *)s + start, prefix, plen) ||
		    (start && (isalnum(s[start - 1]) || s[start - 1] == '_')))
			continue;
		for (end = start + plen; end < len && (isalnum(s[end]) || s[end] == '_'); end++)
			;
		if (code_prefix_canon[h->id & 0xffu]) {
			char name[128];
			size_t n = code_camel_name(code_prefix_canon[h->id & 0xffu], s + start + plen,
						   end - start - plen, name, sizeof(name));
			row = n ? code_lookup(&x->codes, (const unsigned char *)name, n) : SIZE_MAX;
		} else {
			row = code_lookup(&x->codes, s + start, end - start);
		}
		if (row != SIZE_MAX) {
			h->id = (unsigned)row;
			h->end = end;
			return;
		}
	}
}

/* ---- setup ----------------------------------------------------------- */

int
explain_init(struct explain *x, char *err, size_t errsize)
{
	size_t i;

	memset(x, 0, sizeof(*x));
	x->stated.mem_free_mib = -1;
	x->pats = kb_list_log_patterns(&x->npats);
	if (!x->pats || !x->npats) {
		str_copy(err, errsize, "the knowledge base has no log patterns (log_patterns.tsv)");
		return -1;
	}
	if (cue_table_build(&x->cues, err, errsize) < 0)
		return -1;
	/* the status codes after the table's rows (on a tie the table wins),
	 * then the cues, which npats does not count */
	x->code_rows = code_patterns(&x->ncode_rows);
	x->all = xcalloc(x->npats + x->ncode_rows + x->cues.nrows + 1, sizeof(*x->all));
	memcpy(x->all, x->pats, x->npats * sizeof(*x->all));
	if (x->ncode_rows)
		memcpy(x->all + x->npats, x->code_rows, x->ncode_rows * sizeof(*x->all));
	x->pats = x->all;
	x->npats += x->ncode_rows;
	if (x->cues.nrows)
		memcpy(x->all + x->npats, x->cues.rows, x->cues.nrows * sizeof(*x->all));
	/* expressions are compiled when their anchor is first seen (most
	 * never are); every table was checked at load time (kb_schema.c) */
	x->re = xcalloc(x->npats + x->cues.nrows, sizeof(*x->re));
	x->re_state = xcalloc(x->npats + x->cues.nrows, sizeof(*x->re_state));
	x->join_misses = xcalloc(x->npats + x->cues.nrows, sizeof(*x->join_misses));
	x->acm = acm_new();
	for (i = 0; i < x->npats; i++) {
		const struct kb_log_pattern *p = &x->pats[i];
		if (is_code(x, i) && code_is_name_row(p))
			continue;        /* found through code_prefixes */
		if (acm_add(x->acm, p->anchor, strlen(p->anchor), (unsigned)i) < 0) {
			str_fmt(err, errsize, "log pattern %s: anchor too long", p->key);
			explain_release(x);
			return -1;
		}
	}
	for (i = 0; gpu_words[i]; i++)
		acm_add(x->acm, gpu_words[i], strlen(gpu_words[i]), KW_GPU | (unsigned)i);
	for (i = 0; error_words[i]; i++)
		acm_add(x->acm, error_words[i], strlen(error_words[i]), KW_ERR | (unsigned)i);
	for (i = 0; wsl_words[i]; i++)
		acm_add(x->acm, wsl_words[i], strlen(wsl_words[i]), KW_WSL | (unsigned)i);
	acm_add(x->acm, "CUDA_VISIBLE_DEVICES", strlen("CUDA_VISIBLE_DEVICES"), KW_CVD);
	acm_add(x->acm, "docker run ", strlen("docker run "), KW_RUN);
	acm_add(x->acm, "podman run ", strlen("podman run "), KW_RUN | 1u);
	for (i = 0; job_words[i]; i++)
		acm_add(x->acm, job_words[i], strlen(job_words[i]), KW_RUN | (unsigned)(RUN_JOB + i));
	for (i = 0; container_words[i]; i++)
		acm_add(x->acm, container_words[i], strlen(container_words[i]), KW_CTR | (unsigned)i);
	for (i = 0; image_build_words[i]; i++)
		acm_add(x->acm, image_build_words[i], strlen(image_build_words[i]),
			KW_CTR | (unsigned)(IMAGE_BUILD_BASE + i));
	for (i = 0; notebook_words[i]; i++)
		acm_add(x->acm, notebook_words[i], strlen(notebook_words[i]), KW_CTR | (unsigned)(NOTEBOOK_BASE + i));
	for (i = 0; bus_words[i]; i++)
		acm_add(x->acm, bus_words[i], strlen(bus_words[i]), KW_BUS | (unsigned)i);
	for (i = 0; gpu_request_words[i]; i++)
		acm_add(x->acm, gpu_request_words[i], strlen(gpu_request_words[i]), KW_GREQ | (unsigned)i);
	for (i = 0; source_build_words[i]; i++)
		acm_add(x->acm, source_build_words[i], strlen(source_build_words[i]), KW_SRC | (unsigned)i);
	for (i = 0; trigger_words[i]; i++)
		acm_add(x->acm, trigger_words[i], strlen(trigger_words[i]), KW_TRIG | (unsigned)i);
	for (i = 0; logfacts_anchor(i); i++)
		acm_add(x->acm, logfacts_anchor(i), strlen(logfacts_anchor(i)), KW_FACT | (unsigned)i);
	if (x->ncode_rows) {
		for (i = 0; code_prefixes[i]; i++)
			acm_add(x->acm, code_prefixes[i], strlen(code_prefixes[i]), KW_CODE | (unsigned)i);
		code_index_build(&x->codes, x->pats, x->npats);
	}
	if (acm_build(x->acm) < 0) {
		str_copy(err, errsize, "cannot build the pattern matcher");
		explain_release(x);
		return -1;
	}
	x->line_size = WINDOW + 1;
	x->line = xmalloc(x->line_size);
	x->norm = xmalloc(NORM_MAX);
	x->tail = xmalloc(EXPLAIN_TAIL);
	x->joined = xmalloc(EXPLAIN_TAIL + 1 + NORM_MAX);
	return 0;
}

void
explain_cause_release(struct explain_cause *c)
{
	size_t i;
	int k;

	free(c->title);
	free(c->explain);
	free(c->fix);
	for (i = 0; i < c->nquotes; i++)
		free(c->quotes[i].text);
	for (i = 0; i < c->ncaps; i++)
		for (k = 0; k < c->caps[i].nvalues; k++)
			free(c->caps[i].values[k]);
	for (k = 0; k < c->nevidence; k++)
		free(c->evidence[k]);
	for (i = 0; i < c->nfolded; i++)
		free(c->folded[i].title);
	memset(c, 0, sizeof(*c));
}

void
explain_release(struct explain *x)
{
	size_t i;

	if (x->re && x->re_state)
		for (i = 0; i < x->npats + x->cues.nrows; i++)
			if (x->re_state[i] > 0)
				regfree(&x->re[i]);
	free(x->re);
	free(x->re_state);
	free(x->join_misses);
	acm_free(x->acm);
	acm_free(x->cue_acm);
	for (i = 0; i < x->ncauses; i++)
		explain_cause_release(&x->causes[i]);
	free(x->causes);
	free(x->line);
	free(x->norm);
	free(x->tail);
	free(x->joined);
	linememo_release(&x->memo);
	free(x->all);
	code_patterns_release(x->code_rows, x->ncode_rows);
	code_index_release(&x->codes);
	cue_table_release(&x->cues);
	memset(x, 0, sizeof(*x));
}

void
explain_reset(struct explain *x)
{
	size_t i;

	for (i = 0; i < x->ncauses; i++)
		explain_cause_release(&x->causes[i]);
	free(x->causes);
	x->causes = NULL;
	x->ncauses = x->acauses = 0;
	x->bytes = 0;
	x->lines = x->wsl_line = x->cvd_line = x->run_line = x->container_line = x->gpu_request_line = 0;
	x->job_line = x->job_gpu_line = x->l4t_line = x->image_build_line = x->notebook_line = 0;
	x->bus_line = x->nccl_bus_line = 0;
	x->source_build_line = 0;
	x->listing.in_frame = false;
	x->cvd_value[0] = '\0';
	x->has_text = false;
	x->bom16 = false;
	x->tail_len = 0;
	x->tail_row = SIZE_MAX;
	if (x->join_misses)
		memset(x->join_misses, 0, (x->npats + x->cues.nrows) * sizeof(*x->join_misses));
	x->sample = x->sample_nul = 0;
	memset(&x->stated, 0, sizeof(x->stated));
	x->stated.mem_free_mib = -1;
}

enum explain_input
explain_input(const struct explain *x)
{
	if (x->bytes == 0)
		return EXPLAIN_INPUT_EMPTY;
	/* ASCII in UTF-16 is every other byte NUL (PowerShell also writes a
	 * byte-order mark); a log holds hardly any */
	if (x->bom16 || (x->sample >= 256 && x->sample_nul * 100 >= x->sample * 45 &&
			 x->sample_nul * 100 <= x->sample * 55))
		return EXPLAIN_INPUT_UTF16;
	if (x->sample_nul * 100 > x->sample)
		return EXPLAIN_INPUT_BINARY;
	if (!x->has_text)
		return EXPLAIN_INPUT_BLANK;
	return EXPLAIN_INPUT_TEXT;
}

/* ---- recording a match ----------------------------------------------- */

static enum explain_role
role_of(const char *s)
{
	if (!strcmp(s, "symptom"))
		return EXPLAIN_SYMPTOM;
	if (!strcmp(s, "benign"))
		return EXPLAIN_BENIGN;
	return EXPLAIN_CAUSE;
}

/* Write a captured value in the form gpudoctor uses everywhere: CUDA and
 * cuDNN version numbers as dotted versions, compute capabilities as "8.6",
 * no sentence's full stop or comma at the end. `found` and `expected` are
 * versions of what the finding is about (cuDNN for lib.cudnn_*). */
static void
normalize(const char *name, const char *finding, const char *v, char *out, size_t size)
{
	char tmp[128];
	size_t len;
	long n;

	if (!strcmp(name, "found") || !strcmp(name, "expected"))
		name = str_starts(finding, "lib.cudnn") ? "cudnn" :
		       str_starts(finding, "lib.cuda") || str_starts(finding, "driver.") ? "cuda" : name;
	str_copy(out, size, v);
	len = strlen(out);
	while (len && strchr(".,;:", out[len - 1]))
		out[--len] = '\0';
	STR_COPY(tmp, out);
	v = tmp;
	if (!strcmp(name, "cuda") && str_all_digits(v) && strlen(v) >= 4) {
		vers_from_cuda_int((int)strtol(v, NULL, 10), out, size);
	} else if (!strcmp(name, "cudnn") && str_all_digits(v) && strlen(v) >= 4 && strlen(v) <= 6) {
		n = strtol(v, NULL, 10);
		if (n >= 10000)
			str_fmt(out, size, "%ld.%ld.%ld", n / 10000, n / 100 % 100, n % 100);
		else
			str_fmt(out, size, "%ld.%ld.%ld", n / 1000, n / 100 % 10, n % 100);
	} else if (!strcmp(name, "cc")) {
		const char *d = v;
		while (*d && !isdigit((unsigned char)*d))
			d++;
		if (str_all_digits(d) && strlen(d) >= 2 && strlen(d) <= 3)
			str_fmt(out, size, "%.*s.%c", (int)strlen(d) - 1, d, d[strlen(d) - 1]);
	}
}

struct explain_cause *
explain_cause_for(struct explain *x, const struct kb_log_pattern *p, const char *id,
		  enum explain_role role)
{
	struct explain_cause *c;
	size_t i;

	for (i = 0; i < x->ncauses; i++) {
		c = &x->causes[i];
		if (c->role != role || strcmp(c->id, id))
			continue;
		/* harmless messages stay apart: each has its own explanation */
		if (role == EXPLAIN_BENIGN && c->pattern != p)
			continue;
		return c;
	}
	if (x->ncauses == x->acauses) {
		x->acauses = x->acauses ? x->acauses * 2 : 16;
		x->causes = xrealloc(x->causes, x->acauses * sizeof(*x->causes));
	}
	c = &x->causes[x->ncauses++];
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->role = role;
	c->pattern = p;
	c->severity = SEV_INFO;
	return c;
}

static void
add_value(struct explain_cause *c, const char *name, const char *value)
{
	struct explain_capture *cap = NULL;
	size_t i;
	int k;

	if (!value[0])
		return;
	for (i = 0; i < c->ncaps; i++)
		if (!strcmp(c->caps[i].name, name))
			cap = &c->caps[i];
	if (!cap) {
		if (c->ncaps == EXPLAIN_MAX_CAPS)
			return;
		cap = &c->caps[c->ncaps++];
		cap->name = name;
	}
	for (k = 0; k < cap->nvalues; k++)
		if (!strcmp(cap->values[k], value))
			return;
	if (cap->nvalues < EXPLAIN_MAX_VALUES)
		cap->values[cap->nvalues++] = xstrdup(value);
}

/* The name of capture group g (1-based) of a pattern, or NULL for "-". */
static const char *
group_name(const char *captures, size_t g)
{
	const char *const *n;
	const char *w = captures;
	size_t len, k = 1;

	while (*w) {
		len = strcspn(w, " ");
		if (k == g) {
			if (len == 1 && *w == '-')
				return NULL;
			for (n = kb_capture_names; *n; n++)
				if (strlen(*n) == len && !strncmp(*n, w, len))
					return *n;
			return NULL;
		}
		k++;
		w += len;
		w += *w == ' ';
	}
	return NULL;
}

static void
record(struct explain *x, size_t pi, const char *text, const regmatch_t *m, size_t ngroups,
       unsigned long line, enum explain_role role_override, const char *id_override)
{
	const struct kb_log_pattern *p = pi < x->npats + x->cues.nrows ? &x->pats[pi] : NULL;
	enum explain_role role = p ? role_of(p->role) : role_override;
	const char *id = p ? p->finding : id_override;
	struct explain_cause *c = explain_cause_for(x, p, id, role);
	int sev = p ? severity_parse(p->severity) : SEV_WARN;
	size_t g;

	if (sev > (int)c->severity)
		c->severity = (enum severity)sev;
	c->count++;
	if (c->nlines < EXPLAIN_MAX_LINES && (!c->nlines || c->lines[c->nlines - 1] != line))
		c->lines[c->nlines++] = line;
	if (c->nquotes < (role == EXPLAIN_UNKNOWN ? EXPLAIN_MAX_UNKNOWN : EXPLAIN_MAX_QUOTES) &&
	    (!c->nquotes || c->quotes[c->nquotes - 1].line != line)) {
		const char *t = text + strspn(text, " ");
		size_t n = strlen(t);
		struct explain_quote *q = &c->quotes[c->nquotes++];
		q->line = line;
		if (n > EXPLAIN_QUOTE_MAX) {
			/* cut on a character boundary, mark the cut */
			n = EXPLAIN_QUOTE_MAX;
			while (n && ((unsigned char)t[n] & 0xc0) == 0x80)
				n--;
			q->text = xasprintf("%.*s...", (int)n, t);
		} else {
			q->text = xstrdup(t);
		}
	}
	if (!p || !m)
		return;
	for (g = 1; g < ngroups; g++) {
		const char *name = group_name(p->captures, g);
		char raw[128], val[128];
		size_t n;

		if (!name || m[g].rm_so < 0)
			continue;
		n = (size_t)(m[g].rm_eo - m[g].rm_so);
		if (n >= sizeof(raw))
			n = sizeof(raw) - 1;
		memcpy(raw, text + m[g].rm_so, n);
		raw[n] = '\0';
		normalize(name, p->finding, str_trim(raw), val, sizeof(val));
		add_value(c, name, val);
	}
}

/*
 * Lines wrapped by a terminal, a log collector or a mail program: when a
 * line ends inside a pattern's anchor (at least ACM_DEEP bytes of it) and
 * the next line completes the anchor, directly (a cut inside a word),
 * after a blank (a wrap at a space) or after the indentation of the block
 * both lines belong to, the two are matched as one line, under the first
 * one's number. A wrap after the anchor, inside what the row's expression
 * reads ("implementation for device cu" / "da:0 not found."), is joined
 * the same ways when the expression that failed on the line matches the
 * two as one (keep_failed_tail).
 */
#define JOIN_LOOK 256            /* bytes of the next line that may complete an anchor */
#define JOIN_MISSES_MAX 8        /* a row whose expression this many next lines in a row did not
				  * complete is not tried again: the anchor stands in whole lines
				  * of another program (a word of the log's own, at every step) */

static void
keep_tail(struct explain *x, const unsigned char *s, size_t len, unsigned long line,
	  unsigned state)
{
	size_t k;

	x->tail_len = 0;
	x->tail_row = SIZE_MAX;
	if (!acm_state_deep(state))
		return;
	k = len < EXPLAIN_TAIL ? len : EXPLAIN_TAIL;
	memcpy(x->tail, s + len - k, k);
	x->tail_len = k;
	x->tail_state = state;
	x->tail_line = line;
}

/* Keeps the cleaned line's end when no row matched it but the anchor of
 * row did: the next line may hold the rest of what row's expression reads. */
static void
keep_failed_tail(struct explain *x, size_t row, unsigned long line)
{
	size_t len = strlen(x->line), k = len < EXPLAIN_TAIL ? len : EXPLAIN_TAIL;

	if (x->joining || x->tail_len || x->join_misses[row] >= JOIN_MISSES_MAX)
		return;
	memcpy(x->tail, x->line + len - k, k);
	x->tail_len = k;
	x->tail_state = 0;
	x->tail_line = line;
	x->tail_row = row;
}

/* Whether the expression that failed on the kept tail matches it joined
 * with s (sep between them), held in x->joined (NUL-terminated). */
static bool
completes_expression(struct explain *x, const unsigned char *s, size_t len, const char *sep)
{
	size_t k = x->tail_len, take = len < JOIN_LOOK ? len : JOIN_LOOK;

	memcpy(x->joined, x->tail, k);
	memcpy(x->joined + k, sep, strlen(sep));
	k += strlen(sep);
	memcpy(x->joined + k, s, take);
	x->joined[k + take] = '\0';
	return regexec(&x->re[x->tail_row], (const char *)x->joined, 0, NULL, 0) == 0;
}

/* Whether s completes an anchor begun at the kept tail (sep: "" or " "
 * between them) that is longer than any anchor s begins itself: a line
 * with a message of its own ("Error! Build of nvidia.ko failed for:")
 * is no wrapped half of the line before ("... out of memory", which with
 * it would spell "MemoryError"). */
static bool
completes_anchor(const struct explain *x, const unsigned char *s, size_t len, const char *sep)
{
	struct acm_hit hits[MAX_HITS];
	unsigned state = x->tail_state;
	size_t n, i, seplen = strlen(sep), across = 0, inside = 0;

	if (seplen)
		acm_scan_from(x->acm, &state, (const unsigned char *)sep, seplen, hits, 0);
	n = acm_scan_from(x->acm, &state, s, len < JOIN_LOOK ? len : JOIN_LOOK, hits, MAX_HITS);
	for (i = 0; i < n; i++) {
		size_t alen;
		if (hits[i].id & KW_ANY)
			continue;
		alen = strlen(x->pats[hits[i].id].anchor);
		if (alen > hits[i].end + seplen) {
			if (alen > across)
				across = alen;
		} else if (alen > inside) {
			inside = alen;
		}
	}
	return across > inside;
}

/* Whether a line holds nothing but blanks. */
static bool
blank_line(const unsigned char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

static bool
join_wrapped(struct explain *x, const unsigned char *s, size_t len, unsigned long line)
{
	/* cut inside a word; wrapped at a space; wrapped at a space inside an
	 * indented block (pip's output of a build, a traceback's message),
	 * whose next line starts with the block's indentation again */
	static const struct {
		const char *sep;
		bool past_indent;
	} ways[] = {{"", false}, {" ", false}, {" ", true}};
	size_t i, k, indent;

	if (!x->tail_len || x->joining || line != x->tail_line + 1)
		return false;
	for (indent = 0; indent < len && (s[indent] == ' ' || s[indent] == '\t'); indent++)
		;
	for (i = 0; i < sizeof(ways) / sizeof(ways[0]); i++) {
		const char *sep = ways[i].sep;
		if (ways[i].past_indent) {
			if (!indent || indent == len)
				break;
			s += indent;
			len -= indent;
		}
		if (x->tail_row != SIZE_MAX ? !completes_expression(x, s, len, sep) : !completes_anchor(x, s, len, sep))
			continue;
		if (x->tail_row != SIZE_MAX)
			x->join_misses[x->tail_row] = 0;
		k = x->tail_len;
		memcpy(x->joined, x->tail, k);
		memcpy(x->joined + k, sep, strlen(sep));
		k += strlen(sep);
		memcpy(x->joined + k, s, len < NORM_MAX ? len : NORM_MAX);
		k += len < NORM_MAX ? len : NORM_MAX;
		x->tail_len = 0;
		x->tail_row = SIZE_MAX;
		x->joining = true;
		explain_line(x, x->joined, k, x->tail_line);
		x->joining = false;
		x->lines = line;
		return true;
	}
	if (x->tail_row != SIZE_MAX && x->join_misses[x->tail_row] < JOIN_MISSES_MAX)
		x->join_misses[x->tail_row]++;
	return false;
}

/* The cue text t (len bytes) states (cues.h), or SIZE_MAX. The cues'
 * automaton is built when a line first needs it: a log the table
 * explains line by line never pays for it. */
static size_t
line_cue(struct explain *x, const unsigned char *t, size_t len)
{
	struct acm_hit h[MAX_CUE_HITS];
	size_t n, i;

	if (!x->cues.nwords)
		return SIZE_MAX;
	if (!x->cue_acm) {
		x->cue_acm = acm_new();
		for (i = 0; i < x->cues.nwords; i++)
			acm_add(x->cue_acm, x->cues.words[i].text, x->cues.words[i].len, (unsigned)i);
		acm_build(x->cue_acm);
	}
	memset(&x->cue_line, 0, sizeof(x->cue_line));
	n = acm_scan(x->cue_acm, t, len, h, MAX_CUE_HITS);
	for (i = 0; i < n; i++)
		cue_line_hit(&x->cue_line, &x->cues, h[i].id, t, len, h[i].end);
	return cue_line_pick(&x->cue_line, &x->cues);
}

/* Cue c's captures: its expression's groups in m (*ngroups of them) where
 * the expression matches the cleaned line, none otherwise; a cue fires on
 * its words alone. */
static void
cue_captures(struct explain *x, size_t c, regmatch_t *m, size_t *ngroups)
{
	size_t id = x->npats + c;

	*ngroups = 0;
	if (!x->pats[id].regex[0])
		return;
	if (!x->re_state[id])
		x->re_state[id] = regcomp(&x->re[id], x->pats[id].regex,
					  REG_EXTENDED | REG_ICASE) ? -1 : 1;
	if (x->re_state[id] < 0)
		return;
	*ngroups = x->re[id].re_nsub + 1;
	if (*ngroups > MAX_GROUPS)
		*ngroups = MAX_GROUPS;
	if (regexec(&x->re[id], x->line, *ngroups, m, 0) != 0)
		*ngroups = 0;
}

void
explain_line(struct explain *x, const unsigned char *s, size_t len, unsigned long line)
{
	struct acm_hit hits[MAX_HITS];
	size_t n, i, best = SIZE_MAX, best_len = 0, best_rlen = 0, first_end = 0, off, row, failed = SIZE_MAX;
	regmatch_t m[MAX_GROUPS], best_m[MAX_GROUPS];
	size_t best_groups = 0;
	bool gpu = false, error = false, anchor = false, stated = false, trigger = false, code;
	size_t cue;
	unsigned state;

	x->lines = line;
	if (join_wrapped(x, s, len, line))
		return;
	/* a form's heading stands blank lines above its answer */
	if (x->stated.pending && !(x->stated.pending_heading && blank_line(s, len)))
		logfacts_next_line(&x->stated, s, len, line);
	if (x->sample == 0 && len >= 2 && line == 1)
		x->bom16 = (s[0] == 0xff && s[1] == 0xfe) || (s[0] == 0xfe && s[1] == 0xff);
	if (x->sample < SAMPLE) {
		size_t k, take = len < SAMPLE - x->sample ? len : (size_t)(SAMPLE - x->sample);
		for (k = 0; k < take; k++)
			x->sample_nul += s[k] == 0;
		x->sample += take;
	}
	for (i = 0; !x->has_text && i < len; i++)
		x->has_text = s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\f' && s[i] != '\v';
	if (!x->container_line && compose_prefix(s, len))
		x->container_line = line;
	code = listing_line(&x->listing, s, len);
	state = 0;
	n = acm_scan_from(x->acm, &state, s, len, hits, MAX_HITS);
	keep_tail(x, s, len, line, state);
	if (!n)
		return;
	/* a line with nothing to find (a progress bar, a metric) is not
	 * normalized: one with typography is scanned again in one spelling */
	if (len <= NORM_MAX && lognorm_needed(s, len)) {
		len = lognorm(s, len, x->norm);
		s = x->norm;
		n = acm_scan(x->acm, s, len, hits, MAX_HITS);
		if (!n)
			return;
	}
	for (i = 0; i < n; i++) {
		if (hits[i].id & KW_CODE)
			code_hit(x, s, len, &hits[i]);
		if (hits[i].id & KW_FACT) {
			stated |= logfacts_line(&x->stated, hits[i].id & 0xffffu, s, len, hits[i].end,
						line);
		} else if (hits[i].id & KW_RUN) {
			if ((hits[i].id & 0xffffu) >= RUN_JOB)
				job_step(x, s, len, &hits[i], line);
			else if (!x->run_line && !gpu_flags(s, len, hits[i].end))
				x->run_line = line;
		} else if ((hits[i].id & KW_CTR) && (hits[i].id & 0xffffu) >= NOTEBOOK_BASE) {
			if (!x->notebook_line && notebook_sign(s, hits[i].end, (hits[i].id & 0xffffu) - NOTEBOOK_BASE))
				x->notebook_line = line;
		} else if ((hits[i].id & KW_CTR) && (hits[i].id & 0xffffu) >= IMAGE_BUILD_BASE) {
			if (!x->container_line)
				x->container_line = line;
			if (!x->image_build_line)
				x->image_build_line = line;
		} else if (hits[i].id & KW_CTR) {
			if (!x->container_line && container_sign(s, len, hits[i].end, hits[i].id & 0xffffu))
				x->container_line = line;
			if (!x->l4t_line && strstr(container_words[hits[i].id & 0xffffu], "r32"))
				x->l4t_line = line;
		} else if (hits[i].id & KW_SRC) {
			if (!x->source_build_line)
				x->source_build_line = line;
		} else if (hits[i].id & KW_GREQ) {
			if (!x->gpu_request_line)
				x->gpu_request_line = line;
		} else if (hits[i].id & KW_CVD) {
			if (!x->cvd_line &&
			    visible_devices_value(s + hits[i].end, len - hits[i].end, x->cvd_value,
						  sizeof(x->cvd_value)))
				x->cvd_line = line;
		} else if (hits[i].id & KW_WSL) {
			if (!x->wsl_line && wsl_sign(s, len, hits[i].end, hits[i].id & 0xffffu))
				x->wsl_line = line;
		} else if (hits[i].id & KW_BUS) {
			x->bus_line = line;
		} else if (hits[i].id & KW_GPU) {
			gpu = true;
			/* "nccl" in a backtrace under a bus error */
			if (x->bus_line && !x->nccl_bus_line && line - x->bus_line <= BUS_NCCL_LINES &&
			    !strcmp(gpu_words[hits[i].id & 0xffffu], "nccl"))
				x->nccl_bus_line = x->bus_line;
		}
		else if (hits[i].id & KW_ERR)
			error = true;
		else if (hits[i].id & KW_TRIG)
			trigger = true;
		else if (hits[i].id & KW_CODE)
			;                /* a code's beginning that names no code */
		else if (!anchor) {
			anchor = true;
			first_end = hits[i].end;
		}
	}
	/* quoted code: what it sets (CUDA_VISIBLE_DEVICES) counts, its words
	 * and comments are no message */
	if (code)
		return;
	/* a line no anchor points to, and not a GPU error: worth more only
	 * when it holds an error or a trigger word and its words state a
	 * cause (one scan of the raw line: a line that merely names the GPU,
	 * as a monitor prints at every sample, costs nothing more) */
	if (!anchor && !(gpu && error) &&
	    (!(error || trigger) || len > NORM_MAX || line_cue(x, s, len) == SIZE_MAX))
		return;
	/* a long line: the window around the first anchor */
	off = 0;
	if (len > WINDOW)
		off = first_end > WINDOW / 2 ? first_end - WINDOW / 2 : 0;
	if (off + WINDOW < len)
		len = off + WINDOW;
	text_clean(s + off, len - off, x->line, x->line_size);
	/* a line shaped like one matched before: its result, no expression run */
	if (linememo_shape(&x->memo, s + off, len - off, hits, n)) {
		const struct linememo_entry *e = linememo_get(&x->memo);
		if (e && e->kind == LINEMEMO_ROW)
			record(x, e->row, x->line, e->ngroups ? e->m : NULL, e->ngroups, line,
			       EXPLAIN_CAUSE, NULL);
		else if (e && e->kind == LINEMEMO_UNKNOWN && !stated)
			record(x, SIZE_MAX, x->line, NULL, 0, line, EXPLAIN_UNKNOWN, "rt.unknown");
		/* a row whose anchor was there and its expression not: the
		 * next line may complete it, as the first time */
		if (e && e->kind != LINEMEMO_ROW && e->row != SIZE_MAX)
			keep_failed_tail(x, e->row, line);
		if (e)
			return;
	}
	for (i = 0; anchor && i < n; i++) {
		unsigned id = hits[i].id;
		size_t alen, rlen;

		if (id & KW_ANY)
			continue;
		alen = strlen(x->pats[id].anchor);
		/* a row that names a cause beats a note that names none (the
		 * advice PyTorch appends to every CUDA error); then a row of the
		 * table beats a status code's row (codes.h); among either, the
		 * longest anchor, then the longer (more specific) expression,
		 * then the first row */
		rlen = strlen(x->pats[id].regex);
		if (best != SIZE_MAX &&
		    (no_cause(x, id) > no_cause(x, best) ||
		     (no_cause(x, id) == no_cause(x, best) &&
		      (is_code(x, id) > is_code(x, best) ||
		       (is_code(x, id) == is_code(x, best) &&
			(alen < best_len ||
			 (alen == best_len && (rlen < best_rlen || (rlen == best_rlen && id > best)))))))))
			continue;
		if (x->pats[id].regex[0]) {
			size_t ng;
			if (!x->re_state[id])
				x->re_state[id] = regcomp(&x->re[id], x->pats[id].regex,
							  REG_EXTENDED | REG_ICASE) ? -1 : 1;
			if (x->re_state[id] < 0)
				continue;
			ng = x->re[id].re_nsub + 1;
			if (ng > MAX_GROUPS)
				ng = MAX_GROUPS;
			if (regexec(&x->re[id], x->line, ng, m, 0) != 0) {
				if (failed == SIZE_MAX || alen > strlen(x->pats[failed].anchor))
					failed = id;
				continue;
			}
			memcpy(best_m, m, ng * sizeof(*m));
			best_groups = ng;
		} else {
			best_groups = 0;
		}
		best = id;
		best_len = alen;
		best_rlen = rlen;
	}
	if (best == SIZE_MAX && failed != SIZE_MAX)
		keep_failed_tail(x, failed, line);
	if (best != SIZE_MAX) {
		record(x, best, x->line, best_groups ? best_m : NULL, best_groups, line,
		       EXPLAIN_CAUSE, NULL);
		linememo_put(&x->memo, LINEMEMO_ROW, best, best_m, best_groups);
	} else if (gpu && error && x->ncode_rows &&
		   (row = code_by_number(&x->codes, x->pats, x->line)) != SIZE_MAX) {
		/* a status code by number alone */
		record(x, row, x->line, NULL, 0, line, EXPLAIN_CAUSE, NULL);
		linememo_put(&x->memo, LINEMEMO_ROW, row, NULL, 0);
	} else if ((cue = line_cue(x, (const unsigned char *)x->line, strlen(x->line))) != SIZE_MAX) {
		/* no message known, but the words of a cause */
		cue_captures(x, cue, m, &best_groups);
		record(x, x->npats + cue, x->line, best_groups ? m : NULL, best_groups, line,
		       EXPLAIN_CAUSE, NULL);
		linememo_put(&x->memo, LINEMEMO_ROW, x->npats + cue, m, best_groups);
	} else if (gpu && error) {
		/* a line no row explains */
		if (!stated)
			record(x, SIZE_MAX, x->line, NULL, 0, line, EXPLAIN_UNKNOWN, "rt.unknown");
		linememo_put(&x->memo, LINEMEMO_UNKNOWN, failed, NULL, 0);
	} else {
		linememo_put(&x->memo, LINEMEMO_NOTHING, failed, NULL, 0);
	}
}

int
explain_stream(struct explain *x, struct logread *r)
{
	const unsigned char *seg;
	size_t len;
	unsigned long line;
	int rc;

	while ((rc = logread_next(r, &seg, &len, &line)) > 0)
		explain_line(x, seg, len, line);
	x->bytes = r->bytes;
	x->lines = r->line - 1 + r->partial;
	return rc;
}
