/*
 * rule_hw.c - findings about the GPUs themselves: none at all, one too old
 * for the installed CUDA, too little memory, an entry-level mobile part, a
 * PCIe link below its capability, a hybrid laptop.
 *
 * Pure: reads facts and the knowledge base. "No GPU" is concluded only
 * when the PCI probe could read the bus (it leaves a note when it could
 * not) and neither CUDA nor NVML saw a device.
 */
#include "diag/fix.h"
#include "diag/rule.h"
#include "diag/rule_util.h"
#include "base/buf.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"
#include "kb/runs_on.h"

#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>


/* The newest CUDA runtime installed as a toolkit or pip wheel: "13.0.96". */
static const struct lib_facts *
newest_toolkit_cudart(const struct facts *f)
{
	const struct lib_facts *best = NULL;
	int i;

	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++) {
		const struct lib_facts *l = &f->libs[i];
		if (strcmp(l->name, "cudart") || !l->version[0])
			continue;
		if (l->origin != ORIGIN_TOOLKIT && l->origin != ORIGIN_PIP)
			continue;
		if (!best || vers_cmp(l->version, best->version) > 0)
			best = l;
	}
	return best;
}

/* Is CUDA `v` (maybe just a major) newer than the last supported `max`? */
static bool
cuda_beyond(const char *v, const char *max)
{
	int a[2] = {0, 0}, m[2] = {0, 0};
	int na = vers_parse(v, a, 2), nm = vers_parse(max, m, 2);

	if (na < 1 || nm < 1)
		return false;
	if (na == 1 || nm == 1)
		return a[0] > m[0];
	return a[0] > m[0] || (a[0] == m[0] && a[1] > m[1]);
}

/* ---- hw.no_nvidia_gpu --------------------------------------------------------- */

static void
check_no_gpu(const struct facts *f, struct findings *out)
{
	const struct lib_facts *tk;
	struct finding *fd;
	int i;

	if (f->ngpus > 0 || !f->host.valid || !f->pci_valid)
		return;
	if (f->host.wsl && f->host.wsl_dxg)
		return;
	if (f->driver.nvml_device_count > 0 || f->driver.cuda_device_count > 0)
		return;
	fd = findings_add(out, "hw.no_nvidia_gpu", SEV_ERROR, "This machine has no NVIDIA GPU");
	finding_evidence(fd, "/sys/bus/pci/devices lists no function with vendor 0x10de");
	for (i = 0; i < f->nother_gpus && i < MAX_OTHER_GPUS; i++) {
		const struct other_gpu_facts *o = &f->other_gpus[i];
		finding_evidence(fd, "other display controller: %04x:%04x at %s%s%s", o->vendor,
				 o->device, o->pci_bus_id, o->kernel_driver[0] ? ", driver " : "",
				 o->kernel_driver);
	}
	tk = newest_toolkit_cudart(f);
	if (tk)
		finding_evidence(fd, "a CUDA runtime %s is installed (%s), but there is no GPU for it",
				 tk->version, tk->path);
	if (f->host.hypervisor[0])
		finding_evidence(fd, "running in a virtual machine (hypervisor: %s)", f->host.hypervisor);
	if (f->host.container)
		finding_evidence(fd, "inside a %s container (sysfs shows the host's PCI devices)",
				 f->host.container_kind[0] ? f->host.container_kind : "");
	if (f->host.hypervisor[0])
		finding_fix(fd, "CUDA needs an NVIDIA GPU. This is a virtual machine: pass an NVIDIA GPU "
				"through to it (VFIO/PCI passthrough, or a GPU instance type from the cloud "
				"provider), or run on a machine with one. Until then only CPU builds work.");
	else
		finding_fix(fd, "CUDA needs an NVIDIA GPU. Run on a machine that has one, or use CPU "
				"builds (pip install tensorflow-cpu, torch from the cpu index). On a laptop, "
				"check that the discrete GPU is not disabled in the firmware settings.");
}

/* ---- hw.arch_too_old ---------------------------------------------------------- */

static void
check_arch(const struct facts *f, struct findings *out)
{
	const struct lib_facts *tk = newest_toolkit_cudart(f);
	char label[F_NAME + 32];
	int i;

	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		const struct kb_arch *a;
		struct finding *fd;
		char brn[16];
		bool tk_bad, drv_bad = false;

		if (!g->compute_capability[0])
			continue;
		a = kb_arch_by_cc(g->compute_capability);
		if (!a)
			continue;
		tk_bad = tk && a->cuda_max && a->cuda_max[0] && cuda_beyond(tk->version, a->cuda_max);
		brn[0] = '\0';
		/* the one rule of which driver knows which GPU (kb/runs_on.h) */
		if (f->driver.version[0] &&
		    runs_driver_supports(g->compute_capability, f->driver.version, NULL, 0, NULL, 0) ==
			    RUNS_DRIVER_PAST_GPU) {
			vers_truncate(f->driver.version, 1, brn, sizeof(brn));
			drv_bad = true;
		}
		if (!tk_bad && !drv_bad)
			continue;
		rule_gpu_label(g, label, sizeof(label));
		fd = findings_add(out, "hw.arch_too_old", SEV_ERROR,
				  "%s (compute capability %s) is too old for the installed %s", label,
				  g->compute_capability, tk_bad ? "CUDA" : "driver");
		finding_evidence(fd, "%s architecture, compute capability %s: last supported by CUDA %s%s%s",
				 a->architecture ? a->architecture : "its", g->compute_capability,
				 a->cuda_max && a->cuda_max[0] ? a->cuda_max : "(current)",
				 a->driver_last_branch && a->driver_last_branch[0] ? " and driver branch " : "",
				 a->driver_last_branch ? a->driver_last_branch : "");
		if (tk_bad)
			finding_evidence(fd, "installed CUDA runtime %s (%s)", tk->version, tk->path);
		if (drv_bad)
			finding_evidence(fd, "installed driver %s (branch %s)", f->driver.version, brn);
		if (tk_bad)
			finding_fixf(fd, "Use CUDA %s or older with this GPU (and a framework build for that "
					 "CUDA), or use a newer GPU.%s%s",
				     a->cuda_max,
				     drv_bad ? " Also install the driver branch " : "",
				     drv_bad ? a->driver_last_branch : "");
		else
			finding_fixf(fd, "Install the %s driver branch, the last that supports this GPU, or "
					 "use a newer GPU.",
				     a->driver_last_branch);
	}
}

/* ---- hw.low_vram, hw.weak_gpu -------------------------------------------------- */

/* "MX150", "MX 250", "GeForce MX450": an entry-level mobile part. */
static bool
is_mx(const char *name)
{
	const char *p = name;

	while ((p = strstr(p, "MX")) != NULL) {
		bool start = p == name || p[-1] == ' ';
		const char *q = p + 2;
		if (*q == ' ')
			q++;
		if (start && *q >= '0' && *q <= '9')
			return true;
		p += 2;
	}
	return false;
}

static void
check_memory_and_class(const struct facts *f, struct findings *out)
{
	char label[F_NAME + 32];
	int i;

	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		struct finding *fd;
		uint64_t mib = 0;
		const char *src = NULL;

		rule_gpu_label(g, label, sizeof(label));
		/* nominal size first: a 4 GiB card reports a little under 4096 MiB */
		if (g->kb_memory_mib > 0 && g->kb_memory_mib < 4096) {
			mib = g->kb_memory_mib;
			src = "nominal, from the GPU table";
		} else if (g->kb_memory_mib == 0 && g->memory_total_mib > 0 &&
			   g->memory_total_mib < HW_LOW_VRAM_MIB) {
			mib = g->memory_total_mib;
			src = "reported by the driver";
		}
		if (mib) {
			fd = findings_add(out, "hw.low_vram", SEV_WARN, "%s has only %llu MiB of memory",
					  label, (unsigned long long)mib);
			finding_evidence(fd, "%llu MiB (%s)", (unsigned long long)mib, src);
			finding_fix(fd, "Most current models do not fit in under 4 GiB. Use small batches, "
					"mixed precision (float16/bfloat16), smaller models, or a GPU with "
					"more memory.");
		}
		if (g->name[0] && is_mx(g->name)) {
			fd = findings_add(out, "hw.weak_gpu", SEV_WARN,
					  "%s is an entry-level mobile GPU, often slower than the CPU for "
					  "training",
					  label);
			finding_evidence(fd, "GPU name \"%s\" (GeForce MX series)", g->name);
			finding_fix(fd, "Expect little or no speed-up over the CPU; compare with `gpudoctor "
					"bench`. For real training use a desktop or datacenter GPU, or a "
					"cloud instance.");
		}
	}
}

/* ---- hw.pcie_link_degraded ---------------------------------------------------- */

static double
gts(const char *s)
{
	char *end;
	double v;

	if (!s[0])
		return 0;
	v = strtod(s, &end);
	return end == s ? 0 : v;
}

static void
check_link(const struct facts *f, struct findings *out)
{
	char label[F_NAME + 32];
	int i;

	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		double cur = gts(g->link_speed_cur), max = gts(g->link_speed_max);
		bool width = g->link_width_cur > 0 && g->link_width_max > 0 &&
			     g->link_width_cur < g->link_width_max;
		bool speed = cur > 0 && max > 0 && cur < max && g->utilization_gpu > 0;
		struct finding *fd;

		if (!width && !speed)
			continue;
		rule_gpu_label(g, label, sizeof(label));
		if (width)
			fd = findings_add(out, "hw.pcie_link_degraded", SEV_WARN,
					  "The PCIe link of %s runs at x%d of x%d", label,
					  g->link_width_cur, g->link_width_max);
		else
			fd = findings_add(out, "hw.pcie_link_degraded", SEV_WARN,
					  "The PCIe link of %s runs at %s of %s while busy", label,
					  g->link_speed_cur, g->link_speed_max);
		if (width)
			finding_evidence(fd,
					 "/sys/bus/pci/devices/%s/current_link_width %d, max_link_width %d",
					 g->pci_bus_id, g->link_width_cur, g->link_width_max);
		if (cur > 0 && max > 0 && cur < max)
			finding_evidence(fd, "/sys/bus/pci/devices/%s/current_link_speed %s, max_link_speed %s%s",
					 g->pci_bus_id, g->link_speed_cur, g->link_speed_max,
					 g->utilization_gpu > 0 ? "" : " (idle: a lower speed at idle is normal "
								       "power saving)");
		if (g->utilization_gpu > 0)
			finding_evidence(fd, "GPU utilisation %d%% when read", g->utilization_gpu);
		finding_fix(fd, "Host-to-GPU transfers run slower than the card allows. Check that the "
				"card sits in a full-width (x16) slot wired to the CPU, reseat it and any "
				"riser cable, and check the slot's PCIe generation and bifurcation settings "
				"in the firmware. Measure with `gpudoctor bench`.");
	}
}

/* ---- hw.hybrid_graphics -------------------------------------------------------- */

static void
check_hybrid(const struct facts *f, struct findings *out)
{
	char label[F_NAME + 32];
	const struct other_gpu_facts *o;
	const struct gpu_facts *g;
	struct finding *fd;
	bool unbound, other_bound;

	int i;

	if (f->ngpus == 0)
		return;
	/* Intel and AMD display controllers; a server's BMC VGA (ASPEED,
	 * Matrox) is not hybrid graphics */
	o = NULL;
	for (i = 0; i < f->nother_gpus && i < MAX_OTHER_GPUS && !o; i++)
		if (f->other_gpus[i].vendor == 0x8086 || f->other_gpus[i].vendor == 0x1002)
			o = &f->other_gpus[i];
	if (!o)
		return;
	g = &f->gpus[0];
	other_bound = o->kernel_driver[0] != '\0';
	unbound = f->host.valid && other_bound && !g->kernel_driver[0];
	rule_gpu_label(g, label, sizeof(label));
	fd = findings_add(out, "hw.hybrid_graphics", SEV_INFO,
			  unbound ? "%s sits beside an integrated GPU and no kernel driver is bound to it"
				  : "%s sits beside an integrated GPU (hybrid graphics)",
			  label);
	finding_evidence(fd, "integrated/other GPU %04x:%04x at %s%s%s%s", o->vendor, o->device,
			 o->pci_bus_id, other_bound ? ", driver " : "", o->kernel_driver,
			 o->boot_vga ? ", boot display" : "");
	finding_evidence(fd, "%s: driver %s", g->pci_bus_id,
			 g->kernel_driver[0] ? g->kernel_driver : "none bound");
	if (unbound)
		finding_fixf(fd, "CUDA can use the NVIDIA GPU whichever GPU drives the display, but the "
				 "NVIDIA GPU needs its driver. If the laptop was switched to integrated-only "
				 "graphics, switch back: Ubuntu: %sprime-select on-demand, then reboot; "
				 "otherwise select Hybrid/Discrete mode in the firmware settings.",
			     fix_sudo(f));
	else
		finding_fix(fd, "Nothing to do for CUDA: it uses the NVIDIA GPU whichever GPU drives the "
				"display.");
}

/* ---- hw.gpu_missing ------------------------------------------------------------ */

/* Fewer GPUs answer NVML than sit on the PCI bus: one fell off the bus, is
 * held by another driver (vfio-pci for a virtual machine) or was refused
 * by the nvidia module. Not judged in a container (sysfs shows the host's
 * GPUs, the container may be given some) nor for GPUs nouveau holds
 * (kmod.nouveau_loaded says it). When none answers, the driver's own
 * findings say why. */
static void
check_missing(const struct facts *f, struct findings *out)
{
	int i, nvml = f->driver.nvml_device_count, candidates = 0, missing = 0, vfio = 0;
	struct finding *fd;
	struct buf b;

	/* none answering is the driver's findings' case (no visible device, init failed) */
	if (f->ngpus < 2 || f->driver.nvml_state != CHILD_OK || f->driver.nvml_init_rc != 0 || nvml < 1 ||
	    f->host.container)
		return;
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++)
		if (strcmp(f->gpus[i].kernel_driver, "nouveau"))
			candidates++;
	if (nvml >= candidates)
		return;
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		if (g->nvml_valid || !strcmp(g->kernel_driver, "nouveau"))
			continue;
		missing++;
		vfio += !strcmp(g->kernel_driver, "vfio-pci");
	}
	fd = findings_add(out, "hw.gpu_missing", missing && vfio == missing ? SEV_INFO : SEV_ERROR,
			  "%d of the %d NVIDIA GPUs on the PCI bus do%s not answer the driver", candidates - nvml,
			  candidates, candidates - nvml == 1 ? "es" : "");
	finding_evidence(fd, "NVML counts %d GPU%s; /sys/bus/pci/devices lists %d", nvml, nvml == 1 ? "" : "s",
			 candidates);
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		if (g->nvml_valid || !strcmp(g->kernel_driver, "nouveau"))
			continue;
		finding_evidence(fd, "%s %s: %s", g->pci_bus_id, g->name[0] ? g->name : "NVIDIA GPU",
				 !g->kernel_driver[0] ? "bound to no kernel driver"
				 : !strcmp(g->kernel_driver, "vfio-pci") ? "bound to vfio-pci (given to a virtual machine)"
				 : !strcmp(g->kernel_driver, "nvidia") ? "bound to nvidia, but NVML does not list it"
								       : "bound to another driver");
	}
	buf_init(&b);
	if (missing && vfio == missing) {
		buf_adds(&b, "The missing GPUs are bound to vfio-pci, as for passing them to a virtual machine. "
			     "If that is meant, nothing is wrong; to use one here, unbind it from vfio-pci and "
			     "remove its ID from the vfio-pci.ids kernel option:\n"
			     "lspci -nnk -d 10de:\n");
	} else {
		buf_adds(&b, "A GPU that fell off the bus (Xid 79) or failed to start says so in the kernel "
			     "log:\n"
			     "sudo dmesg | grep -iE 'NVRM|Xid'\n"
			     "lspci -nnk -d 10de:\n"
			     "After Xid 79 or a GSP error (Xid 119, 120), reset the GPU or reboot; when it "
			     "recurs, check its power cables, its seating and its temperature:\n");
		for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
			const struct gpu_facts *g = &f->gpus[i];
			if (!g->nvml_valid && strcmp(g->kernel_driver, "nouveau") && strcmp(g->kernel_driver, "vfio-pci"))
				buf_addf(&b, "%snvidia-smi -r -i %s\n", f->host.uid ? "sudo " : "", g->pci_bus_id);
		}
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- hw.mixed_models ----------------------------------------------------------- */

/* Different GPU models in one machine: a job across them runs at the pace
 * of the slowest and within the memory of the smallest. */
static void
check_mixed(const struct facts *f, struct findings *out)
{
	int i, j, best = -1, best_n = 0, models = 0;
	struct finding *fd;
	struct buf b;

	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		int n = 0, seen = 0;
		if (!g->name[0])
			return;
		for (j = 0; j < i; j++)
			seen |= !strcmp(f->gpus[j].name, g->name);
		if (seen)
			continue;
		for (j = i; j < f->ngpus && j < MAX_GPUS; j++)
			n += !strcmp(f->gpus[j].name, g->name);
		models++;
		if (n > best_n) {
			best_n = n;
			best = i;
		}
	}
	if (models < 2)
		return;
	fd = findings_add(out, "hw.mixed_models", SEV_INFO,
			  "%d GPU models in one machine: a job across them runs at the slowest one's pace", models);
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		uint64_t mib = g->memory_total_mib ? g->memory_total_mib : g->kb_memory_mib;
		if (mib)
			finding_evidence(fd, "nvidia-smi %d: %s %s, compute %s, %" PRIu64 " MiB", i, g->pci_bus_id,
					 g->name, g->compute_capability[0] ? g->compute_capability : "?", mib);
		else
			finding_evidence(fd, "nvidia-smi %d: %s %s, compute %s", i, g->pci_bus_id, g->name,
					 g->compute_capability[0] ? g->compute_capability : "?");
	}
	buf_init(&b);
	buf_adds(&b, "Run a job that uses several GPUs on GPUs of one model, named in nvidia-smi's order:\n"
		     "export CUDA_DEVICE_ORDER=PCI_BUS_ID\n"
		     "export CUDA_VISIBLE_DEVICES=");
	for (i = 0, j = 0; i < f->ngpus && i < MAX_GPUS; i++)
		if (!strcmp(f->gpus[i].name, f->gpus[best].name))
			buf_addf(&b, "%s%d", j++ ? "," : "", i);
	buf_addf(&b, "   # the %s%s\n", f->gpus[best].name, best_n > 1 ? "s" : "");
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- hw.p2p_unavailable, hw.nvlink_down ------------------------------------------ */

/* The word for GPU k in a row of words ("X OK TNS ..."), "" past the end. */
static void
word_at(const char *row, int k, char *out, size_t size)
{
	const char *p = row;
	int i;

	for (i = 0; i < k && *p; i++) {
		p += strcspn(p, " ");
		p += strspn(p, " ");
	}
	snprintf(out, size, "%.*s", (int)strcspn(p, " "), p);
}

static const char *
p2p_meaning(const char *w)
{
	return !strcmp(w, "CNS") ? "the chipset does not support it"
	       : !strcmp(w, "GNS") ? "the GPU does not support it"
	       : !strcmp(w, "TNS") ? "the topology does not support it"
	       : !strcmp(w, "DRK") ? "a driver setting disables it"
	       : !strcmp(w, "NS")  ? "not supported"
				   : "unknown";
}

/* GPU pairs without peer-to-peer reads (nvidia-smi topo -p2p r): copies
 * and NCCL traffic between them go through host memory. */
static void
check_p2p(const struct facts *f, struct findings *out)
{
	bool fixable = false, seen[8] = {false};
	static const char *const kinds[] = {"CNS", "GNS", "TNS", "DRK", "NS", "U"};
	struct finding *fd = NULL;
	int i, k, n = f->ngpus < MAX_GPUS ? f->ngpus : MAX_GPUS, shown = 0;
	struct buf b;

	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++) {
			char w[8], link[8];
			size_t c;
			word_at(f->gpus[i].p2p_read, k, w, sizeof(w));
			if (!w[0] || !strcmp(w, "OK") || !strcmp(w, "X") || !strcmp(w, "?"))
				continue;
			word_at(f->gpus[i].topology, k, link, sizeof(link));
			for (c = 0; c < sizeof(kinds) / sizeof(kinds[0]); c++)
				if (!strcmp(w, kinds[c]))
					seen[c] = true;
			fixable |= strcmp(w, "TNS") && strcmp(w, "GNS");
			if (!fd)
				fd = findings_add(out, "hw.p2p_unavailable", SEV_INFO, "Peer-to-peer is unavailable "
						  "between GPUs: their copies go through host memory");
			if (shown++ < 8)
				finding_evidence(fd, "GPU%d-GPU%d: %s (%s)%s%s", i, k, w, p2p_meaning(w),
						 link[0] && strcmp(link, "?") ? ", connected " : "",
						 link[0] && strcmp(link, "?") ? link : "");
		}
	if (!fd)
		return;
	if (shown > 8)
		finding_evidence(fd, "and %d more pairs", shown - 8);
	if (fixable)
		fd->severity = SEV_WARN;
	if (f->host.hypervisor[0])
		finding_evidence(fd, "in a virtual machine (%s): the hypervisor decides whether GPUs may reach "
				     "each other", f->host.hypervisor);
	buf_init(&b);
	if (seen[0] || seen[4] || seen[5])
		buf_adds(&b, "PCIe Access Control Services (ACS) on the bridges, or the IOMMU, send peer "
			     "traffic up to the CPU; on bare metal disable ACS in the firmware, or boot with "
			     "iommu=pt (intel_iommu=on iommu=pt on Intel), and check:\n"
			     "sudo lspci -vvv | grep -i acsctl\n"
			     "nvidia-smi topo -p2p r\n");
	if (seen[3])
		buf_adds(&b, "A driver setting turns P2P off: remove the RMP2P entry of NVreg_RegistryDwords "
			     "from /etc/modprobe.d and reload the driver.\n");
	if (seen[2])
		buf_adds(&b, "Across CPU sockets (SYS) peer-to-peer is not available on this platform: keep "
			     "the GPUs of one job under one socket (nvidia-smi topo -m shows which), and NCCL "
			     "uses shared memory between the others by itself.\n");
	if (seen[1])
		buf_adds(&b, "This GPU model has no peer-to-peer over PCIe (GeForce cards from the 40 "
			     "series on): NCCL and the frameworks copy through host memory; nothing to fix.\n");
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* Some of a GPU's NVLinks up and some down: a link that failed training
 * or a cable/bridge fault; traffic then shares fewer links. */
static void
check_nvlink(const struct facts *f, struct findings *out)
{
	struct finding *fd = NULL;
	int i;

	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		if (g->nvlink_up <= 0 || g->nvlink_down <= 0)
			continue;
		if (!fd)
			fd = findings_add(out, "hw.nvlink_down", SEV_WARN, "NVLinks are down: GPU traffic shares "
					  "the links left");
		finding_evidence(fd, "GPU%d %s (%s): %d of %d NVLinks down", i, g->name, g->pci_bus_id,
				 g->nvlink_down, g->nvlink_up + g->nvlink_down);
	}
	if (!fd)
		return;
	finding_fix(fd, "See each link's state and its error counters:\n"
			"nvidia-smi nvlink -s\n"
			"nvidia-smi nvlink -e\n"
			"On NVSwitch systems the fabric manager trains the links:\n"
			"systemctl status nvidia-fabricmanager\n"
			"A link that stays down after a reboot is a hardware fault (bridge, baseboard): "
			"report it to the vendor with nvidia-bug-report.sh.");
}

void
rule_hw(const struct facts *f, struct findings *out)
{
	check_no_gpu(f, out);
	check_arch(f, out);
	check_memory_and_class(f, out);
	check_link(f, out);
	check_hybrid(f, out);
	check_missing(f, out);
	check_mixed(f, out);
	check_p2p(f, out);
	check_nvlink(f, out);
}
