/*
 * stated.c - the causes the doctor's rules find in the versions, builds
 * and GPUs a log states (see stated.h). A log that shows driver 470 and a
 * +cu121 wheel is judged driver.too_old by the rule doctor applies to a
 * machine, with the same fix; the lines that state the facts are its
 * evidence.
 */
#include "explain/stated.h"
#include "base/str.h"
#include "base/vers.h"
#include "base/xalloc.h"
#include "diag/rule.h"
#include "explain/logfacts.h"
#include "kb/runs_on.h"

#include <stdlib.h>
#include <string.h>

/* A row of the pattern table for the finding ID: its ID string lives as
 * long as the matcher; NULL when explain has no row for it. */
static const struct kb_log_pattern *
row_for(const struct explain *x, const char *id)
{
	const struct kb_log_pattern *any = NULL;
	size_t i;

	for (i = 0; i < x->npats; i++) {
		if (strcmp(x->pats[i].finding, id))
			continue;
		if (!strchr(x->pats[i].explain, '{'))
			return &x->pats[i];
		if (!any)
			any = &x->pats[i];
	}
	return any;
}

static void
add_line(struct explain_cause *c, unsigned long line)
{
	size_t i, j;

	if (!line || c->nlines == EXPLAIN_MAX_LINES)
		return;
	for (i = 0; i < c->nlines && c->lines[i] < line; i++)
		;
	if (i < c->nlines && c->lines[i] == line)
		return;
	for (j = c->nlines; j > i; j--)
		c->lines[j] = c->lines[j - 1];
	c->lines[i] = line;
	c->nlines++;
}

/* What the log states that the rules used, as evidence with its line. */
static void
statements(struct explain_cause *c, const struct logfacts *lf, const struct facts *f)
{
	int i;

	if (lf->driver[0] && !lf->driver_conflict) {
		explain_evidence(c, "line %lu states driver %s%s%s", lf->driver_line, lf->driver,
				 f->driver.cuda_version[0] ? ", which runs CUDA up to " : "",
				 f->driver.cuda_version);
		add_line(c, lf->driver_line);
	}
	for (i = 0; i < lf->nfw; i++) {
		const struct logfact_fw *s = &lf->fw[i];
		if (s->conflict || !s->line)
			continue;
		explain_evidence(c, "line %lu states %s %s%s%s%s", s->line, s->name,
				 s->version[0] ? s->version : "of unstated version",
				 s->cuda_build == 0 ? ", a CPU-only build" : "",
				 s->built_cuda[0] ? ", built for CUDA " : "", s->built_cuda);
		add_line(c, s->line);
	}
	for (i = 0; i < lf->ndists; i++) {
		const struct logfact_dist *d = &lf->dists[i];
		if (d->conflict)
			continue;
		explain_evidence(c, "line %lu states %s %s", d->line, d->name, d->version);
		add_line(c, d->line);
	}
	for (i = 0; i < lf->ngpus; i++) {
		const struct logfact_gpu *g = &lf->gpus[i];
		explain_evidence(c, "line %lu states %s%s%s%s", g->line, g->name[0] ? g->name : "a GPU",
				 g->cc[0] ? " (compute capability " : "", g->cc, g->cc[0] ? ")" : "");
		add_line(c, g->line);
	}
	if (lf->python[0]) {
		explain_evidence(c, "line %lu states Python %s", lf->python_line, lf->python);
		add_line(c, lf->python_line);
	}
}

static void
judged(struct explain *x, const struct finding *d, const struct facts *f)
{
	const struct kb_log_pattern *row = row_for(x, d->id);
	struct explain_cause *c = NULL;
	size_t i;
	int k;

	if (!row)
		return;
	for (i = 0; i < x->ncauses && !c; i++)
		if (!strcmp(x->causes[i].id, row->finding) &&
		    (x->causes[i].role == EXPLAIN_CAUSE || x->causes[i].role == EXPLAIN_SYMPTOM))
			c = &x->causes[i];
	if (!c) {
		c = explain_cause_for(x, NULL, row->finding, EXPLAIN_CAUSE);
		c->explain = xstrdup(f ? "The log states the versions below; gpudoctor judged them "
					 "with the rule its doctor applies to a machine."
				       : "Read from what the log states: the lines below.");
	}
	c->role = EXPLAIN_CAUSE;
	if (d->severity > c->severity)
		c->severity = d->severity;
	free(c->title);
	c->title = xstrdup(d->title);
	if (d->fix) {
		free(c->fix);
		c->fix = xstrdup(d->fix);
	}
	if (f)
		statements(c, &x->stated, f);
	/* the rule's own words, less the line naming the log's environment */
	for (k = 0; k < d->nevidence; k++)
		if (!strstr(d->evidence[k], LOGFACTS_ENV))
			explain_evidence(c, "%s", d->evidence[k]);
}

/* torch.cuda.is_available() answered False: PyTorch sees no GPU, a
 * symptom that the cause found beside it (or a container started without
 * GPUs, rank.c) explains. */
static void
no_gpu_answer(struct explain *x)
{
	const struct kb_log_pattern *row = row_for(x, "fw.no_gpu_at_runtime");
	struct explain_cause *c;

	if (!x->stated.unavailable_line || !row)
		return;
	c = explain_cause_for(x, NULL, row->finding, EXPLAIN_SYMPTOM);
	if (c->title)
		return;
	c->severity = SEV_ERROR;
	c->count = 1;
	c->lines[c->nlines++] = x->stated.unavailable_line;
	c->title = xstrdup(x->stated.unavailable_tf ? "TensorFlow sees no GPU (its device list names none)"
						    : "PyTorch sees no GPU (torch.cuda.is_available() answers False)");
	c->explain = xstrdup("The framework found no GPU it can use; the lines around it say why when they can: "
			     "a CPU-only build, a driver too old for the build, no driver in a container.");
	c->fix = xstrdup("gpudoctor doctor");
	explain_evidence(c, x->stated.unavailable_tf ? "line %lu lists no GPU device" : "line %lu answers False",
			 x->stated.unavailable_line);
}

/* A build's list of GPU code, as a log states it, against a GPU the log
 * names: the one decision (runs_on.h) says whether the GPU can run any of
 * it. ggml states its architectures without saying which carry PTX: the
 * newest is taken to, so only a GPU nothing can serve is judged. */
static void
stated_archs(const struct logfacts *lf, struct findings *fs)
{
	struct build_code b;
	struct runs_verdict v;
	struct finding *fd;
	const char *top;
	char *fix, sm[8];
	bool ggml;
	int i, k, n;

	if (!lf->archs_line)
		return;
	memset(&b, 0, sizeof(b));
	STR_COPY(b.sass, lf->archs_sass);
	STR_COPY(b.ptx, lf->archs_ptx);
	STR_COPY(b.from, "log");
	ggml = !strcmp(lf->archs_what, "ggml");
	if (ggml && !b.ptx[0]) {
		top = strrchr(b.sass, ' ');
		STR_COPY(b.ptx, top ? top + 1 : b.sass);
	}
	for (i = 0; i < lf->ngpus; i++) {
		const struct logfact_gpu *g = &lf->gpus[i];

		if (!g->cc[0])
			continue;
		runs_decide(&b, g->cc, "", &v);
		if (v.how != RUNS_NO)
			continue;
		fd = findings_add(fs, "fw.arch_not_in_build", SEV_ERROR,
				  "The %s build has no code for %s (compute capability %s)",
				  ggml ? "ggml (llama.cpp)" : "TensorFlow",
				  g->name[0] ? g->name : "the GPU", g->cc);
		finding_evidence(fd, "line %lu: the build carries code for %s%s%s%s", lf->archs_line,
				 b.sass[0] ? b.sass : "(none)", b.ptx[0] ? ", PTX for " : "", b.ptx,
				 ggml && !lf->archs_ptx[0] ? " (the newest taken to be PTX)" : "");
		finding_evidence(fd, "line %lu: %s has compute capability %s", g->line,
				 g->name[0] ? g->name : "the GPU", g->cc);
		finding_evidence(fd, "%s", v.reason);
		/* CMake names compute capability 5.2 "52" */
		for (k = n = 0; g->cc[k] && n + 1 < (int)sizeof(sm); k++)
			if (g->cc[k] != '.')
				sm[n++] = g->cc[k];
		sm[n] = '\0';
		if (ggml)
			fix = xasprintf("Build it with this GPU's architecture among its targets, or use a "
					"release built for compute capability %s:\n"
					"cmake -B build -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=%s\n"
					"cmake --build build --config Release", g->cc, sm);
		else
			fix = xasprintf("Install a TensorFlow build with code for compute capability %s; on "
					"the machine, this names it:\ngpudoctor plan tensorflow", g->cc);
		finding_fix(fd, fix);
		free(fix);
		return;
	}
}

/* nvcc's release beside the driver's: a toolkit of a newer CUDA than the
 * driver runs builds programs that cannot start on it (a newer minor of
 * the same major runs from CUDA 11 on: minor-version compatibility). A
 * warning: a framework's wheel brings its own CUDA, whatever nvcc says. */
static void
stated_toolkit(const struct logfacts *lf, struct findings *fs)
{
	char max[16], *fix;
	struct finding *fd;
	int t[2] = {0, 0}, d[2] = {0, 0};

	if (!lf->nvcc[0] || lf->nvcc_conflict || !lf->driver[0] || lf->driver_conflict)
		return;
	if (lf->driver_cuda[0])
		STR_COPY(max, lf->driver_cuda);
	else if (kb_driver_max_cuda(lf->driver, max, sizeof(max)) != 0)
		return;
	if (vers_parse(lf->nvcc, t, 2) < 2 || vers_parse(max, d, 2) < 2 || vers_cmp(lf->nvcc, max) <= 0 ||
	    (t[0] == d[0] && t[0] >= 11))
		return;
	fd = findings_add(fs, "driver.too_old", SEV_WARN,
			  "The CUDA toolkit (nvcc %s) is newer than the driver %s runs (CUDA up to %s)", lf->nvcc,
			  lf->driver, max);
	finding_evidence(fd, "line %lu: nvcc is CUDA %s", lf->nvcc_line, lf->nvcc);
	finding_evidence(fd, "line %lu: driver %s runs CUDA up to %s", lf->driver_line, lf->driver, max);
	fix = xasprintf("Programs this toolkit builds need a driver for its CUDA: upgrade the driver, or "
			"build with the CUDA release the driver runs:\n"
			"gpudoctor compat --cuda %s   # the oldest driver for it\n"
			"gpudoctor compat --driver %s   # the newest CUDA this driver runs",
			lf->nvcc, lf->driver);
	finding_fix(fd, fix);
	free(fix);
}

const char explain_low_vram_fix[] =
	"Most current models do not fit in under 4 GiB: use a smaller model, half precision "
	"(float16) and a batch of 1, or a GPU with more memory:\n"
	"nvidia-smi --query-gpu=name,memory.total --format=csv";

/* Whether the log holds a GPU out-of-memory error after line. */
static bool
oom_after(const struct explain *x, unsigned long line)
{
	size_t i;

	for (i = 0; i < x->ncauses; i++)
		if (!strcmp(x->causes[i].id, "mem.oom") && x->causes[i].lines[0] > line)
			return true;
	return false;
}

/* What the log states beyond builds: a GPU nearly full before the
 * framework allocated anything (TensorFlow's device properties), a CPU
 * without AVX (its /proc/cpuinfo flags). */
static void
stated_numbers(struct explain *x, struct findings *fs)
{
	const struct logfacts *lf = &x->stated;
	struct finding *fd;
	char *fix;
	int i;

	/* the device's memory as the framework found it: nearly all of it taken
	 * before the framework started, or under 3.75 GiB in all (the doctor's
	 * hw.low_vram) with an allocation failing after it */
	if (lf->mem_total_mib >= 1024 && lf->mem_free_mib >= 0 && lf->mem_free_mib < 0.1 * lf->mem_total_mib) {
		fd = findings_add(fs, "mem.held_by_other_process", SEV_ERROR,
				  "Only %.0f MiB of the GPU's %.0f MiB were free before the framework started",
				  lf->mem_free_mib, lf->mem_total_mib);
		finding_evidence(fd, "line %lu: the device's memory as the framework found it", lf->mem_line);
		finding_fix(fd, "Another process holds the GPU's memory; find it and end it, or use another GPU:\n"
				"nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv");
	} else if (lf->mem_total_mib > 0 && lf->mem_total_mib < HW_LOW_VRAM_MIB && oom_after(x, lf->mem_line)) {
		fd = findings_add(fs, "hw.low_vram", SEV_ERROR, "The GPU has only %.0f MiB of memory in all",
				  lf->mem_total_mib);
		finding_evidence(fd, "line %lu: the device's memory as the framework found it", lf->mem_line);
		finding_fix(fd, explain_low_vram_fix);
	}
	/* nvidia-smi's table, pasted before the out-of-memory error, shows a
	 * GPU already nearly full: another process holds it */
	if (lf->smi_full_line && oom_after(x, lf->smi_full_line)) {
		fd = findings_add(fs, "mem.held_by_other_process", SEV_ERROR,
				  "nvidia-smi shows a GPU with %.0f of its %.0f MiB in use before the out-of-memory "
				  "error", lf->smi_used_mib, lf->smi_total_mib);
		finding_evidence(fd, "line %lu: nvidia-smi's memory column, %.0f MiB / %.0f MiB", lf->smi_full_line,
				 lf->smi_used_mib, lf->smi_total_mib);
		if (lf->smi_idle_rows)
			finding_evidence(fd, "%d of the table's %d GPUs are idle", lf->smi_idle_rows, lf->smi_rows);
		finding_fix(fd, "Another process holds that GPU's memory, so a smaller batch will not make room; "
				"end it, or run on an idle GPU:\n"
				"nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv\n"
				"export CUDA_VISIBLE_DEVICES=1   # an idle GPU's index");
	}
	/* a build the log states is CPU-only, and the framework answered that
	 * it sees no GPU: the build is why, whatever the machine has */
	for (i = 0; lf->unavailable_line && i < lf->nfw; i++) {
		const struct logfact_fw *s = &lf->fw[i];
		if (s->conflict || s->cuda_build != 0)
			continue;
		fd = findings_add(fs, "fw.cpu_only_build", SEV_ERROR, "%s %s is a CPU-only build", s->name,
				  s->version);
		finding_evidence(fd, "line %lu states %s %s, a build without CUDA", s->line, s->name,
				 s->version);
		finding_evidence(fd, "line %lu: it sees no GPU", lf->unavailable_line);
		fix = xasprintf("Replace it with a CUDA build for the machine's driver; on the machine, "
				"this names the command:\ngpudoctor plan %s", s->name);
		finding_fix(fd, fix);
		free(fix);
	}
	stated_archs(lf, fs);
	stated_toolkit(lf, fs);
	if (lf->cpu_flags_line && !lf->cpu_avx) {
		fd = findings_add(fs, "host.no_avx", SEV_ERROR, "The CPU has no AVX (its flags, line %lu)",
				  lf->cpu_flags_line);
		finding_evidence(fd, "/proc/cpuinfo's flags name sse2 but not avx");
		finding_fix(fd, "Official TensorFlow wheels since 1.6 need AVX: use a build without it (from "
				"source, a community build), PyTorch, or a CPU with AVX; in a virtual machine "
				"pass the host CPU through (-cpu host).");
	}
}

/* Whether the log names a cause below the framework (a library, the
 * driver, the kernel module, the host, the GPU) for a GPU not used. */
static bool
says_why(const struct explain *x)
{
	size_t i;

	for (i = 0; i < x->ncauses; i++) {
		const char *id = x->causes[i].id;
		if (x->causes[i].role == EXPLAIN_CAUSE &&
		    (!strncmp(id, "lib.", 4) || !strncmp(id, "driver.", 7) || !strncmp(id, "kmod.", 5) ||
		     !strncmp(id, "host.", 5) || !strncmp(id, "hw.", 3)))
			return true;
	}
	return false;
}

/* XLA registered the GPU, TensorFlow did not (TensorFlow 2.0 to 2.3): the
 * driver works, and with no library named the libraries of the CUDA
 * release TensorFlow was built for did not load. */
static void
xla_gpu_only(const struct explain *x, struct findings *fs)
{
	struct finding *fd;

	if (!x->stated.tf_xla_gpu_line || x->stated.tf_gpu_listed || says_why(x))
		return;
	fd = findings_add(fs, "lib.cuda_version_mismatch", SEV_ERROR,
			  "TensorFlow's XLA sees the GPU, but TensorFlow registered none: the CUDA libraries "
			  "of its CUDA version did not load");
	finding_evidence(fd, "line %lu lists an XLA_GPU device and no GPU device", x->stated.tf_xla_gpu_line);
	finding_fix(fd, "TensorFlow 2.0 to 2.3 list XLA_GPU whenever the driver works; the GPU device needs the "
			"libraries of the exact CUDA (and cuDNN) release the build names. Install those "
			"(gpudoctor compat tensorflow VERSION lists them), or a TensorFlow release built for the "
			"CUDA installed:\ngpudoctor plan tensorflow");
}

/*
 * TensorFlow on native Windows that lists no GPU and says nothing about
 * CUDA: from 2.11 its Windows builds have no CUDA and print no CUDA
 * library or driver line, while a GPU build that cannot use the GPU says
 * why. With the release unstated (rule_windows_tf_env judges a stated
 * one) and no such line, the build is that CPU one.
 */
static void
windows_tf_without_version(const struct explain *x, unsigned long tf_none, struct findings *fs)
{
	struct finding *fd;
	int k;

	if (!x->stated.windows)
		return;
	for (k = 0; k < x->stated.nfw; k++)
		if (!strcmp(x->stated.fw[k].name, "tensorflow"))
			return;
	if (says_why(x))
		return;
	fd = findings_add(fs, "host.windows_native_tf_gpu", SEV_ERROR,
			  "TensorFlow on native Windows lists no GPU and no CUDA library: a build without CUDA "
			  "(TensorFlow 2.11 and later)");
	finding_evidence(fd, "line %lu: TensorFlow's devices name no GPU", tf_none);
	finding_evidence(fd, "the log runs on native Windows (its paths) and holds no CUDA library or driver "
			     "error, which a Windows GPU build (2.10 and before) prints when it cannot use the GPU");
	finding_fix(fd, "Run TensorFlow in WSL2 (pip install \"tensorflow[and-cuda]\" there), or use the last "
			"Windows GPU build: pip install \"tensorflow<2.11\" with CUDA 11.2 and cuDNN 8.1\n"
			"gpudoctor plan tensorflow");
}

/*
 * A bus error with NCCL's code in the backtrace under it: NCCL maps its
 * shared-memory segments from /dev/shm, and touching a page the tmpfs
 * cannot back raises SIGBUS, not an error code. A container's /dev/shm is
 * 64 MB unless it is started with more.
 */
static void
nccl_bus_error(const struct explain *x, struct findings *fs)
{
	struct finding *fd;

	if (!x->nccl_bus_line)
		return;
	fd = findings_add(fs, "rt.nccl_error", SEV_ERROR,
			  "NCCL died of a bus error: its shared memory in /dev/shm ran out");
	finding_evidence(fd, "line %lu: a bus error (SIGBUS), with NCCL's code in the backtrace below it",
			 x->nccl_bus_line);
	finding_evidence(fd, "NCCL maps its shared-memory segments from /dev/shm; a page the tmpfs cannot "
			     "back raises SIGBUS. A container's /dev/shm is 64 MB unless started with more");
	finding_fix(fd, "df -h /dev/shm   # inside the container\n"
			"docker run --shm-size=1g ...   # or --ipc=host; Kubernetes: an emptyDir with medium: Memory "
			"on /dev/shm\n"
			"export NCCL_SHM_DISABLE=1   # only to confirm: slower, NCCL without shared memory");
}

void
explain_stated(struct explain *x)
{
	struct findings fs;
	struct python_env_facts *e;
	struct facts *f;
	unsigned long tf_none;
	size_t i;

	/* TensorFlow's device list without a GPU: it sees none */
	tf_none = x->stated.tf_zero_gpus_line
			  ? x->stated.tf_zero_gpus_line
			  : x->stated.tf_cpu_line && !x->stated.tf_gpu_listed ? x->stated.tf_cpu_line : 0;
	if (tf_none && !x->stated.unavailable_line) {
		x->stated.unavailable_line = tf_none;
		x->stated.unavailable_tf = true;
	}
	no_gpu_answer(x);
	findings_init(&fs);
	stated_numbers(x, &fs);
	xla_gpu_only(x, &fs);
	nccl_bus_error(x, &fs);
	if (tf_none)
		windows_tf_without_version(x, tf_none, &fs);
	for (i = 0; i < fs.n; i++)
		judged(x, &fs.v[i], NULL);
	findings_release(&fs);
	if (!logfacts_any(&x->stated))
		return;
	f = xmalloc(sizeof(*f));
	e = logfacts_to_facts(&x->stated, x->machine, f);
	findings_init(&fs);
	rules_run_stated(f, e, &fs);
	for (i = 0; i < fs.n; i++)
		judged(x, &fs.v[i], f);
	findings_release(&fs);
	free(f);
}
