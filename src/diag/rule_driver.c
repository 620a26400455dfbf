/*
 * rule_driver.c - findings about the user-space driver: libcuda missing,
 * kernel module and libraries of different versions, a driver too old for
 * the CUDA runtime the loader picks, cuInit failing, forward-compatibility
 * libraries on a GPU without support for them, the probe child crashing or
 * hanging, CUDA seeing no device while the GPUs are there.
 *
 * Pure: reads facts and the knowledge base. Each cuInit result has one
 * owner: 100 with a GPU present is driver.no_visible_device (or the env/kmod
 * rule that explains it), 803 is driver.version_mismatch, 804 is
 * driver.forward_compat_unsupported, everything else driver.init_failed.
 */
#include "diag/fix.h"
#include "diag/rule.h"
#include "diag/rule_util.h"
#include "base/buf.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"
#include "kb/runs_on.h"

#include <ctype.h>
#include <signal.h>
#include <string.h>

/* ---- helpers -------------------------------------------------------------------- */

static bool
gpu_present(const struct facts *f)
{
	return f->ngpus > 0 || (f->host.wsl && f->host.wsl_dxg) || f->driver.nvml_device_count > 0;
}

static const struct driver_lib_facts *
lib_of(const struct facts *f, const char *name, bool stub)
{
	const struct driver_lib_facts *first = NULL;
	int i;

	for (i = 0; i < f->driver.nlibs && i < MAX_DRIVER_LIBS; i++) {
		const struct driver_lib_facts *l = &f->driver.libs[i];
		if (strcmp(l->name, name) || l->is_stub != stub)
			continue;
		if (l->loader_pick)
			return l;
		if (!first)
			first = l;
	}
	return first;
}

static bool
any_loader_pick(const struct facts *f)
{
	int i;

	for (i = 0; i < f->driver.nlibs && i < MAX_DRIVER_LIBS; i++)
		if (f->driver.libs[i].loader_pick)
			return true;
	return false;
}

/* At least "major.minor": a file-name version such as "1" says nothing. */
static bool
full_version(const char *v)
{
	int p[3];

	return vers_parse(v, p, 3) >= 2;
}

static const char *
cu_name(int rc)
{
	switch (rc) {
	case 0: return "CUDA_SUCCESS";
	case 1: return "CUDA_ERROR_INVALID_VALUE";
	case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
	case 3: return "CUDA_ERROR_NOT_INITIALIZED";
	case 4: return "CUDA_ERROR_DEINITIALIZED";
	case 34: return "CUDA_ERROR_STUB_LIBRARY";
	case 35: return "CUDA_ERROR_INSUFFICIENT_DRIVER";
	case 36: return "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER";
	case 46: return "CUDA_ERROR_DEVICE_UNAVAILABLE";
	case 100: return "CUDA_ERROR_NO_DEVICE";
	case 101: return "CUDA_ERROR_INVALID_DEVICE";
	case 304: return "CUDA_ERROR_OPERATING_SYSTEM";
	case 800: return "CUDA_ERROR_NOT_PERMITTED";
	case 801: return "CUDA_ERROR_NOT_SUPPORTED";
	case 802: return "CUDA_ERROR_SYSTEM_NOT_READY";
	case 803: return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
	case 804: return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
	case 999: return "CUDA_ERROR_UNKNOWN";
	default: return "";
	}
}

static const char *
cuinit_name(const struct facts *f)
{
	return f->driver.cuinit_name[0] ? f->driver.cuinit_name : cu_name(f->driver.cuinit_rc);
}

static void
evidence_cuinit(struct finding *fd, const struct facts *f)
{
	const char *n = cuinit_name(f);

	finding_evidence(fd, "cuInit returned %d%s%s%s%s%s", f->driver.cuinit_rc, n[0] ? " (" : "", n,
			 n[0] ? ")" : "", f->driver.cuda_loaded_path[0] ? " in " : "",
			 f->driver.cuda_loaded_path);
}

static const char *
sig_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGABRT: return "SIGABRT";
	case SIGILL: return "SIGILL";
	case SIGFPE: return "SIGFPE";
	case SIGKILL: return "SIGKILL";
	case SIGTERM: return "SIGTERM";
	case SIGSYS: return "SIGSYS";
	default: return "";
	}
}

/* Does the kernel side explain why CUDA sees nothing (its own finding)? */
static bool
kmod_explains(const struct facts *f)
{
	const struct kmod_facts *k = &f->kmod;
	int i;

	if (f->host.wsl || !kmod_list_whole(f))
		return false;
	if (!k->nvidia || k->nouveau)
		return true;
	for (i = 0; i < k->ndevnodes && i < MAX_DEVNODES; i++) {
		const struct devnode_facts *n = &k->devnodes[i];
		if (!str_starts(n->path, "/dev/nvidia"))
			continue;
		if (!n->exists && (!strcmp(n->path, "/dev/nvidiactl") || !strcmp(n->path, "/dev/nvidia-uvm")))
			return true;
		if (n->exists && !n->accessible)
			return true;
	}
	return false;
}

/*
 * Does CUDA_VISIBLE_DEVICES hide every device? CUDA reads the list up to
 * the first entry it cannot use; an empty list, "-1" or a first entry that
 * names nothing leaves no device (env.visible_devices_hides_all owns it).
 */
static bool
env_hides_all(const struct facts *f)
{
	const char *v = facts_env_value(f, "CUDA_VISIBLE_DEVICES");

	if (!v)
		return false;
	while (*v == ' ')
		v++;
	if (!*v || *v == ',' || *v == '-')
		return true;
	if (isdigit((unsigned char)*v) || str_starts(v, "GPU-") || str_starts(v, "MIG-"))
		return false;
	return true;
}

/* ---- driver.libcuda_missing -------------------------------------------------------- */

static void
fix_userspace(struct buf *b, const struct facts *f)
{
	char branch[16];

	vers_truncate(f->kmod.nvidia_version, 1, branch, sizeof(branch));
	if (!branch[0]) {
		fix_install_driver(b, f);
		return;
	}
	buf_addf(b, "Install the user-space libraries of the loaded driver %s:\n", f->kmod.nvidia_version);
	if (!strcmp(f->host.os_id, "ubuntu") || strstr(f->host.os_like, "ubuntu")) {
		char pkg[48];
		STR_FMT(pkg, "libnvidia-compute-%s nvidia-utils-%s", branch, branch);
		fix_install(b, f, pkg, NULL, NULL, NULL);
	} else {
		fix_install(b, f, "libcuda1 nvidia-smi", "xorg-x11-drv-nvidia-cuda-libs",
			    "nvidia-compute-G06", "nvidia-utils");
	}
}

static void
check_libcuda_missing(const struct facts *f, struct findings *out)
{
	const struct driver_facts *d = &f->driver;
	const struct driver_lib_facts *real = lib_of(f, "libcuda", false);
	const struct driver_lib_facts *stub = lib_of(f, "libcuda", true);
	const char *caps = facts_env_value(f, "NVIDIA_DRIVER_CAPABILITIES");
	struct finding *fd;
	struct buf b;
	bool unfindable;

	if (!f->host.valid || f->host.wsl || !gpu_present(f))
		return;
	if (!f->kmod.nvidia)
		return;
	if (d->cuda_state == CHILD_OK || d->cuda_state == CHILD_CRASHED || d->cuda_state == CHILD_TIMEOUT)
		return;
	/* a copy exists but the loader cannot find it (no ld.so.cache entry) */
	unfindable = real && d->cuda_state == CHILD_LOAD_FAILED && any_loader_pick(f) && !real->loader_pick;
	if (real && !unfindable)
		return;
	fd = findings_add(out, "driver.libcuda_missing", SEV_ERROR,
			  "The dynamic loader finds no driver libcuda.so.1");
	if (unfindable)
		finding_evidence(fd, "%s exists but is not in the loader's search path (ld.so.cache, "
				     "LD_LIBRARY_PATH)",
				 real->path);
	else if (stub)
		finding_evidence(fd, "only the CUDA toolkit's stub %s, which is not a driver", stub->path);
	else
		finding_evidence(fd, "no libcuda.so.1 in ld.so.cache, LD_LIBRARY_PATH or the default "
				     "directories");
	if (d->cuda_error[0])
		finding_evidence(fd, "loading it failed: %s", d->cuda_error);
	if (f->kmod.nvidia_version[0])
		finding_evidence(fd, "kernel module %s is loaded (/proc/driver/nvidia/version)",
				 f->kmod.nvidia_version);
	buf_init(&b);
	if (f->host.container) {
		if (caps)
			finding_evidence(fd, "NVIDIA_DRIVER_CAPABILITIES=%s", caps);
		buf_adds(&b, "The container runtime mounts the driver libraries only with the compute "
			     "capability: start the container with --gpus all and "
			     "-e NVIDIA_DRIVER_CAPABILITIES=compute,utility (or all).\n");
	} else if (unfindable) {
		buf_addf(&b, "Register the library's directory with the loader:\n%sldconfig\n",
			 fix_sudo(f));
		buf_adds(&b, "If its directory is not listed in /etc/ld.so.conf.d, add it there first.\n");
	} else {
		fix_userspace(&b, f);
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- driver.version_mismatch ----------------------------------------------------------- */

static void
check_version_mismatch(const struct facts *f, struct findings *out)
{
	const struct driver_facts *d = &f->driver;
	const char *kv = f->kmod.nvidia_version;
	const char *sudo = fix_sudo(f);
	bool picks = any_loader_pick(f);
	bool nvml18 = d->nvml_state == CHILD_OK && d->nvml_init_rc == 18;
	bool cu803 = d->cuda_state == CHILD_OK && d->cuinit_called && d->cuinit_rc == 803;
	const char *newer = NULL, *older = NULL, *older_path = NULL;
	struct finding *fd = NULL;
	struct buf b;
	int i;

	if (f->host.wsl)
		return;
	for (i = 0; kv[0] && full_version(kv) && i < d->nlibs && i < MAX_DRIVER_LIBS; i++) {
		const struct driver_lib_facts *l = &d->libs[i];
		int c;

		if (l->is_stub || !full_version(l->version) || (picks && !l->loader_pick))
			continue;
		if (strcmp(l->name, "libcuda") && strcmp(l->name, "libnvidia-ml"))
			continue;
		c = vers_cmp(l->version, kv);
		if (!c)
			continue;
		if (!fd)
			fd = findings_add(out, "driver.version_mismatch", SEV_ERROR,
					  "The driver libraries (%s) do not match the loaded kernel module (%s)",
					  l->version, kv);
		finding_evidence(fd, "kernel module %s (/proc/driver/nvidia/version), %s.so.%s (%s)", kv,
				 l->name, l->version, l->path);
		if (c > 0)
			newer = l->version;
		else {
			older = l->version;
			older_path = l->path;
		}
	}
	if (kv[0] && full_version(kv) && full_version(d->nvml_driver_version) &&
	    vers_cmp(d->nvml_driver_version, kv)) {
		if (!fd)
			fd = findings_add(out, "driver.version_mismatch", SEV_ERROR,
					  "The driver libraries (%s) do not match the loaded kernel module (%s)",
					  d->nvml_driver_version, kv);
		finding_evidence(fd, "NVML reports driver %s, the kernel module is %s",
				 d->nvml_driver_version, kv);
		if (vers_cmp(d->nvml_driver_version, kv) > 0)
			newer = d->nvml_driver_version;
	}
	if (!fd && !nvml18 && !cu803)
		return;
	if (!fd)
		fd = findings_add(out, "driver.version_mismatch", SEV_ERROR,
				  "The driver libraries do not match the loaded kernel module%s%s",
				  kv[0] ? " " : "", kv);
	if (nvml18)
		finding_evidence(fd, "nvmlInit returned 18 (NVML_ERROR_LIB_RM_VERSION_MISMATCH: "
				     "\"Driver/library version mismatch\")");
	if (cu803)
		evidence_cuinit(fd, f);
	buf_init(&b);
	if (older && !newer) {
		buf_adds(&b, "An old copy of the driver library is found before the current one. ");
		if (f->host.container)
			buf_adds(&b, "The container image ships its own driver libraries: remove them from "
				     "the image (the NVIDIA container runtime mounts the host's).\n");
		else if (older_path) {
			buf_adds(&b, "Remove the stale copy (or the package that installed it) and refresh "
				     "the loader cache:\n");
			buf_addf(&b, "%srm ", sudo);
			buf_add_shquoted(&b, older_path);
			buf_addf(&b, "\n%sldconfig\n", sudo);
		}
	} else {
		buf_adds(&b, "The driver was updated but the old kernel module is still loaded. Reboot:\n");
		buf_addf(&b, "%sreboot\n", sudo);
		buf_adds(&b, "or, with no process using the GPU, reload the module:\n");
		buf_addf(&b, "%srmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && %smodprobe nvidia\n",
			 sudo, sudo);
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- driver.too_old ------------------------------------------------------------------ */

static const struct lib_facts *
picked_cudart(const struct facts *f)
{
	int i;

	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++)
		if (!strcmp(f->libs[i].name, "cudart") && f->libs[i].loader_pick && f->libs[i].version[0])
			return &f->libs[i];
	return NULL;
}

static void
check_too_old(const struct facts *f, struct findings *out)
{
	const struct driver_facts *d = &f->driver;
	const struct lib_facts *rt = picked_cudart(f);
	const struct kb_cuda_driver *row;
	char rtmm[16], drv[16];
	int r[2] = {0, 0}, v[2] = {0, 0}, nr;
	enum severity sev;
	bool bad = false, minor_compat = false;
	struct finding *fd;
	struct buf b;

	if (!rt)
		return;
	vers_truncate(rt->version, 2, rtmm, sizeof(rtmm));
	nr = vers_parse(rtmm, r, 2);
	if (nr < 1)
		return;
	row = nr == 2 ? kb_cuda_driver(rtmm) : NULL;
	rule_driver_cuda(f, drv, sizeof(drv));
	if (drv[0] && vers_parse(drv, v, 2) >= 1) {
		if (r[0] > v[0]) {
			bad = true;
		} else if (nr == 2 && r[0] == v[0] && r[1] > v[1]) {
			bad = true;
			minor_compat = true;
			if (row && row->linux_minor_compat && row->linux_minor_compat[0] && d->version[0] &&
			    vers_cmp(d->version, row->linux_minor_compat) < 0)
				minor_compat = false;
		}
	} else if (d->version[0] && full_version(d->version) && row && row->linux_min &&
		   vers_cmp(d->version, row->linux_min) < 0) {
		bad = true;
		minor_compat = row->linux_minor_compat && row->linux_minor_compat[0] &&
			       vers_cmp(d->version, row->linux_minor_compat) >= 0;
	}
	if (!bad)
		return;
	sev = minor_compat ? SEV_WARN : SEV_ERROR;
	fd = findings_add(out, "driver.too_old", sev,
			  "The driver%s%s runs CUDA up to %s, older than the CUDA %s runtime in use",
			  d->version[0] ? " " : "", d->version, drv[0] ? drv : "an older release", rtmm);
	finding_evidence(fd, "the loader picks libcudart %s (%s)", rt->version, rt->path);
	if (drv[0])
		finding_evidence(fd, "the driver runs CUDA up to %s%s", drv,
				 d->cuda_driver_version > 0 ? " (cuDriverGetVersion)" : "");
	if (row && row->linux_min)
		finding_evidence(fd, "CUDA %s needs Linux driver >= %s%s%s%s", rtmm, row->linux_min,
				 row->linux_minor_compat && row->linux_minor_compat[0]
					 ? " (>= "
					 : "",
				 row->linux_minor_compat ? row->linux_minor_compat : "",
				 row->linux_minor_compat && row->linux_minor_compat[0]
					 ? " with minor-version compatibility)"
					 : "");
	buf_init(&b);
	if (minor_compat)
		buf_adds(&b, "Minor-version compatibility lets this runtime start on the older driver, "
			     "but features of the newer release and PTX built by the newer toolkit "
			     "fail (CUDA_ERROR_UNSUPPORTED_PTX_VERSION). ");
	if (row && row->linux_min)
		buf_addf(&b, "Upgrade the driver to %s or newer:\n", row->linux_min);
	else
		buf_addf(&b, "Upgrade the driver to one that supports CUDA %s:\n", rtmm);
	fix_install_driver(&b, f);
	if (drv[0])
		buf_addf(&b, "Or use a CUDA %s (or older) runtime and framework build.\n", drv);
	finding_fix(fd, b.s);
	buf_release(&b);
}

/*
 * A GPU newer than the driver: its architecture arrived with CUDA X.Y
 * (arch_support), so no driver older than CUDA X.Y's minimum knows its PCI
 * id; the kernel module leaves it alone ("NVRM: ... is not supported") and
 * cuInit finds no device. Judged from the GPU's PCI id and the driver's
 * version alone, so it holds even when nothing could talk to the GPU.
 */
static void
check_gpu_newer_than_driver(const struct facts *f, struct findings *out)
{
	const char *drv = f->driver.version[0] ? f->driver.version : f->kmod.nvidia_version;
	char label[F_NAME + 32];
	int i;

	if (!drv[0] || !full_version(drv))
		return;
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		const struct kb_arch *a;
		struct finding *fd;
		struct buf b;
		char why[320], need[32];

		/* the one rule of which driver knows which GPU (kb/runs_on.h) */
		if (!g->compute_capability[0] ||
		    runs_driver_supports(g->compute_capability, drv, why, sizeof(why), need, sizeof(need)) !=
			    RUNS_DRIVER_PREDATES_GPU ||
		    !(a = kb_arch_by_cc(g->compute_capability)))
			continue;
		rule_gpu_label(g, label, sizeof(label));
		fd = findings_add(out, "driver.too_old", SEV_ERROR,
				  "The driver %s predates %s: it cannot drive this GPU", drv, label);
		finding_evidence(fd, "%s architecture (compute capability %s) arrived with CUDA %s",
				 a->architecture, g->compute_capability, a->cuda_min);
		finding_evidence(fd, "%s", why);
		buf_init(&b);
		buf_addf(&b, "Install a driver that knows this GPU, %s or newer:\n", need);
		fix_install_driver(&b, f);
		finding_fix(fd, b.s);
		buf_release(&b);
	}
}

/* ---- driver.init_failed ---------------------------------------------------------------- */

static void
fix_for_code(struct buf *b, const struct facts *f)
{
	const char *sudo = fix_sudo(f);
	const char *ld = facts_env_value(f, "LD_LIBRARY_PATH");

	switch (f->driver.cuinit_rc) {
	case 34:
		buf_adds(b, "The toolkit's stub libcuda was loaded instead of the driver's. Remove the "
			     "stubs directory from LD_LIBRARY_PATH (it is meant for linking only, via "
			     "LIBRARY_PATH), and delete any libcuda.so.1 link placed in it.\n");
		if (ld)
			buf_adds(b, "Check: echo \"$LD_LIBRARY_PATH\" | tr : '\\n' | grep stubs\n");
		break;
	case 35:
	case 36:
		buf_adds(b, "The driver is too old for this CUDA release. Upgrade it:\n");
		fix_install_driver(b, f);
		break;
	case 46:
		buf_addf(b, "The GPU is in exclusive-process or prohibited compute mode and busy. "
			    "Check with nvidia-smi -q -d COMPUTE; reset it with: %snvidia-smi -c DEFAULT\n",
			 sudo);
		break;
	case 2:
		buf_adds(b, "The GPU has no memory left even to create a context: see the processes in "
			     "nvidia-smi.\n");
		break;
	case 802:
		buf_addf(b, "On NVSwitch systems (HGX/DGX) CUDA waits for the Fabric Manager. Start it:\n"
			    "%ssystemctl enable --now nvidia-fabricmanager\n",
			 sudo);
		break;
	case 304:
		buf_adds(b, "The operating system refused access (permissions, a container's device "
			     "cgroup, SELinux). Check the /dev/nvidia* permissions and the container's "
			     "--gpus option.\n");
		break;
	case 999:
		buf_addf(b, "An unknown error, often after suspend/resume. Reload the UVM module with no "
			    "GPU process running:\n%srmmod nvidia_uvm && %smodprobe nvidia_uvm\n",
			 sudo, sudo);
		buf_addf(b, "If it persists, look for Xid errors: %sdmesg | grep -i -E 'NVRM|Xid', and "
			    "reboot.\n",
			 sudo);
		break;
	default:
		buf_addf(b, "Look at the kernel log: %sdmesg | grep -i -E 'NVRM|Xid'. Reinstalling the "
			    "driver or rebooting clears most such states.\n",
			 sudo);
		break;
	}
}

static void
check_init_failed(const struct facts *f, struct findings *out)
{
	const struct driver_facts *d = &f->driver;
	struct finding *fd;
	struct buf b;
	const char *n;

	if (d->cuda_state != CHILD_OK || !d->cuinit_called || d->cuinit_rc == 0)
		return;
	if (d->cuinit_rc == 100 || d->cuinit_rc == 803 || d->cuinit_rc == 804)
		return;
	n = cuinit_name(f);
	fd = findings_add(out, "driver.init_failed", SEV_ERROR, "CUDA fails to initialise: cuInit returned %s%s%d%s",
			  n, n[0] ? " (" : "", d->cuinit_rc, n[0] ? ")" : "");
	evidence_cuinit(fd, f);
	if (d->cuinit_text[0])
		finding_evidence(fd, "cuGetErrorString: %s", d->cuinit_text);
	buf_init(&b);
	fix_for_code(&b, f);
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- driver.forward_compat_unsupported ------------------------------------------------- */

static bool
all_gpus_consumer(const struct facts *f)
{
	int i, known = 0;

	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct kb_gpu *g = kb_gpu_by_id(f->gpus[i].device);
		if (!g || !g->segment || !g->segment[0])
			return false;
		if (!strcmp(g->segment, "datacenter"))
			return false;
		known++;
	}
	return known > 0;
}

static void
check_forward_compat(const struct facts *f, struct findings *out)
{
	const struct driver_facts *d = &f->driver;
	const struct driver_lib_facts *l = lib_of(f, "libcuda", false);
	const char *compat = NULL;
	bool rc804 = d->cuda_state == CHILD_OK && d->cuinit_called && d->cuinit_rc == 804;
	struct finding *fd;
	struct buf b;

	if (strstr(d->cuda_loaded_path, "/compat/"))
		compat = d->cuda_loaded_path;
	else if (l && l->loader_pick && strstr(l->path, "/compat/"))
		compat = l->path;
	if (!rc804) {
		if (!compat || !all_gpus_consumer(f))
			return;
		if (d->cuda_state == CHILD_OK && d->cuinit_called && d->cuinit_rc == 0)
			return;
	}
	fd = findings_add(out, "driver.forward_compat_unsupported", rc804 ? SEV_ERROR : SEV_WARN,
			  "CUDA forward-compatibility libraries are used on a GPU that does not support them");
	if (rc804)
		evidence_cuinit(fd, f);
	if (compat)
		finding_evidence(fd, "libcuda comes from the cuda-compat package: %s", compat);
	if (f->ngpus > 0 && f->gpus[0].name[0])
		finding_evidence(fd, "GPU: %s", f->gpus[0].name);
	buf_init(&b);
	buf_adds(&b, "Forward compatibility (a newer libcuda from the cuda-compat package over an "
		     "older kernel driver) works on datacenter GPUs only. Take the compat directory "
		     "out of LD_LIBRARY_PATH and /etc/ld.so.conf.d");
	if (compat) {
		char dir[F_PATH];
		char *slash;
		STR_COPY(dir, compat);
		slash = strrchr(dir, '/');
		if (slash && slash != dir)
			*slash = '\0';
		buf_adds(&b, " (");
		buf_add_shquoted(&b, dir);
		buf_adds(&b, ")");
	}
	buf_addf(&b, ", run %sldconfig, and upgrade the driver itself instead:\n", fix_sudo(f));
	fix_install_driver(&b, f);
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- driver.probe_crashed, driver.probe_timeout ----------------------------------------- */

static void
check_probe_state(const struct facts *f, struct findings *out)
{
	const struct driver_facts *d = &f->driver;
	const char *sudo = fix_sudo(f);
	const char *what, *path;
	struct finding *fd;
	int state;

	if (d->cuda_state == CHILD_CRASHED || d->cuda_state == CHILD_TIMEOUT) {
		state = d->cuda_state;
		what = "libcuda";
		path = d->cuda_loaded_path[0] ? d->cuda_loaded_path : "libcuda.so.1";
	} else if (d->nvml_state == CHILD_CRASHED || d->nvml_state == CHILD_TIMEOUT) {
		state = d->nvml_state;
		what = "NVML";
		path = d->nvml_loaded_path[0] ? d->nvml_loaded_path : "libnvidia-ml.so.1";
	} else {
		return;
	}
	if (state == CHILD_CRASHED) {
		int signo = !strcmp(what, "NVML") ? d->nvml_signal : d->cuda_signal;
		const char *sn = sig_name(signo);
		fd = findings_add(out, "driver.probe_crashed", SEV_ERROR,
				  "Loading or calling the driver (%s) crashed", what);
		if (signo > 0)
			finding_evidence(fd, "the probe child running %s was killed by signal %d%s%s%s", path,
					 signo, sn[0] ? " (" : "", sn, sn[0] ? ")" : "");
		else
			finding_evidence(fd, "the probe child running %s was killed by a signal", path);
		finding_fixf(fd, "Every CUDA program will crash the same way. The driver installation is "
				 "damaged or mixed (files of two driver versions). Reinstall the driver:\n"
				 "%sdmesg | grep -i -E 'NVRM|Xid'\n"
				 "then reinstall the driver packages and reboot. If it persists, report it "
				 "with this output to NVIDIA.",
			     sudo);
	} else {
		fd = findings_add(out, "driver.probe_timeout", SEV_ERROR,
				  "Loading or calling the driver (%s) hangs", what);
		if (d->cuda_ms > 0)
			finding_evidence(fd, "%s gave no answer within %.0f ms and was killed", path, d->cuda_ms);
		else
			finding_evidence(fd, "%s gave no answer within the time limit and was killed", path);
		finding_fixf(fd, "A hung GPU or driver. Look for Xid errors:\n"
				 "%sdmesg | grep -i -E 'NVRM|Xid'\n"
				 "With many GPUs, initialisation without the persistence daemon can be slow: "
				 "%ssystemctl enable --now nvidia-persistenced\n"
				 "Otherwise reset the GPU (%snvidia-smi --gpu-reset -i 0, no process may use it) "
				 "or reboot.",
			     sudo, sudo, sudo);
	}
}

/* ---- driver.no_visible_device ------------------------------------------------------------ */

static void
check_no_visible(const struct facts *f, struct findings *out)
{
	const struct driver_facts *d = &f->driver;
	const char *cvd = facts_env_value(f, "CUDA_VISIBLE_DEVICES");
	const char *nvd = facts_env_value(f, "NVIDIA_VISIBLE_DEVICES");
	const char *sudo = fix_sudo(f);
	bool none;
	int seen = d->nvml_device_count > 0 ? d->nvml_device_count : f->ngpus;
	struct finding *fd;
	struct buf b;
	int i;

	if (d->cuda_state != CHILD_OK || !d->cuinit_called || seen <= 0)
		return;
	none = d->cuinit_rc == 100 || (d->cuinit_rc == 0 && d->cuda_device_count == 0);
	if (!none || env_hides_all(f) || kmod_explains(f))
		return;
	fd = findings_add(out, "driver.no_visible_device", SEV_ERROR,
			  "CUDA sees no device although %d NVIDIA GPU(s) are present", seen);
	if (d->cuinit_rc == 100)
		evidence_cuinit(fd, f);
	else
		finding_evidence(fd, "cuInit succeeded, cuDeviceGetCount returned 0");
	if (d->nvml_device_count > 0)
		finding_evidence(fd, "NVML sees %d GPU(s)", d->nvml_device_count);
	else
		finding_evidence(fd, "sysfs lists %d NVIDIA GPU(s)", f->ngpus);
	if (cvd)
		finding_evidence(fd, "CUDA_VISIBLE_DEVICES=%s", cvd);
	if (nvd)
		finding_evidence(fd, "NVIDIA_VISIBLE_DEVICES=%s", nvd);
	buf_init(&b);
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		if (g->mig_mode == 1) {
			finding_evidence(fd, "MIG mode is enabled on %s", g->pci_bus_id);
			buf_addf(&b, "MIG is on for %s: CUDA sees only MIG instances. Create them "
				     "(%snvidia-smi mig -lgip lists profiles; %snvidia-smi mig -cgi PROFILE -C) "
				     "or turn MIG off: %snvidia-smi -i %d -mig 0\n",
				 g->pci_bus_id, sudo, sudo, sudo, i);
			break;
		}
	}
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		if (g->compute_mode == 2) {
			finding_evidence(fd, "%s is in compute mode Prohibited", g->pci_bus_id);
			buf_addf(&b, "Allow compute on it: %snvidia-smi -i %d -c DEFAULT\n", sudo, i);
		}
	}
	if (nvd && (!strcmp(nvd, "none") || !strcmp(nvd, "void") || !nvd[0]))
		buf_adds(&b, "NVIDIA_VISIBLE_DEVICES gives the container no GPU: start it with --gpus all "
			     "(or NVIDIA_VISIBLE_DEVICES=all).\n");
	if (!b.len)
		buf_adds(&b, "Check CUDA_VISIBLE_DEVICES in this shell, the container's --gpus option, "
			     "and a device cgroup (Slurm, Kubernetes) that hides the GPUs.\n");
	finding_fix(fd, b.s);
	buf_release(&b);
}

void
rule_driver(const struct facts *f, struct findings *out)
{
	check_libcuda_missing(f, out);
	check_version_mismatch(f, out);
	check_too_old(f, out);
	check_gpu_newer_than_driver(f, out);
	check_init_failed(f, out);
	check_forward_compat(f, out);
	check_probe_state(f, out);
	check_no_visible(f, out);
}
