/*
 * cmd_compat.c - `gpudoctor compat`: answer compatibility questions from the
 * knowledge base alone (no probing): a framework release, a driver, a GPU,
 * a CUDA version, or the tables themselves. Each answer is built once as a
 * JSON object; --json prints it, otherwise render/compat_text.c does.
 */
#include "cli/command.h"
#include "plan/plan.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"
#include "kb/kb_query.h"
#include "render/compat_text.h"
#include "render/render.h"

#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void
compat_usage(FILE *out)
{
	fprintf(out,
		"usage: gpudoctor compat FRAMEWORK [VERSION] [OPTIONS]\n"
		"       gpudoctor compat --driver VERSION | --gpu NAME|ID | --cuda VERSION | --kb-info\n\n"
		"Answer compatibility questions from the knowledge base (every row names its\n"
		"source); nothing on this machine is read.\n\n"
		"  FRAMEWORK [VERSION]  tensorflow, torch or jax: Python range, CUDA and cuDNN,\n"
		"                       platforms, the libraries it loads, the GPU code each\n"
		"                       build carries; without VERSION, every release\n"
		"  --driver VERSION     the newest CUDA an NVIDIA driver runs, and the newest\n"
		"                       release of each framework that works with it\n"
		"  --gpu NAME|ID        a GPU by name (\"RTX 3050\": exact names first; several\n"
		"                       matches are listed) or PCI device id (0x2507):\n"
		"                       architecture, compute capability, the CUDA releases and\n"
		"                       driver branches that support it, and the newest release\n"
		"                       of each framework that runs on it (natively, or only\n"
		"                       from PTX)\n"
		"  --cuda VERSION       minimum drivers, cuDNN releases and framework releases\n"
		"                       built for that CUDA\n"
		"  --kb-info            each table's file, row count and newest entry\n\n"
		"Options:\n"
		"  --json               print the answer as JSON\n"
		"  --kb DIR             use the tables in DIR (data/kb format) instead of the\n"
		"                       built-in ones, for a newer knowledge base without a rebuild\n"
		"  -h, --help           show this help\n\n"
		"Exit status: 0 answered, 1 the knowledge base has no answer, 3 bad usage (a\n"
		"GPU name that matches several GPUs too) or an unreadable --kb directory.\n");
}

static json_t *
jstr(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

static json_t *
words(const char *list)
{
	json_t *a = json_array();
	char w[32];
	size_t k;

	for (k = 0; kb_word(list, k, w, sizeof(w)) == 0; k++)
		json_array_append_new(a, json_string(w));
	return a;
}

static json_t *
python_range(const char *min, const char *max)
{
	return json_pack("{s:o,s:o}", "min", jstr(min), "max", jstr(max));
}

/* The GPU code of each official build of a release (build_targets.tsv):
 * one object per platform and CUDA the build was made with. */
static json_t *
gpu_code(const char *fw, const char *version)
{
	const struct kb_build_target *r = kb_list_build_targets(NULL);
	size_t n = kb_count(KB_BUILD_TARGETS), i;
	json_t *a = json_array();

	for (i = 0; i < n; i++)
		if (!strcmp(r[i].framework, fw) && kb_in_range(version, r[i].version_min, r[i].version_max))
			json_array_append_new(a, json_pack("{s:s,s:s,s:o,s:o,s:s}", "platform", r[i].platform,
							   "cuda", r[i].cuda, "sass", words(r[i].sass), "ptx",
							   words(r[i].ptx), "source", r[i].source));
	return a;
}

/* ---- frameworks --------------------------------------------------------------- */

static json_t *
tf_release(const char *version)
{
	static const char *const plats[][2] = {
		{"linux", "gpu"}, {"linux", "cpu"}, {"windows", "gpu"}, {"windows", "cpu"}, {"macos", "cpu"},
	};
	const struct kb_tf_build *gpu = kb_tf_build(version, "linux", "gpu");
	const struct kb_tf_build *any = gpu ? gpu : kb_tf_build(version, "linux", "cpu");
	const struct kb_tf_feature *ft;
	const struct kb_tf_soname *so[64];
	const struct kb_tf_pin *pins;
	json_t *o, *platforms, *arr;
	size_t i, n;

	for (i = 1; !any && i < sizeof(plats) / sizeof(plats[0]); i++)
		any = kb_tf_build(version, plats[i][0], plats[i][1]);
	if (!any)
		return NULL;
	ft = kb_tf_features(any->version);
	o = json_pack("{s:s,s:s,s:o,s:o,s:o,s:o}", "framework", "tensorflow", "version", any->version,
		      "python", python_range(any->python_min, any->python_max), "cuda",
		      jstr(gpu ? gpu->cuda : NULL), "cudnn", jstr(gpu ? gpu->cudnn : NULL), "compiler",
		      jstr(any->compiler));
	json_object_set_new(o, "windows_native_gpu",
			    json_boolean(kb_tf_build(any->version, "windows", "gpu") != NULL ||
					 (ft && ft->windows_native_gpu)));
	json_object_set_new(o, "and_cuda_extra", json_boolean(ft && ft->and_cuda_extra));
	json_object_set_new(o, "cpu_isa", jstr(ft ? ft->cpu_isa : NULL));
	platforms = json_array();
	for (i = 0; i < sizeof(plats) / sizeof(plats[0]); i++) {
		const struct kb_tf_build *b = kb_tf_build(any->version, plats[i][0], plats[i][1]);
		if (!b)
			continue;
		json_array_append_new(platforms,
				      json_pack("{s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:s}", "platform", b->platform,
						"kind", b->kind, "version", b->version, "python",
						python_range(b->python_min, b->python_max), "cuda", jstr(b->cuda),
						"cudnn", jstr(b->cudnn), "compiler", jstr(b->compiler), "source",
						b->source));
	}
	json_object_set_new(o, "platforms", platforms);
	arr = json_array();
	pins = kb_tf_pins(any->version, &n);
	for (i = 0; pins && i < n; i++)
		json_array_append_new(arr, json_pack("{s:s,s:s}", "package", pins[i].package, "requirement",
						     pins[i].requirement));
	json_object_set_new(o, "and_cuda", arr);
	arr = json_array();
	n = kb_tf_sonames(any->version, so, sizeof(so) / sizeof(so[0]));
	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_pack("{s:s,s:s,s:o}", "library", so[i]->library, "linux",
						     so[i]->linux_soname, "windows", jstr(so[i]->windows_dll)));
	json_object_set_new(o, "libraries", arr);
	json_object_set_new(o, "gpu_code", gpu_code("tensorflow", any->version));
	json_object_set_new(o, "source", json_string(any->source));
	return o;
}

static json_t *
torch_release(const struct kb_torch_build *t, bool one)
{
	json_t *o = json_pack("{s:s,s:s,s:o,s:o,s:o,s:s}", "framework", "torch", "version", t->version,
			      "python", python_range(t->python_min, t->python_max), "cuda_variants",
			      words(t->cuda_variants), "cuda_default", jstr(t->cuda_default), "source",
			      t->source);
	if (one)
		json_object_set_new(o, "gpu_code", gpu_code("torch", t->version));
	return o;
}

static json_t *
jax_release(const struct kb_jax_build *j, bool one)
{
	json_t *o = json_pack("{s:s,s:s,s:o,s:o,s:o,s:o,s:s}", "framework", "jax", "version", j->version,
			      "python", python_range(j->python_min, j->python_max), "cuda_plugins",
			      words(j->cuda_plugins), "cuda_min", jstr(j->cuda_min), "cudnn_min",
			      jstr(j->cudnn_min), "source", j->source);
	if (one)
		json_object_set_new(o, "gpu_code", gpu_code("jax", j->version));
	return o;
}

static const char *
framework_name(const char *s)
{
	if (!strcasecmp(s, "tensorflow") || !strcasecmp(s, "tf") || !strcasecmp(s, "tensorflow-gpu") ||
	    !strcasecmp(s, "tensorflow-cpu"))
		return "tensorflow";
	if (!strcasecmp(s, "torch") || !strcasecmp(s, "pytorch"))
		return "torch";
	if (!strcasecmp(s, "jax") || !strcasecmp(s, "jaxlib"))
		return "jax";
	return NULL;
}

/* Every release of a framework, newest first. */
static json_t *
all_releases(const char *fw)
{
	json_t *a = json_array();
	size_t n, i;

	if (!strcmp(fw, "tensorflow")) {
		const struct kb_tf_build *r = kb_list_tf_builds(&n);
		/* rows are sorted by version: the first one met from the end
		 * stands for its release */
		for (i = n; i-- > 0;)
			if (i + 1 == n || strcmp(r[i].version, r[i + 1].version))
				json_array_append_new(a, tf_release(r[i].version));
	} else if (!strcmp(fw, "torch")) {
		const struct kb_torch_build *r = kb_list_torch_builds(&n);
		for (i = n; i-- > 0;)
			json_array_append_new(a, torch_release(&r[i], false));
	} else {
		const struct kb_jax_build *r = kb_list_jax_builds(&n);
		for (i = n; i-- > 0;)
			json_array_append_new(a, jax_release(&r[i], false));
	}
	return json_pack("{s:s,s:o}", "framework", fw, "releases", a);
}

static json_t *
framework_answer(const char *fw, const char *version)
{
	if (!version)
		return all_releases(fw);
	if (!strcmp(fw, "tensorflow"))
		return tf_release(version);
	if (!strcmp(fw, "torch")) {
		const struct kb_torch_build *t = kb_torch(version);
		return t ? torch_release(t, true) : NULL;
	}
	{
		const struct kb_jax_build *j = kb_jax(version);
		return j ? jax_release(j, true) : NULL;
	}
}

/* ---- newest framework releases under a CUDA ceiling ---------------------------- */

static json_t *
newest_frameworks(const char *max_cuda)
{
	const struct kb_tf_build *tf = kbq_newest_tf(max_cuda, "linux");
	const struct kb_jax_build *jx = kbq_newest_jax(max_cuda);
	char variant[16];
	const struct kb_torch_build *pt = kbq_newest_torch(max_cuda, variant, sizeof(variant));
	json_t *o = json_object();

	json_object_set_new(o, "tensorflow",
			    tf ? json_pack("{s:s,s:s,s:s}", "version", tf->version, "cuda", tf->cuda, "cudnn",
					   tf->cudnn)
			       : json_null());
	json_object_set_new(o, "torch",
			    pt ? json_pack("{s:s,s:s}", "version", pt->version, "cuda", variant) : json_null());
	json_object_set_new(o, "jax",
			    jx ? json_pack("{s:s,s:o,s:o}", "version", jx->version, "cuda_min",
					   jstr(jx->cuda_min), "cuda_plugins", words(jx->cuda_plugins))
			       : json_null());
	return o;
}

/* ---- --driver ----------------------------------------------------------------- */

static json_t *
driver_answer(const char *driver)
{
	char max[16], major_compat[16] = "";
	const struct kb_cuda_driver *rows;
	size_t n, i;
	json_t *o;

	if (kb_driver_max_cuda(driver, max, sizeof(max)) < 0)
		return NULL;
	/* minor-version compatibility: the newest CUDA release of a major whose
	 * compatibility minimum this driver meets */
	rows = kb_list_cuda_driver(&n);
	for (i = 0; i < n; i++)
		if (rows[i].linux_minor_compat[0] && vers_cmp(driver, rows[i].linux_minor_compat) >= 0)
			STR_COPY(major_compat, rows[i].cuda);
	o = json_pack("{s:s,s:s,s:o,s:o}", "driver", driver, "max_cuda", max, "max_cuda_minor_compat",
		      jstr(major_compat), "frameworks", newest_frameworks(max));
	return o;
}

/* ---- --gpu -------------------------------------------------------------------- */

/* The newest release of each framework that runs on GPU g, and how: the
 * plan's decision (plan/plan.h) for a Linux machine with that GPU and a
 * current driver. */
static json_t *
gpu_frameworks(const struct kb_gpu *g)
{
	static struct plan p;
	struct plan_machine m;
	json_t *o = json_object();
	int fw;

	memset(&m, 0, sizeof(m));
	m.gpu_present = m.gpu_known = true;
	m.cpu_avx = -1;
	m.os = PLAN_OS_LINUX;
	STR_COPY(m.gpu_name, g->name);
	STR_COPY(m.compute_capability, g->compute_capability);
	for (fw = PLAN_TF; fw <= PLAN_JAX; fw++) {
		json_t *x;

		if (plan_make(&m, fw, NULL, &p) != 0 || !p.ok) {
			json_object_set_new(o, plan_fw_name(fw), json_null());
			continue;
		}
		x = json_pack("{s:s,s:o,s:o,s:o,s:s,s:o}", "version", p.version, "cuda", jstr(p.cuda),
			      "variant", jstr(p.variant), "cudnn", jstr(p.cudnn), "runs",
			      p.runs[0] ? p.runs : "unknown", "via", jstr(p.runs_via));
		if (fw == PLAN_JAX)
			json_object_set_new(x, "cuda_min", jstr(p.cuda)); /* the plugin's */
		json_object_set_new(o, plan_fw_name(fw), x);
	}
	return o;
}

static json_t *
gpu_json(const struct kb_gpu *g)
{
	const struct kb_arch *a = kb_arch_by_cc(g->compute_capability);
	const char *cuda_max = a && a->cuda_max[0] ? a->cuda_max : NULL;
	char id[16];
	json_t *o;

	STR_FMT(id, "0x%04x", g->device_id);
	o = json_pack("{s:s,s:s,s:s,s:s,s:o,s:s}", "name", g->name, "device_id", id, "architecture",
		      g->architecture, "compute_capability", g->compute_capability, "memory_mib",
		      g->memory_mib ? json_integer(g->memory_mib) : json_null(), "segment", g->segment);
	json_object_set_new(o, "peak", json_pack("{s:o,s:o,s:o}", "fp32_tflops", jstr(g->fp32_tflops),
						 "fp16_tensor_tflops", jstr(g->fp16_tensor_tflops),
						 "mem_bw_gbs", jstr(g->mem_bw_gbs)));
	json_object_set_new(o, "cuda_min", jstr(a ? a->cuda_min : NULL));
	json_object_set_new(o, "cuda_max", jstr(cuda_max));
	json_object_set_new(o, "driver_last_branch", jstr(a ? a->driver_last_branch : NULL));
	json_object_set_new(o, "tegra", json_boolean(a && a->tegra));
	json_object_set_new(o, "frameworks", gpu_frameworks(g));
	json_object_set_new(o, "source", json_string(g->source));
	return o;
}

/* The answer for --gpu; NULL with err set when no GPU matches, and
 * *ambiguous set (the candidates already on stderr) when several do. */
static json_t *
gpu_answer(const char *query, char *err, size_t errsize, bool *ambiguous)
{
	struct kbq_gpu_match m;
	json_t *o, *ids;
	size_t i;
	int r = kbq_gpu_resolve(query, &m);

	*ambiguous = false;
	if (r == KBQ_GPU_AMBIGUOUS) {
		*ambiguous = true;
		cli_gpu(query); /* says which */
		return NULL;
	}
	if (r != KBQ_GPU_FOUND) {
		if (m.by_id)
			snprintf(err, errsize, "no GPU with PCI device id %s in the knowledge base", query);
		else
			snprintf(err, errsize, "no GPU named like '%s' in the knowledge base", query);
		return NULL;
	}
	o = gpu_json(m.gpu);
	/* the same model under other PCI ids */
	ids = json_array();
	for (i = 0; i < m.n; i++)
		if (m.cands[i] != m.gpu) {
			char idb[16];
			STR_FMT(idb, "0x%04x", m.cands[i]->device_id);
			json_array_append_new(ids, json_string(idb));
		}
	json_object_set_new(o, "other_device_ids", ids);
	return o;
}

/* ---- --cuda ------------------------------------------------------------------- */

static json_t *
cuda_answer(const char *cuda)
{
	const struct kb_cuda_driver *d = kb_cuda_driver(cuda);
	const struct kb_cudnn_cuda *cd;
	const struct kb_tf_build *tf;
	const struct kb_torch_build *pt;
	const struct kb_jax_build *jx;
	json_t *o, *cudnn, *tfs, *pts, *jxs;
	size_t n, i;

	if (!d)
		return NULL;
	o = json_pack("{s:s,s:{s:o,s:o,s:o,s:o}}", "cuda", d->cuda, "min_driver", "linux",
		      jstr(d->linux_min), "linux_minor_compat", jstr(d->linux_minor_compat), "windows",
		      jstr(d->windows_min), "windows_minor_compat", jstr(d->windows_minor_compat));
	json_object_set_new(o, "ptx_isa", jstr(d->ptx_isa));
	cudnn = json_array();
	cd = kb_list_cudnn_cuda(&n);
	for (i = 0; i < n; i++)
		if (kb_in_range(d->cuda, cd[i].cuda_min, cd[i].cuda_max[0] ? cd[i].cuda_max : NULL) &&
		    (!json_array_size(cudnn) ||
		     strcmp(json_string_value(json_array_get(cudnn, json_array_size(cudnn) - 1)), cd[i].cudnn)))
			json_array_append_new(cudnn, json_string(cd[i].cudnn));
	json_object_set_new(o, "cudnn", cudnn);
	tfs = json_array();
	tf = kb_list_tf_builds(&n);
	for (i = 0; i < n; i++)
		if (!strcmp(tf[i].kind, "gpu") && !strcmp(tf[i].platform, "linux") &&
		    kbq_cuda_matches(tf[i].cuda, d->cuda))
			json_array_append_new(tfs, json_pack("{s:s,s:s}", "version", tf[i].version, "cudnn",
							     tf[i].cudnn));
	pts = json_array();
	pt = kb_list_torch_builds(&n);
	for (i = 0; i < n; i++) {
		char w[16];
		size_t k;
		for (k = 0; kb_word(pt[i].cuda_variants, k, w, sizeof(w)) == 0; k++)
			if (kbq_cuda_matches(w, d->cuda))
				json_array_append_new(pts, json_string(pt[i].version));
	}
	jxs = json_array();
	jx = kb_list_jax_builds(&n);
	for (i = 0; i < n; i++) {
		char plugin[16];
		int major = vers_to_cuda_int(d->cuda) / 1000;
		STR_FMT(plugin, "cuda%d", major);
		if (kb_has_word(jx[i].cuda_plugins, plugin) &&
		    (!jx[i].cuda_min[0] || vers_cmp(jx[i].cuda_min, d->cuda) <= 0))
			json_array_append_new(jxs, json_string(jx[i].version));
	}
	json_object_set_new(o, "frameworks",
			    json_pack("{s:o,s:o,s:o}", "tensorflow", tfs, "torch", pts, "jax", jxs));
	json_object_set_new(o, "source", json_string(d->source));
	return o;
}

/* ---- --kb-info ---------------------------------------------------------------- */

static json_t *
kb_info_answer(void)
{
	json_t *a = json_array();
	int t;

	for (t = 0; t < KB_NTABLES; t++) {
		struct kb_info in;
		if (kb_info((enum kb_table)t, &in) < 0)
			continue;
		json_array_append_new(a, json_pack("{s:s,s:s,s:I,s:o,s:s}", "table", in.table, "file", in.file,
						   "rows", (json_int_t)in.rows, "newest", jstr(in.newest),
						   "from", in.loaded ? in.dir : "built-in"));
	}
	return json_pack("{s:o}", "tables", a);
}

/* ---- the command ---------------------------------------------------------------- */

enum { OPT_JSON = 256, OPT_DRIVER, OPT_GPU, OPT_CUDA, OPT_KB_INFO, OPT_KB };

static const struct option compat_options[] = {
	{"json", no_argument, NULL, OPT_JSON},
	{"driver", required_argument, NULL, OPT_DRIVER},
	{"gpu", required_argument, NULL, OPT_GPU},
	{"cuda", required_argument, NULL, OPT_CUDA},
	{"kb-info", no_argument, NULL, OPT_KB_INFO},
	{"kb", required_argument, NULL, OPT_KB},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static bool
is_version(const char *s)
{
	int v[4];

	return vers_parse(s, v, 4) >= 1 && strspn(s, "0123456789.") == strlen(s);
}

int
cmd_compat(int argc, char **argv)
{
	const char *driver = NULL, *gpu = NULL, *cuda = NULL, *kbdir = NULL;
	bool json = false, info = false;
	char err[512] = "";
	json_t *answer = NULL;
	int c, asked = 0, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", compat_options, NULL)) != -1) {
		switch (c) {
		case OPT_JSON:
			json = true;
			break;
		case OPT_DRIVER:
			driver = optarg;
			asked++;
			break;
		case OPT_GPU:
			gpu = optarg;
			asked++;
			break;
		case OPT_CUDA:
			cuda = optarg;
			asked++;
			break;
		case OPT_KB_INFO:
			info = true;
			asked++;
			break;
		case OPT_KB:
			kbdir = optarg;
			break;
		case 'h':
			compat_usage(stdout);
			return EXIT_HEALTHY;
		default:
			cli_option_error("compat", c, argv);
			return EXIT_TOOL_FAILED;
		}
	}
	if (optind < argc)
		asked++;
	if (gpu && optind < argc) {
		fprintf(stderr, "gpudoctor: quote a GPU name that has spaces: --gpu \"%s %s\"\n", gpu,
			argv[optind]);
		return EXIT_TOOL_FAILED;
	}
	if (asked != 1 || argc - optind > 2) {
		fprintf(stderr, "gpudoctor: compat wants one question: FRAMEWORK [VERSION], --driver, "
				"--gpu, --cuda or --kb-info\nrun 'gpudoctor compat --help' for the options\n");
		return EXIT_TOOL_FAILED;
	}
	if (kbdir && kb_load_dir(kbdir, err, sizeof(err)) < 0) {
		fprintf(stderr, "gpudoctor: --kb '%s': %s\n", kbdir, err);
		return EXIT_TOOL_FAILED;
	}
	if (optind < argc) {
		const char *fw = framework_name(argv[optind]);
		const char *version = argc - optind == 2 ? argv[optind + 1] : NULL;
		/* "tensorflow==2.13" and "torch 2.5.1" both work */
		char name[64], ver[64] = "";
		const char *eq = strstr(argv[optind], "==");
		if (eq) {
			str_copy(name, sizeof(name), argv[optind]);
			name[eq - argv[optind]] = '\0';
			STR_COPY(ver, eq + 2);
			fw = framework_name(name);
			version = ver;
		}
		if (!fw) {
			fprintf(stderr, "gpudoctor: unknown framework '%s': tensorflow, torch or jax\n",
				argv[optind]);
			return EXIT_TOOL_FAILED;
		}
		if (version && !is_version(version)) {
			fprintf(stderr, "gpudoctor: '%s' is not a version (like 2.13 or 2.5.1)\n", version);
			return EXIT_TOOL_FAILED;
		}
		answer = framework_answer(fw, version);
		if (!answer)
			snprintf(err, sizeof(err), "the knowledge base has no %s %s", fw, version);
	} else if (driver) {
		if (!is_version(driver)) {
			fprintf(stderr, "gpudoctor: --driver wants a driver version like 470.82.01\n");
			return EXIT_TOOL_FAILED;
		}
		answer = driver_answer(driver);
		if (!answer)
			snprintf(err, sizeof(err), "driver %s is older than every CUDA release in the knowledge base",
				 driver);
	} else if (gpu) {
		bool ambiguous;

		answer = gpu_answer(gpu, err, sizeof(err), &ambiguous);
		if (ambiguous) {
			kb_reset();
			return EXIT_TOOL_FAILED;
		}
	} else if (cuda) {
		if (!is_version(cuda)) {
			fprintf(stderr, "gpudoctor: --cuda wants a CUDA version like 11.8\n");
			return EXIT_TOOL_FAILED;
		}
		answer = cuda_answer(cuda);
		if (!answer)
			snprintf(err, sizeof(err), "the knowledge base has no CUDA %s", cuda);
	} else if (info) {
		answer = kb_info_answer();
	}
	if (!answer) {
		if (json) {
			json_t *e = json_pack("{s:s}", "error", err);
			json_dumpf(e, stdout, JSON_INDENT(2));
			fputc('\n', stdout);
			json_decref(e);
		} else
			fprintf(stderr, "gpudoctor: %s\n", err);
		kb_reset();
		return EXIT_WARNINGS;
	}
	if (json) {
		rc = json_dumpf(answer, stdout, JSON_INDENT(2) | JSON_ENSURE_ASCII);
		fputc('\n', stdout);
	} else {
		rc = compat_render_text(stdout, answer, render_want_color("auto", stdout));
	}
	json_decref(answer);
	kb_reset();
	if (fflush(stdout) != 0 || rc < 0) {
		fprintf(stderr, "gpudoctor: cannot write the answer\n");
		return EXIT_TOOL_FAILED;
	}
	return EXIT_HEALTHY;
}
