/*
 * t_rules_fw.c - rule_fw on hand-built Python environments, modelled on
 * the situations of issue 4: TF 1.15 on CUDA 10.0 with only CUDA 11
 * installed, TF 2.13 with only cuDNN 9, TF 2.15 [and-cuda] complete, TF
 * 2.16 without [and-cuda], tensorflow + tensorflow-gpu, tensorflow-cpu and
 * torch +cpu on GPU machines, torch +cu118 on a CUDA 10.1 driver, the
 * healthy H200 venv (torch +cu130, jax cuda13, cupy), a mismatched JAX
 * plugin, Python 3.12 with TF 2.15, an older cuDNN on LD_LIBRARY_PATH.
 * Each ID has a case that fires and one that must not; fixes are checked
 * for the package and version they name.
 */
#include "rules_facts.h"

#include "kb/kb.h"

#define VENV "/home/ana/venv"
#define SITE VENV "/lib/python3.11/site-packages"

/* ---- machines and environments ----------------------------------------------------- */

/* The laptop (driver 565.77, CUDA 12.7) with one Python 3.11 venv. */
static struct python_env_facts *
laptop_env(struct facts **fp, const char *py)
{
	*fp = laptop();
	return add_pyenv(*fp, VENV, "venv", py);
}

/* TensorFlow 2.15.0 installed with [and-cuda], every library resolved to
 * the pip wheels by RUNPATH. */
static struct framework_facts *
tf215_complete(struct facts *f, struct python_env_facts *e)
{
	const struct kb_tf_pin *pins;
	struct framework_facts *fw;
	size_t n, i;

	add_pkg(e, "tensorflow", "2.15.0");
	pins = kb_tf_pins("2.15.0", &n);
	assert_true(n >= 10);
	for (i = 0; i < n; i++)
		add_pkg(e, pins[i].package, pins[i].requirement + 2);
	fw = add_fw(e, "tensorflow", "tensorflow", "2.15.0", "12.2", "8.9", 1);
	STR_COPY(fw->compute_capabilities, "sm_50 sm_60 sm_70 sm_75 compute_80");
	STR_COPY(fw->extension, SITE "/tensorflow/python/_pywrap_tensorflow_internal.so");
	/* [and-cuda] pins nvidia-cuda-nvcc-cu12 12.2.140 */
	STR_COPY(fw->libdevice, SITE "/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc");
	STR_COPY(fw->ptxas, SITE "/nvidia/cuda_nvcc/bin/ptxas");
	STR_COPY(fw->ptxas_version, "12.2");
	add_resolved(fw, "libcudart.so.12", SITE "/nvidia/cuda_runtime/lib/libcudart.so.12", "12.2.140", "runpath",
		     false);
	add_resolved(fw, "libcublas.so.12", SITE "/nvidia/cublas/lib/libcublas.so.12", "12.2.5.6", "runpath", false);
	add_resolved(fw, "libcublasLt.so.12", SITE "/nvidia/cublas/lib/libcublasLt.so.12", "12.2.5.6", "runpath",
		     false);
	add_resolved(fw, "libcufft.so.11", SITE "/nvidia/cufft/lib/libcufft.so.11", "11.0.8.103", "runpath", false);
	add_resolved(fw, "libcusparse.so.12", SITE "/nvidia/cusparse/lib/libcusparse.so.12", "12.1.2.141",
		     "runpath", false);
	add_resolved(fw, "libcudnn.so.8", SITE "/nvidia/cudnn/lib/libcudnn.so.8", "8.9.4.25", "runpath", false);
	add_lib(f, "cudnn", SITE "/nvidia/cudnn/lib/libcudnn.so.8", "libcudnn.so.8", "8.9.4.25", ORIGIN_PIP, SITE,
		false, false);
	return fw;
}

/* XLA's libdevice and ptxas found in toolkit dir `dir` of CUDA `v`. */
static void
xla_found(struct framework_facts *fw, const char *dir, const char *v)
{
	STR_FMT(fw->libdevice, "%s/nvvm/libdevice/libdevice.10.bc", dir);
	STR_FMT(fw->ptxas, "%s/bin/ptxas", dir);
	STR_COPY(fw->ptxas_version, v);
}

/* TF 1.15.0 (tensorflow-gpu) built for CUDA 10.0 / cuDNN 7; the machine
 * has only CUDA 11.8, in LD_LIBRARY_PATH. */
static struct framework_facts *
tf115_on_cuda11(struct facts *f, struct python_env_facts *e)
{
	struct framework_facts *fw;

	add_lib(f, "cudart", "/usr/local/cuda-11.8/lib64/libcudart.so.11.0", "libcudart.so.11.0", "11.8.89",
		ORIGIN_TOOLKIT, "/usr/local/cuda-11.8", false, false);
	set_env(f, "LD_LIBRARY_PATH", "/usr/local/cuda-11.8/lib64");
	add_ldpath(f, "/usr/local/cuda-11.8/lib64", true, "11");
	add_pkg(e, "tensorflow-gpu", "1.15.0");
	fw = add_fw(e, "tensorflow", "tensorflow-gpu", "1.15.0", "10.0", "7", 1);
	xla_found(fw, "/usr/local/cuda-11.8", "11.8");
	STR_COPY(fw->extension, SITE "/tensorflow_core/python/_pywrap_tensorflow_internal.so");
	add_resolved(fw, "libcudart.so.10.0", "", "", "", true);
	add_resolved(fw, "libcublas.so.10.0", "", "", "", false);
	add_resolved(fw, "libcudnn.so.7", "", "", "", false);
	return fw;
}

/* ---- the healthy H200 -------------------------------------------------------------- */

static void
test_healthy_h200(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;

	(void)state;
	assert_int_equal(f->npython, 1);
	assert_int_equal(f->python[0].nframeworks, 3);
	run_rule(rule_fw, f, &fs);
	if (fs.n)
		dump(&fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);

	/* and the whole table stays quiet too */
	findings_init(&fs);
	rules_run(f, &fs);
	if (count_at_least(&fs, SEV_WARN))
		dump(&fs);
	assert_int_equal(count_at_least(&fs, SEV_WARN), 0);
	findings_release(&fs);
	free(f);
}

/* ---- fw.cpu_only_build ----------------------------------------------------------- */

static void
test_cpu_only_torch(void **state)
{
	struct facts *f;
	struct python_env_facts *e = laptop_env(&f, "3.11.9");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	add_pkg(e, "torch", "2.5.1+cpu");
	add_fw(e, "torch", "torch", "2.5.1+cpu", "", "", 0);
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.cpu_only_build");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_string_equal(fd->env, VENV);
	assert_true(evidence_has(fd, "+cpu"));
	/* the newest variant of 2.5.1 the 12.7 driver runs: 12.4 */
	assert_true(fix_has(fd, VENV "/bin/python3 -m pip install --force-reinstall torch==2.5.1 "
				 "--index-url https://download.pytorch.org/whl/cu124"));
	assert_int_equal(fs.n, 1);
	findings_release(&fs);

	/* the same venv on a machine without an NVIDIA GPU: nothing */
	f->ngpus = 0;
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "fw.cpu_only_build"));
	findings_release(&fs);

	/* unknown build kind: nothing */
	f->ngpus = 1;
	e->frameworks[0].cuda_build = -1;
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "fw.cpu_only_build"));
	findings_release(&fs);
	free(f);
}

static void
test_cpu_only_tensorflow(void **state)
{
	struct facts *f;
	struct python_env_facts *e = laptop_env(&f, "3.11.9");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	add_pkg(e, "tensorflow-cpu", "2.15.0");
	add_fw(e, "tensorflow", "tensorflow-cpu", "2.15.0", "", "", 0);
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.cpu_only_build");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_true(evidence_has(fd, "tensorflow-cpu has no GPU support"));
	assert_true(fix_has(fd, "-m pip uninstall -y tensorflow-cpu"));
	assert_true(fix_has(fd, "'tensorflow[and-cuda]==2.15.0'"));
	assert_int_equal(fs.n, 1);
	findings_release(&fs);

	/* a CPU-only TF 1.15: the GPU package of that era and its CUDA */
	e->npkgs = 0;
	e->nframeworks = 0;
	add_pkg(e, "tensorflow", "1.15.0");
	add_fw(e, "tensorflow", "tensorflow", "1.15.0", "", "", 0);
	STR_COPY(e->version, "3.7.16");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.cpu_only_build");
	assert_non_null(fd);
	assert_true(fix_has(fd, "tensorflow-gpu==1.15.0"));
	assert_true(fix_has(fd, "CUDA 10.0 and cuDNN 7.4"));
	findings_release(&fs);

	/* the healthy H200's CUDA builds are not CPU-only */
	free(f);
}

/* ---- fw.python_unsupported --------------------------------------------------------- */

static void
test_python_unsupported(void **state)
{
	struct facts *f;
	struct python_env_facts *e = laptop_env(&f, "3.12.3");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	tf215_complete(f, e);
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.python_unsupported");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_string_equal(fd->env, VENV);
	assert_true(strstr(fd->title, "Python 3.12.3") != NULL);
	assert_true(evidence_has(fd, "Python 3.9 to 3.11"));
	/* the nearest release that supports 3.12 */
	assert_true(fix_has(fd, "'tensorflow[and-cuda]==2.16.1'"));
	assert_int_equal(fs.n, 1);
	findings_release(&fs);

	/* 3.11 is supported: nothing at all (TF 2.15 [and-cuda] complete) */
	STR_COPY(e->version, "3.11.9");
	run_rule(rule_fw, f, &fs);
	if (fs.n)
		dump(&fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);

	/* an unknown Python version is never unsupported */
	e->version[0] = '\0';
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "fw.python_unsupported"));
	findings_release(&fs);
	free(f);
}

/* ---- fw.arch_not_in_build ---------------------------------------------------------- */

static void
test_arch_not_in_build(void **state)
{
	struct facts *f = healthy_h200();
	struct python_env_facts *e = add_pyenv(f, VENV, "venv", "3.11.9");
	struct framework_facts *fw;
	struct findings fs;
	const struct finding *fd;

	(void)state;
	/* compute_80 PTX runs on the H200 (9.0), JIT-compiled at first start */
	fw = tf215_complete(f, e);
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "fw.arch_not_in_build"));
	fd = find_id_env(&fs, "fw.arch_ptx_jit", VENV);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(evidence_has(fd, "build_info.py"));
	assert_true(evidence_has(fd, "compute_80 PTX"));
	assert_true(fix_has(fd, "export CUDA_CACHE_MAXSIZE=4294967296"));
	assert_true(fix_has(fd, "'tensorflow[and-cuda]==2.21.0'")); /* has sm_90 */
	findings_release(&fs);

	/* the fat binaries, when read, say more than build_info */
	STR_COPY(fw->targets.file, SITE "/tensorflow/python/_pywrap_tensorflow_internal.so");
	STR_COPY(fw->targets.sass, "5.0 6.0 7.0 7.5 8.0 9.0");
	STR_COPY(fw->targets.ptx, "9.0");
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "fw.arch_ptx_jit"));
	assert_false(findings_has(&fs, "fw.arch_not_in_build"));
	findings_release(&fs);
	memset(&fw->targets, 0, sizeof(fw->targets));

	/* cubins only, up to sm_86: nothing for 9.0 */
	STR_COPY(fw->compute_capabilities, "sm_35 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86");
	run_rule(rule_fw, f, &fs);
	fd = find_id_env(&fs, "fw.arch_not_in_build", VENV);
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_string_equal(fd->env, VENV);
	assert_true(strstr(fd->title, "9.0") != NULL);
	assert_true(evidence_has(fd, "no kernel image is available"));
	assert_true(evidence_has(fd, "no machine code for compute capability 9.0"));
	assert_true(fix_has(fd, "TensorFlow 2.21.0, which runs natively on it (sm_90 machine code)"));
	findings_release(&fs);

	/* sm_80 cubins run on an 8.6 GPU (same major, higher minor) */
	f->gpus[0].compute_capability[0] = '\0';
	add_gpu(f, "0000:01:00.0", 0x2520, "NVIDIA GeForce RTX 3060 Laptop GPU", "8.6");
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "fw.arch_not_in_build"));
	findings_release(&fs);

	/* an arch-specific sm_90a runs on 9.0 only */
	STR_COPY(fw->compute_capabilities, "sm_90a");
	run_rule(rule_fw, f, &fs);
	fd = find_id_env(&fs, "fw.arch_not_in_build", VENV);
	assert_non_null(fd);
	assert_true(strstr(fd->title, "8.6") != NULL);
	findings_release(&fs);

	/* no list: the knowledge base's row for TensorFlow 2.15.0 (CUDA 12.2):
	 * sm_80 machine code runs on 8.6 */
	fw->compute_capabilities[0] = '\0';
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "fw.arch_not_in_build"));
	assert_false(findings_has(&fs, "fw.arch_ptx_jit"));
	findings_release(&fs);
	/* TensorFlow 2.17 (sm_60 and up) on a Maxwell GTX 970 (5.2): none of its
	 * machine code is of major 5, its PTX is 9.0; 2.16.1 still has sm_50 */
	STR_COPY(f->gpus[1].compute_capability, "5.2");
	STR_COPY(fw->version, "2.17.0");
	STR_COPY(fw->built_cuda, "12.3");
	run_rule(rule_fw, f, &fs);
	fd = find_id_env(&fs, "fw.arch_not_in_build", VENV);
	assert_non_null(fd);
	assert_true(evidence_has(fd, "(read from the knowledge base)"));
	assert_true(evidence_has(fd, "source: "));
	assert_true(fix_has(fd, "TensorFlow 2.16.1, which runs natively on it (sm_50 machine code)"));
	findings_release(&fs);
	free(f);
}

/* ---- fw.deprecated_gpu_package ----------------------------------------------------- */

static void
test_deprecated_gpu_package(void **state)
{
	struct facts *f;
	struct python_env_facts *e = laptop_env(&f, "3.10.12");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	add_pkg(e, "tensorflow", "2.10.0");
	add_pkg(e, "tensorflow-gpu", "2.10.0");
	add_fw(e, "tensorflow", "tensorflow", "2.10.0", "11.2", "8", 1);
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.deprecated_gpu_package");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_string_equal(fd->env, VENV);
	assert_true(strstr(fd->title, "2 TensorFlow distributions") != NULL);
	assert_true(evidence_has(fd, "tensorflow-gpu 2.10.0"));
	assert_true(fix_has(fd, VENV "/bin/python3 -m pip uninstall -y tensorflow tensorflow-gpu\n"));
	assert_true(fix_has(fd, "install tensorflow==2.10.0"));
	assert_int_equal(count_id(&fs, "fw.deprecated_gpu_package"), 1);
	findings_release(&fs);

	/* tensorflow-gpu 2.12 alone: deprecated and empty */
	e->npkgs = 0;
	add_pkg(e, "tensorflow-gpu", "2.12.0");
	STR_COPY(e->frameworks[0].version, "2.12.0");
	STR_COPY(e->frameworks[0].package, "tensorflow-gpu");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.deprecated_gpu_package");
	assert_non_null(fd);
	assert_true(strstr(fd->title, "empty from 2.12") != NULL);
	assert_true(fix_has(fd, "uninstall -y tensorflow-gpu"));
	assert_true(fix_has(fd, "install tensorflow==2.12.0"));
	findings_release(&fs);

	/* tensorflow-gpu 1.15 was the right package then: nothing */
	e->npkgs = 0;
	e->nframeworks = 0;
	add_pkg(e, "tensorflow-gpu", "1.15.0");
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "fw.deprecated_gpu_package"));
	findings_release(&fs);
	free(f);
}

/* Two distributions of one package (onnxruntime and onnxruntime-gpu,
 * paddlepaddle and paddlepaddle-gpu): the GPU one is kept on a machine with
 * a GPU, the first one without; one distribution alone is nothing. */
static void
test_shared_package_doubled(void **state)
{
	struct facts *f;
	struct python_env_facts *e = laptop_env(&f, "3.10.12");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	add_pkg(e, "onnxruntime", "1.22.0");
	add_pkg(e, "onnxruntime-gpu", "1.22.0");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.deprecated_gpu_package");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_string_equal(fd->env, VENV);
	assert_non_null(strstr(fd->title, "2 onnxruntime distributions"));
	assert_true(evidence_has(fd, "onnxruntime-gpu 1.22.0"));
	assert_true(evidence_has(fd, "the same onnxruntime/ package directory"));
	assert_true(fix_has(fd, VENV "/bin/python3 -m pip uninstall -y onnxruntime onnxruntime-gpu\n"));
	assert_true(fix_has(fd, "install onnxruntime-gpu==1.22.0"));
	findings_release(&fs);

	/* no NVIDIA GPU on the machine: keep what came first */
	f->ngpus = 0;
	f->pci_valid = true;
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.deprecated_gpu_package");
	assert_non_null(fd);
	assert_true(fix_has(fd, "install onnxruntime==1.22.0"));
	findings_release(&fs);

	e->npkgs = 0;
	add_pkg(e, "paddlepaddle-gpu", "2.6.1");
	add_pkg(e, "onnxruntime-gpu", "1.22.0");
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "fw.deprecated_gpu_package"));
	findings_release(&fs);
	add_pkg(e, "paddlepaddle", "2.6.1");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.deprecated_gpu_package");
	assert_non_null(fd);
	assert_non_null(strstr(fd->title, "2 paddle distributions"));
	assert_int_equal(count_id(&fs, "fw.deprecated_gpu_package"), 1);
	findings_release(&fs);
	free(f);
}

/* ---- fw.and_cuda_missing ---------------------------------------------------------- */

static void
test_and_cuda_missing(void **state)
{
	struct facts *f;
	struct python_env_facts *e = laptop_env(&f, "3.11.9");
	struct framework_facts *fw;
	struct findings fs;
	const struct finding *fd;

	(void)state;
	/* TF 2.16.1 without [and-cuda] and without a system CUDA */
	add_pkg(e, "tensorflow", "2.16.1");
	fw = add_fw(e, "tensorflow", "tensorflow", "2.16.1", "12.3", "8", 1);
	add_resolved(fw, "libcudart.so.12", "", "", "", false);
	add_resolved(fw, "libcublas.so.12", "", "", "", false);
	add_resolved(fw, "libcudnn.so.8", "", "", "", false);
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.and_cuda_missing");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_string_equal(fd->env, VENV);
	assert_true(evidence_has(fd, "libcudart.so.12: not found"));
	assert_true(evidence_has(fd, "tensorflow[and-cuda]==2.16.1"));
	assert_true(fix_has(fd, VENV "/bin/python3 -m pip install 'tensorflow[and-cuda]==2.16.1'"));
	findings_release(&fs);

	/* the whole table: the missing libraries are its consequences */
	findings_init(&fs);
	rules_run(f, &fs);
	fd = find_id(&fs, "fw.and_cuda_missing");
	assert_non_null(fd);
	assert_false(findings_has(&fs, "lib.cudart_missing"));
	assert_false(findings_has(&fs, "lib.cudnn_missing"));
	assert_false(findings_has(&fs, "lib.cuda_lib_missing"));
	assert_true(evidence_has(fd, "also explains lib.cudart_missing"));
	findings_release(&fs);

	/* a missing library of another environment is not explained by it */
	{
		struct python_env_facts *o = add_pyenv(f, "/opt/other", "venv", "3.11.9");
		struct framework_facts *t = add_fw(o, "torch", "torch", "2.5.1+cu124", "12.4", "", 1);

		add_resolved(t, "libcudart.so.12", "", "", "", true);
		findings_init(&fs);
		rules_run(f, &fs);
		fd = find_id(&fs, "lib.cudart_missing");
		assert_non_null(fd);
		assert_string_equal(fd->env, "/opt/other");
		findings_release(&fs);
		f->npython--;
	}

	/* TF 2.15 with [and-cuda] complete: no finding at all */
	e->npkgs = 0;
	e->nframeworks = 0;
	tf215_complete(f, e);
	run_rule(rule_fw, f, &fs);
	if (fs.n)
		dump(&fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);

	/* TF 2.13 has no [and-cuda] extra: never this finding */
	e->npkgs = 0;
	e->nframeworks = 0;
	fw = add_fw(e, "tensorflow", "tensorflow", "2.13.0", "11.8", "8.6", 1);
	xla_found(fw, "/usr/local/cuda-11.8", "11.8");
	add_resolved(fw, "libcudart.so.11.0", "", "", "", false);
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "fw.and_cuda_missing"));
	assert_true(findings_has(&fs, "lib.cudart_missing"));
	findings_release(&fs);
	free(f);
}

/* ---- fw.jax_plugin_mismatch --------------------------------------------------------- */

static void
test_jax_plugin_mismatch(void **state)
{
	struct facts *f;
	struct python_env_facts *e = laptop_env(&f, "3.11.9");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	add_pkg(e, "jax", "0.4.31");
	add_pkg(e, "jaxlib", "0.4.30");
	add_pkg(e, "jax-cuda12-plugin", "0.4.31");
	add_pkg(e, "jax-cuda12-pjrt", "0.4.31");
	xla_found(add_fw(e, "jax", "jaxlib", "0.4.30", "12", "", 1), SITE "/nvidia/cuda_nvcc", "12.6");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.jax_plugin_mismatch");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_string_equal(fd->env, VENV);
	assert_true(evidence_has(fd, "jaxlib 0.4.30"));
	assert_true(evidence_has(fd, "jax-cuda12-plugin 0.4.31"));
	assert_true(fix_has(fd, "install jax-cuda12-plugin==0.4.30 jax-cuda12-pjrt==0.4.30"));
	assert_int_equal(fs.n, 1);
	findings_release(&fs);

	/* matching versions: nothing */
	STR_COPY(e->pkgs[2].version, "0.4.30");
	STR_COPY(e->pkgs[3].version, "0.4.30");
	run_rule(rule_fw, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);

	/* the cuda13 plugin of jax 0.11.2 on the laptop's CUDA 12.7 driver */
	e->npkgs = 0;
	e->nframeworks = 0;
	STR_COPY(e->version, "3.12.3");
	add_pkg(e, "jax", "0.11.2");
	add_pkg(e, "jaxlib", "0.11.2");
	add_pkg(e, "jax-cuda13-plugin", "0.11.2");
	add_pkg(e, "jax-cuda13-pjrt", "0.11.2");
	xla_found(add_fw(e, "jax", "jaxlib", "0.11.2", "13", "", 1), SITE "/nvidia/cu13", "13.0");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.jax_plugin_mismatch");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_true(strstr(fd->title, "CUDA 13") != NULL);
	assert_true(fix_has(fd, "uninstall -y jax-cuda13-plugin jax-cuda13-pjrt"));
	assert_true(fix_has(fd, "'jax[cuda12]==0.11.2'"));
	assert_true(fix_has(fd, "580.65.06"));
	assert_false(findings_has(&fs, "driver.too_old"));
	assert_int_equal(fs.n, 1);
	findings_release(&fs);
	free(f);
}

/* ---- lib.*_missing: TF 1.15 on CUDA 10.0 with only CUDA 11 ------------------------------- */

static void
test_missing_libs_tf115(void **state)
{
	struct facts *f;
	struct python_env_facts *e = laptop_env(&f, "3.7.16");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	tf115_on_cuda11(f, e);
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.cudart_missing");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_string_equal(fd->env, VENV);
	assert_true(strstr(fd->title, "libcudart.so.10.0") != NULL);
	assert_true(evidence_has(fd, "built for CUDA 10.0"));
	assert_true(fix_has(fd, "CUDA 10.0 and cuDNN 7.4"));
	/* the toolkit installed is another release: name it, install 10.0 beside it */
	assert_true(fix_has(fd, "the toolkit installed is CUDA 11.8 (/usr/local/cuda-11.8)"));
	assert_true(fix_has(fd, "cuda-toolkit-10-0"));
	assert_true(fix_has(fd, "export LD_LIBRARY_PATH=/usr/local/cuda-10.0/lib64"));
	/* no TF built for CUDA 11.8 runs on Python 3.7 */
	assert_false(fix_has(fd, "or install TensorFlow"));
	fd = find_id(&fs, "lib.cuda_lib_missing");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "libcublas.so.10.0"));
	fd = find_id(&fs, "lib.cudnn_missing");
	assert_non_null(fd);
	assert_true(evidence_has(fd, "libcudnn.so.7"));
	/* nothing CUDA 10 can be found in the CUDA 11 directory */
	fd = find_id(&fs, "env.ld_library_path_stale");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_string_equal(fd->env, VENV);
	assert_true(evidence_has(fd, "/usr/local/cuda-11.8/lib64 holds CUDA 11"));
	assert_false(findings_has(&fs, "fw.deprecated_gpu_package"));
	assert_false(findings_has(&fs, "fw.python_unsupported"));
	/* TensorFlow 1.15 has no sm_86 machine code: the RTX 3060 JIT-compiles
	 * its compute_70 PTX */
	fd = find_id(&fs, "fw.arch_ptx_jit");
	assert_non_null(fd);
	assert_true(evidence_has(fd, "compute_70 PTX"));
	assert_int_equal(fs.n, 5);
	findings_release(&fs);

	/* the same in a conda env: conda's cudatoolkit and cudnn */
	STR_COPY(e->kind, "conda");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.cudart_missing");
	assert_non_null(fd);
	assert_true(fix_has(fd, "conda install -p " VENV " -c conda-forge cudatoolkit=10.0 cudnn=7.4"));
	findings_release(&fs);

	/* everything found: none of them */
	STR_COPY(e->kind, "venv");
	STR_COPY(e->frameworks[0].resolved[0].path, "/usr/local/cuda-10.0/lib64/libcudart.so.10.0");
	STR_COPY(e->frameworks[0].resolved[0].version, "10.0.130");
	STR_COPY(e->frameworks[0].resolved[1].path, "/usr/local/cuda-10.0/lib64/libcublas.so.10.0");
	STR_COPY(e->frameworks[0].resolved[2].path, "/usr/local/cuda-10.0/lib64/libcudnn.so.7");
	STR_COPY(e->frameworks[0].resolved[2].version, "7.4.2");
	for (int i = 0; i < 3; i++)
		STR_COPY(e->frameworks[0].resolved[i].via, "ld_so_cache");
	run_rule(rule_fw, f, &fs);
	if (fs.n != 1)
		dump(&fs);
	/* only the JIT warning: TensorFlow 1.15 has no machine code for 8.6 */
	assert_int_equal(fs.n, 1);
	assert_string_equal(fs.v[0].id, "fw.arch_ptx_jit");
	findings_release(&fs);
	free(f);
}

/* TF 2.4 (CUDA 11.0) on a CUDA 11.2 toolkit: only libcusolver.so.10 is
 * missing; the fix names CUDA 11.0 and TF 2.5, built for 11.2. */
static void
test_missing_libs_tf24_on_cuda112(void **state)
{
	struct facts *f;
	struct python_env_facts *e = laptop_env(&f, "3.8.10");
	struct framework_facts *fw;
	struct findings fs;
	const struct finding *fd;

	(void)state;
	add_lib(f, "cudart", "/usr/local/cuda-11.2/lib64/libcudart.so.11.0", "libcudart.so.11.0", "11.2.152",
		ORIGIN_TOOLKIT, "/usr/local/cuda-11.2", true, true);
	add_pkg(e, "tensorflow", "2.4.1");
	fw = add_fw(e, "tensorflow", "tensorflow", "2.4.1", "11.0", "8", 1);
	xla_found(fw, "/usr/local/cuda-11.2", "11.2");
	add_resolved(fw, "libcudart.so.11.0", "/usr/local/cuda-11.2/lib64/libcudart.so.11.0", "11.2.152",
		     "ld_so_cache", false);
	add_resolved(fw, "libcusolver.so.10", "", "", "", false);
	add_resolved(fw, "libcudnn.so.8", "/usr/lib/x86_64-linux-gnu/libcudnn.so.8", "8.1.1", "ld_so_cache",
		     false);
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.cuda_lib_missing");
	if (!fd || fs.n != 1)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fs.n, 1);
	assert_true(fix_has(fd, "TensorFlow 2.4.1 loads CUDA 11.0 and cuDNN 8.0"));
	assert_true(fix_has(fd, "libcusolver.so.10: not there"));
	assert_true(fix_has(fd, "cuda-toolkit-11-0"));
	assert_true(fix_has(fd, "or install TensorFlow 2.5, built for the CUDA 11.2 installed"));
	assert_true(fix_has(fd, VENV "/bin/python3 -m pip install 'tensorflow==2.5.*'\n"));
	assert_false(fix_has(fd, "uninstall"));
	findings_release(&fs);

	/* the toolkit is the build's release: the plain advice */
	STR_COPY(f->libs[f->nlibs - 1].version, "11.0.221");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.cuda_lib_missing");
	assert_non_null(fd);
	assert_false(fix_has(fd, "cuda-toolkit-11-0"));
	assert_true(fix_has(fd, "CUDA 11.0 and cuDNN 8.0"));
	findings_release(&fs);
	free(f);
}

/* TF 2.10 in a conda env whose cudatoolkit/cudnn put the libraries in
 * <env>/lib, with no LD_LIBRARY_PATH: point the loader there. */
static void
test_missing_libs_in_conda_env(void **state)
{
	static const char *const env = "/home/ana/miniconda3/envs/tf";
	struct facts *f = laptop();
	struct python_env_facts *e = add_pyenv(f, env, "conda", "3.9.17");
	struct framework_facts *fw;
	struct findings fs;
	const struct finding *fd;

	(void)state;
	add_lib(f, "cudart", "/home/ana/miniconda3/envs/tf/lib/libcudart.so.11.0", "libcudart.so.11", "11.2.152",
		ORIGIN_CONDA, env, false, false);
	add_lib(f, "cudnn", "/home/ana/miniconda3/envs/tf/lib/libcudnn.so.8", "libcudnn.so.8", "8.1.0",
		ORIGIN_CONDA, env, false, false);
	add_pkg(e, "tensorflow", "2.10.1");
	fw = add_fw(e, "tensorflow", "tensorflow", "2.10.1", "11.2", "8", 1);
	xla_found(fw, "/usr/local/cuda-11.2", "11.2");
	add_resolved(fw, "libcudart.so.11.0", "", "", "", false);
	add_resolved(fw, "libcudnn.so.8", "", "", "", false);
	add_resolved(fw, "libcusolver.so.11", "", "", "", false);
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.cudart_missing");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_true(evidence_has(fd, "/home/ana/miniconda3/envs/tf/lib/libcudart.so.11.0 version 11.2.152, in "
				     "the environment"));
	assert_true(fix_has(fd, "exists in this environment's own lib directory, "
				"/home/ana/miniconda3/envs/tf/lib (libcudart.so.11.0)"));
	assert_true(fix_has(fd, "export LD_LIBRARY_PATH=/home/ana/miniconda3/envs/tf/lib${LD_LIBRARY_PATH:+"));
	assert_true(fix_has(fd, "conda env config vars set -p /home/ana/miniconda3/envs/tf "
				"LD_LIBRARY_PATH=/home/ana/miniconda3/envs/tf/lib\n"));
	assert_false(fix_has(fd, "conda install"));
	fd = find_id(&fs, "lib.cudnn_missing");
	assert_non_null(fd);
	assert_true(fix_has(fd, "(libcudnn.so.8)"));
	/* cuSOLVER is not in the env: the usual advice after the env's */
	fd = find_id(&fs, "lib.cuda_lib_missing");
	assert_non_null(fd);
	assert_false(fix_has(fd, "own lib directory"));
	assert_true(fix_has(fd, "cudatoolkit=11.2"));
	findings_release(&fs);

	/* a copy outside <env>/lib is not the environment's own */
	STR_COPY(e->kind, "venv");
	STR_COPY(f->libs[f->nlibs - 1].path, "/opt/cudnn/lib/libcudnn.so.8");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.cudnn_missing");
	assert_non_null(fd);
	assert_false(fix_has(fd, "own lib directory"));
	findings_release(&fs);
	free(f);
}

static void
test_missing_libs_pip(void **state)
{
	struct facts *f = healthy_h200();
	struct framework_facts *fw = &f->python[0].frameworks[0];
	struct findings fs;
	const struct finding *fd;

	(void)state;
	/* torch cu130 without its cuDNN wheel; optional TensorRT missing too */
	fw->resolved[9].path[0] = '\0';
	fw->resolved[9].version[0] = '\0';
	fw->resolved[9].via[0] = '\0';
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.cudnn_missing");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(fix_has(fd, "-m pip install 'nvidia-cudnn-cu13==9.*'"));
	assert_true(fix_has(fd, "torch==2.11.0 --index-url https://download.pytorch.org/whl/cu130"));
	assert_int_equal(fs.n, 1);
	findings_release(&fs);

	add_resolved(fw, "libnvinfer.so.10", "", "", "", false);
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.cuda_lib_missing");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(evidence_has(fd, "TensorRT is optional"));
	findings_release(&fs);

	/* a CUDA 12 TF [and-cuda] release: the exact pin of the wheel */
	{
		struct python_env_facts *e = add_pyenv(f, VENV, "venv", "3.11.9");
		struct framework_facts *t = tf215_complete(f, e);

		t->resolved[0].path[0] = '\0';
		e->npkgs = 1; /* tensorflow only: then fw.and_cuda_missing */
		run_rule(rule_fw, f, &fs);
		assert_true(findings_has(&fs, "fw.and_cuda_missing"));
		findings_release(&fs);
		add_pkg(e, "nvidia-cuda-runtime-cu12", "12.2.140");
		run_rule(rule_fw, f, &fs);
		assert_false(findings_has(&fs, "fw.and_cuda_missing"));
		fd = NULL;
		for (size_t i = 0; i < fs.n; i++)
			if (!strcmp(fs.v[i].id, "lib.cudart_missing") && !strcmp(fs.v[i].env, VENV))
				fd = &fs.v[i];
		assert_non_null(fd);
		assert_true(fix_has(fd, "nvidia-cuda-runtime-cu12==12.2.140"));
		assert_true(fix_has(fd, "'tensorflow[and-cuda]==2.15.0'"));
		findings_release(&fs);
	}
	free(f);
}

/* ---- lib.cudnn_version_mismatch: TF 2.13 with only cuDNN 9 -------------------------------- */

static void
test_cudnn_version_mismatch(void **state)
{
	struct facts *f;
	struct python_env_facts *e = laptop_env(&f, "3.11.9");
	struct framework_facts *fw;
	struct findings fs;
	const struct finding *fd;

	(void)state;
	add_lib(f, "cudart", "/usr/local/cuda-11.8/lib64/libcudart.so.11.0", "libcudart.so.11.0", "11.8.89",
		ORIGIN_TOOLKIT, "/usr/local/cuda-11.8", true, true);
	add_lib(f, "cudnn", "/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "libcudnn.so.9", "9.1.0", ORIGIN_SYSTEM,
		"/usr/lib/x86_64-linux-gnu", true, true);
	add_pkg(e, "tensorflow", "2.13.0");
	fw = add_fw(e, "tensorflow", "tensorflow", "2.13.0", "11.8", "8.6", 1);
	xla_found(fw, "/usr/local/cuda-11.8", "11.8");
	add_resolved(fw, "libcudart.so.11.0", "/usr/local/cuda-11.8/lib64/libcudart.so.11.0", "11.8.89",
		     "ld_so_cache", false);
	add_resolved(fw, "libcudnn.so.8", "", "", "", false);
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.cudnn_version_mismatch");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_string_equal(fd->env, VENV);
	assert_true(strstr(fd->title, "needs cuDNN 8") != NULL);
	assert_true(evidence_has(fd, "cuDNN 9.1.0 at /usr/lib/x86_64-linux-gnu/libcudnn.so.9"));
	assert_true(fix_has(fd, "-m pip install 'nvidia-cudnn-cu11==8.6.*'"));
	assert_true(fix_has(fd, "export LD_LIBRARY_PATH=" SITE "/nvidia/cudnn/lib"));
	/* the same fact is not reported twice */
	assert_false(findings_has(&fs, "lib.cudnn_missing"));
	assert_int_equal(fs.n, 1);
	findings_release(&fs);

	/* an older cuDNN 8 than the build's: TensorFlow refuses it too */
	STR_COPY(fw->resolved[1].path, "/usr/lib/x86_64-linux-gnu/libcudnn.so.8");
	STR_COPY(fw->resolved[1].version, "8.5.0");
	STR_COPY(fw->resolved[1].via, "ld_so_cache");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.cudnn_version_mismatch");
	assert_non_null(fd);
	assert_true(strstr(fd->title, "older cuDNN 8.5.0") != NULL);
	findings_release(&fs);

	/* 8.6.0 and 8.9.7 are fine */
	STR_COPY(fw->resolved[1].version, "8.6.0");
	run_rule(rule_fw, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);
	STR_COPY(fw->resolved[1].version, "8.9.7");
	run_rule(rule_fw, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);
	free(f);
}

/* ---- lib.cuda_version_mismatch -------------------------------------------------------- */

static void
test_cuda_version_mismatch(void **state)
{
	struct facts *f;
	struct python_env_facts *e = laptop_env(&f, "3.7.16");
	struct framework_facts *fw;
	struct findings fs;
	const struct finding *fd;

	(void)state;
	/* the classic hack: CUDA 11's cudart linked to the name TF 1.15 asks for */
	fw = tf115_on_cuda11(f, e);
	f->env.nldpath = 0;
	STR_COPY(fw->resolved[0].path, "/usr/local/cuda-11.8/lib64/libcudart.so.10.0");
	STR_COPY(fw->resolved[0].version, "11.8.89");
	STR_COPY(fw->resolved[0].via, "ld_library_path");
	fw->nresolved = 1;
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.cuda_version_mismatch");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_string_equal(fd->env, VENV);
	assert_true(strstr(fd->title, "built for CUDA 10.0, loads CUDA 11") != NULL);
	assert_true(evidence_has(fd, "libcudart.so.10.0 -> /usr/local/cuda-11.8/lib64/libcudart.so.10.0"));
	assert_true(fix_has(fd, "nvidia-cuda-runtime-cu10==10.0.*"));
	findings_release(&fs);
	free(f);

	/* the H200's cuSPARSE 12 and cuFFT 12 under CUDA 13 number
	 * themselves: no mismatch (tested quiet in test_healthy_h200); a
	 * cuBLAS 12 picked by torch cu130 is one */
	f = healthy_h200();
	fw = &f->python[0].frameworks[0];
	STR_COPY(fw->resolved[7].version, "12.9.1.4");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.cuda_version_mismatch");
	assert_non_null(fd);
	assert_true(fix_has(fd, "'nvidia-cublas'") || fix_has(fd, " nvidia-cublas"));
	findings_release(&fs);
	free(f);
}

/* ---- lib.shadowed ------------------------------------------------------------------- */

static void
test_shadowed(void **state)
{
	struct facts *f;
	struct python_env_facts *e = laptop_env(&f, "3.11.9");
	struct framework_facts *fw;
	struct findings fs;
	const struct finding *fd;

	(void)state;
	fw = tf215_complete(f, e);
	/* LD_LIBRARY_PATH comes before TF's RUNPATH */
	set_env(f, "LD_LIBRARY_PATH", "/opt/cudnn-8.6/lib:/usr/local/nvidia/lib64");
	add_ldpath(f, "/opt/cudnn-8.6/lib", true, "");
	add_ldpath(f, "/usr/local/nvidia/lib64", true, "");
	STR_COPY(fw->resolved[5].path, "/opt/cudnn-8.6/lib/libcudnn.so.8");
	STR_COPY(fw->resolved[5].version, "8.6.0");
	STR_COPY(fw->resolved[5].via, "ld_library_path");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.shadowed");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_string_equal(fd->env, VENV);
	assert_true(strstr(fd->title, "libcudnn.so.8 8.6.0 from LD_LIBRARY_PATH") != NULL);
	assert_true(evidence_has(fd, "8.9.4.25"));
	assert_true(evidence_has(fd, "is newer"));
	assert_true(fix_has(fd, "export LD_LIBRARY_PATH=/usr/local/nvidia/lib64\n"));
	/* and TensorFlow 2.15 (cuDNN 8.9) refuses the older 8.6 */
	assert_true(findings_has(&fs, "lib.cudnn_version_mismatch"));
	findings_release(&fs);

	/* the wheel's own copy picked: nothing */
	STR_COPY(fw->resolved[5].path, SITE "/nvidia/cudnn/lib/libcudnn.so.8");
	STR_COPY(fw->resolved[5].version, "8.9.4.25");
	STR_COPY(fw->resolved[5].via, "runpath");
	run_rule(rule_fw, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);

	/* the same version from elsewhere: harmless */
	STR_COPY(fw->resolved[5].path, "/opt/cudnn-8.9/lib/libcudnn.so.8");
	STR_COPY(fw->resolved[5].via, "ld_library_path");
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "lib.shadowed"));
	findings_release(&fs);
	free(f);
}

/* ---- driver.too_old ----------------------------------------------------------------- */

static void
test_driver_too_old(void **state)
{
	struct facts *f;
	struct python_env_facts *e = laptop_env(&f, "3.11.9");
	struct framework_facts *fw;
	struct findings fs;
	const struct finding *fd;

	(void)state;
	/* torch +cu118 on driver 418 (CUDA 10.1) */
	STR_COPY(f->driver.version, "418.87.00");
	STR_COPY(f->driver.cuda_version, "10.1");
	add_pkg(e, "torch", "2.5.1+cu118");
	fw = add_fw(e, "torch", "torch", "2.5.1+cu118", "11.8", "", 1);
	add_resolved(fw, "libcudart.so.11.0", SITE "/nvidia/cuda_runtime/lib/libcudart.so.11.0", "11.8.89", "rpath",
		     true);
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "driver.too_old");
	if (!fd)
		dump(&fs);
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_string_equal(fd->env, VENV);
	assert_true(strstr(fd->title, "needs CUDA 11.8") != NULL);
	assert_true(evidence_has(fd, "520.61.05"));
	assert_true(fix_has(fd, "Upgrade the driver to 520.61.05 or newer"));
	/* driver 418 predates the RTX 3060 (Ampere came with CUDA 11.1): no
	 * torch runs on it with this driver, so only the upgrade is offered */
	assert_false(fix_has(fd, "or install torch"));
	assert_int_equal(fs.n, 1);
	findings_release(&fs);
	/* a GTX 1080 (Pascal) on the same driver: the newest torch with a build
	 * for CUDA 10.1 that has machine code for 6.x (sm_60) */
	STR_COPY(f->gpus[0].compute_capability, "6.1");
	STR_COPY(f->gpus[0].name, "NVIDIA GeForce GTX 1080");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "driver.too_old");
	assert_non_null(fd);
	assert_true(fix_has(fd, "torch==1.8.1 --index-url https://download.pytorch.org/whl/cu101"));
	findings_release(&fs);
	STR_COPY(f->gpus[0].compute_capability, "8.6");

	/* driver 470 (CUDA 11.4) runs cu118 by minor-version compatibility */
	STR_COPY(f->driver.version, "470.256.02");
	STR_COPY(f->driver.cuda_version, "11.4");
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "driver.too_old"));
	findings_release(&fs);

	/* unknown driver CUDA: nothing */
	f->driver.cuda_version[0] = '\0';
	f->driver.cuda_driver_version = f->driver.nvml_cuda_version = 0;
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "driver.too_old"));
	findings_release(&fs);
	free(f);
}

/* ---- env.ld_library_path_stale: only where the framework consults it -------------------- */

static void
test_ldpath_stale(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;

	(void)state;
	/* torch cu130 gets all of its libraries by RPATH: a CUDA 12 entry
	 * does not matter to it */
	set_env(f, "LD_LIBRARY_PATH", "/usr/local/cuda-12.4/lib64");
	add_ldpath(f, "/usr/local/cuda-12.4/lib64", true, "12");
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "env.ld_library_path_stale"));
	findings_release(&fs);
	/* (the firing case is test_missing_libs_tf115) */
	free(f);
}

/* ---- lib.libdevice_missing / lib.ptxas_missing ---------------------------------------- */

static struct framework_facts *
h200_jax(struct facts *f)
{
	struct python_env_facts *e = &f->python[0];
	int i;

	for (i = 0; i < e->nframeworks; i++)
		if (!strcmp(e->frameworks[i].name, "jax"))
			return &e->frameworks[i];
	fail();
	return NULL;
}

static void
test_xla_libdevice_missing(void **state)
{
	struct facts *f = healthy_h200();
	struct framework_facts *fw = h200_jax(f);
	const struct finding *fd;
	struct findings fs;

	(void)state;
	/* healthy: found in /usr/local/cuda */
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "lib.libdevice_missing"));
	findings_release(&fs);

	fw->libdevice[0] = '\0';
	run_rule(rule_fw, f, &fs);
	assert_int_equal(count_id(&fs, "lib.libdevice_missing"), 1);
	fd = find_id(&fs, "lib.libdevice_missing");
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_title_ok(fd);
	assert_true(evidence_has(fd, "looked in"));
	assert_true(fix_has(fd, "nvidia-cuda-nvcc==13.*"));
	assert_true(fix_has(fd, "--xla_gpu_cuda_data_dir="));
	assert_false(findings_has(&fs, "lib.ptxas_missing"));
	findings_release(&fs);

	/* TensorFlow: a warning, with the -cu12 wheel */
	STR_COPY(fw->name, "tensorflow");
	STR_COPY(fw->built_cuda, "12.3");
	STR_COPY(fw->ptxas_version, "12.4");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.libdevice_missing");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(fix_has(fd, "nvidia-cuda-nvcc-cu12"));
	findings_release(&fs);

	/* a CPU-only build needs neither; torch is not XLA */
	STR_COPY(fw->name, "jax");
	fw->cuda_build = 0;
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "lib.libdevice_missing"));
	findings_release(&fs);
	fw->cuda_build = 1;
	STR_COPY(fw->name, "torch");
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "lib.libdevice_missing"));
	findings_release(&fs);
	free(f);
}

static void
test_xla_ptxas(void **state)
{
	struct facts *f = healthy_h200();
	struct framework_facts *fw = h200_jax(f);
	const struct finding *fd;
	struct findings fs;

	(void)state;
	fw->ptxas[0] = '\0';
	fw->ptxas_version[0] = '\0';
	run_rule(rule_fw, f, &fs);
	assert_int_equal(count_id(&fs, "lib.ptxas_missing"), 1);
	fd = find_id(&fs, "lib.ptxas_missing");
	assert_int_equal(fd->severity, SEV_WARN);
	assert_title_ok(fd);
	assert_true(evidence_has(fd, "/usr/local/cuda"));
	assert_false(findings_has(&fs, "lib.libdevice_missing"));
	findings_release(&fs);

	/* too old: ptxas 11.8 for a CUDA 12.3 build */
	STR_COPY(fw->ptxas, "/usr/local/cuda-11.8/bin/ptxas");
	STR_COPY(fw->ptxas_version, "11.8");
	STR_COPY(fw->built_cuda, "12.3");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "lib.ptxas_missing");
	assert_non_null(fd);
	assert_non_null(strstr(fd->title, "ptxas 11.8 cannot compile for CUDA 12.3 PTX"));
	assert_true(evidence_has(fd, "/usr/local/cuda-11.8/bin/ptxas"));
	findings_release(&fs);

	/* an older minor of the same major */
	STR_COPY(fw->ptxas_version, "12.2");
	run_rule(rule_fw, f, &fs);
	assert_int_equal(count_id(&fs, "lib.ptxas_missing"), 1);
	findings_release(&fs);

	/* as new or newer: quiet; an unknown version: quiet */
	STR_COPY(fw->ptxas_version, "12.3");
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "lib.ptxas_missing"));
	findings_release(&fs);
	STR_COPY(fw->ptxas_version, "13.0");
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "lib.ptxas_missing"));
	findings_release(&fs);
	fw->ptxas_version[0] = '\0';
	run_rule(rule_fw, f, &fs);
	assert_false(findings_has(&fs, "lib.ptxas_missing"));
	findings_release(&fs);
	/* a major-only build CUDA compares majors */
	STR_COPY(fw->built_cuda, "13");
	STR_COPY(fw->ptxas_version, "12.9");
	run_rule(rule_fw, f, &fs);
	assert_int_equal(count_id(&fs, "lib.ptxas_missing"), 1);
	findings_release(&fs);
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy_h200),
		cmocka_unit_test(test_cpu_only_torch),
		cmocka_unit_test(test_cpu_only_tensorflow),
		cmocka_unit_test(test_python_unsupported),
		cmocka_unit_test(test_arch_not_in_build),
		cmocka_unit_test(test_deprecated_gpu_package),
		cmocka_unit_test(test_shared_package_doubled),
		cmocka_unit_test(test_and_cuda_missing),
		cmocka_unit_test(test_jax_plugin_mismatch),
		cmocka_unit_test(test_missing_libs_tf115),
		cmocka_unit_test(test_missing_libs_pip),
		cmocka_unit_test(test_cudnn_version_mismatch),
		cmocka_unit_test(test_cuda_version_mismatch),
		cmocka_unit_test(test_shadowed),
		cmocka_unit_test(test_driver_too_old),
		cmocka_unit_test(test_ldpath_stale),
		cmocka_unit_test(test_xla_libdevice_missing),
		cmocka_unit_test(test_xla_ptxas),
		cmocka_unit_test(test_missing_libs_tf24_on_cuda112),
		cmocka_unit_test(test_missing_libs_in_conda_env),
	};

	return cmocka_run_group_tests_name("rules_fw", tests, NULL, NULL);
}
