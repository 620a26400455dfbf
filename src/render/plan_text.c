/*
 * plan_text.c - install steps for a plan, and the plan as text and JSON.
 *
 * Where each command form comes from:
 *  - TensorFlow: tensorflow.org/install/pip (venv; `tensorflow[and-cuda]`
 *    from 2.14; the 2.12 edition's conda recipe: cudatoolkit=11.8.0 and
 *    nvidia-cudnn-cu11==8.6.0.163 with LD_LIBRARY_PATH set in the env's
 *    activate.d; native Windows: `conda install -c conda-forge
 *    cudatoolkit=11.2 cudnn=8.1.0` then `tensorflow<2.11`), the separate
 *    `tensorflow-gpu` package before 2.1, and tensorflow.org/install/docker
 *    (tags `X.Y.Z-gpu`; `-py3` variants before 2.2).
 *  - PyTorch: pytorch.org/get-started/previous-versions (pytorch.github.io
 *    `_get_started/previous-versions.md`): `--index-url
 *    https://download.pytorch.org/whl/cuXYZ` from 2.0, `+cuXYZ` with
 *    `--extra-index-url` for 1.11-1.13, `-f .../whl/torch_stable.html`
 *    before; conda `pytorch-cuda=X.Y -c pytorch -c nvidia` for 1.13-2.5
 *    (no conda packages after 2.5). Docker tags
 *    `V-cudaX.Y-cudnnN-runtime` from .github/workflows/docker-release.yml
 *    and generate_docker_release_matrix.py (one image per CUDA variant;
 *    cuDNN 9 from 2.4).
 *  - JAX: CHANGELOG and installation docs: `jax[cuda12]` plugin wheels
 *    (from 0.4.26), `jax[cudaNN_pip]` with `-f jax_cuda_releases.html`
 *    before, `jax[cuda11_cudnn82]` for 0.4.1-0.4.6; no official Docker
 *    image (python:X.Y-slim plus pip: the wheels bring CUDA).
 */
#include "render/plan_text.h"
#include "render/wrap.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"
#include "kb/kb_query.h"

#include <stdlib.h>
#include <string.h>

#define CUDA_ARCHIVE "https://developer.nvidia.com/cuda-toolkit-archive"
#define CUDNN_ARCHIVE "https://developer.nvidia.com/rdp/cudnn-archive"
#define TORCH_WHL "https://download.pytorch.org/whl"
#define JAX_FIND "https://storage.googleapis.com/jax-releases/jax_cuda_releases.html"

static const char *const fmt_names[] = {"pip", "conda", "docker", "requirements"};

int
plan_format_parse(const char *s)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, fmt_names[i]))
			return i;
	if (!strcmp(s, "requirements.txt") || !strcmp(s, "req"))
		return PLAN_FMT_REQUIREMENTS;
	if (!strcmp(s, "dockerfile"))
		return PLAN_FMT_DOCKER;
	return -1;
}

const char *
plan_format_name(int f)
{
	return f >= 0 && f < 4 ? fmt_names[f] : "?";
}

static bool
vge(const char *v, const char *w)
{
	return vers_cmp(v, w) >= 0;
}

/* A package specifier quoted for the target shell. */
static void
add_spec(struct buf *b, const char *spec, bool win)
{
	if (!win) {
		buf_add_shquoted(b, spec);
		return;
	}
	if (strpbrk(spec, "<>[]|&^ "))
		buf_addf(b, "\"%s\"", spec);
	else
		buf_adds(b, spec);
}

/* ---- what pip installs ---------------------------------------------------------- */

/* The package specifiers and pip options for the framework, for a command
 * line (req=false) or for requirements.txt lines (req=true: options on
 * lines of their own, first). */
struct pkg {
	char spec[96];               /* "tensorflow[and-cuda]==2.15.0" */
	char extra[96];              /* "nvidia-cudnn-cu11==8.6.0.163" or "" */
	char opt[24];                /* "--index-url", "--extra-index-url", "-f", "" */
	char url[128];
};

static void
tf_pkg(const struct plan *p, struct pkg *k)
{
	const char *name = p->gpu && !vge(p->version, "2.1") ? "tensorflow-gpu" : "tensorflow";

	if (p->and_cuda)
		STR_FMT(k->spec, "tensorflow[and-cuda]==%s", p->version);
	else
		STR_FMT(k->spec, "%s==%s", name, p->version);
}

static void
torch_pkg(const struct plan *p, struct pkg *k, bool req)
{
	const struct kb_torch_build *t = kb_torch(p->version);
	char tag[16];

	if (p->gpu)
		plan_cuda_tag(p->variant, tag, sizeof(tag));
	else
		STR_COPY(tag, "cpu");
	if (p->os == PLAN_OS_MACOS) {
		STR_FMT(k->spec, "torch==%s", p->version);
		return;
	}
	if (vge(p->version, "2.0")) {
		if (req) {
			STR_FMT(k->spec, "torch==%s+%s", p->version, tag);
			STR_COPY(k->opt, "--extra-index-url");
		} else {
			STR_FMT(k->spec, "torch==%s", p->version);
			STR_COPY(k->opt, "--index-url");
		}
		STR_FMT(k->url, TORCH_WHL "/%s", tag);
	} else if (vge(p->version, "1.11")) {
		STR_FMT(k->spec, "torch==%s+%s", p->version, tag);
		STR_COPY(k->opt, "--extra-index-url");
		STR_FMT(k->url, TORCH_WHL "/%s", tag);
	} else if (p->gpu && t && kbq_cuda_matches(t->cuda_default, p->variant)) {
		STR_FMT(k->spec, "torch==%s", p->version);
	} else {
		STR_FMT(k->spec, "torch==%s+%s", p->version, tag);
		STR_COPY(k->opt, req ? "--find-links" : "-f");
		STR_COPY(k->url, TORCH_WHL "/torch_stable.html");
	}
}

static void
jax_pkg(const struct plan *p, struct pkg *k, bool req)
{
	if (!p->gpu) {
		STR_FMT(k->spec, "jax[cpu]==%s", p->version);
	} else if (vge(p->version, "0.4.26")) {
		STR_FMT(k->spec, "jax[%s]==%s", p->variant, p->version);
	} else {
		if (vge(p->version, "0.4.7"))
			STR_FMT(k->spec, "jax[%s_pip]==%s", p->variant, p->version);
		else
			STR_FMT(k->spec, "jax[cuda11_cudnn82]==%s", p->version);
		STR_COPY(k->opt, req ? "--find-links" : "-f");
		STR_COPY(k->url, JAX_FIND);
	}
}

static void
make_pkg(const struct plan *p, struct pkg *k, bool req)
{
	memset(k, 0, sizeof(*k));
	if (p->fw == PLAN_TF)
		tf_pkg(p, k);
	else if (p->fw == PLAN_TORCH)
		torch_pkg(p, k, req);
	else
		jax_pkg(p, k, req);
}

/* "python -m pip install SPEC [OPT URL]" */
static void
pip_line(struct buf *b, const struct pkg *k, const char *py, bool win)
{
	buf_addf(b, "%s -m pip install ", py);
	if (k->extra[0]) {
		add_spec(b, k->extra, win);
		buf_addch(b, ' ');
	}
	add_spec(b, k->spec, win);
	if (k->opt[0])
		buf_addf(b, " %s %s", k->opt, k->url);
	buf_addch(b, '\n');
}

/* ---- the pieces every format shares ----------------------------------------------- */

static bool
is_win(const struct plan *p)
{
	return p->os == PLAN_OS_WINDOWS;
}

char *
plan_pip_command(const struct plan *p)
{
	struct pkg k;
	struct buf b;
	char *line;

	make_pkg(p, &k, false);
	buf_init(&b);
	pip_line(&b, &k, "python", is_win(p));
	line = buf_detach(&b);
	line[strcspn(line, "\n")] = '\0';
	return line;
}

static void
env_name(const struct plan *p, char *out, size_t size)
{
	str_fmt(out, size, "%s-%s", plan_fw_name(p->fw), p->version);
}

static void
driver_steps(const struct plan *p, const char *driver_fix, struct buf *b)
{
	if (!p->need_driver_install)
		return;
	if (p->os == PLAN_OS_WINDOWS || p->os == PLAN_OS_WSL2) {
		buf_addf(b, "# first install the NVIDIA Windows driver >= %s on Windows "
			    "(https://www.nvidia.com/Download/index.aspx)%s\n",
			 p->driver_min[0] ? p->driver_min : "(current)",
			 p->os == PLAN_OS_WSL2 ? "; WSL2 uses it as it is" : "");
		return;
	}
	buf_addf(b, "# first install the NVIDIA driver (>= %s), then reboot:\n",
		 p->driver_min[0] ? p->driver_min : "current");
	if (driver_fix)
		buf_adds(b, driver_fix);
}

/* TensorFlow before [and-cuda] looks for CUDA and cuDNN on the system. */
static void
tf_system_cuda(const struct plan *p, const struct plan_machine *m, struct buf *b)
{
	if (p->fw != PLAN_TF || !p->gpu || p->and_cuda)
		return;
	if (m->toolkit[0] && kbq_cuda_matches(m->toolkit, p->cuda))
		buf_addf(b, "# TensorFlow %s loads CUDA %s (installed here) and cuDNN %s: add cuDNN %s "
			    "for CUDA %s (" CUDNN_ARCHIVE ")\n",
			 p->version, p->cuda, p->cudnn, p->cudnn, p->cuda);
	else
		buf_addf(b, "# TensorFlow %s loads CUDA %s and cuDNN %s from the system: install "
			    "both (" CUDA_ARCHIVE ", " CUDNN_ARCHIVE ")%s%s%s\n",
			 p->version, p->cuda, p->cudnn, m->toolkit[0] ? "; the CUDA " : "",
			 m->toolkit[0] ? m->toolkit : "", m->toolkit[0] ? " here does not fit" : "");
}

static void
steps_pip(const struct plan *p, const struct plan_machine *m, struct buf *b)
{
	char env[64];
	struct pkg k;
	bool win = is_win(p);

	env_name(p, env, sizeof(env));
	make_pkg(p, &k, false);
	if (win) {
		buf_addf(b, "py -%s -m venv %%USERPROFILE%%\\venvs\\%s\n", p->python, env);
		buf_addf(b, "%%USERPROFILE%%\\venvs\\%s\\Scripts\\activate\n", env);
	} else {
		char have[16], want[16];

		/* `python3` only where it is known to run the version used */
		vers_truncate(m->python3[0] ? m->python3 : m->python, 2, have, sizeof(have));
		vers_truncate(p->python, 2, want, sizeof(want));
		if (p->python_assumed || m->python[0] == '\0' || strcmp(have, want))
			buf_addf(b, "python%s -m venv ~/.venvs/%s\n", p->python, env);
		else
			buf_addf(b, "python3 -m venv ~/.venvs/%s\n", env);
		buf_addf(b, ". ~/.venvs/%s/bin/activate\n", env);
	}
	buf_adds(b, "python -m pip install --upgrade pip\n");
	pip_line(b, &k, "python", win);
	tf_system_cuda(p, m, b);
}

static void
steps_conda(const struct plan *p, const struct plan_machine *m, struct buf *b)
{
	char env[64];
	struct pkg k;
	bool win = is_win(p);

	env_name(p, env, sizeof(env));
	make_pkg(p, &k, false);
	buf_addf(b, "conda create -n %s python=%s -y\n", env, p->python);
	buf_addf(b, "conda activate %s\n", env);
	if (p->fw == PLAN_TORCH && vge(p->version, "1.13") && !vge(p->version, "2.6") &&
	    p->os != PLAN_OS_MACOS) {
		static const char *const conda_cuda[] = {"11.6", "11.7", "11.8", "12.1", "12.4"};
		size_t i;
		if (!p->gpu) {
			buf_addf(b, "conda install pytorch==%s cpuonly -c pytorch -y\n", p->version);
			return;
		}
		for (i = 0; i < sizeof(conda_cuda) / sizeof(conda_cuda[0]); i++)
			if (!strcmp(p->variant, conda_cuda[i])) {
				buf_addf(b, "conda install pytorch==%s pytorch-cuda=%s -c pytorch -c nvidia -y\n",
					 p->version, p->variant);
				return;
			}
	}
	if (p->fw == PLAN_TF && p->gpu && !p->and_cuda) {
		if (!strcmp(p->cuda, "11.2") && kbq_cuda_matches(p->cudnn, "8.1")) {
			buf_adds(b, "conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1.0 -y\n");
			pip_line(b, &k, "python", win);
			return;
		}
		if (!win && !strcmp(p->cuda, "11.8") && kbq_cuda_matches(p->cudnn, "8.6")) {
			buf_adds(b, "conda install -c conda-forge cudatoolkit=11.8.0 -y\n");
			STR_COPY(k.extra, "nvidia-cudnn-cu11==8.6.0.163");
			pip_line(b, &k, "python", win);
			buf_adds(b, "mkdir -p $CONDA_PREFIX/etc/conda/activate.d\n");
			buf_adds(b, "echo 'CUDNN_PATH=$(dirname $(python -c \"import nvidia.cudnn;"
				    "print(nvidia.cudnn.__file__)\"))' >> "
				    "$CONDA_PREFIX/etc/conda/activate.d/env_vars.sh\n");
			buf_adds(b, "echo 'export LD_LIBRARY_PATH=$CUDNN_PATH/lib:$CONDA_PREFIX/lib/:"
				    "$LD_LIBRARY_PATH' >> $CONDA_PREFIX/etc/conda/activate.d/env_vars.sh\n");
			buf_addf(b, "conda deactivate && conda activate %s\n", env);
			return;
		}
	}
	buf_addf(b, "# %s: pip inside the conda environment%s\n", plan_fw_title(p->fw),
		 p->fw == PLAN_TORCH ? " (no conda package of this build)"
				     : p->fw == PLAN_TF ? ", as the TensorFlow install guide does" : "");
	pip_line(b, &k, "python", win);
	tf_system_cuda(p, m, b);
}

static void
steps_requirements(const struct plan *p, struct buf *b, struct buf *then)
{
	struct pkg k;

	make_pkg(p, &k, true);
	buf_addf(b, "# %s %s for Python %s-%s%s%s\n", plan_fw_title(p->fw), p->version,
		 p->python_min[0] ? p->python_min : "?", p->python_max[0] ? p->python_max : "?",
		 p->gpu ? ", CUDA " : " (CPU)", p->gpu ? p->cuda : "");
	if (k.opt[0])
		buf_addf(b, "%s %s\n", k.opt, k.url);
	buf_addf(b, "%s\n", k.spec);
	buf_adds(then, "python -m pip install -r requirements.txt\n");
}

static void
steps_docker(const struct plan *p, struct buf *b, struct buf *then)
{
	char env[64];
	struct pkg k;
	const char *check;

	env_name(p, env, sizeof(env));
	make_pkg(p, &k, false);
	if (p->fw == PLAN_TF) {
		buf_addf(b, "FROM tensorflow/tensorflow:%s%s%s\n", p->version, p->gpu ? "-gpu" : "",
			 vge(p->version, "2.2") ? "" : "-py3");
	} else if (p->fw == PLAN_TORCH && p->gpu && vge(p->version, "2.1") &&
		   strchr(strchr(p->version, '.') + 1, '.')) {
		buf_addf(b, "FROM pytorch/pytorch:%s-cuda%s-cudnn%s-runtime\n", p->version, p->variant,
			 vge(p->version, "2.4") ? "9" : "8");
	} else {
		buf_addf(b, "FROM python:%s-slim\n", p->python);
		buf_adds(b, "RUN ");
		pip_line(b, &k, "python", false);
	}
	check = p->fw == PLAN_TF ? "import tensorflow as tf; print(tf.config.list_physical_devices())"
		: p->fw == PLAN_TORCH ? "import torch; print(torch.__version__, torch.cuda.is_available())"
				      : "import jax; print(jax.devices())";
	buf_addf(b, "CMD [\"python\", \"-c\", \"%s\"]\n", check);
	if (p->gpu)
		buf_adds(then, "# the host needs the NVIDIA driver and the NVIDIA Container Toolkit\n");
	buf_addf(then, "docker build -t %s .\n", env);
	buf_addf(then, "docker run --rm%s %s\n", p->gpu ? " --gpus all" : "", env);
}

void
plan_steps_make(const struct plan *p, const struct plan_machine *m, int format,
		const char *driver_fix, struct plan_steps *s)
{
	buf_init_cap(&s->steps, 1 << 16);
	buf_init_cap(&s->then, 1 << 16);
	s->file = NULL;
	STR_COPY(s->verify, "gpudoctor doctor");
	STR_COPY(s->verify_fw,
		 p->fw == PLAN_TF ? "python -c 'import tensorflow as tf; print(tf.config.list_physical_devices(\"GPU\"))'"
		 : p->fw == PLAN_TORCH ? "python -c 'import torch; print(torch.cuda.is_available())'"
				       : "python -c 'import jax; print(jax.devices())'");
	if (is_win(p))
		STR_COPY(s->verify_fw,
			 p->fw == PLAN_TF ? "python -c \"import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))\""
			 : p->fw == PLAN_TORCH ? "python -c \"import torch; print(torch.cuda.is_available())\""
					       : "python -c \"import jax; print(jax.devices())\"");
	if (format == PLAN_FMT_DOCKER) {
		s->file = "Dockerfile";
		steps_docker(p, &s->steps, &s->then);
		return;
	}
	if (format == PLAN_FMT_REQUIREMENTS) {
		s->file = "requirements.txt";
		steps_requirements(p, &s->steps, &s->then);
		return;
	}
	driver_steps(p, driver_fix, &s->steps);
	if (format == PLAN_FMT_CONDA)
		steps_conda(p, m, &s->steps);
	else
		steps_pip(p, m, &s->steps);
}

void
plan_steps_release(struct plan_steps *s)
{
	buf_release(&s->steps);
	buf_release(&s->then);
}

/* ---- JSON --------------------------------------------------------------------------- */

static json_t *
jstr(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

static json_t *
lines(const char *text)
{
	json_t *a = json_array();
	const char *p = text;

	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		json_array_append_new(a, json_stringn(p, n));
		p = e ? e + 1 : p + n;
	}
	return a;
}

json_t *
plan_to_json(const struct plan *p, const struct plan_machine *m, int format,
	     const struct plan_steps *s, const char *driver_fix)
{
	json_t *o, *a, *x;
	int i, k;

	o = json_pack("{s:s,s:o,s:o,s:b}", "framework", plan_fw_name(p->fw), "version",
		      p->ok ? json_string(p->version) : json_null(), "asked", jstr(p->asked), "gpu",
		      p->gpu);
	json_object_set_new(o, "machine",
			    json_pack("{s:o,s:o,s:o,s:o,s:o,s:s,s:o}", "driver", jstr(m->driver),
				      "max_cuda", jstr(p->max_cuda), "gpu", jstr(m->gpu_name),
				      "compute_capability", jstr(m->compute_capability), "python",
				      jstr(m->python), "os", plan_os_name(m->os), "cuda_toolkit",
				      jstr(m->toolkit)));
	if (p->ok)
		json_object_set_new(o, "build",
				    json_pack("{s:o,s:o,s:o,s:{s:o,s:o},s:s,s:o,s:b}", "cuda", jstr(p->cuda),
					      "cudnn", jstr(p->cudnn), "variant", jstr(p->variant),
					      "python", "min", jstr(p->python_min), "max",
					      jstr(p->python_max), "python_used", p->python,
					      "driver_basis", jstr(p->driver_basis), "and_cuda",
					      p->and_cuda));
	if (p->ok && p->gpu)
		json_object_set_new(json_object_get(o, "build"), "runs",
				    json_pack("{s:s,s:o,s:o,s:b}", "how", p->runs[0] ? p->runs : "unknown",
					      "via", jstr(p->runs_via), "reason", jstr(p->runs_reason),
					      "targets_known", p->targets_known));
	a = json_array();
	for (i = 0; i < p->nnotes; i++)
		json_array_append_new(a, json_string(p->notes[i]));
	json_object_set_new(o, "assumptions", a);
	a = json_array();
	for (i = 0; i < p->nexcluded; i++) {
		json_t *r = json_array();
		for (k = 0; k < p->excluded[i].nreasons; k++)
			json_array_append_new(r, json_string(p->excluded[i].reasons[k]));
		json_array_append_new(a, json_pack("{s:s,s:o}", "version", p->excluded[i].version,
						   "reasons", r));
	}
	json_object_set_new(o, "excluded", a);
	json_object_set_new(o, "excluded_total", json_integer(p->nexcluded_total));
	json_object_set_new(o, "format", json_string(plan_format_name(format)));
	json_object_set_new(o, "file", s && s->file ? json_string(s->file) : json_null());
	json_object_set_new(o, "steps", s ? lines(s->steps.s) : json_array());
	json_object_set_new(o, "then", s ? lines(s->then.s) : json_array());
	json_object_set_new(o, "verify", json_string("gpudoctor doctor"));
	json_object_set_new(o, "verify_framework", s ? json_string(s->verify_fw) : json_null());
	if (!p->ok) {
		a = json_array();
		for (i = 0; i < p->nblockers; i++) {
			const struct plan_blocker *b = &p->blockers[i];
			x = json_pack("{s:s,s:s}", "what", b->what, "fix", b->fix);
			if (b->driver_min[0])
				json_object_set_new(x, "driver_min", json_string(b->driver_min));
			if (b->python[0])
				json_object_set_new(x, "python", json_string(b->python));
			if ((b->why & WHY_DRIVER) && driver_fix && driver_fix[0])
				json_object_set_new(x, "commands", lines(driver_fix));
			json_array_append_new(a, x);
		}
		json_object_set_new(o, "blockers", a);
		json_object_set_new(o, "newest_possible", jstr(p->newest_ok));
	}
	return o;
}

/* ---- text --------------------------------------------------------------------------- */

/* Lines to paste, each fitted into 80 columns: comments wrap as comments,
 * commands split with the shell's line continuation (cmd.exe's ^ on
 * Windows, \\ elsewhere and in a Dockerfile). */
static void
commands(FILE *out, const char *text, const char *pre, bool win)
{
	char more[32];
	const char *p = text;

	str_fmt(more, sizeof(more), "%s# ", pre);
	while (p && *p) {
		size_t n = strcspn(p, "\n");
		char *line = strndup(p, n);

		if (line && line[0] == '#')
			wrap_text(out, 80, pre, more, line);
		else if (line)
			wrap_command(out, 80, pre, win ? " ^" : " \\", line);
		free(line);
		p += n;
		if (*p == '\n')
			p++;
	}
}

static void
indent(FILE *out, const char *text, const char *pre)
{
	const char *p = text;

	while (p && *p) {
		const char *e = strchr(p, '\n');
		int n = (int)(e ? (size_t)(e - p) : strlen(p));
		fprintf(out, "%s%.*s\n", pre, n, p);
		p = e ? e + 1 : p + n;
	}
}

static void
machine_line(FILE *out, const struct plan *p, const struct plan_machine *m)
{
	fprintf(out, "  machine   %s", plan_os_name(m->os));
	if (m->gpu_name[0] || m->compute_capability[0])
		fprintf(out, ", %s%s%s%s", m->gpu_name[0] ? m->gpu_name : "GPU",
			m->compute_capability[0] ? " (compute capability " : "", m->compute_capability,
			m->compute_capability[0] ? ")" : "");
	else if (m->gpu_present)
		fprintf(out, ", an NVIDIA GPU");
	else
		fprintf(out, ", no NVIDIA GPU");
	if (m->driver[0])
		fprintf(out, ", driver %s%s%s%s", m->driver, p->max_cuda[0] ? " (CUDA <= " : "",
			p->max_cuda, p->max_cuda[0] ? ")" : "");
	else
		fprintf(out, m->driver_unknown ? ", driver unknown" : ", no driver");
	fprintf(out, ", Python %s\n", m->python[0] ? m->python : "unknown");
}

/* The plan's head: what it is, the machine, what rules out newer releases,
 * or what blocks every one. Returns whether steps follow. */
static bool
plan_head(FILE *out, const struct plan *p, const struct plan_machine *m, const char *driver_fix,
	  const char *b0, const char *b1)
{
	int i, k;

	if (p->ok)
		fprintf(out, "%s%s %s%s%s", b0, plan_fw_title(p->fw), p->version, b1,
			p->gpu ? "" : " (CPU only)");
	else
		fprintf(out, "%s%s%s%s: no release can work here", b0, plan_fw_title(p->fw),
			p->asked[0] ? " " : "", p->asked[0] ? p->asked : "");
	if (p->ok && p->gpu) {
		if (p->fw == PLAN_TF)
			fprintf(out, " (CUDA %s, cuDNN %s)", p->cuda, p->cudnn);
		else if (p->fw == PLAN_TORCH)
			fprintf(out, " (CUDA %s wheel)", p->variant);
		else
			fprintf(out, " (%s plugin, CUDA >= %s)", p->variant, p->cuda);
	}
	fputc('\n', out);
	machine_line(out, p, m);
	if (p->ok && p->python_min[0])
		fprintf(out, "  python    %s-%s supported; the steps use %s\n", p->python_min,
			p->python_max, p->python);
	if (p->ok && p->driver_basis[0])
		fprintf(out, "  driver    %s\n", p->driver_basis);
	if (p->ok && !strcmp(p->runs, "native"))
		fprintf(out, "  gpu       runs natively: %s machine code\n", p->runs_via);
	else if (p->ok && !strcmp(p->runs, "jit"))
		fprintf(out, "  gpu       only from %s PTX, JIT-compiled by the driver at first start\n",
			p->runs_via);
	for (i = 0; i < p->nnotes; i++)
		fprintf(out, "  note      %s\n", p->notes[i]);
	if (p->nexcluded) {
		fprintf(out, "\n%s%s:%s\n", b0, p->ok ? "Newer releases ruled out" : "Ruled out", b1);
		for (i = 0; i < p->nexcluded; i++)
			for (k = 0; k < p->excluded[i].nreasons; k++)
				fprintf(out, "  %-9s %s\n", k ? "" : p->excluded[i].version,
					p->excluded[i].reasons[k]);
		if (p->nexcluded_total > p->nexcluded)
			fprintf(out, "  ... and %d older\n", p->nexcluded_total - p->nexcluded);
	}
	if (!p->ok) {
		fprintf(out, "\n%sWhat to change, first things first:%s\n", b0, b1);
		for (i = 0; i < p->nblockers; i++) {
			const struct plan_blocker *b = &p->blockers[i];
			fprintf(out, "  %d. %s\n     -> %s\n", i + 1, b->what, b->fix);
			if ((b->why & WHY_DRIVER) && driver_fix && driver_fix[0])
				indent(out, driver_fix, "       ");
		}
		if (p->newest_ok[0] && p->asked[0])
			fprintf(out, "\nThe newest release that works here: %s %s (gpudoctor plan %s)\n",
				plan_fw_title(p->fw), p->newest_ok, plan_fw_name(p->fw));
		return false;
	}
	return true;
}

int
plan_render_text(FILE *out, const struct plan *p, const struct plan_machine *m, int format,
		 const struct plan_steps *s, const char *driver_fix, bool color)
{
	const char *b0 = color ? "\033[1m" : "", *b1 = color ? "\033[0m" : "";
	bool win = p->os == PLAN_OS_WINDOWS && format != PLAN_FMT_DOCKER;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	bool steps;

	if (!mem)
		return -1;
	steps = plan_head(mem, p, m, driver_fix, b0, b1);
	if (fclose(mem) != 0) {
		free(text);
		return -1;
	}
	if (text)
		wrap_fit(out, 80, text);
	free(text);
	if (!steps)
		return ferror(out) ? -1 : 0;
	fprintf(out, "\n%sSteps (%s)%s%s%s:\n", b0, plan_format_name(format), s->file ? ", " : "",
		s->file ? s->file : "", b1);
	if (s->file && format == PLAN_FMT_REQUIREMENTS)
		indent(out, s->steps.s, "  "); /* a requirements file has no continuation */
	else
		commands(out, s->steps.s, "  ", win);
	if (s->then.len) {
		fprintf(out, "then:\n");
		commands(out, s->then.s, "  ", win);
	}
	fprintf(out, "\n%sVerify:%s\n", b0, b1);
	commands(out, s->verify, "  ", win);
	commands(out, s->verify_fw, "  ", win);
	fprintf(out, "  gpudoctor doctor --deep   # asks %s itself, in its own interpreter\n",
		plan_fw_title(p->fw));
	return ferror(out) ? -1 : 0;
}
