/*
 * fuzz_kb.c - libFuzzer harness for `--kb DIR` (src/kb/kb.c, kb_tsv.c,
 * kb_schema.c): the input is a knowledge-base directory, one or more files
 * joined by FUZZ_SEP, each segment "<table file name>\n<its contents>"
 * ("gpu_devices.tsv\ncc\tname..."); a name that is no table's is dropped.
 * The directory is loaded as `--kb` loads it, and tables that load are then
 * used as plan, compat's queries and explain use them: a plan and its
 * steps for each framework on one of three machines, the architecture
 * decision for each row of a loaded build_targets.tsv, and explain's
 * matcher (built from a loaded log_patterns.tsv, expressions and all) over
 * a log that names the common failures. Seeds: make fuzz cuts every table of data/kb to a few rows.
 */
#include "explain/explain.h"
#include "explain/logread.h"
#include "kb/kb.h"
#include "kb/kb_schema.h"
#include "kb/runs_on.h"
#include "plan/plan.h"
#include "render/explain_render.h"
#include "render/plan_text.h"

#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;
static const char *dir;

static const char log_text[] =
	"RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
	"CUDA driver version is insufficient for CUDA runtime version\n"
	"W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
	"library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file\n"
	"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; "
	"7.79 GiB total capacity; 6.20 GiB already allocated; 3.12 MiB free; 6.50 GiB reserved)\n"
	"Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0\n"
	"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver\n"
	"GeForce GTX 1080 with CUDA capability sm_61 is not compatible with the current PyTorch "
	"installation.\n";

static const struct plan_machine machines[] = {
	{.driver = "470.82.01", .gpu_name = "NVIDIA GeForce GTX 1080", .compute_capability = "6.1",
	 .gpu_present = true, .gpu_known = true, .python = "3.9", .os = PLAN_OS_LINUX,
	 .cpu_avx = 1},
	{.driver = "580.65.06", .gpu_name = "NVIDIA H200", .compute_capability = "9.0",
	 .gpu_present = true, .gpu_known = true, .python = "3.12.3", .os = PLAN_OS_LINUX,
	 .cpu_avx = 1, .toolkit = "13.0"},
	{.driver = "560.35.03", .gpu_name = "NVIDIA GeForce RTX 4090", .compute_capability = "8.9",
	 .gpu_present = true, .gpu_known = true, .python = "3.9", .os = PLAN_OS_WINDOWS,
	 .cpu_avx = 1, .described = true},
};

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	dir = fuzz_tree_init("kb");
	return 0;
}

static void
put_tables(const uint8_t *data, size_t size)
{
	struct fuzz_seg segs[FUZZ_MAX_SEGS];
	int i, n = fuzz_split(data, size, segs, FUZZ_MAX_SEGS);
	size_t t;

	for (t = 0; t < KB_NTABLES; t++)
		fuzz_unlink(kb_schemas[t].file);
	for (i = 0; i < n; i++) {
		const char *nl = memchr(segs[i].data, '\n', segs[i].len);
		const struct kb_schema *s;
		char name[40];
		size_t len;

		if (!nl || (len = (size_t)(nl - segs[i].data)) >= sizeof(name))
			continue;
		memcpy(name, segs[i].data, len);
		name[len] = '\0';
		s = kb_schema_find(name);
		if (!s || strcmp(name, s->file))
			continue;
		fuzz_put(s->file, nl + 1, segs[i].len - len - 1);
	}
}

/* One machine and one format per input (chosen by its size): a plan takes
 * milliseconds, and the fuzzer's time is better spent on the tables. */
static void
use_plans(size_t pick)
{
	static struct plan p;
	const struct plan_machine *m = &machines[pick % (sizeof(machines) / sizeof(machines[0]))];
	int fmt = (int)(pick / 3 % 4);
	struct plan_steps st;
	int fw;

	for (fw = PLAN_TF; fw <= PLAN_JAX; fw++) {
		json_t *o;

		if (plan_make(m, fw, NULL, &p) < 0)
			abort();
		if (p.ok)
			plan_steps_make(&p, m, fmt, NULL, &st);
		o = plan_to_json(&p, m, fmt, p.ok ? &st : NULL, NULL);
		json_decref(o);
		plan_render_text(devnull, &p, m, fmt, p.ok ? &st : NULL, NULL, false);
		if (p.ok)
			plan_steps_release(&st);
	}
}

static void
use_targets(void)
{
	static const char *const ccs[] = {"3.7", "6.1", "8.9", "9.0", "10.0", "12.0", "8.7"};
	const struct kb_build_target *rows;
	struct build_code b;
	struct runs_verdict v;
	char reason[256], need[32];
	size_t i, n, k;

	rows = kb_list_build_targets(&n);
	for (i = 0; i < n; i++) {
		runs_code_from_kb(rows[i].framework, rows[i].version_min, rows[i].platform,
				  rows[i].cuda, &b);
		for (k = 0; k < sizeof(ccs) / sizeof(ccs[0]); k++) {
			runs_decide(&b, ccs[k], "12.2", &v);
			runs_decide(&b, ccs[k], NULL, &v);
		}
	}
	for (k = 0; k < sizeof(ccs) / sizeof(ccs[0]); k++)
		runs_driver_supports(ccs[k], "470.82.01", reason, sizeof(reason), need, sizeof(need));
}

static void
use_explain(void)
{
	struct render_opts ro = {.width = 80};
	struct explain x;
	struct logread r;
	char err[256];

	if (explain_init(&x, err, sizeof(err)) < 0)
		return;
	logread_init_mem(&r, log_text, sizeof(log_text) - 1);
	if (explain_stream(&x, &r) < 0)
		abort();
	logread_release(&r);
	explain_finish(&x);
	explain_render_text(devnull, &x, "fuzz", NULL, &ro);
	explain_render_json(devnull, &x, "fuzz", NULL);
	explain_release(&x);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kb_info info;
	char err[512];
	size_t t;
	bool patterns = false, targets = false;

	put_tables(data, size);
	if (kb_load_dir(dir, err, sizeof(err)) < 0) {
		if (!memchr(err, '\0', sizeof(err)) || !err[0])
			abort();
		return 0;
	}
	for (t = 0; t < KB_NTABLES; t++) {
		if (kb_info((enum kb_table)t, &info) < 0)
			abort();
		if (t == KB_LOG_PATTERNS)
			patterns = info.loaded;
		if (t == KB_BUILD_TARGETS)
			targets = info.loaded;
	}
	use_plans(size);
	/* the compiled-in tables are the other harnesses' */
	if (targets)
		use_targets();
	if (patterns)
		use_explain();
	kb_reset();
	return 0;
}
