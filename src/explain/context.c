/*
 * context.c - what the context of a log makes of a cause (explain_context):
 * the facts around a message, not the message, decide its finding. WSL2
 * behind a missing driver library, a container or a Slurm job started
 * without a GPU, a JetPack 4 image without the NVIDIA runtime, a build
 * without code for the GPU (its minimum, PyTorch's builds, a JIT that
 * failed, an architecture nothing current supports), nvcc's refused
 * architecture read by its history, pip's list of the releases this Python
 * can install, the CUDA the log shows installed, macOS.
 */
#include "explain/context.h"
#include "explain/explain.h"
#include "base/str.h"
#include "base/vers.h"
#include "base/xalloc.h"
#include "kb/kb.h"
#include "kb/runs_on.h"
#include "plan/plan.h"
#include "render/plan_text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
explain_recast(struct explain_cause *c, const char *id, char *title, const char *explain, const char *fix)
{
	c->id = id;
	c->role = EXPLAIN_CAUSE;
	c->severity = SEV_ERROR;
	free(c->title);
	c->title = title;
	if (explain) {
		free(c->explain);
		c->explain = xstrdup(explain);
	}
	free(c->fix);
	c->fix = xstrdup(fix);
}

/*
 * Inside WSL2 the driver libraries (libcuda, libnvidia-ml) come from the
 * Windows driver through /usr/lib/wsl/lib, and there is no NVIDIA kernel
 * module: nvidia-smi reaches the Windows driver through /dev/dxg. When a
 * log that says WSL2 misses the libraries or cannot reach "the driver",
 * the cause is the Windows side: no NVIDIA driver there, or a Windows or
 * driver release without WSL2 GPU support.
 */
static void
wsl_context(struct explain *x)
{
	size_t i;

	if (!x->wsl_line)
		return;
	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		if (strcmp(c->id, "driver.libcuda_missing") && strcmp(c->id, "kmod.nvidia_not_loaded"))
			continue;
		explain_recast(c, "host.wsl_driver_missing",
		       xstrdup(strcmp(c->id, "kmod.nvidia_not_loaded")
				       ? "WSL2 has no driver library from Windows (libcuda / libnvidia-ml)"
				       : "WSL2 cannot reach the NVIDIA driver on Windows"),
		       "Inside WSL2 the NVIDIA driver libraries are provided by the Windows driver "
		       "in /usr/lib/wsl/lib; they are missing when Windows has no NVIDIA driver, or "
		       "a Windows or driver release without WSL2 GPU support (Windows 10 21H2 or "
		       "Windows 11 is needed).",
		       "Install or update the NVIDIA driver on Windows (not inside WSL), update "
		       "Windows, then restart WSL:\nwsl --shutdown\n"
		       "Never install a Linux NVIDIA driver inside WSL2.");
		explain_evidence(c, "the log says it comes from WSL2 (line %lu)", x->wsl_line);
	}
}

/*
 * A log that sets CUDA_VISIBLE_DEVICES and then finds no device: the
 * variable hid every GPU (-1, empty) or named ones that do not exist
 * ("2,3,7,8" on a one-GPU machine). A lone "0" is left alone: the first
 * GPU exists wherever there is one, so the cause is elsewhere.
 */
static void
visible_devices_context(struct explain *x)
{
	const char *v = x->cvd_value;
	bool hides;
	size_t i;

	if (!x->cvd_line || !strcmp(v, "0"))
		return;
	hides = !v[0] || !strcmp(v, "-1") || !strcasecmp(v, "none") || !strcmp(v, "NoDevFiles");
	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		if (strcmp(c->id, "driver.no_visible_device"))
			continue;
		explain_recast(c, hides ? "env.visible_devices_hides_all" : "env.visible_devices_invalid",
		       hides ? xasprintf("CUDA_VISIBLE_DEVICES=%s hides every GPU", v[0] ? v : "'' (empty)")
			     : xasprintf("CUDA_VISIBLE_DEVICES=%s names GPUs that CUDA does not find", v),
		       NULL,
		       "List the GPUs that exist and their indices, then set the variable to those "
		       "(or unset it):\nnvidia-smi -L\nunset CUDA_VISIBLE_DEVICES");
		explain_evidence(c, "the log sets CUDA_VISIBLE_DEVICES=%s (line %lu) before CUDA "
				 "found no device", v, x->cvd_line);
	}
}

/* The lowest compute capability an official build of framework carries
 * code for (build_targets.tsv), as x10; 0 when the table has none. */
static int
lowest_official_cc(const char *framework)
{
	size_t n, i;
	const struct kb_build_target *t = kb_list_build_targets(&n);
	int best = 0;

	for (i = 0; i < n; i++) {
		const char *p = t[i].sass;
		if (strcmp(t[i].framework, framework))
			continue;
		while (*p) {
			char *end;
			double v = strtod(p, &end);
			if (end == p)
				break;
			if (v > 0 && (!best || (int)(v * 10 + 0.5) < best))
				best = (int)(v * 10 + 0.5);
			p = end;
			while (*p == ' ')
				p++;
		}
	}
	return best;
}

/*
 * TensorFlow's "The minimum required Cuda capability is X" is the minimum
 * of the build that runs, not of TensorFlow: when an official build has
 * code for the GPU's compute capability, or the log builds TensorFlow from
 * source with its own targets, the GPU is not too old, this build (a
 * community wheel, a source build, a newer release) left it out.
 */
static void
build_minimum_context(struct explain *x)
{
	int lowest = lowest_official_cc("tensorflow");
	size_t i;

	for (i = 0; (lowest || x->source_build_line) && i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		const char *cc = explain_value(c, "cc"), *min = explain_value(c, "expected");
		if (strcmp(c->id, "hw.arch_too_old") || !c->pattern || strcmp(c->pattern->framework, "tensorflow") ||
		    !cc || !min)
			continue;
		if (x->source_build_line) {
			/* a build from source chose its targets: the choice left it out */
			explain_recast(c, "fw.arch_not_in_build",
			       xasprintf("This TensorFlow build starts at compute capability %s; the GPU's %s "
					 "is left out", min, cc),
			       "The log builds TensorFlow from source with its own list of GPU targets. The "
			       "minimum TensorFlow prints is that of the build that runs, so that build did not "
			       "include this GPU's compute capability: the setting did not reach the build, or "
			       "the TensorFlow running is another build.",
			       "python -c \"import tensorflow as tf; print(tf.__file__, "
			       "tf.sysconfig.get_build_info().get('cuda_compute_capabilities'))\"\n"
			       "Rebuild with the GPU's compute capability in TF_CUDA_COMPUTE_CAPABILITIES "
			       "(./configure asks for it) and install the wheel that build makes");
			explain_evidence(c, "the log builds from source with its own GPU targets (line %lu)",
					 x->source_build_line);
			continue;
		}
		if (!lowest || (int)(strtod(cc, NULL) * 10 + 0.5) < lowest)
			continue;
		explain_recast(c, "fw.arch_not_in_build",
		       xasprintf("This TensorFlow build starts at compute capability %s; the GPU's %s "
				 "is left out", min, cc),
		       "The minimum TensorFlow prints is that of the build installed. Official "
		       "TensorFlow builds carry code for this GPU's compute capability, so the GPU is "
		       "not too old: this build (a community or source build, or a release that "
		       "raised its minimum) did not include it.",
		       "gpudoctor plan tensorflow\nInstall an official TensorFlow build that includes "
		       "the GPU's compute capability (gpudoctor compat tensorflow VERSION lists each "
		       "release's), or build TensorFlow with TF_CUDA_COMPUTE_CAPABILITIES including it");
		explain_evidence(c, "official TensorFlow builds carry code from compute capability %d.%d",
				 lowest / 10, lowest % 10);
	}
}

/* A compute capability as x10 from the forms logs print: "3.7", "sm_37",
 * "compute_37", or an architecture number "37" (major * 10 + minor); 0
 * when it is none of them. */
static int
cc_x10(const char *s)
{
	char *end;
	long v;

	if (!strncmp(s, "sm_", 3))
		s += 3;
	else if (!strncmp(s, "compute_", 8))
		s += 8;
	if (strchr(s, '.')) {
		double d = strtod(s, &end);
		return end != s && d > 0 && d < 100 ? (int)(d * 10 + 0.5) : 0;
	}
	v = strtol(s, &end, 10);
	return end != s && v >= 10 && v < 1000 ? (int)v : 0;
}

/* The newest official Linux build of a framework with machine code for a
 * GPU of compute capability cc ("6.1"), asked of runs_on.h; of a release's
 * builds, the one of the oldest CUDA (the oldest driver). False when none
 * carries any. */
static bool
newest_native_build(const char *framework, const char *cc, char *version, size_t vsize, char *cuda,
		    size_t csize, char *via, size_t viasize)
{
	size_t n, i;
	const struct kb_build_target *t = kb_list_build_targets(&n);
	bool found = false;

	for (i = 0; i < n; i++) {
		const char *v = t[i].version_max[0] ? t[i].version_max : t[i].version_min;
		struct build_code b;
		struct runs_verdict verdict;
		int c;

		if (strcmp(t[i].framework, framework) || strcmp(t[i].platform, "linux") ||
		    !runs_code_from_kb(framework, v, "linux", t[i].cuda, &b))
			continue;
		runs_decide(&b, cc, "", &verdict);
		if (verdict.how != RUNS_NATIVE)
			continue;
		c = found ? vers_cmp(v, version) : 1;
		if (c < 0 || (c == 0 && vers_cmp(t[i].cuda, cuda) >= 0))
			continue;
		str_copy(version, vsize, v);
		str_copy(cuda, csize, t[i].cuda);
		str_copy(via, viasize, verdict.via);
		found = true;
	}
	return found;
}

/* pip's command for PyTorch release version built with CUDA cuda on
 * Linux: plan's own, in the form each release's wheels need. */
static char *
torch_pip(const char *version, const char *cuda)
{
	struct plan p;

	memset(&p, 0, sizeof(p));
	p.fw = PLAN_TORCH;
	p.os = PLAN_OS_LINUX;
	p.gpu = true;
	p.ok = true;
	STR_COPY(p.version, version);
	STR_COPY(p.variant, cuda);
	return plan_pip_command(&p);
}

/*
 * PyTorch's verdicts on a GPU ("Found GPU0 ... which is of cuda capability
 * 6.1 ... minimum ... (7.0)", "sm_61 is not compatible with the current
 * PyTorch installation") speak of the build installed. Asked of every
 * official build (runs_on.h): when one has machine code for the GPU, that
 * build is the fix (the cu126 wheels keep sm_50 and sm_60, which Pascal's
 * 6.1 runs, after the cu128 ones dropped them), and where PyTorch itself
 * says the GPU is not in this build's list, the GPU is not too old: this
 * build left it out. Older releases' "no longer supports this GPU because
 * it is too old" stays their verdict. When no build has code for the GPU,
 * it is older than any PyTorch carries (ancient_gpu_context).
 */
static void
torch_build_context(struct explain *x)
{
	char version[40], cuda[16], via[16], cc[16], *pip, *fix;
	struct explain_cause *first = NULL;
	bool said_not_in_build = false;
	size_t i;
	int v;

	for (i = 0; i < x->ncauses; i++)
		said_not_in_build |= !strcmp(x->causes[i].id, "fw.arch_not_in_build") && x->causes[i].pattern &&
				     !strcmp(x->causes[i].pattern->framework, "torch");
	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		const char *cap = explain_value(c, "cc");

		if ((strcmp(c->id, "hw.arch_too_old") && strcmp(c->id, "fw.arch_not_in_build")) || !c->pattern ||
		    c->hidden || strcmp(c->pattern->framework, "torch") || !cap || !(v = cc_x10(cap)))
			continue;
		snprintf(cc, sizeof(cc), "%d.%d", v / 10, v % 10);
		if (!newest_native_build("torch", cc, version, sizeof(version), cuda, sizeof(cuda), via, sizeof(via)))
			continue;
		/* PyTorch says it twice (the GPU's capability, then the build's
		 * list): one cause */
		if (first) {
			explain_fold(first, c);
			continue;
		}
		first = c;
		pip = torch_pip(version, cuda);
		fix = xasprintf("%s\ngpudoctor plan torch   # on the machine: the build for its Python and driver", pip);
		free(pip);
		if (!strcmp(c->id, "hw.arch_too_old") && said_not_in_build) {
			explain_recast(c, "fw.arch_not_in_build",
			       xasprintf("This PyTorch build leaves out the GPU's compute capability %s; PyTorch "
					 "%s for CUDA %s carries code for it", cc, version, cuda),
			       "The GPU is not too old for PyTorch: the build installed starts above its compute "
			       "capability, while other official builds still carry machine code it runs.",
			       fix);
			free(fix);
		} else {
			free(c->fix);
			c->fix = fix;
		}
		explain_evidence(c, "PyTorch %s built with CUDA %s has machine code for %s, which compute "
				 "capability %s runs", version, cuda, via, cc);
	}
}

/*
 * A framework that says it will JIT-compile its kernels from PTX for a
 * GPU it has no machine code for, and then a CUDA error it gives no cause
 * for: the PTX did not run on the GPU (a JIT that failed, PTX too old for
 * an architecture that needs its own code), so the build does not serve
 * this GPU at all; slowness was not the problem.
 */
static void
jit_failed_context(struct explain *x)
{
	size_t i, j;

	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		const char *cc = explain_value(c, "cc");
		char *fix;

		if (c->hidden || strcmp(c->id, "fw.arch_ptx_jit"))
			continue;
		for (j = 0; j < x->ncauses; j++) {
			const struct explain_cause *d = &x->causes[j];
			if (!d->hidden && d->severity >= SEV_ERROR && d->lines[0] > c->lines[0] &&
			    (!strcmp(d->id, "rt.unknown") || !strcmp(d->id, "rt.kernel_fault")))
				break;
		}
		if (j == x->ncauses)
			continue;
		/* the JIT's cache size no longer matters: another build does */
		if (c->pattern && !strcmp(c->pattern->framework, "tensorflow"))
			fix = xstrdup("gpudoctor plan tensorflow   # the release and build with code for this GPU\n"
				      "gpudoctor compat --gpu \"GPU NAME\"");
		else
			fix = xstrdup(c->fix ? c->fix : "gpudoctor doctor");
		explain_recast(c, "fw.arch_not_in_build",
		       cc ? xasprintf("The build has no machine code for compute capability %s, and its PTX did "
				      "not run", cc)
			  : xstrdup("The build has no machine code for this GPU, and its PTX did not run"),
		       "The framework said it would compile its kernels from PTX for this GPU, then CUDA "
		       "failed: the build does not serve this GPU. Install a build that carries machine "
		       "code for its compute capability.",
		       fix);
		free(fix);
		explain_evidence(c, "line %lu: a CUDA error follows the JIT-compile notice", x->causes[j].lines[0]);
	}
}

/*
 * The other way round: a program without code for a GPU whose compute
 * capability is below every official build of every framework (Fermi's
 * 2.1 under a CUDA that dropped it) is a GPU too old for today's CUDA
 * software, whatever the program's own list said.
 */
static void
ancient_gpu_context(struct explain *x)
{
	static const char *const frameworks[] = {"tensorflow", "torch", "jax", NULL};
	int lowest = 0, k, cc;
	size_t i;

	for (k = 0; frameworks[k]; k++) {
		int l = lowest_official_cc(frameworks[k]);
		if (l && (!lowest || l < lowest))
			lowest = l;
	}
	/* a build from source chose its targets, whatever the GPU's age */
	for (i = 0; lowest && !x->source_build_line && i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		const char *v = explain_value(c, "cc");
		if (strcmp(c->id, "fw.arch_not_in_build") || !v || !(cc = cc_x10(v)) || cc >= lowest)
			continue;
		explain_recast(c, "hw.arch_too_old",
		       xasprintf("The GPU (compute capability %d.%d) is older than any current CUDA software "
				 "supports", cc / 10, cc % 10),
		       "No official build of TensorFlow, PyTorch or JAX carries code for a compute capability "
		       "this low, and the CUDA releases they are built with cannot target it: the program "
		       "has no code for the GPU because nothing current does.",
		       "gpudoctor compat --gpu \"GPU NAME\"\nUse a newer GPU, or an old release of the "
		       "program built with a CUDA that still supports this architecture");
		explain_evidence(c, "the oldest compute capability an official framework build carries is %d.%d",
				 lowest / 10, lowest % 10);
	}
}

/*
 * nvcc's "Unsupported gpu architecture 'compute_89'" and "Value 'sm_89' is
 * not defined for option 'gpu-architecture'" say only that this nvcc
 * cannot target the architecture. Which way it misses is the
 * architecture's own history (arch_support.tsv): one that current CUDA
 * still targets came after this nvcc, whose toolkit is too old; one that
 * CUDA has dropped is older than anything this nvcc builds for, and so is
 * a GPU of it.
 */
static void
nvcc_arch_context(struct explain *x)
{
	size_t i;

	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		const struct kb_arch *a;
		const char *v;
		char cc[16];
		int n;

		if (!c->pattern || (strcmp(c->pattern->key, "nvcc.unsupported_arch") &&
				    strcmp(c->pattern->key, "nvcc.arch_not_defined")))
			continue;
		if (!(v = explain_value(c, "cc")) || !(n = cc_x10(v)))
			continue;
		str_fmt(cc, sizeof(cc), "%d.%d", n / 10, n % 10);
		if (!(a = kb_arch_by_cc(cc)))
			continue;
		if (!a->cuda_max[0] && a->cuda_min[0]) {
			char *fix = xasprintf("nvcc --version   # the CUDA release of the nvcc in use\n"
					      "nvcc --list-gpu-arch   # what it can build for\n"
					      "Install CUDA %s or newer and put its bin first on PATH (or point "
					      "CUDACXX, CMAKE_CUDA_COMPILER or CUDA_HOME at it)", a->cuda_min);
			explain_recast(c, "lib.ptxas_missing",
			       xasprintf("This nvcc is older than compute capability %s (%s): it needs CUDA %s "
					 "or newer", cc, a->architecture, a->cuda_min),
			       "nvcc refuses an architecture newer than its CUDA release. The build asks for "
			       "code for a GPU generation that came after this toolkit, so the nvcc found "
			       "first (on PATH, or the one CMake or CUDA_HOME chose) is an older CUDA than the "
			       "GPU needs.",
			       fix);
			free(fix);
		} else if (a->cuda_max[0] && strcmp(c->id, "hw.arch_too_old")) {
			explain_recast(c, "hw.arch_too_old",
			       xasprintf("This CUDA toolkit cannot build for compute capability %s (%s): CUDA "
					 "dropped it after %s", cc, a->architecture, a->cuda_max),
			       "Each CUDA release drops the oldest architectures; this nvcc is newer than the "
			       "last one that targets the architecture asked for. A GPU of it needs that older "
			       "CUDA; a newer GPU needs the build's target list without it.",
			       "nvidia-smi --query-gpu=compute_cap --format=csv   # the GPU that is really there\n"
			       "gpudoctor compat --gpu \"GPU NAME\"");
		}
	}
}

/*
 * A log that starts a container with `docker run` (or podman) without
 * --gpus or the nvidia runtime, then misses the GPU inside it: the
 * container was started without GPU access, whatever else is said. A log
 * that only shows it comes from a container or a pod (compose, kubectl,
 * a prompt with a container's ID as host name) and asks for GPUs nowhere
 * is read the same way: a GPU missing inside a container is most often one
 * the container was not given.
 */
static bool
gpu_not_found(const char *id)
{
	static const char *const inside[] = {
		"driver.libcuda_missing", "driver.no_visible_device", "driver.init_failed",
		"kmod.device_nodes_missing", "kmod.nvidia_not_loaded", "fw.no_gpu_at_runtime", "rt.unknown",
		NULL,
	};

	return str_among(id, inside);
}

/* Whether the log holds an error cause other than a GPU not found: then
 * a sign of a container does not speak. */
static bool
other_error(const struct explain *x)
{
	size_t i;

	for (i = 0; i < x->ncauses; i++) {
		const struct explain_cause *c = &x->causes[i];
		if (!gpu_not_found(c->id) && c->role == EXPLAIN_CAUSE && c->severity >= SEV_ERROR)
			return true;
	}
	return false;
}

/* A container runtime's own message (rows of the "docker" and
 * "container" frameworks: Docker's, the toolkit's, Apptainer's "Could not
 * find any NVIDIA libraries on this host!"): it speaks of the host it runs
 * on, not of a container's inside. */
static bool
runtime_row(const struct explain_cause *c)
{
	return c->pattern &&
	       (!strcmp(c->pattern->framework, "docker") || !strcmp(c->pattern->framework, "container"));
}

/* NVML's Unknown Error is a device file there and denied: the container
 * was given the GPU and lost it, which a missing --gpus does not do. */
static bool
access_lost(const struct explain_cause *c)
{
	return c->pattern && !strcmp(c->id, "kmod.device_nodes_missing") && !strcmp(c->pattern->framework, "nvml");
}

/*
 * A container that asked for GPUs (--gpus, a CDI device, a pod's limit)
 * and still has no driver library inside: the request reached the NVIDIA
 * Container Toolkit, which did not put the driver's libraries in (a CDI
 * specification missing them, its ldconfig failing, a spec older than the
 * driver). The toolkit's and the runtimes' own messages (runtime_row)
 * speak of the host, where a missing library is the host's driver.
 */
static void
requested_gpu_context(struct explain *x)
{
	size_t i;

	if (other_error(x))
		return;
	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		if (strcmp(c->id, "driver.libcuda_missing") || c->lines[0] < x->gpu_request_line ||
		    runtime_row(c))
			continue;
		explain_recast(c, "host.container_toolkit_missing",
		       xstrdup("The container asked for GPUs but has no driver library inside"),
		       "The GPU request reached the NVIDIA Container Toolkit, which should have mounted "
		       "the driver's libraries (libcuda, libnvidia-ml) into the container; they are not "
		       "there: a CDI specification that lacks them or predates the driver, the toolkit's "
		       "ldconfig failing in the container, or a toolkit not configured for this runtime.",
		       "nvidia-ctk --version\n"
		       "sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml   # after every driver "
		       "update, when CDI is used\n"
		       "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker\n"
		       "docker run --rm --gpus all ubuntu nvidia-smi");
		explain_evidence(c, "the log asks for GPUs for a container (line %lu)", x->gpu_request_line);
		return;
	}
}

/*
 * An image build's RUN steps run in containers that are given no GPU:
 * BuildKit, Docker's builder since 23.0, has no GPU request for them, and
 * the classic builder only uses the NVIDIA runtime when the daemon's
 * default-runtime is "nvidia". A GPU check or a CUDA extension's build
 * that looks for the GPU there finds none, whatever the host has.
 */
static void
image_build_without_gpu(struct explain_cause *c, unsigned long line)
{
	explain_recast(c, "host.container_no_gpu", xstrdup("An image build step ran without GPU access"),
		       "docker build runs each RUN step in a container that has no GPU and no driver "
		       "libraries: BuildKit, Docker's builder since 23.0, gives its steps none, and the "
		       "classic builder only when the daemon's default runtime is nvidia. A GPU check or "
		       "a CUDA extension's build that looks for the GPU fails there, however the host is "
		       "set up.",
		       "Run the GPU step in the container instead: docker run --gpus all IMAGE ...\n"
		       "For a CUDA extension's build, name the GPUs it will run on, so it needs none:\n"
		       "nvidia-smi --query-gpu=compute_cap --format=csv   # on the machine that runs it\n"
		       "ENV TORCH_CUDA_ARCH_LIST=\"8.6\"   # in the Dockerfile: those compute capabilities\n"
		       "Classic builder only: \"default-runtime\": \"nvidia\" in /etc/docker/daemon.json, "
		       "sudo systemctl restart docker, then DOCKER_BUILDKIT=0 docker build .");
	explain_evidence(c, "the log comes from an image build (line %lu) and asks for no GPU", line);
}

static void
container_context(struct explain *x)
{
	unsigned long from = x->run_line;
	size_t i;

	if (!from && x->gpu_request_line) {
		requested_gpu_context(x);
		return;
	}
	if (!from && !x->gpu_request_line)
		from = x->container_line;
	if (!from)
		return;
	/* a sign of a container alone is weaker than any other cause: it
	 * speaks only when every error the log holds is a GPU not found */
	if (!x->run_line && other_error(x))
		return;
	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		if (!gpu_not_found(c->id) || (x->run_line && c->lines[0] < x->run_line) || access_lost(c) ||
		    runtime_row(c))
			continue;
		if (!x->run_line && x->image_build_line) {
			image_build_without_gpu(c, x->image_build_line);
			return;
		}
		explain_recast(c, "host.container_no_gpu",
		       xstrdup("The container was started without GPU access"),
		       "A container has no GPU unless it is asked for one: without --gpus (or "
		       "--runtime=nvidia, or a GPU reservation in a compose file or a pod's "
		       "nvidia.com/gpu limit) there are no /dev/nvidia* devices and no driver "
		       "libraries inside, so CUDA finds nothing.",
		       "docker run --gpus all IMAGE ...\nnvidia-ctk --version   # the NVIDIA Container "
		       "Toolkit must be installed on the host");
		if (x->run_line)
			explain_evidence(c, "the log runs a container without --gpus (line %lu)", x->run_line);
		else
			explain_evidence(c, "the log comes from a container or a pod (line %lu) and asks "
					    "for no GPU", x->container_line);
		return;
	}
}

/*
 * A hosted notebook (Colab, Kaggle) runs on a virtual machine that has an
 * NVIDIA driver whenever a GPU is attached to it: no driver, no device or
 * a framework that sees no GPU there is a runtime chosen without a GPU,
 * not a driver to install. Only when the log holds no other error and
 * starts no container of its own.
 */
static void
notebook_context(struct explain *x)
{
	static const char *const no_gpu[] = {
		"driver.libcuda_missing", "kmod.nvidia_not_loaded", "driver.no_visible_device",
		"fw.no_gpu_at_runtime", NULL,
	};
	size_t i;

	if (!x->notebook_line || x->run_line || x->gpu_request_line || x->image_build_line || other_error(x))
		return;
	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		if (!str_among(c->id, no_gpu) || c->role != EXPLAIN_CAUSE)
			continue;
		explain_recast(c, "hw.no_nvidia_gpu", xstrdup("The notebook's runtime has no GPU"),
		       "A hosted notebook (Colab, Kaggle) runs on a virtual machine that has an NVIDIA GPU "
		       "and its driver only when a GPU runtime or accelerator is chosen; on the default CPU "
		       "runtime there is no driver and no device, whatever is installed in it. A runtime "
		       "whose GPU quota ran out falls back to one without a GPU.",
		       "Colab: Runtime > Change runtime type > a GPU (T4 is the free one), then run the "
		       "notebook again\nKaggle: Settings > Accelerator > a GPU\n!nvidia-smi   # in a cell: "
		       "the GPU, once one is attached");
		explain_evidence(c, "the log comes from a hosted notebook (line %lu)", x->notebook_line);
		return;
	}
}

/*
 * pip's "Could not find a version that satisfies the requirement
 * tensorflow==1.5.0 (from versions: 1.13.0rc1, ..., 2.0.0b1)" lists, in
 * ascending order, the releases with a wheel for this Python and platform.
 * A release older than all of them was never built for this Python (a
 * newer one than it supports); one newer than all of them needs a newer
 * Python (or another platform). One between them does not exist.
 */
static void
pip_versions_context(struct explain *x)
{
	size_t i;

	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		const char *pkg, *want, *oldest, *newest;

		if (!c->pattern || strcmp(c->pattern->key, "pip.version_not_offered"))
			continue;
		pkg = explain_value(c, "package");
		want = explain_value(c, "requested");
		oldest = explain_value(c, "found");
		newest = explain_value(c, "version");
		if (!pkg || !want || !oldest)
			continue;
		if (!newest)
			newest = oldest;
		if (vers_cmp(want, oldest) < 0)
			explain_recast(c, "fw.python_unsupported",
			       xasprintf("%s %s has no wheel for this Python: the oldest release pip offers "
					 "is %s", pkg, want, oldest),
			       "pip lists only the releases with a wheel for this Python version and platform, "
			       "oldest first. The release asked for is older than every one of them: it was "
			       "built for older Pythons only, and this Python is newer than it supports.",
			       "python3 --version\n"
			       "Use a Python that release supports (a virtual environment or conda env with it), "
			       "or a newer release of the package");
		else if (vers_cmp(want, newest) > 0)
			explain_recast(c, "fw.python_unsupported",
			       xasprintf("%s %s has no wheel for this Python: the newest release pip offers "
					 "is %s", pkg, want, newest),
			       "pip lists only the releases with a wheel for this Python version and platform. "
			       "The release asked for is newer than every one of them: it needs a newer Python "
			       "(or another operating system or architecture) than this one.",
			       "python3 --version\n"
			       "Use a Python that release supports (a virtual environment or conda env with it), "
			       "or the newest release listed");
	}
}

/*
 * A JetPack 4 container (an L4T r32 image) holds no CUDA libraries of its
 * own: the NVIDIA runtime mounts the driver's libcuda, CUDA, cuDNN and
 * TensorRT from the Jetson host when it starts the container (or builds an image, as the default
 * runtime). A CUDA library missing inside one is a container started, or
 * an image built, without that runtime.
 */
static void
l4t_context(struct explain *x)
{
	size_t i;

	/* asked for the runtime (--runtime nvidia, --gpus): the cause is elsewhere */
	if (!x->l4t_line || x->gpu_request_line)
		return;
	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		if (!explain_library_missing(c->id) || runtime_row(c))
			continue;
		explain_recast(c, "host.container_no_gpu",
		       xstrdup("The Jetson container was started without the NVIDIA runtime"),
		       "JetPack 4 images (L4T r32) carry no CUDA libraries: the NVIDIA container runtime "
		       "mounts CUDA, cuDNN and TensorRT from the Jetson host into the container. Started "
		       "(or built, for docker build) without it, the container has none of them.",
		       "docker run --runtime nvidia -it IMAGE ...\n"
		       "For docker build: \"default-runtime\": \"nvidia\" in /etc/docker/daemon.json, "
		       "then sudo systemctl restart docker");
		explain_evidence(c, "the log uses a JetPack 4 image (line %lu)", x->l4t_line);
	}
}

/*
 * A log that starts a Slurm job step (srun, sbatch, salloc) asking for no
 * GPU, and asks for one nowhere, then misses the GPU: Slurm gives a job
 * only the GPUs it requested, whatever the node has.
 */
static void
slurm_context(struct explain *x)
{
	size_t i;

	if (!x->job_line || x->job_gpu_line || other_error(x))
		return;
	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		if (!gpu_not_found(c->id) || c->lines[0] < x->job_line || runtime_row(c))
			continue;
		explain_recast(c, "driver.no_visible_device",
		       xstrdup("The Slurm job asked for no GPU"),
		       "Slurm gives a job step only the GPUs its job requested (--gres=gpu:N, --gpus=N or "
		       "-G N). Without a request the job's cgroup hides the GPU devices, or "
		       "CUDA_VISIBLE_DEVICES is left empty, so the program finds no GPU even on a GPU node.",
		       "srun --gres=gpu:1 nvidia-smi -L   # what a job step with a GPU sees\n"
		       "srun --gres=gpu:1 python train.py   # in a batch script: #SBATCH --gres=gpu:1");
		explain_evidence(c, "the log starts a Slurm job without a GPU request (line %lu)", x->job_line);
		return;
	}
}

/* The CUDA major of a library whose file name carries it, found in text:
 * the runtime, cuBLAS, cuBLASLt, cuSPARSE, NVRTC and nvJitLink
 * ("libcublasLt.so.11", "cublas64_12.dll", "cudart64_101.dll"); cuFFT,
 * cuRAND and cuSOLVER number their files apart from CUDA's. Its name into
 * lib; 0 when text names none. */
static int
cuda_major_in(const char *text, char *lib, size_t size)
{
	static const char *const names[] = {"cudart", "cublasLt", "cublas", "cusparse", "nvrtc", "nvJitLink", NULL};
	const char *p, *q;
	int k;

	for (k = 0; names[k]; k++) {
		char so[24], dll[24];
		size_t n;

		STR_FMT(so, "lib%s.so.", names[k]);
		STR_FMT(dll, "%s64_", names[k]);
		if ((p = strstr(text, so)) && isdigit((unsigned char)p[strlen(so)])) {
			q = p + strlen(so);
			n = strspn(q, "0123456789.");
			str_fmt(lib, size, "%.*s", (int)(q - p + (ptrdiff_t)n), p);
			return atoi(q);
		}
		if ((p = strstr(text, dll)) && isdigit((unsigned char)p[strlen(dll)])) {
			int v;

			q = p + strlen(dll);
			n = strspn(q, "0123456789");
			if (strncmp(q + n, ".dll", 4) != 0 || n < 2 || n > 3)
				continue;
			str_fmt(lib, size, "%.*s.dll", (int)(q - p + (ptrdiff_t)n), p);
			v = atoi(q);
			/* cudart64_101.dll is 10.1, cudart64_65.dll 6.5, cublas64_11.dll
			 * and cudart64_12.dll are CUDA 11 and 12 */
			return n == 3 ? v / 10 : v >= 60 ? v / 10 : v;
		}
	}
	return 0;
}

/* The CUDA majors the log states are installed: nvcc's or collect_env's
 * toolkit, a framework build's (+cu118, "CUDA used to build PyTorch"), a
 * toolkit directory or runtime file the log names (/usr/local/cuda-11.8,
 * libcudart.so.12); 0 for none or when they disagree. Its line into *line. */
static int
stated_cuda_major(const struct explain *x, char *what, size_t size, unsigned long *line)
{
	int major = 0, m, i;

	if (x->stated.nvcc[0] && !x->stated.nvcc_conflict) {
		major = atoi(x->stated.nvcc);
		str_fmt(what, size, "CUDA %s (nvcc)", x->stated.nvcc);
		*line = x->stated.nvcc_line;
	}
	for (i = 0; i < x->stated.nfw; i++) {
		const struct logfact_fw *f = &x->stated.fw[i];
		if (f->conflict || !f->built_cuda[0] || !(m = atoi(f->built_cuda)))
			continue;
		if (major && m != major)
			return 0;
		if (!major) {
			str_fmt(what, size, "%s %s, built for CUDA %s", f->name, f->version, f->built_cuda);
			*line = f->line;
		}
		major = m;
	}
	if (x->stated.cuda_dir[0]) {
		if (x->stated.cuda_dir_conflict || (major && x->stated.cuda_dir_major != major))
			return 0;
		if (!major) {
			str_fmt(what, size, "CUDA %d installed (%s)", x->stated.cuda_dir_major, x->stated.cuda_dir);
			*line = x->stated.cuda_dir_line;
			major = x->stated.cuda_dir_major;
		}
	}
	return major;
}

/*
 * A CUDA library of one major missing where the log shows another major
 * installed (libcublasLt.so.11 beside nvcc 12.1, cublas64_12.dll in an
 * environment of torch +cu118): the program was built for another CUDA
 * than the one there, which installing "the missing library" of the wrong
 * major would only hide.
 */
static void
version_context(struct explain *x)
{
	char lib[48], what[96];
	unsigned long line = 0;
	int have, need;
	size_t i;

	if (!(have = stated_cuda_major(x, what, sizeof(what), &line)))
		return;
	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		const char *v = explain_value(c, "soname");

		if (strcmp(c->id, "lib.cudart_missing") && strcmp(c->id, "lib.cuda_lib_missing"))
			continue;
		if (!v)
			v = explain_value(c, "dll");
		if (!(need = v ? cuda_major_in(v, lib, sizeof(lib)) : 0) && c->nquotes)
			need = cuda_major_in(c->quotes[0].text, lib, sizeof(lib));
		if (!need || need == have)
			continue;
		explain_recast(c, "lib.cuda_version_mismatch",
		       xasprintf("The program needs CUDA %d's %s; the log shows %s", need, lib, what),
		       "The library the program looks for belongs to another CUDA major than the one "
		       "installed: the program (or the wheel that brings it) was built for that other "
		       "CUDA. Install the program's build for the CUDA that is there, or the CUDA it was "
		       "built for; one library file of the other major would not match the rest.",
		       "gpudoctor plan torch   # or the framework the program runs on: the build for this CUDA\n"
		       "gpudoctor doctor");
		explain_evidence(c, "%s is CUDA %d's", lib, need);
		explain_evidence(c, "line %lu shows %s", line, what);
	}
}


/*
 * A log from macOS (its paths, the REPL's "on darwin", a wheel's macosx
 * tag, a form's OS) that misses the GPU or runs a CPU-only build: macOS has
 * no CUDA (NVIDIA's last CUDA for macOS was 10.2, and no framework
 * publishes CUDA builds for it), whatever else the log says.
 */
static void
macos_context(struct explain *x)
{
	size_t i;

	if (!x->stated.macos_line)
		return;
	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		if ((!gpu_not_found(c->id) || !strcmp(c->id, "rt.unknown")) && strcmp(c->id, "fw.cpu_only_build") &&
		    strcmp(c->id, "hw.no_nvidia_gpu"))
			continue;
		explain_recast(c, "host.unsupported_os", xstrdup("macOS has no CUDA: no framework uses a GPU through it there"),
		       "The log comes from macOS. NVIDIA's CUDA for macOS ended with CUDA 10.2 and no current "
		       "TensorFlow, PyTorch or JAX release has a CUDA build for it, so the GPU is never found "
		       "and the framework is a CPU build. On Apple silicon the GPU is reached through Metal "
		       "instead.",
		       "python -c \"import torch; print(torch.backends.mps.is_available())\"   # PyTorch: "
		       "device \"mps\" instead of \"cuda\"\npip install tensorflow-metal   # TensorFlow's "
		       "Metal plugin\nFor CUDA, run on a Linux or Windows machine with an NVIDIA GPU");
		explain_evidence(c, "line %lu shows the log comes from macOS", x->stated.macos_line);
		return;
	}
}

/* Every reading of the log's context, in this order: a later one sees
 * what an earlier one made of a cause. */
void
explain_context(struct explain *x)
{
	wsl_context(x);
	build_minimum_context(x);
	torch_build_context(x);
	jit_failed_context(x);
	ancient_gpu_context(x);
	nvcc_arch_context(x);
	visible_devices_context(x);
	container_context(x);
	notebook_context(x);
	slurm_context(x);
	pip_versions_context(x);
	l4t_context(x);
	macos_context(x);
	version_context(x);
}
