/*
 * t_plan.c - plan.c on hand-built machines (old driver, new GPU on an old
 * CUDA, Python too new, native Windows, WSL2, macOS, no GPU, Kepler, an
 * RTX 4090 on a 2022 driver, H200, JAX on Windows, a GPU without a driver):
 * the release chosen, the reasons that rule out newer ones, the blockers
 * when none can work; the steps of each format (render/plan_text.c); and
 * pyver.c on fixture trees (venv, symlinked python3, pyenv shim, conda).
 */
#include "unit.h"

#include "base/buf.h"
#include "base/str.h"
#include "kb/kb.h"
#include "plan/plan.h"
#include "probe/pyver.h"
#include "render/plan_text.h"
#include "sys/root.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct plan P;

static struct plan_machine
machine(const char *driver, const char *cc, const char *python, int os)
{
	struct plan_machine m;

	memset(&m, 0, sizeof(m));
	str_copy(m.driver, sizeof(m.driver), driver);
	str_copy(m.compute_capability, sizeof(m.compute_capability), cc);
	str_copy(m.python, sizeof(m.python), python);
	m.gpu_present = cc[0] != '\0';
	m.gpu_known = true;
	if (m.gpu_present)
		STR_COPY(m.gpu_name, "test GPU");
	m.os = os;
	m.cpu_avx = 1;
	return m;
}

static bool
has(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

static bool
any_note(const char *needle)
{
	int i;

	for (i = 0; i < P.nnotes; i++)
		if (has(P.notes[i], needle))
			return true;
	return false;
}

/* Steps of a format as one string (static buffer). */
static const char *
steps(const struct plan_machine *m, int format)
{
	static char out[8192];
	struct plan_steps s;

	plan_steps_make(&P, m, format, NULL, &s);
	str_fmt(out, sizeof(out), "%s%s", s.steps.s, s.then.s);
	plan_steps_release(&s);
	return out;
}

/* 1. driver 470.82.01 + RTX 3090 */
static void
test_old_driver(void **state)
{
	struct plan_machine m = machine("470.82.01", "8.6", "3.10", PLAN_OS_LINUX);

	(void)state;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 0);
	/* CUDA 11.8 runs by minor-version compatibility (>= 450.80.02) */
	assert_string_equal(P.version, "2.14.0");
	assert_true(has(P.driver_basis, "minor-version compatibility"));
	assert_true(has(P.driver_basis, "450.80.02"));
	assert_string_equal(P.excluded[0].version, "2.21.0");
	assert_true(has(P.excluded[0].reasons[0], "driver >= 555.42.02"));
	assert_true(has(P.excluded[0].reasons[0], "525.60.13"));
	assert_true(has(P.excluded[0].reasons[0], "yours is 470.82.01"));
	assert_true(P.excluded[0].why & WHY_DRIVER);
	/* strict minimums: CUDA <= 11.4, so TensorFlow 2.11 (CUDA 11.2) */
	m.strict_driver = true;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 0);
	assert_string_equal(P.version, "2.11.0");
	assert_true(has(P.driver_basis, "460.27.03"));
	/* torch: cu118 wheels by minor-version compatibility, cu113 strictly */
	m.strict_driver = false;
	assert_int_equal(plan_make(&m, PLAN_TORCH, NULL, &P), 0);
	assert_string_equal(P.version, "2.7.1");
	assert_string_equal(P.variant, "11.8");
	assert_true(has(steps(&m, PLAN_FMT_PIP), "torch==2.7.1 --index-url https://download.pytorch.org/whl/cu118"));
	m.strict_driver = true;
	assert_int_equal(plan_make(&m, PLAN_TORCH, NULL, &P), 0);
	assert_string_equal(P.version, "1.12.1");
	assert_string_equal(P.variant, "11.3");
	assert_true(has(steps(&m, PLAN_FMT_PIP),
			"torch==1.12.1+cu113 --extra-index-url https://download.pytorch.org/whl/cu113"));
}

/* 2. RTX 4090 (8.9) on a CUDA 11.8 driver: a CUDA 11.2 build runs its sm_80
 * machine code (same major, lower minor), though CUDA 11.2 cannot target 8.9 */
static void
test_new_gpu_old_cuda(void **state)
{
	struct plan_machine m = machine("520.61.05", "8.9", "3.10", PLAN_OS_LINUX);

	(void)state;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 0);
	assert_string_equal(P.version, "2.14.0");
	assert_string_equal(P.cuda, "11.8");
	assert_string_equal(P.runs, "native");
	assert_int_equal(plan_make(&m, PLAN_TF, "2.11", &P), 0);
	assert_true(P.ok);
	assert_string_equal(P.cuda, "11.2");
	assert_string_equal(P.runs, "native");
	assert_string_equal(P.runs_via, "sm_80");
	assert_true(P.targets_known);
	assert_int_equal(plan_make(&m, PLAN_TF, "9.99", &P), -1);
}

/* 3. Python too new */
static void
test_python_too_new(void **state)
{
	struct plan_machine m = machine("580.65.06", "8.6", "3.13", PLAN_OS_LINUX);

	(void)state;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 0);
	assert_string_equal(P.version, "2.21.0");
	STR_COPY(m.python, "3.14");
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 1);
	assert_true(P.blockers[0].why & WHY_PYTHON);
	assert_string_equal(P.blockers[0].python, "3.13");
	assert_true(has(P.excluded[0].reasons[0], "needs Python 3.10-3.13; yours is 3.14"));
	/* asked for 3.13 where python3 is 3.14: the venv names python3.13 */
	STR_COPY(m.python, "3.13");
	STR_COPY(m.python3, "3.14.0");
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 0);
	assert_true(has(steps(&m, PLAN_FMT_PIP), "python3.13 -m venv ~/.venvs/"));
	STR_COPY(m.python3, "3.13.1");
	assert_true(has(steps(&m, PLAN_FMT_PIP), "python3 -m venv ~/.venvs/"));
}

/* 4. native Windows: TensorFlow 2.10 with CUDA 11.2 / cuDNN 8.1, or WSL2 */
static void
test_windows(void **state)
{
	struct plan_machine m = machine("531.14", "8.6", "3.10", PLAN_OS_WINDOWS);
	const char *s;

	(void)state;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 0);
	assert_string_equal(P.version, "2.10.0");
	assert_string_equal(P.cuda, "11.2");
	assert_string_equal(P.cudnn, "8.1");
	assert_true(has(P.excluded[0].reasons[0], "WSL2"));
	assert_true(P.excluded[0].why & WHY_OS);
	assert_true(any_note("--os wsl2"));
	s = steps(&m, PLAN_FMT_CONDA);
	assert_true(has(s, "conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1.0"));
	assert_true(has(s, "python -m pip install tensorflow==2.10.0"));
	STR_COPY(m.python, "3.11");
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 1);
	assert_true(P.blockers[0].why & WHY_PYTHON);
	assert_string_equal(P.blockers[0].python, "3.10");
	/* JAX has no native Windows GPU build */
	assert_int_equal(plan_make(&m, PLAN_JAX, NULL, &P), 1);
	assert_true(P.blockers[0].why & WHY_OS);
	assert_true(has(P.blockers[0].fix, "WSL2"));
}

/* 5. WSL2: Linux steps, Windows driver numbers */
static void
test_wsl2(void **state)
{
	struct plan_machine m = machine("546.12", "8.6", "3.12", PLAN_OS_WSL2);
	const char *s;

	(void)state;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 0);
	assert_string_equal(P.version, "2.21.0");
	assert_true(has(P.driver_basis, "527.41"));
	assert_true(any_note("WSL2"));
	s = steps(&m, PLAN_FMT_PIP);
	assert_true(has(s, ". ~/.venvs/tensorflow-2.21.0/bin/activate"));
	assert_true(has(s, "python -m pip install 'tensorflow[and-cuda]==2.21.0'"));
}

/* 6. macOS: CPU only */
static void
test_macos(void **state)
{
	struct plan_machine m = machine("", "", "3.12", PLAN_OS_MACOS);

	(void)state;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 0);
	assert_false(P.gpu);
	assert_string_equal(P.version, "2.16.1");
	assert_true(any_note("macOS"));
	assert_int_equal(plan_make(&m, PLAN_TORCH, NULL, &P), 0);
	assert_false(P.gpu);
	assert_true(has(steps(&m, PLAN_FMT_PIP), "pip install torch==2.14\n"));
}

/* 7. no GPU: CPU install */
static void
test_no_gpu(void **state)
{
	struct plan_machine m = machine("", "", "3.11", PLAN_OS_LINUX);

	(void)state;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 0);
	assert_false(P.gpu);
	assert_string_equal(P.version, "2.21.0");
	assert_true(any_note("no NVIDIA GPU found"));
	assert_true(has(steps(&m, PLAN_FMT_PIP), "pip install tensorflow==2.21.0"));
	assert_int_equal(plan_make(&m, PLAN_TORCH, NULL, &P), 0);
	assert_true(has(steps(&m, PLAN_FMT_PIP), "--index-url https://download.pytorch.org/whl/cpu"));
	assert_int_equal(plan_make(&m, PLAN_JAX, NULL, &P), 0);
	assert_true(has(steps(&m, PLAN_FMT_PIP), "'jax[cpu]==0.10.2'"));
	/* no AVX: that first; then the only prebuilt releases without it (<= 1.5) */
	m.cpu_avx = 0;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 1);
	assert_true(P.blockers[0].why & WHY_CPU);
	assert_true(has(P.excluded[0].reasons[0], "AVX"));
	assert_true(P.blockers[1].why & WHY_PYTHON);
	assert_true(any_note("TensorFlow 1.5.0"));
}

/* 8. Kepler K80 (3.7): last CUDA 11.8 */
static void
test_kepler(void **state)
{
	struct plan_machine m = machine("470.82.01", "3.7", "3.9", PLAN_OS_LINUX);

	(void)state;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 0);
	assert_string_equal(P.version, "2.14.0");
	assert_string_equal(P.runs_via, "sm_35");
	assert_true(has(P.excluded[1].reasons[0], "no machine code for compute capability 3.7"));
	assert_int_equal(plan_make(&m, PLAN_TORCH, NULL, &P), 0);
	assert_string_equal(P.variant, "11.8");
	assert_int_equal(plan_make(&m, PLAN_JAX, NULL, &P), 0);
	/* jaxlib dropped Kepler in 0.4.4 (no sm_35 machine code, PTX 8.0 only) */
	assert_string_equal(P.variant, "cuda11");
	assert_string_equal(P.version, "0.4.3");
	assert_string_equal(P.runs_via, "sm_35");
	STR_COPY(m.python, "3.12");
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 1);
	assert_true(P.blockers[0].why & WHY_PYTHON);
	assert_string_equal(P.blockers[0].python, "3.11");
	assert_true(any_note("TensorFlow 2.14.0"));
}

/* 9. RTX 4090 on a 2022 driver (515.65.01, CUDA 11.7): the 515 branch
 * predates Ada (its first drivers are 520), so the driver comes first,
 * whatever the framework; then the newest release for that driver */
static void
test_4090_2022_driver(void **state)
{
	struct plan_machine m = machine("515.65.01", "8.9", "3.10", PLAN_OS_LINUX);

	(void)state;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 1);
	assert_int_equal(P.nblockers, 1);
	assert_true(P.blockers[0].why & WHY_DRIVER);
	assert_true(has(P.blockers[0].what, "predates Ada Lovelace GPUs"));
	assert_string_equal(P.blockers[0].driver_min, "525.60.13"); /* TF 2.21: CUDA 12.5, minor compat */
	assert_string_equal(P.newest_ok, "2.21.0");
	assert_int_equal(plan_make(&m, PLAN_TORCH, "2.5.1", &P), 1);
	assert_true(P.blockers[0].why & WHY_DRIVER);
	assert_string_equal(P.blockers[0].driver_min, "525.60.13"); /* its cu124 wheel's */
	/* strictly: each CUDA's own minimum */
	m.strict_driver = true;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 1);
	assert_string_equal(P.blockers[0].driver_min, "555.42.02");
	assert_true(has(P.blockers[0].fix, "upgrade the NVIDIA driver to >= 555.42.02"));
	/* the launch driver of the right branch is not too old (520.56.06 < CUDA 11.8's 520.61.05) */
	STR_COPY(m.driver, "520.56.06");
	m.strict_driver = false;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 0);
}

/* 10. H200, driver 580, Python 3.12: the newest of everything */
static void
test_h200(void **state)
{
	struct plan_machine m = machine("580.65.06", "9.0", "3.12", PLAN_OS_LINUX);
	const char *s;

	(void)state;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 0);
	assert_string_equal(P.version, "2.21.0");
	assert_true(P.and_cuda);
	assert_int_equal(P.nexcluded, 0);
	s = steps(&m, PLAN_FMT_DOCKER);
	assert_true(has(s, "FROM tensorflow/tensorflow:2.21.0-gpu\n"));
	assert_true(has(s, "docker run --rm --gpus all"));
	assert_int_equal(plan_make(&m, PLAN_TORCH, NULL, &P), 0);
	assert_string_equal(P.version, "2.14");
	assert_string_equal(P.variant, "13.2"); /* 13.x minor-version compatibility: 580.65.06 */
	assert_int_equal(plan_make(&m, PLAN_TORCH, "2.5.1", &P), 0);
	assert_string_equal(P.variant, "12.4");
	s = steps(&m, PLAN_FMT_DOCKER);
	assert_true(has(s, "FROM pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime\n"));
	s = steps(&m, PLAN_FMT_REQUIREMENTS);
	assert_true(has(s, "--extra-index-url https://download.pytorch.org/whl/cu124\ntorch==2.5.1+cu124\n"));
	s = steps(&m, PLAN_FMT_CONDA);
	assert_true(has(s, "conda install pytorch==2.5.1 pytorch-cuda=12.4 -c pytorch -c nvidia -y"));
	assert_int_equal(plan_make(&m, PLAN_JAX, NULL, &P), 0);
	assert_string_equal(P.version, "0.11.2");
	assert_string_equal(P.variant, "cuda13");
	assert_true(has(steps(&m, PLAN_FMT_PIP), "'jax[cuda13]==0.11.2'"));
}

/* A GPU without a driver: plan for it, install the driver first. */
static void
test_gpu_no_driver(void **state)
{
	struct plan_machine m = machine("", "8.6", "3.11", PLAN_OS_LINUX);
	struct plan_steps s;

	(void)state;
	assert_int_equal(plan_make(&m, PLAN_TF, NULL, &P), 0);
	assert_true(P.gpu);
	assert_true(P.need_driver_install);
	assert_string_equal(P.version, "2.21.0");
	assert_string_equal(P.driver_min, "525.60.13");
	plan_steps_make(&P, &m, PLAN_FMT_PIP, "sudo ubuntu-drivers install\n", &s);
	assert_true(has(s.steps.s, "# first install the NVIDIA driver (>= 525.60.13)"));
	assert_true(has(s.steps.s, "sudo ubuntu-drivers install\n"));
	plan_steps_release(&s);
	/* the tag of a CUDA version */
	{
		char tag[16];
		plan_cuda_tag("12.4", tag, sizeof(tag));
		assert_string_equal(tag, "cu124");
		plan_cuda_tag("13.0", tag, sizeof(tag));
		assert_string_equal(tag, "cu130");
	}
}

/* ---- pyver --------------------------------------------------------------------- */

static char tree[256];

static void
put(const char *rel, const char *text)
{
	char path[512], dir[512], *slash;
	FILE *f;

	str_fmt(path, sizeof(path), "%s%s", tree, rel);
	STR_COPY(dir, path);
	for (slash = dir + strlen(tree) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
link_(const char *target, const char *rel)
{
	char path[512];

	str_fmt(path, sizeof(path), "%s%s", tree, rel);
	assert_int_equal(symlink(target, path), 0);
}

static void
test_pyver(void **state)
{
	struct pyver v;
	struct pyver_env e = {0};
	char cmd[300];

	(void)state;
	STR_COPY(tree, "/tmp/t_plan.XXXXXX");
	assert_non_null(mkdtemp(tree));
	put("/usr/bin/python3.12", "");
	link_("python3.12", "/usr/bin/python3");
	put("/home/u/venv/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n");
	put("/home/u/venv/bin/activate", "");
	link_("/usr/bin/python3", "/home/u/venv/bin/python3");
	put("/home/u/uvenv/pyvenv.cfg", "home = /usr/bin\nversion_info = 3.11.9.final.0\n");
	put("/home/u/uvenv/bin/python3", "");
	put("/home/u/.pyenv/shims/python3", "#!/bin/sh\n");
	put("/home/u/.pyenv/version", "3.10.13\n");
	put("/home/u/proj/.python-version", "3.9.18\n");
	put("/opt/conda/envs/x/conda-meta/python-3.13.1-h1234_0.json", "{}");
	root_set(tree);

	e.path = "/nowhere:/usr/bin";
	assert_int_equal(pyver_probe(&e, &v), 0);
	assert_string_equal(v.version, "3.12");
	assert_string_equal(v.how, "file_name");
	e.path = "/home/u/venv/bin:/usr/bin";
	assert_int_equal(pyver_probe(&e, &v), 0);
	assert_string_equal(v.version, "3.12.3");
	e.virtual_env = "/home/u/uvenv";
	assert_int_equal(pyver_probe(&e, &v), 0);
	assert_string_equal(v.version, "3.11.9");
	e.virtual_env = NULL;
	e.conda_prefix = "/opt/conda/envs/x";
	assert_int_equal(pyver_probe(&e, &v), 0);
	assert_string_equal(v.version, "3.13.1");
	assert_string_equal(v.how, "conda_meta");
	e.conda_prefix = NULL;
	e.path = "/home/u/.pyenv/shims:/usr/bin";
	e.cwd = "/home/u";
	assert_int_equal(pyver_probe(&e, &v), 0);
	assert_string_equal(v.version, "3.10.13");
	e.cwd = "/home/u/proj/sub";
	assert_int_equal(pyver_probe(&e, &v), 0);
	assert_string_equal(v.version, "3.9.18");
	e.pyenv_version = "system";
	assert_int_equal(pyver_probe(&e, &v), 0);
	assert_string_equal(v.version, "3.12");
	e.pyenv_version = NULL;
	e.path = "/nowhere";
	assert_int_equal(pyver_probe(&e, &v), -1);
	assert_string_equal(v.version, "");
	root_set("/");
	str_fmt(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_old_driver),
		cmocka_unit_test(test_new_gpu_old_cuda),
		cmocka_unit_test(test_python_too_new),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_wsl2),
		cmocka_unit_test(test_macos),
		cmocka_unit_test(test_no_gpu),
		cmocka_unit_test(test_kepler),
		cmocka_unit_test(test_4090_2022_driver),
		cmocka_unit_test(test_h200),
		cmocka_unit_test(test_gpu_no_driver),
		cmocka_unit_test(test_pyver),
	};

	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
