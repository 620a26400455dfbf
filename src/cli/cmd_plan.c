/*
 * cmd_plan.c - `gpudoctor plan FRAMEWORK[==VERSION]`: the install steps that
 * will work on this machine, or why none can. The machine comes from the
 * probes (as doctor runs them, plus the default python3's version), from a
 * facts document (--from), or from the command line (--driver, --gpu,
 * --python, --os override either; --no-probe uses them alone, and --gpu or
 * --os without --from or --root imply it: they describe another machine). The
 * decision is plan/plan.c's; the steps and layout render/plan_text.c's.
 */
#include "cli/command.h"
#include "base/buf.h"
#include "base/str.h"
#include "base/vers.h"
#include "diag/fix.h"
#include "diag/rule.h"
#include "kb/kb.h"
#include "kb/kb_query.h"
#include "plan/plan.h"
#include "probe/probe.h"
#include "probe/pyver.h"
#include "render/plan_text.h"
#include "render/facts_json.h"
#include "render/render.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>
#include <unistd.h>

static void
plan_usage(FILE *out)
{
	fprintf(out,
		"usage: gpudoctor plan FRAMEWORK[==VERSION] [OPTIONS]\n\n"
		"The newest release of FRAMEWORK (tensorflow, torch or jax) that can run on\n"
		"this machine's GPU, driver, Python, OS and CPU, why each newer one cannot,\n"
		"and the exact steps to install it; with ==VERSION, whether that release\n"
		"can. When none can, what to change first.\n\n"
		"The machine (default: probe this one, as `gpudoctor doctor` does):\n"
		"  --from FILE          use facts recorded by `gpudoctor doctor --json`\n"
		"  --root DIR           probe the files under DIR instead of / (fixtures, disk\n"
		"                       images): read only, nothing in it is loaded or run\n"
		"  --load-root          with --root: load its libraries, as on a machine\n"
		"  --no-probe           look at nothing here: use only the options below\n"
		"                       (implied by --gpu and --os without --from or --root:\n"
		"                       they describe another machine)\n"
		"  --driver VERSION     the NVIDIA driver (470.82.01), or none\n"
		"  --gpu NAME|ID        the GPU by name (\"RTX 3050\") or PCI device id (0x2507),\n"
		"                       or none\n"
		"  --python VERSION     the Python to install for: a version (3.12), or the\n"
		"                       path of an environment or interpreter, as in doctor\n"
		"  --os OS              linux, wsl2, windows or macos\n"
		"  --strict-driver      require each CUDA's own minimum driver; never rely on\n"
		"                       CUDA minor-version compatibility\n"
		"  --timeout SECONDS    limit for each probe child that loads vendor code (5)\n"
		"  --no-load            probe files only, never load vendor libraries\n\n"
		"Output:\n"
		"  --format FORMAT      pip (default: a venv and pip commands), conda,\n"
		"                       docker (a Dockerfile from the official image) or\n"
		"                       requirements (requirements.txt lines)\n"
		"  --json               the plan as JSON\n"
		"  --kb DIR             use the knowledge-base tables in DIR (data/kb format)\n"
		"  --color WHEN         auto (default), always or never\n"
		"  -h, --help           show this help\n\n"
		"Exit status: 0 a plan exists, 2 no release can work here (what to change is\n"
		"printed), 3 bad usage or unreadable input.\n");
}

enum {
	OPT_JSON = 256, OPT_FROM, OPT_ROOT, OPT_NO_PROBE, OPT_DRIVER, OPT_GPU, OPT_PYTHON, OPT_OS,
	OPT_STRICT, OPT_FORMAT, OPT_KB, OPT_COLOR, OPT_TIMEOUT, OPT_NO_LOAD, OPT_LOAD_ROOT,
};

static const struct option plan_options[] = {
	{"json", no_argument, NULL, OPT_JSON},
	{"from", required_argument, NULL, OPT_FROM},
	{"root", required_argument, NULL, OPT_ROOT},
	{"no-probe", no_argument, NULL, OPT_NO_PROBE},
	{"driver", required_argument, NULL, OPT_DRIVER},
	{"gpu", required_argument, NULL, OPT_GPU},
	{"python", required_argument, NULL, OPT_PYTHON},
	{"os", required_argument, NULL, OPT_OS},
	{"strict-driver", no_argument, NULL, OPT_STRICT},
	{"timeout", required_argument, NULL, OPT_TIMEOUT},
	{"no-load", no_argument, NULL, OPT_NO_LOAD},
	{"load-root", no_argument, NULL, OPT_LOAD_ROOT},
	{"format", required_argument, NULL, OPT_FORMAT},
	{"kb", required_argument, NULL, OPT_KB},
	{"color", required_argument, NULL, OPT_COLOR},
	{"colour", required_argument, NULL, OPT_COLOR},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct plan_args {
	const char *from, *root, *driver, *gpu, *python, *os, *kbdir, *color;
	bool json, no_probe, strict, no_load, load_root;
	bool described;          /* --gpu or --os without --from/--root: not probed */
	int timeout_ms;
	int format;
	int fw;
	char want[32];
	char python_version[16]; /* --python PATH: the version found in it */
};

static bool
is_version(const char *s)
{
	int v[4];

	return vers_parse(s, v, 4) >= 1 && strspn(s, "0123456789.") == strlen(s);
}

/* --gpu: by id or name, into the machine and the facts (for the driver fix). */
static int
apply_gpu(const char *q, struct plan_machine *m, struct facts *f)
{
	const struct kb_gpu *g;

	m->gpu_known = true;
	if (!strcasecmp(q, "none")) {
		m->gpu_present = false;
		m->gpu_name[0] = m->compute_capability[0] = '\0';
		f->ngpus = 0;
		return 0;
	}
	if (!(g = cli_gpu(q)))
		return -1;
	m->gpu_present = true;
	STR_COPY(m->gpu_name, g->name);
	STR_COPY(m->compute_capability, g->compute_capability);
	f->ngpus = 1;
	gpu_facts_init(&f->gpus[0]);
	f->gpus[0].vendor = 0x10de;
	f->gpus[0].device = g->device_id;
	STR_COPY(f->gpus[0].name, g->name);
	STR_COPY(f->gpus[0].compute_capability, g->compute_capability);
	return 0;
}

/* The Python version of an environment or interpreter PATH (--python PATH):
 * its pyvenv.cfg, its conda record, or the pythonX.Y its python3 leads to.
 * 0, or -1 after a message. */
static int
python_path_version(const char *arg, char *out, size_t size)
{
	char real[F_PATH], prefix[F_PATH], bin[F_PATH + 8], cfg[F_PATH + 16];
	struct stat st;
	struct pyver pv;
	char *slash;

	if (!realpath(arg, real) || stat(real, &st) < 0) {
		fprintf(stderr, "gpudoctor: --python '%s': %s (a version like 3.12, or a Python environment or "
				"interpreter)\n", arg, strerror(errno));
		return -1;
	}
	/* the path as given (a venv's python3 is a link out of the venv) */
	if (arg[0] == '/' || !getcwd(prefix, sizeof(prefix)))
		STR_COPY(real, arg);
	else if (snprintf(real, sizeof(real), "%s/%s", prefix, arg) >= (int)sizeof(real))
		STR_COPY(real, arg);
	if (S_ISDIR(st.st_mode)) {
		STR_COPY(prefix, real);
		snprintf(bin, sizeof(bin), "%s/bin", real);
	} else {
		STR_COPY(bin, real);
		if ((slash = strrchr(bin, '/')))
			*slash = 0;
		STR_COPY(prefix, bin);
		if ((slash = strrchr(prefix, '/')) && !strcmp(slash, "/bin"))
			*slash = 0;
	}
	snprintf(cfg, sizeof(cfg), "%s/pyvenv.cfg", prefix);
	if (pyver_from_cfg(cfg, out, size) || pyver_from_conda_meta(prefix, out, size))
		return 0;
	/* the python3 of that bin directory, its symlinks followed */
	struct pyver_env pe = {.path = bin};
	if (pyver_probe(&pe, &pv) == 0 && pv.version[0]) {
		str_copy(out, size, pv.version);
		return 0;
	}
	fprintf(stderr, "gpudoctor: --python '%s': no Python version found there (give a version like 3.12)\n",
		arg);
	return -1;
}

static int
parse_args(int argc, char **argv, struct plan_args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	a->color = "auto";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", plan_options, NULL)) != -1) {
		switch (c) {
		case OPT_JSON: a->json = true; break;
		case OPT_FROM: a->from = optarg; break;
		case OPT_ROOT: a->root = optarg; break;
		case OPT_NO_PROBE: a->no_probe = true; break;
		case OPT_DRIVER: a->driver = optarg; break;
		case OPT_GPU: a->gpu = optarg; break;
		case OPT_PYTHON: a->python = optarg; break;
		case OPT_OS: a->os = optarg; break;
		case OPT_STRICT: a->strict = true; break;
		case OPT_NO_LOAD: a->no_load = true; break;
		case OPT_LOAD_ROOT: a->load_root = true; break;
		case OPT_TIMEOUT:
			if (cli_timeout_ms(optarg, &a->timeout_ms) < 0)
				return -1;
			break;
		case OPT_KB: a->kbdir = optarg; break;
		case OPT_COLOR:
			if (cli_color(optarg) < 0)
				return -1;
			a->color = optarg;
			break;
		case OPT_FORMAT:
			a->format = plan_format_parse(optarg);
			if (a->format < 0) {
				fprintf(stderr, "gpudoctor: --format wants pip, conda, docker or requirements, "
						"not '%s'\n", optarg);
				return -1;
			}
			break;
		case 'h':
			plan_usage(stdout);
			return 1;
		default:
			cli_option_error("plan", c, argv);
			return -1;
		}
	}
	if (optind >= argc || argc - optind > 2) {
		fprintf(stderr, "gpudoctor: plan wants one framework: tensorflow, torch or jax "
				"(with ==VERSION for one release)\nrun 'gpudoctor plan --help' for the options\n");
		return -1;
	}
	{
		char name[64];
		const char *eq = strstr(argv[optind], "==");
		STR_COPY(name, argv[optind]);
		if (eq) {
			name[eq - argv[optind]] = '\0';
			STR_COPY(a->want, eq + 2);
		} else if (argc - optind == 2) {
			STR_COPY(a->want, argv[optind + 1]);
		}
		a->fw = plan_fw_parse(name);
		if (a->fw < 0) {
			fprintf(stderr, "gpudoctor: unknown framework '%s': tensorflow, torch or jax\n", name);
			return -1;
		}
	}
	if (a->want[0] && !is_version(a->want)) {
		fprintf(stderr, "gpudoctor: '%s' is not a version (like 2.15 or 2.5.1)\n", a->want);
		return -1;
	}
	if (a->driver && strcasecmp(a->driver, "none") && !is_version(a->driver)) {
		fprintf(stderr, "gpudoctor: --driver wants a driver version like 470.82.01, or none\n");
		return -1;
	}
	if (a->python && !is_version(a->python)) {
		/* a path, as doctor takes it: the environment's own version */
		if (python_path_version(a->python, a->python_version, sizeof(a->python_version)) < 0)
			return -1;
		a->python = a->python_version;
	}
	if (a->os && plan_os_parse(a->os) < 0) {
		fprintf(stderr, "gpudoctor: --os wants linux, wsl2, windows or macos, not '%s'\n", a->os);
		return -1;
	}
	if (a->load_root && !a->root) {
		fprintf(stderr, "gpudoctor: --load-root goes with --root\n");
		return -1;
	}
	if ((a->from && a->root) || (a->no_probe && (a->from || a->root))) {
		fprintf(stderr, "gpudoctor: --from, --root and --no-probe exclude each other\n");
		return -1;
	}
	/* a GPU or an OS given: another machine, so nothing of this one */
	if ((a->gpu || a->os) && !a->from && !a->root && !a->no_probe) {
		a->no_probe = true;
		a->described = true;
	}
	return 0;
}

/* Fill the facts: loaded, probed, or left empty. */
static int
gather(const struct plan_args *a, struct facts *f, struct plan_machine *m)
{
	struct probe_opts po = {.timeout_ms = a->timeout_ms > 0 ? a->timeout_ms : 5000,
				.no_driver_calls = a->no_load, .load_root = a->load_root};
	struct pyver pv;

	facts_init(f);
	memset(m, 0, sizeof(*m));
	m->cpu_avx = -1;
	if (a->from) {
		if (cli_facts(a->from, NULL, &po, f) < 0)
			return -1;
		if (!a->json)
			facts_clean_text(f);
		plan_machine_from_facts(f, m);
	} else if (!a->no_probe) {
		if (cli_facts(NULL, a->root, &po, f) < 0)
			return -1;
		if (!a->json)
			facts_clean_text(f);
		plan_machine_from_facts(f, m);
		char cwd[F_PATH];
		struct pyver_env pe = {
			.path = getenv("PATH"), .virtual_env = getenv("VIRTUAL_ENV"),
			.conda_prefix = getenv("CONDA_PREFIX"), .pyenv_version = getenv("PYENV_VERSION"),
			.cwd = getcwd(cwd, sizeof(cwd)),
		};
		if (pyver_probe(&pe, &pv) == 0) {
			STR_COPY(m->python, pv.version);
			STR_COPY(m->python3, pv.version);
		}
	}
	if (a->driver) {
		str_copy(m->driver, sizeof(m->driver), strcasecmp(a->driver, "none") ? a->driver : "");
		m->driver_unknown = false;
	}
	if (a->gpu && apply_gpu(a->gpu, m, f) < 0)
		return -1;
	if (a->python)
		STR_COPY(m->python, a->python);
	if (a->os)
		m->os = plan_os_parse(a->os);
	m->strict_driver = a->strict;
	m->described = a->described;
	return 0;
}

/* What doctor says must be fixed first: its errors on the same facts
 * (nouveau, a module not loaded, a library mismatch...), which no install
 * step of the plan would cure. */
static json_t *
prerequisites(const struct findings *fs, bool driver_given)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < fs->n; i++) {
		const struct finding *fi = &fs->v[i];
		if (fi->severity != SEV_ERROR || !strcmp(fi->id, "hw.no_nvidia_gpu"))
			continue;
		/* --driver replaces this machine's driver: its findings are moot */
		if (driver_given && (str_starts(fi->id, "driver.") || str_starts(fi->id, "lib.toolkit")))
			continue;
		json_array_append_new(a, json_pack("{s:s,s:s,s:s,s:o}", "id", fi->id, "severity",
						   severity_name(fi->severity), "title", fi->title, "fix",
						   fi->fix ? json_string(fi->fix) : json_null()));
	}
	return a;
}

static void
prerequisites_text(FILE *out, json_t *pre)
{
	size_t i;

	if (!json_array_size(pre))
		return;
	fprintf(out, "Fix first: gpudoctor doctor finds %zu error%s on this machine that no install\n"
		     "step below cures (`gpudoctor doctor` shows the evidence and the fix):\n",
		json_array_size(pre), json_array_size(pre) == 1 ? "" : "s");
	for (i = 0; i < json_array_size(pre); i++) {
		json_t *o = json_array_get(pre, i);
		fprintf(out, "  %s: %s\n", json_string_value(json_object_get(o, "id")),
			json_string_value(json_object_get(o, "title")));
	}
	fputc('\n', out);
}

int
cmd_plan(int argc, char **argv)
{
	struct plan_args a;
	struct plan_machine m;
	struct plan_steps st;
	struct plan *p = NULL;
	struct facts *f = NULL;
	struct findings fs;
	json_t *pre = NULL;
	struct buf fixb;
	int rc, prc, i;
	bool want_fix = false;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc > 0 ? EXIT_HEALTHY : EXIT_TOOL_FAILED;
	if (a.kbdir) {
		char err[512];
		if (kb_load_dir(a.kbdir, err, sizeof(err)) < 0) {
			fprintf(stderr, "gpudoctor: --kb '%s': %s\n", a.kbdir, err);
			return EXIT_TOOL_FAILED;
		}
	}
	buf_init_cap(&fixb, 1 << 16);
	findings_init(&fs);
	f = malloc(sizeof(*f));
	p = malloc(sizeof(*p));
	if (!f || !p) {
		fprintf(stderr, "gpudoctor: out of memory\n");
		rc = EXIT_TOOL_FAILED;
		goto out;
	}
	if (gather(&a, f, &m) < 0) {
		rc = EXIT_TOOL_FAILED;
		goto out;
	}
	prc = plan_make(&m, a.fw, a.want, p);
	if (prc < 0) {
		fprintf(stderr, "gpudoctor: the knowledge base has no %s %s\n", plan_fw_name(a.fw), a.want);
		rc = EXIT_TOOL_FAILED;
		goto out;
	}
	want_fix = p->need_driver_install;
	for (i = 0; i < p->nblockers; i++)
		if (p->blockers[i].why & WHY_DRIVER)
			want_fix = true;
	/* distro commands only where the distro is known (not with --no-probe) */
	if (want_fix && m.os == PLAN_OS_LINUX && f->host.valid)
		fix_install_driver(&fixb, f);
	if (p->ok)
		plan_steps_make(p, &m, a.format, fixb.len ? fixb.s : NULL, &st);
	if (a.from || !a.no_probe)
		rules_run(f, &fs);
	pre = prerequisites(&fs, a.driver != NULL);
	if (a.json) {
		json_t *o = plan_to_json(p, &m, a.format, p->ok ? &st : NULL, fixb.s);
		json_object_set(o, "prerequisites", pre);
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_ENSURE_ASCII);
		fputc('\n', stdout);
		json_decref(o);
	} else {
		prerequisites_text(stdout, pre);
		plan_render_text(stdout, p, &m, a.format, p->ok ? &st : NULL, fixb.s,
				 render_want_color(a.color, stdout));
	}
	if (p->ok)
		plan_steps_release(&st);
	rc = p->ok ? EXIT_HEALTHY : EXIT_ERRORS;
	if (fflush(stdout) != 0) {
		fprintf(stderr, "gpudoctor: cannot write the plan\n");
		rc = EXIT_TOOL_FAILED;
	}
out:
	json_decref(pre);
	findings_release(&fs);
	buf_release(&fixb);
	free(p);
	free(f);
	kb_reset();
	return rc;
}
