/*
 * text.c - the human report: one section per layer (host, hw, kmod, driver,
 * libs, env, resources) with what was found, then the findings with their
 * evidence and fix. Fits 80 columns (prose is wrapped; paths and commands
 * are never broken), colour only when asked for (render_want_color).
 */
#include "render/render.h"
#include "base/buf.h"
#include "base/str.h"
#include "render/wrap.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_DIM "\033[2m"
#define C_RED "\033[31m"
#define C_GREEN "\033[32m"
#define C_YELLOW "\033[33m"
#define C_CYAN "\033[36m"

struct out {
	FILE *fp;
	const struct render_opts *o;
};

bool
render_want_color(const char *mode, FILE *out)
{
	const char *term = getenv("TERM");
	const char *nc = getenv("NO_COLOR");

	if (mode && !strcmp(mode, "always"))
		return true;
	if (mode && !strcmp(mode, "never"))
		return false;
	if (nc && *nc)
		return false;
	if (term && !strcmp(term, "dumb"))
		return false;
	return isatty(fileno(out));
}

static const char *
col(const struct out *w, const char *code)
{
	return w->o->color ? code : "";
}

static void
heading(const struct out *w, const char *name)
{
	fprintf(w->fp, "\n%s%s%s\n", col(w, C_BOLD), name, col(w, C_RESET));
}

/* "  label     text" with the label padded to 10 columns. */
static void
row(const struct out *w, const char *label, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
row(const struct out *w, const char *label, const char *fmt, ...)
{
	va_list ap;
	struct buf b;
	char first[32];

	/* a long row wraps under its text; paths are never broken */
	buf_init(&b);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	snprintf(first, sizeof(first), "  %-10s", label);
	if (strlen(first) + (b.s ? strlen(b.s) : 0) <= (size_t)w->o->width || !b.s || !strchr(b.s, ' '))
		fprintf(w->fp, "%s%s\n", first, b.s ? b.s : "");
	else
		wrap_text(w->fp, w->o->width, first, "            ", b.s);
	buf_release(&b);
}

static void
wrap(const struct out *w, int indent, const char *text)
{
	wrap_hanging(w->fp, w->o->width, indent, indent, text);
}

static const char *
yes(bool b)
{
	return b ? "yes" : "no";
}

/* A part a facts document did not hold: said, never shown as empty. */
static bool
part_unknown(const struct out *w, const struct facts *f, unsigned part)
{
	if (!(f->unknown_parts & part))
		return false;
	row(w, "unknown", "the facts document does not hold this part");
	return true;
}

/* ---- host ------------------------------------------------------------------ */

static void
section_host(const struct out *w, const struct facts *f)
{
	const struct host_facts *h = &f->host;
	struct buf b;

	heading(w, "HOST");
	if (part_unknown(w, f, FACTS_PART_HOST))
		return;
	buf_init(&b);
	buf_adds(&b, h->os_pretty[0] ? h->os_pretty : h->os_id[0] ? h->os_id : "unknown OS");
	if (h->kernel_release[0])
		buf_addf(&b, ", kernel %s", h->kernel_release);
	if (h->arch[0])
		buf_addf(&b, ", %s", h->arch);
	if (h->glibc_version[0])
		buf_addf(&b, ", glibc %s", h->glibc_version);
	row(w, "system", "%s", b.s);
	buf_reset(&b);
	if (h->cpu_valid) {
		buf_addf(&b, "%s", h->cpu_model[0] ? h->cpu_model : "unknown CPU");
		if (h->cpu_count > 0)
			buf_addf(&b, " x%d", h->cpu_count);
		buf_addf(&b, "; AVX %s, AVX2 %s, AVX-512 %s", yes(h->cpu_avx), yes(h->cpu_avx2),
			 yes(h->cpu_avx512f));
		row(w, "cpu", "%s", b.s);
		buf_reset(&b);
	}
	if (h->container)
		buf_addf(&b, "container (%s)", h->container_kind[0] ? h->container_kind : "unknown kind");
	else
		buf_adds(&b, "no container");
	if (h->wsl)
		buf_addf(&b, ", WSL2 (Windows driver libcuda %s)", h->wsl_libcuda ? "present" : "absent");
	if (h->hypervisor[0] && strcmp(h->hypervisor, "unidentified"))
		buf_addf(&b, ", virtual machine (%s)", h->hypervisor);
	else if (h->hypervisor[0])
		buf_adds(&b, ", virtual machine");
	buf_addf(&b, ", Secure Boot %s",
		 h->secure_boot == 1 ? "on" : h->secure_boot == 0 ? "off" : "unknown");
	row(w, "platform", "%s", b.s);
	buf_release(&b);
}

/* ---- hw -------------------------------------------------------------------- */

/* sysfs writes "32.0 GT/s PCIe"; the word PCIe is said once already */
static void
link_speed(const char *s, char *out, size_t size)
{
	str_copy(out, size, s[0] ? s : "?");
	if (str_ends(out, " PCIe"))
		out[strlen(out) - 5] = '\0';
}

static void topology(const struct out *w, const struct facts *f);

static void
section_hw(const struct out *w, const struct facts *f)
{
	int i;

	heading(w, "HARDWARE");
	if (part_unknown(w, f, FACTS_PART_GPUS))
		return;
	if (!f->ngpus && f->pci_valid)
		row(w, "gpu", "no NVIDIA GPU on the PCI bus");
	else if (!f->ngpus)
		row(w, "gpu", "the PCI bus could not be read (/sys/bus/pci/devices)");
	for (i = 0; i < f->ngpus; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		char label[16];
		struct buf b;
		uint64_t mib = g->memory_total_mib ? g->memory_total_mib : g->kb_memory_mib;

		buf_init(&b);
		STR_FMT(label, "gpu %d", i);
		buf_adds(&b, g->name[0] ? g->name : "unknown NVIDIA GPU");
		if (g->architecture[0])
			buf_addf(&b, ", %s", g->architecture);
		if (g->compute_capability[0])
			buf_addf(&b, ", compute %s", g->compute_capability);
		if (mib)
			buf_addf(&b, ", %llu MiB", (unsigned long long)mib);
		row(w, label, "%s", b.s);
		buf_reset(&b);
		buf_addf(&b, "%s [%04x:%04x], kernel driver %s", g->pci_bus_id, g->vendor, g->device,
			 g->kernel_driver[0] ? g->kernel_driver : "none");
		if (g->numa_node >= 0)
			buf_addf(&b, ", NUMA node %d", g->numa_node);
		row(w, "", "%s", b.s);
		if (g->link_width_max > 0) {
			char cur[24], max[24];
			link_speed(g->link_speed_cur, cur, sizeof(cur));
			link_speed(g->link_speed_max, max, sizeof(max));
			row(w, "", "PCIe link %s x%d (max %s x%d)", cur, g->link_width_cur, max,
			    g->link_width_max);
		}
		if (g->uuid[0])
			row(w, "", "%s", g->uuid);
		buf_release(&b);
	}
	for (i = 0; i < f->nother_gpus; i++) {
		const struct other_gpu_facts *o = &f->other_gpus[i];
		row(w, "other gpu", "%s [%04x:%04x], driver %s%s", o->pci_bus_id, o->vendor, o->device,
		    o->kernel_driver[0] ? o->kernel_driver : "none",
		    o->boot_vga ? ", primary display" : "");
	}
	topology(w, f);
}

/* One of nvidia-smi's matrices: a row per GPU of the words in field `off`
 * of struct gpu_facts; with affinity, topo -m's CPU and NUMA columns. */
static void
matrix(const struct out *w, const struct facts *f, size_t off, bool affinity)
{
	int i, k, n = f->ngpus < MAX_GPUS ? f->ngpus : MAX_GPUS;
	struct buf b;

	buf_init(&b);
	buf_adds(&b, "            ");
	for (k = 0; k < n; k++)
		buf_addf(&b, "GPU%-3d", k);
	if (affinity)
		buf_adds(&b, "CPU Affinity    NUMA Affinity");
	for (i = -1; i < n; i++) {
		if (i >= 0) {
			const struct gpu_facts *g = &f->gpus[i];
			char words[F_TEXT], *save = NULL, *t;

			STR_COPY(words, (const char *)g + off);
			buf_reset(&b);
			buf_addf(&b, "      GPU%-2d ", i);
			for (k = 0, t = strtok_r(words, " ", &save); k < n; k++, t = strtok_r(NULL, " ", &save))
				buf_addf(&b, "%-6s", t ? t : "?");
			if (affinity) {
				buf_addf(&b, "%-16s", g->cpu_affinity[0] ? g->cpu_affinity : "N/A");
				if (g->numa_node >= 0)
					buf_addf(&b, "%d", g->numa_node);
				else
					buf_adds(&b, "N/A");
			}
		}
		while (b.len && b.s[b.len - 1] == ' ')
			b.s[--b.len] = '\0';
		fprintf(w->fp, "%s\n", b.s);
	}
	buf_release(&b);
}

/* The GPUs' connections as nvidia-smi topo -m and topo -p2p r print them,
 * with topo -m's legend (the words users know), for two GPUs or more. */
/* The order table: each GPU's nvidia-smi index (the PCI order) beside the
 * CUDA ordinal this process's environment gives it. */
static void
order(const struct out *w, const struct facts *f)
{
	const char *o = facts_env_value(f, "CUDA_DEVICE_ORDER");
	struct buf a, b;
	int i, known = 0;

	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++)
		known += f->gpus[i].cuda_index >= 0;
	if (f->ngpus < 2 || !known)
		return;
	buf_init(&a);
	buf_init(&b);
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		buf_addf(&a, "%-5d", i);
		if (f->gpus[i].cuda_index >= 0)
			buf_addf(&b, "%-5d", f->gpus[i].cuda_index);
		else
			buf_addf(&b, "%-5s", "-");
	}
	while (a.len && a.s[a.len - 1] == ' ')
		a.s[--a.len] = '\0';
	while (b.len && b.s[b.len - 1] == ' ')
		b.s[--b.len] = '\0';
	/* columns: printed as they are, never re-wrapped */
	fprintf(w->fp, "  %-10snvidia-smi %s\n", "order", a.s);
	fprintf(w->fp, "  %-10sCUDA       %s\n", "", b.s);
	row(w, "", "CUDA_DEVICE_ORDER %s", o ? o : "unset: CUDA numbers the GPUs fastest first");
	buf_release(&a);
	buf_release(&b);
}

static void
topology(const struct out *w, const struct facts *f)
{
	order(w, f);
	if (f->ngpus < 2 || !f->gpus[0].topology[0])
		return;
	row(w, "topology", "as nvidia-smi topo -m:");
	matrix(w, f, offsetof(struct gpu_facts, topology), true);
	if (w->o->verbose)
		wrap(w, 12, "X = self; SYS = across the CPU interconnect (QPI/UPI) between NUMA nodes; "
			    "NODE = across PCIe host bridges within a NUMA node; PHB = through a PCIe host "
			    "bridge (the CPU); PXB = across several PCIe bridges, not a host bridge; PIX = "
			    "across at most one PCIe bridge; NV# = a bonded set of # NVLinks");
	if (f->gpus[0].p2p_read[0]) {
		row(w, "p2p read", "as nvidia-smi topo -p2p r:");
		matrix(w, f, offsetof(struct gpu_facts, p2p_read), false);
		if (w->o->verbose)
			wrap(w, 12, "OK = supported; CNS = chipset not supported; GNS = GPU not supported; "
				    "TNS = topology not supported; DRK = disabled by a driver setting; NS = not "
				    "supported; U = unknown");
	}
}

/* ---- kmod ------------------------------------------------------------------ */

static void
section_kmod(const struct out *w, const struct facts *f)
{
	const struct kmod_facts *k = &f->kmod;
	struct buf b;
	int i, missing = 0;

	heading(w, "KERNEL MODULES");
	if (part_unknown(w, f, FACTS_PART_KMOD))
		return;
	if (!k->modules_readable)
		row(w, "modules", "/proc/modules could not be read");
	else if (k->modules_cut)
		row(w, "modules", "/proc/modules read in part: what it does not list is unknown");
	if (k->nvidia_version[0])
		row(w, "nvidia", "%s%s%s%s", k->nvidia_version, k->flavour[0] ? " (" : "", k->flavour,
		    k->flavour[0] ? " kernel module)" : "");
	else
		row(w, "nvidia", "%s%s", k->nvidia ? "loaded" : kmod_list_whole(f) ? "not loaded" : "unknown",
		    k->nvidia_module_installed ? ", installed" : "");
	buf_init(&b);
	if (k->nvidia)
		buf_adds(&b, " nvidia");
	if (k->nvidia_uvm)
		buf_adds(&b, " nvidia_uvm");
	if (k->nvidia_modeset)
		buf_adds(&b, " nvidia_modeset");
	if (k->nvidia_drm)
		buf_adds(&b, " nvidia_drm");
	if (k->nouveau)
		buf_adds(&b, " nouveau");
	if (k->modules_readable)
		row(w, "loaded", "%s", b.len ? b.s + 1 : "no GPU module (nvidia, nvidia_uvm, nouveau)");
	buf_reset(&b);
	for (i = 0; i < k->ndevnodes; i++) {
		const struct devnode_facts *d = &k->devnodes[i];
		if (!d->exists) {
			missing++;
			continue;
		}
		buf_addf(&b, "%s%s%s", b.len ? " " : "", d->path + (str_starts(d->path, "/dev/") ? 5 : 0),
			 d->accessible ? "" : "(no access)");
	}
	if (b.len)
		row(w, "/dev", "%s", b.s);
	if (missing && (f->ngpus || k->nvidia)) {
		buf_reset(&b);
		for (i = 0; i < k->ndevnodes; i++)
			if (!k->devnodes[i].exists)
				buf_addf(&b, "%s%s", b.len ? " " : "", k->devnodes[i].path);
		row(w, "missing", "%s", b.s);
	}
	buf_release(&b);
}

/* ---- driver ---------------------------------------------------------------- */

static const char *
child_words(int state)
{
	switch (state) {
	case CHILD_OK:
		return "answered";
	case CHILD_LOAD_FAILED:
		return "could not be loaded";
	case CHILD_CRASHED:
		return "CRASHED";
	case CHILD_TIMEOUT:
		return "HUNG (timed out)";
	case CHILD_FAILED:
		return "probe failed";
	default:
		return "not loaded";
	}
}

static void
section_driver(const struct out *w, const struct facts *f)
{
	const struct driver_facts *d = &f->driver;
	int i;

	heading(w, "DRIVER");
	if (part_unknown(w, f, FACTS_PART_DRIVER))
		return;
	if (d->version[0])
		row(w, "version", "%s (from %s)%s%s%s", d->version, d->version_source,
		    d->cuda_version[0] ? ", runs CUDA up to " : "", d->cuda_version,
		    !strcmp(d->cuda_version_source, "derived") ? " (by its version: not asked)" : "");
	for (i = 0; i < d->nlibs; i++) {
		const struct driver_lib_facts *l = &d->libs[i];
		if (!l->is_stub && !l->loader_pick && !w->o->verbose)
			continue;
		row(w, !strcmp(l->name, "libnvidia-ml") ? "NVML lib" : l->name, "%s%s%s%s%s", l->path, l->version[0] ? " (" : "", l->version,
		    l->version[0] ? ")" : "",
		    l->is_stub ? " - toolkit stub, not a driver" : l->loader_pick ? " *" : "");
	}
	if (!d->nlibs)
		row(w, "libcuda", "not found");
	if (d->cuda_state == CHILD_OK) {
		if (d->cuinit_called)
			row(w, "cuInit", "%s (%d)%s, %d device%s, %.0f ms",
			    d->cuinit_name[0] ? d->cuinit_name : "?", d->cuinit_rc,
			    d->cuinit_rc ? " FAILED" : "", d->cuda_device_count < 0 ? 0 : d->cuda_device_count,
			    d->cuda_device_count == 1 ? "" : "s", d->cuda_ms);
	} else if (d->cuda_state != CHILD_NOT_RUN) {
		row(w, "libcuda", "%s%s%s", child_words(d->cuda_state), d->cuda_error[0] ? ": " : "",
		    d->cuda_error);
	}
	if (d->nvml_state == CHILD_OK)
		row(w, "NVML", "%s%s, %d device%s", d->nvml_init_rc ? "init failed: " : "driver ",
		    d->nvml_init_rc ? d->nvml_init_name : d->nvml_driver_version,
		    d->nvml_device_count < 0 ? 0 : d->nvml_device_count,
		    d->nvml_device_count == 1 ? "" : "s");
	else if (d->nvml_state != CHILD_NOT_RUN)
		row(w, "NVML", "%s%s%s", child_words(d->nvml_state), d->nvml_error[0] ? ": " : "",
		    d->nvml_error);
}

/* ---- libs ------------------------------------------------------------------ */

static bool
is_sublib(const char *name)
{
	return str_starts(name, "cudnn_");
}

/* Length of the directory part of a path ("/a/b/c.so" -> 4). */
static size_t
dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) : 0;
}

static bool
same_dir(const char *a, const char *b)
{
	size_t n = dir_len(a);

	return n == dir_len(b) && !strncmp(a, b, n);
}

/* Libraries grouped by directory: a directory line with its origin, then
 * one line per library in it (name, version, file, * for the loader's pick). */
static void
section_libs(const struct out *w, const struct facts *f)
{
	int i, j, hidden = 0, nw, vw;

	heading(w, "CUDA LIBRARIES");
	if (part_unknown(w, f, FACTS_PART_LIBS))
		return;
	if (!f->nlibs)
		row(w, "", "none found");
	for (i = 0; i < f->nlibs; i++) {
		const struct lib_facts *l = &f->libs[i];
		bool seen = false;

		for (j = 0; j < i && !seen; j++)
			seen = same_dir(f->libs[j].path, l->path);
		if (seen)
			continue;
		fprintf(w->fp, "  %.*s %s(%s)%s\n", (int)dir_len(l->path), l->path, col(w, C_DIM),
			lib_origin_name(l->origin), col(w, C_RESET));
		/* columns as wide as this directory's longest name and version
		 * (cudnn_engines_precompiled), never glued together */
		nw = 9;
		vw = 13;
		for (j = i; j < f->nlibs; j++) {
			const struct lib_facts *m = &f->libs[j];
			if (!same_dir(m->path, l->path) || (is_sublib(m->name) && !w->o->verbose))
				continue;
			if ((int)strlen(m->name) > nw)
				nw = (int)strlen(m->name);
			if ((int)strlen(m->version) > vw)
				vw = (int)strlen(m->version);
		}
		for (j = i; j < f->nlibs; j++) {
			const struct lib_facts *m = &f->libs[j];
			const char *file = m->path + dir_len(m->path) + 1;
			int width = w->o->width > 0 ? w->o->width : 80;
			if (!same_dir(m->path, l->path))
				continue;
			if (is_sublib(m->name) && !w->o->verbose) {
				hidden++;
				continue;
			}
			/* the file name only where it fits the line */
			if (4 + nw + 1 + vw + 1 + (int)strlen(file) + (m->loader_pick ? 2 : 0) > width)
				file = "";
			if (file[0])
				fprintf(w->fp, "    %-*s %-*s %s%s\n", nw, m->name, vw, m->version[0] ? m->version : "?",
					file, m->loader_pick ? " *" : "");
			else
				fprintf(w->fp, "    %-*s %s%s\n", nw, m->name, m->version[0] ? m->version : "?",
					m->loader_pick ? " *" : "");
		}
	}
	if (f->nlibs)
		fprintf(w->fp, "  %s(* = the copy the dynamic loader picks%s)%s\n", col(w, C_DIM),
			hidden ? "; cuDNN sub-libraries hidden, -v shows them" : "", col(w, C_RESET));
}

/* ---- python ---------------------------------------------------------------- */

static void
framework_line(const struct out *w, const struct framework_facts *fw)
{
	struct buf b;
	int i, missing = 0;

	buf_init(&b);
	buf_addf(&b, "%s %s", fw->name, fw->version[0] ? fw->version : "?");
	if (fw->cuda_build == 0)
		buf_adds(&b, ", CPU-only build");
	else if (fw->built_cuda[0])
		buf_addf(&b, ", built for CUDA %s", fw->built_cuda);
	if (fw->built_cudnn[0])
		buf_addf(&b, ", cuDNN %s", fw->built_cudnn);
	if (fw->plugin[0])
		buf_addf(&b, " (%s)", fw->plugin);
	wrap_text(w->fp, w->o->width, "    ", "      ", b.s);
	if (fw->targets.file[0]) {
		const char *base = strrchr(fw->targets.file, '/');
		struct buf c;

		buf_init(&c);
		buf_addf(&c, "machine code %s", fw->targets.sass[0] ? fw->targets.sass : "none");
		if (fw->targets.ptx[0])
			buf_addf(&c, ", PTX %s (ISA %s)", fw->targets.ptx, fw->targets.ptx_isa);
		else
			buf_adds(&c, ", no PTX");
		if (w->o->verbose)
			buf_addf(&c, " (%s: %u fat binar%s%s, %.1f ms)", base ? base + 1 : fw->targets.file,
				 fw->targets.fat_binaries, fw->targets.fat_binaries == 1 ? "y" : "ies",
				 fw->targets.truncated ? ", cut short at a damaged header"
				 : fw->targets.sampled ? ", the first read in the time allowed"
						       : "",
				 fw->targets.ms);
		wrap_text(w->fp, w->o->width, "      GPU code               ", "                             ", c.s);
		buf_release(&c);
	}
	for (i = 0; i < fw->nresolved; i++) {
		const struct resolved_lib_facts *r = &fw->resolved[i];
		if (!r->path[0]) {
			missing++;
			fprintf(w->fp, "      %-22s NOT FOUND\n", r->soname);
		} else if (w->o->verbose || str_starts(r->soname, "libcudart") ||
			   str_starts(r->soname, "libcudnn.so") || str_starts(r->soname, "libcublas.so")) {
			/* a table of paths: a row is never broken */
			fprintf(w->fp, "      %-22s %s (%s%s%s)\n", r->soname, r->path,
				r->version[0] ? r->version : "?", r->via[0] ? ", " : "", r->via);
		}
	}
	buf_release(&b);
}

/* doctor --deep: the framework's own answer under the prediction. */
static void
live_lines(const struct out *w, const struct framework_facts *fw)
{
	const struct framework_live_facts *lv = &fw->live;
	struct buf b;
	int i;

	if (!lv->ran)
		return;
	buf_init(&b);
	if (lv->state != CHILD_OK) {
		buf_addf(&b, "%s after %.1f s: %s", child_state_name(lv->state), lv->ms / 1e3, lv->error);
	} else if (lv->error[0] && !lv->version[0]) {
		buf_addf(&b, "%s", lv->error);
	} else {
		buf_addf(&b, "%s %s", fw->name, lv->version[0] ? lv->version : "?");
		if (lv->gpu_count >= 0)
			buf_addf(&b, " sees %d GPU%s", lv->gpu_count, lv->gpu_count == 1 ? "" : "s");
		else
			buf_adds(&b, lv->cuda_available ? " sees a GPU" : " sees no GPU");
		if (lv->devices[0])
			buf_addf(&b, " (%s%s%s)", lv->devices, lv->capability[0] ? ", " : "", lv->capability);
		if (lv->cuda_build == 0)
			buf_adds(&b, ", CPU-only build");
		else if (lv->cuda[0])
			buf_addf(&b, ", CUDA %s", lv->cuda);
		if (lv->cudnn[0])
			buf_addf(&b, ", cuDNN %s", lv->cudnn);
		if (lv->ms >= 1000)
			buf_addf(&b, " (%.1f s)", lv->ms / 1e3);
		else
			buf_addf(&b, " (%.0f ms)", lv->ms);
		if (lv->error[0])
			buf_addf(&b, "; %s", lv->error);
	}
	if (lv->run_uid >= 0)
		buf_addf(&b, " [as %s%s%d]", lv->run_user[0] ? lv->run_user : "uid ", lv->run_user[0] ? ", uid " : "",
			 lv->run_uid);
	{
		char first[48];
		snprintf(first, sizeof(first), "      %slive:%s ", col(w, C_CYAN), col(w, C_RESET));
		wrap_text(w->fp, w->o->width, first, "            ", b.s);
	}
	buf_release(&b);
	for (i = 0; i < lv->nmapped && i < MAX_LIVE_MAPPED; i++) {
		const char *base = strrchr(lv->mapped[i], '/');
		base = base ? base + 1 : lv->mapped[i];
		if (w->o->verbose || str_starts(base, "libcudart") || str_starts(base, "libcudnn.so") ||
		    str_starts(base, "libcublas.so"))
			fprintf(w->fp, "      %-22s %s (mapped)\n", base, lv->mapped[i]);
	}
}

static void
section_python(const struct out *w, const struct facts *f)
{
	int i, k;

	if (!f->npython)
		return;
	heading(w, "PYTHON");
	if (part_unknown(w, f, FACTS_PART_PYTHON))
		return;
	for (i = 0; i < f->npython; i++) {
		const struct python_env_facts *e = &f->python[i];
		if (!e->nframeworks && !w->o->verbose)
			continue;
		fprintf(w->fp, "  %s (%s, Python %s%s)\n", e->path, e->kind[0] ? e->kind : "?",
			e->version[0] ? e->version : "?", e->active ? ", active" : "");
		for (k = 0; k < e->nframeworks; k++) {
			framework_line(w, &e->frameworks[k]);
			live_lines(w, &e->frameworks[k]);
		}
	}
	{
		int bare = 0;
		for (i = 0; i < f->npython; i++)
			bare += !f->python[i].nframeworks;
		if (bare && !w->o->verbose)
			fprintf(w->fp, "  %s(%d environment%s without a GPU framework; -v lists them)%s\n",
				col(w, C_DIM), bare, bare == 1 ? "" : "s", col(w, C_RESET));
	}
}

/* ---- env ------------------------------------------------------------------- */

static void
section_env(const struct out *w, const struct facts *f)
{
	int i, shown = 0;

	heading(w, "ENVIRONMENT");
	if (part_unknown(w, f, FACTS_PART_ENV))
		return;
	for (i = 0; i < f->env.nvars; i++) {
		const struct env_var_facts *v = &f->env.vars[i];
		if (!v->set)
			continue;
		fprintf(w->fp, "  %s=%s%s%s\n", v->name, v->value[0] ? "" : "\"", v->value,
			v->value[0] ? "" : "\"");
		shown++;
	}
	for (i = 0; i < f->env.nldpath; i++)
		if (!f->env.ldpath[i].exists)
			fprintf(w->fp, "    LD_LIBRARY_PATH entry %s does not exist\n", f->env.ldpath[i].dir);
	if (!shown)
		row(w, "", "no GPU-related variables set");
}

/* ---- resources ------------------------------------------------------------- */

static void
section_resources(const struct out *w, const struct facts *f)
{
	int i, any = 0;

	heading(w, "RESOURCES");
	if (part_unknown(w, f, FACTS_PART_PROCS))
		return;
	for (i = 0; i < f->ngpus; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		char label[16];
		struct buf b;

		if (!g->nvml_valid)
			continue;
		any = 1;
		buf_init(&b);
		STR_FMT(label, "gpu %d", i);
		buf_addf(&b, "%llu / %llu MiB used", (unsigned long long)g->memory_used_mib,
			 (unsigned long long)(g->memory_total_mib ? g->memory_total_mib
								  : g->memory_used_mib + g->memory_free_mib));
		if (g->temperature_c >= 0)
			buf_addf(&b, ", %d C", g->temperature_c);
		if (g->power_mw >= 0) {
			buf_addf(&b, ", %d W", g->power_mw / 1000);
			if (g->power_limit_mw > 0)
				buf_addf(&b, " / %d W", g->power_limit_mw / 1000);
		}
		if (g->utilization_gpu >= 0)
			buf_addf(&b, ", %d%% busy", g->utilization_gpu);
		if (g->persistence_mode >= 0)
			buf_addf(&b, ", persistence %s", g->persistence_mode ? "on" : "off");
		if (g->mig_mode == 1)
			buf_adds(&b, ", MIG on");
		row(w, label, "%s", b.s);
		buf_release(&b);
	}
	for (i = 0; i < f->nprocs; i++) {
		const struct proc_facts *p = &f->procs[i];
		char used[32] = "?";

		if (p->used_mib != UINT64_MAX)
			STR_FMT(used, "%llu MiB", (unsigned long long)p->used_mib);
		row(w, i ? "" : "processes", "pid %u %s on %s: %s, %s%s%c", p->pid,
		    p->name[0] ? p->name : "?", p->gpu_bus_id, used, p->alive ? "running" : "not visible",
		    p->alive && p->state != '?' && p->state ? ", state " : "",
		    p->alive && p->state != '?' ? p->state : ' ');
		any = 1;
	}
	if (!f->nprocs && any)
		row(w, "processes", "none hold GPU memory");
	if (!any)
		row(w, "", "no GPU state (NVML did not answer)");
}

/* ---- findings -------------------------------------------------------------- */

static void
print_finding(const struct out *w, const struct finding *fi)
{
	const char *mark, *colour;
	int k;

	switch (fi->severity) {
	case SEV_ERROR:
		mark = "ERROR";
		colour = C_RED;
		break;
	case SEV_WARN:
		mark = "WARN ";
		colour = C_YELLOW;
		break;
	default:
		mark = "INFO ";
		colour = C_CYAN;
		break;
	}
	fprintf(w->fp, "\n%s%s%s %s%s%s\n", col(w, C_BOLD), col(w, colour), mark, fi->id,
		col(w, C_RESET), "");
	wrap(w, 2, fi->title);
	if (fi->env)
		fprintf(w->fp, "  %sin %s%s\n", col(w, C_DIM), fi->env, col(w, C_RESET));
	for (k = 0; k < fi->nevidence; k++) {
		struct buf b;
		buf_init(&b);
		buf_addf(&b, "- %s", fi->evidence[k]);
		fprintf(w->fp, "%s", col(w, C_DIM));
		wrap_hanging(w->fp, w->o->width, 4, 6, b.s);
		fprintf(w->fp, "%s", col(w, C_RESET));
		buf_release(&b);
	}
	if (fi->fix) {
		const char *p = fi->fix;
		fprintf(w->fp, "  %sfix:%s\n", col(w, C_BOLD), col(w, C_RESET));
		while (*p) {
			const char *e = strchr(p, '\n');
			size_t n = e ? (size_t)(e - p) : strlen(p);
			char *line = strndup(p, n);

			/* commands and indented lines verbatim; prose wrapped */
			if (line && wrap_is_command(line))
				fprintf(w->fp, "    %s%s%s\n", col(w, C_GREEN), line, col(w, C_RESET));
			else if (line)
				wrap(w, 4, line);
			free(line);
			p += n;
			if (*p == '\n')
				p++;
		}
	}
}

void
render_findings(FILE *out, const struct findings *fs, const struct render_opts *o)
{
	struct out w = {.fp = out, .o = o};
	size_t i;

	for (i = 0; i < fs->n; i++)
		print_finding(&w, &fs->v[i]);
}

void
render_text(FILE *out, const struct facts *f, const struct findings *fs, const struct render_opts *o)
{
	struct out w = {.fp = out, .o = o};
	size_t i, nerr = 0, nwarn = 0, ninfo = 0;

	fprintf(out, "%sgpudoctor %s%s", col(&w, C_BOLD), f->tool_version[0] ? f->tool_version : GPUDOCTOR_VERSION,
		col(&w, C_RESET));
	if (f->hostname[0])
		fprintf(out, " on %s", f->hostname);
	if (f->from_file)
		fprintf(out, ", facts recorded %s", f->collected_at[0] ? f->collected_at : "earlier");
	else if (f->total_ms > 0)
		fprintf(out, " (%.0f ms)", f->total_ms);
	fputc('\n', out);

	section_host(&w, f);
	section_hw(&w, f);
	section_kmod(&w, f);
	section_driver(&w, f);
	section_libs(&w, f);
	section_python(&w, f);
	section_env(&w, f);
	section_resources(&w, f);
	if (o->verbose && f->nnotes) {
		heading(&w, "PROBE NOTES");
		for (i = 0; i < (size_t)f->nnotes; i++)
			row(&w, f->notes[i].probe, "%s", f->notes[i].note);
	}

	for (i = 0; i < fs->n; i++) {
		if (fs->v[i].severity == SEV_ERROR)
			nerr++;
		else if (fs->v[i].severity == SEV_WARN)
			nwarn++;
		else
			ninfo++;
	}
	heading(&w, "FINDINGS");
	if (f->unknown_parts)
		wrap(&w, 2, "(the facts document lacks parts marked unknown above: the checks that "
			    "read them were not run)");
	if (!fs->n)
		fprintf(out, "  %sNo problems found.%s\n", col(&w, C_GREEN), col(&w, C_RESET));
	for (i = 0; i < fs->n; i++)
		print_finding(&w, &fs->v[i]);
	fprintf(out, "\n%s%zu error%s, %zu warning%s, %zu note%s%s\n", col(&w, C_BOLD), nerr,
		nerr == 1 ? "" : "s", nwarn, nwarn == 1 ? "" : "s", ninfo, ninfo == 1 ? "" : "s",
		col(&w, C_RESET));
}
