/*
 * facts_json.c - struct facts <-> JSON through one table of fields per
 * struct, so the writer and the reader cannot drift apart.
 *
 * Conventions of the document (schema gpudoctor/facts/1):
 *   - keys are the field names of facts.h, nested the same way, except the
 *     few renamed for readers (gpu vendor/device -> pci_vendor_id /
 *     pci_device_id as "0x10de" strings);
 *   - unknown values are null: empty strings, -1 sentinels, UINT64_MAX;
 *   - enums are strings (child states, library origins);
 *   - array counts are implicit in the arrays.
 * The reader ignores keys it does not know and leaves missing ones unknown,
 * so older and newer documents both load.
 */
#include "render/facts_json.h"
#include "base/clean.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "render/json_bytes.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum ftype {
	FT_BOOL,
	FT_INT,      /* int, always a number */
	FT_INT_OPT,  /* int, -1 <-> null */
	FT_INT_NZ,   /* int, 0 (none, unknown) <-> null */
	FT_UINT,     /* unsigned */
	FT_U64,      /* uint64_t */
	FT_U64_OPT,  /* uint64_t, UINT64_MAX <-> null */
	FT_DOUBLE,
	FT_STR,      /* char[], "" <-> null */
	FT_HEX4,     /* unsigned as "0x%04x" */
	FT_HEX6,     /* unsigned as "0x%06x" */
	FT_CHAR,     /* a single char as a 1-character string, '?' or 0 <-> null */
	FT_CHILD,    /* enum child_state as a string */
	FT_ORIGIN,   /* enum lib_origin as a string */
	FT_TRISTATE, /* int -1/0/1 as null/false/true */
	FT_WORDS,    /* char[] of space-separated words <-> an array of strings */
};

struct field {
	const char *key;
	enum ftype type;
	size_t off;
	size_t size;
	size_t when;  /* 1 + offset of a bool that must be true for the value to
	                 mean anything (null otherwise); 0: always */
};

#define FLD(S, key, type, m) {key, type, offsetof(struct S, m), sizeof(((struct S *)0)->m), 0}
/* a value known only when the bool `w` of the same struct is true */
#define FLD_WHEN(S, key, type, m, w) \
	{key, type, offsetof(struct S, m), sizeof(((struct S *)0)->m), 1 + offsetof(struct S, w)}
#define NFIELDS(t) (sizeof(t) / sizeof((t)[0]))

static const struct field host_fields[] = {
	FLD(host_facts, "os_id", FT_STR, os_id),
	FLD(host_facts, "os_like", FT_STR, os_like),
	FLD(host_facts, "os_version_id", FT_STR, os_version_id),
	FLD(host_facts, "os_pretty", FT_STR, os_pretty),
	FLD(host_facts, "pkg_manager", FT_STR, pkg_manager),
	FLD(host_facts, "kernel_release", FT_STR, kernel_release),
	FLD(host_facts, "arch", FT_STR, arch),
	FLD(host_facts, "glibc_version", FT_STR, glibc_version),
	FLD(host_facts, "cpu_valid", FT_BOOL, cpu_valid),
	FLD(host_facts, "cpu_model", FT_STR, cpu_model),
	FLD(host_facts, "cpu_count", FT_INT, cpu_count),
	FLD(host_facts, "cpu_avx", FT_BOOL, cpu_avx),
	FLD(host_facts, "cpu_avx2", FT_BOOL, cpu_avx2),
	FLD(host_facts, "cpu_avx512f", FT_BOOL, cpu_avx512f),
	FLD(host_facts, "cpu_fma", FT_BOOL, cpu_fma),
	FLD(host_facts, "wsl", FT_BOOL, wsl),
	FLD(host_facts, "wsl_dxg", FT_BOOL, wsl_dxg),
	FLD(host_facts, "wsl_lib_dir", FT_BOOL, wsl_lib_dir),
	FLD(host_facts, "wsl_libcuda", FT_BOOL, wsl_libcuda),
	FLD(host_facts, "container", FT_BOOL, container),
	FLD(host_facts, "container_kind", FT_STR, container_kind),
	FLD(host_facts, "secure_boot", FT_INT_OPT, secure_boot),
	FLD(host_facts, "hypervisor", FT_STR, hypervisor),
	FLD(host_facts, "cpus_allowed", FT_STR, cpus_allowed),
	FLD(host_facts, "net_valid", FT_BOOL, net_valid),
	FLD(host_facts, "net_ifaces", FT_STR, net_ifaces),
	FLD(host_facts, "ib_valid", FT_BOOL, ib_valid),
	FLD(host_facts, "ib_devices", FT_STR, ib_devices),
	FLD(host_facts, "uid", FT_UINT, uid),
	FLD(host_facts, "valid", FT_BOOL, valid),
};

static const struct field gpu_fields[] = {
	FLD(gpu_facts, "name", FT_STR, name),
	FLD(gpu_facts, "pci_bus_id", FT_STR, pci_bus_id),
	FLD(gpu_facts, "pci_vendor_id", FT_HEX4, vendor),
	FLD(gpu_facts, "pci_device_id", FT_HEX4, device),
	FLD(gpu_facts, "pci_subsystem_vendor_id", FT_HEX4, subsys_vendor),
	FLD(gpu_facts, "pci_subsystem_device_id", FT_HEX4, subsys_device),
	FLD(gpu_facts, "pci_class", FT_HEX6, class_code),
	FLD(gpu_facts, "architecture", FT_STR, architecture),
	FLD(gpu_facts, "compute_capability", FT_STR, compute_capability),
	FLD(gpu_facts, "memory_total_mib", FT_U64, memory_total_mib),
	FLD(gpu_facts, "kb_known", FT_BOOL, kb_known),
	FLD(gpu_facts, "kb_memory_mib", FT_U64, kb_memory_mib),
	FLD(gpu_facts, "kernel_driver", FT_STR, kernel_driver),
	FLD(gpu_facts, "numa_node", FT_INT_OPT, numa_node),
	FLD(gpu_facts, "link_speed_cur", FT_STR, link_speed_cur),
	FLD(gpu_facts, "link_speed_max", FT_STR, link_speed_max),
	FLD(gpu_facts, "link_width_cur", FT_INT, link_width_cur),
	FLD(gpu_facts, "link_width_max", FT_INT, link_width_max),
	FLD(gpu_facts, "boot_vga", FT_BOOL, boot_vga),
	FLD(gpu_facts, "cuda_valid", FT_BOOL, cuda_valid),
	FLD(gpu_facts, "cuda_index", FT_INT_OPT, cuda_index),
	FLD(gpu_facts, "uuid", FT_STR, uuid),
	FLD(gpu_facts, "nvml_valid", FT_BOOL, nvml_valid),
	FLD(gpu_facts, "memory_used_mib", FT_U64, memory_used_mib),
	FLD(gpu_facts, "memory_free_mib", FT_U64, memory_free_mib),
	FLD(gpu_facts, "temperature_c", FT_INT_OPT, temperature_c),
	FLD(gpu_facts, "power_mw", FT_INT_OPT, power_mw),
	FLD(gpu_facts, "power_limit_mw", FT_INT_OPT, power_limit_mw),
	FLD(gpu_facts, "throttle_valid", FT_BOOL, throttle_valid),
	FLD(gpu_facts, "throttle_reasons", FT_U64, throttle_reasons),
	FLD(gpu_facts, "persistence_mode", FT_INT_OPT, persistence_mode),
	FLD(gpu_facts, "compute_mode", FT_INT_OPT, compute_mode),
	FLD(gpu_facts, "mig_mode", FT_INT_OPT, mig_mode),
	FLD(gpu_facts, "utilization_gpu", FT_INT_OPT, utilization_gpu),
	FLD(gpu_facts, "sm_clock_mhz", FT_INT_OPT, sm_clock_mhz),
	FLD(gpu_facts, "sm_clock_max_mhz", FT_INT_OPT, sm_clock_max_mhz),
	FLD(gpu_facts, "ecc_mode", FT_INT_OPT, ecc_mode),
	FLD(gpu_facts, "ecc_uncorrected", FT_U64, ecc_uncorrected),
	FLD(gpu_facts, "topology", FT_WORDS, topology),
	FLD(gpu_facts, "p2p_read", FT_WORDS, p2p_read),
	FLD(gpu_facts, "p2p_write", FT_WORDS, p2p_write),
	FLD(gpu_facts, "p2p_atomics", FT_WORDS, p2p_atomics),
	FLD(gpu_facts, "cpu_affinity", FT_STR, cpu_affinity),
	FLD(gpu_facts, "nvlink_up", FT_INT_OPT, nvlink_up),
	FLD(gpu_facts, "nvlink_down", FT_INT_OPT, nvlink_down),
};

static const struct field other_gpu_fields[] = {
	FLD(other_gpu_facts, "pci_bus_id", FT_STR, pci_bus_id),
	FLD(other_gpu_facts, "pci_vendor_id", FT_HEX4, vendor),
	FLD(other_gpu_facts, "pci_device_id", FT_HEX4, device),
	FLD(other_gpu_facts, "pci_class", FT_HEX6, class_code),
	FLD(other_gpu_facts, "kernel_driver", FT_STR, kernel_driver),
	FLD(other_gpu_facts, "boot_vga", FT_BOOL, boot_vga),
};

static const struct field kmod_fields[] = {
	FLD(kmod_facts, "nvidia_version", FT_STR, nvidia_version),
	FLD(kmod_facts, "flavour", FT_STR, flavour),
	FLD(kmod_facts, "version_line", FT_STR, version_line),
	FLD(kmod_facts, "modules_readable", FT_BOOL, modules_readable),
	FLD(kmod_facts, "modules_cut", FT_BOOL, modules_cut),
	FLD(kmod_facts, "nvidia", FT_BOOL, nvidia),
	FLD(kmod_facts, "nvidia_uvm", FT_BOOL, nvidia_uvm),
	FLD(kmod_facts, "nvidia_modeset", FT_BOOL, nvidia_modeset),
	FLD(kmod_facts, "nvidia_drm", FT_BOOL, nvidia_drm),
	FLD(kmod_facts, "nouveau", FT_BOOL, nouveau),
	FLD(kmod_facts, "nouveau_blacklisted", FT_BOOL, nouveau_blacklisted),
	FLD(kmod_facts, "nouveau_blacklist_file", FT_STR, nouveau_blacklist_file),
	FLD(kmod_facts, "nvidia_module_installed", FT_BOOL, nvidia_module_installed),
	FLD(kmod_facts, "nvidia_module_path", FT_STR, nvidia_module_path),
};

static const struct field devnode_fields[] = {
	FLD(devnode_facts, "path", FT_STR, path),
	FLD(devnode_facts, "exists", FT_BOOL, exists),
	FLD(devnode_facts, "is_char", FT_BOOL, is_char),
	FLD_WHEN(devnode_facts, "mode", FT_UINT, mode, exists),
	FLD_WHEN(devnode_facts, "uid", FT_UINT, uid, exists),
	FLD_WHEN(devnode_facts, "gid", FT_UINT, gid, exists),
	FLD(devnode_facts, "accessible", FT_BOOL, accessible),
};

static const struct field driver_fields[] = {
	FLD(driver_facts, "version", FT_STR, version),
	FLD(driver_facts, "version_source", FT_STR, version_source),
	FLD(driver_facts, "cuda_version", FT_STR, cuda_version),
	FLD(driver_facts, "cuda_version_source", FT_STR, cuda_version_source),
	FLD(driver_facts, "cuda_state", FT_CHILD, cuda_state),
	FLD(driver_facts, "cuda_signal", FT_INT_NZ, cuda_signal),
	FLD(driver_facts, "cuda_error", FT_STR, cuda_error),
	FLD(driver_facts, "cuda_loaded_path", FT_STR, cuda_loaded_path),
	FLD(driver_facts, "cuda_driver_version", FT_INT_NZ, cuda_driver_version),
	FLD(driver_facts, "cuinit_called", FT_BOOL, cuinit_called),
	FLD_WHEN(driver_facts, "cuinit_rc", FT_INT, cuinit_rc, cuinit_called),
	FLD(driver_facts, "cuinit_name", FT_STR, cuinit_name),
	FLD(driver_facts, "cuinit_text", FT_STR, cuinit_text),
	FLD(driver_facts, "cuda_device_count", FT_INT_OPT, cuda_device_count),
	FLD(driver_facts, "cuda_ms", FT_DOUBLE, cuda_ms),
	FLD(driver_facts, "nvml_state", FT_CHILD, nvml_state),
	FLD(driver_facts, "nvml_signal", FT_INT_NZ, nvml_signal),
	FLD(driver_facts, "nvml_error", FT_STR, nvml_error),
	FLD(driver_facts, "nvml_loaded_path", FT_STR, nvml_loaded_path),
	FLD(driver_facts, "nvml_init_called", FT_BOOL, nvml_init_called),
	FLD_WHEN(driver_facts, "nvml_init_rc", FT_INT, nvml_init_rc, nvml_init_called),
	FLD(driver_facts, "nvml_init_name", FT_STR, nvml_init_name),
	FLD(driver_facts, "nvml_driver_version", FT_STR, nvml_driver_version),
	FLD(driver_facts, "nvml_cuda_version", FT_INT_NZ, nvml_cuda_version),
	FLD(driver_facts, "nvml_device_count", FT_INT_OPT, nvml_device_count),
};

static const struct field driver_lib_fields[] = {
	FLD(driver_lib_facts, "name", FT_STR, name),
	FLD(driver_lib_facts, "path", FT_STR, path),
	FLD(driver_lib_facts, "real_path", FT_STR, real_path),
	FLD(driver_lib_facts, "version", FT_STR, version),
	FLD(driver_lib_facts, "found_via", FT_STR, found_via),
	FLD(driver_lib_facts, "is_stub", FT_BOOL, is_stub),
	FLD(driver_lib_facts, "loader_pick", FT_BOOL, loader_pick),
	FLD(driver_lib_facts, "is_elf", FT_BOOL, is_elf),
};

static const struct field lib_fields[] = {
	FLD(lib_facts, "name", FT_STR, name),
	FLD(lib_facts, "version", FT_STR, version),
	FLD(lib_facts, "version_source", FT_STR, version_source),
	FLD(lib_facts, "path", FT_STR, path),
	FLD(lib_facts, "real_path", FT_STR, real_path),
	FLD(lib_facts, "soname", FT_STR, soname),
	FLD(lib_facts, "origin", FT_ORIGIN, origin),
	FLD(lib_facts, "origin_root", FT_STR, origin_root),
	FLD(lib_facts, "in_ld_cache", FT_BOOL, in_ld_cache),
	FLD(lib_facts, "loader_pick", FT_BOOL, loader_pick),
	FLD(lib_facts, "cuda_major", FT_STR, cuda_major),
};

static const struct field env_var_fields[] = {
	FLD(env_var_facts, "name", FT_STR, name),
	FLD(env_var_facts, "set", FT_BOOL, set),
	FLD(env_var_facts, "value", FT_STR, value),
};

static const struct field ldpath_fields[] = {
	FLD(ldpath_dir_facts, "dir", FT_STR, dir),
	FLD(ldpath_dir_facts, "exists", FT_BOOL, exists),
	FLD(ldpath_dir_facts, "ncuda_libs", FT_INT, ncuda_libs),
	FLD(ldpath_dir_facts, "cuda_major", FT_STR, cuda_major),
};

static const struct field proc_fields[] = {
	FLD(proc_facts, "pid", FT_UINT, pid),
	FLD(proc_facts, "gpu_bus_id", FT_STR, gpu_bus_id),
	FLD(proc_facts, "used_mib", FT_U64_OPT, used_mib),
	FLD(proc_facts, "name", FT_STR, name),
	FLD(proc_facts, "alive", FT_BOOL, alive),
	FLD(proc_facts, "state", FT_CHAR, state),
	FLD(proc_facts, "type", FT_STR, type),
};

static const struct field resolved_fields[] = {
	FLD(resolved_lib_facts, "soname", FT_STR, soname),
	FLD(resolved_lib_facts, "path", FT_STR, path),
	FLD(resolved_lib_facts, "version", FT_STR, version),
	FLD(resolved_lib_facts, "via", FT_STR, via),
	FLD(resolved_lib_facts, "needed", FT_BOOL, needed),
};

static const struct field framework_fields[] = {
	FLD(framework_facts, "name", FT_STR, name),
	FLD(framework_facts, "package", FT_STR, package),
	FLD(framework_facts, "version", FT_STR, version),
	FLD(framework_facts, "local_tag", FT_STR, local_tag),
	FLD(framework_facts, "built_cuda", FT_STR, built_cuda),
	FLD(framework_facts, "built_cudnn", FT_STR, built_cudnn),
	FLD(framework_facts, "cuda_build", FT_TRISTATE, cuda_build),
	FLD(framework_facts, "compute_capabilities", FT_STR, compute_capabilities),
	FLD(framework_facts, "extension", FT_STR, extension),
	FLD(framework_facts, "plugin", FT_STR, plugin),
	FLD(framework_facts, "libdevice", FT_STR, libdevice),
	FLD(framework_facts, "ptxas", FT_STR, ptxas),
	FLD(framework_facts, "ptxas_version", FT_STR, ptxas_version),
};

/* .targets: the GPU code the framework's CUDA library carries */
static const struct field targets_fields[] = {
	FLD(targets_facts, "sass", FT_WORDS, sass),
	FLD(targets_facts, "ptx", FT_WORDS, ptx),
	FLD(targets_facts, "ptx_isa", FT_STR, ptx_isa),
	FLD(targets_facts, "file", FT_STR, file),
	FLD(targets_facts, "fat_binaries", FT_UINT, fat_binaries),
	FLD(targets_facts, "truncated", FT_BOOL, truncated),
	FLD(targets_facts, "sampled", FT_BOOL, sampled),
	FLD(targets_facts, "ms", FT_DOUBLE, ms),
};

/* .live (doctor --deep); .mapped is an array of strings, written apart */
static const struct field live_fields[] = {
	FLD(framework_live_facts, "ran", FT_BOOL, ran),
	FLD(framework_live_facts, "state", FT_CHILD, state),
	FLD(framework_live_facts, "signal", FT_INT_NZ, signal),
	FLD(framework_live_facts, "error", FT_STR, error),
	FLD(framework_live_facts, "version", FT_STR, version),
	FLD(framework_live_facts, "module", FT_STR, module),
	FLD(framework_live_facts, "cuda_build", FT_TRISTATE, cuda_build),
	FLD(framework_live_facts, "cuda_available", FT_BOOL, cuda_available),
	FLD(framework_live_facts, "gpu_count", FT_INT_OPT, gpu_count),
	FLD(framework_live_facts, "devices", FT_STR, devices),
	FLD(framework_live_facts, "cuda", FT_STR, cuda),
	FLD(framework_live_facts, "cudnn", FT_STR, cudnn),
	FLD(framework_live_facts, "arch_list", FT_STR, arch_list),
	FLD(framework_live_facts, "capability", FT_STR, capability),
	FLD(framework_live_facts, "ms", FT_DOUBLE, ms),
	FLD(framework_live_facts, "run_uid", FT_INT_OPT, run_uid),
	FLD(framework_live_facts, "run_user", FT_STR, run_user),
};

static const struct field pypkg_fields[] = {
	FLD(pypkg_facts, "name", FT_STR, name),
	FLD(pypkg_facts, "version", FT_STR, version),
};

static const struct field pyenv_fields[] = {
	FLD(python_env_facts, "path", FT_STR, path),
	FLD(python_env_facts, "interpreter", FT_STR, interpreter),
	FLD(python_env_facts, "version", FT_STR, version),
	FLD(python_env_facts, "kind", FT_STR, kind),
	FLD(python_env_facts, "active", FT_BOOL, active),
	FLD(python_env_facts, "site_packages", FT_STR, site_packages),
};

static const struct field note_fields[] = {
	FLD(probe_note, "probe", FT_STR, probe),
	FLD(probe_note, "note", FT_STR, note),
	FLD(probe_note, "ms", FT_DOUBLE, ms),
};

static const struct field top_fields[] = {
	FLD(facts, "schema", FT_STR, schema),
	FLD(facts, "tool_version", FT_STR, tool_version),
	FLD(facts, "hostname", FT_STR, hostname),
	FLD(facts, "collected_at", FT_STR, collected_at),
	FLD(facts, "root", FT_STR, root),
	FLD(facts, "total_ms", FT_DOUBLE, total_ms),
	FLD(facts, "pci_valid", FT_BOOL, pci_valid),
};

/* The parts of the document, each under its own key (facts.h). */
static const struct {
	const char *key;
	unsigned part;
	const char *what;
} parts[] = {
	{"host", FACTS_PART_HOST, "the host is"},
	{"gpus", FACTS_PART_GPUS, "the GPUs are"},
	{"kmod", FACTS_PART_KMOD, "the kernel modules are"},
	{"driver", FACTS_PART_DRIVER, "the driver is"},
	{"libs", FACTS_PART_LIBS, "the CUDA libraries are"},
	{"env", FACTS_PART_ENV, "the environment variables are"},
	{"procs", FACTS_PART_PROCS, "the GPU processes are"},
	{"python", FACTS_PART_PYTHON, "the Python environments are"},
};

/* ---- writing ---------------------------------------------------------------- */

static json_t *
field_to_json(const void *base, const struct field *fd)
{
	const char *p = (const char *)base + fd->off;
	char tmp[16];

	if (fd->when && !*((const bool *)((const char *)base + fd->when - 1)))
		return json_null();
	switch (fd->type) {
	case FT_BOOL:
		return json_boolean(*(const bool *)p);
	case FT_INT:
		return json_integer(*(const int *)p);
	case FT_INT_OPT:
		return *(const int *)p == -1 ? json_null() : json_integer(*(const int *)p);
	case FT_INT_NZ:
		return *(const int *)p == 0 ? json_null() : json_integer(*(const int *)p);
	case FT_UINT:
		return json_integer(*(const unsigned *)p);
	case FT_U64:
		return json_integer((json_int_t)*(const uint64_t *)p);
	case FT_U64_OPT:
		return *(const uint64_t *)p == UINT64_MAX ? json_null()
							   : json_integer((json_int_t)*(const uint64_t *)p);
	case FT_DOUBLE:
		return json_real(*(const double *)p);
	case FT_STR:
		return p[0] ? json_bytes(p, strnlen(p, fd->size)) : json_null();
	case FT_WORDS: {
		json_t *a = json_array();
		const char *w = p, *end = p + strnlen(p, fd->size);

		while (w < end) {
			size_t n = strcspn(w, " ");
			if (n)
				json_array_append_new(a, json_bytes(w, n));
			w += n + (w[n] == ' ');
		}
		return a;
	}
	case FT_HEX4:
		snprintf(tmp, sizeof(tmp), "0x%04x", *(const unsigned *)p);
		return json_string(tmp);
	case FT_HEX6:
		snprintf(tmp, sizeof(tmp), "0x%06x", *(const unsigned *)p);
		return json_string(tmp);
	case FT_CHAR:
		if (*p == 0 || *p == '?')
			return json_null();
		return json_bytes(p, 1);
	case FT_CHILD:
		return json_string(child_state_name(*(const int *)p));
	case FT_ORIGIN:
		return json_string(lib_origin_name(*(const int *)p));
	case FT_TRISTATE:
		return *(const int *)p < 0 ? json_null() : json_boolean(*(const int *)p);
	}
	return json_null();
}

static json_t *
obj_to_json(const void *base, const struct field *fields, size_t n)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_set_new(o, fields[i].key, field_to_json(base, &fields[i]));
	return o;
}

static json_t *
array_to_json(const void *items, size_t stride, int count, const struct field *fields, size_t n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < count; i++)
		json_array_append_new(a, obj_to_json((const char *)items + (size_t)i * stride, fields, n));
	return a;
}

#define ARRAY_JSON(arr, count, fields) \
	array_to_json((arr), sizeof((arr)[0]), (count), (fields), NFIELDS(fields))

json_t *
findings_to_json(const struct findings *fs)
{
	json_t *a = json_array();
	size_t i;
	int k;

	for (i = 0; fs && i < fs->n; i++) {
		const struct finding *fi = &fs->v[i];
		json_t *o = json_object(), *ev = json_array();

		json_object_set_new(o, "id", json_string(fi->id));
		json_object_set_new(o, "severity", json_string(severity_name(fi->severity)));
		json_object_set_new(o, "layer", json_string(fi->layer));
		json_object_set_new(o, "title", json_bytes(fi->title, strlen(fi->title)));
		for (k = 0; k < fi->nevidence; k++)
			json_array_append_new(ev, json_bytes(fi->evidence[k], strlen(fi->evidence[k])));
		json_object_set_new(o, "evidence", ev);
		json_object_set_new(o, "fix", fi->fix ? json_bytes(fi->fix, strlen(fi->fix)) : json_null());
		json_object_set_new(o, "env", fi->env ? json_bytes(fi->env, strlen(fi->env)) : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

/* .live (doctor --deep): the framework's own answers; NULL (the key left
 * out, as the schema has it) unless --deep asked the framework. */
static json_t *
live_to_json(const struct framework_live_facts *lv)
{
	json_t *o, *m;
	int i;

	if (!lv->ran)
		return NULL;
	o = obj_to_json(lv, live_fields, NFIELDS(live_fields));
	m = json_array();
	for (i = 0; i < lv->nmapped && i < MAX_LIVE_MAPPED; i++)
		json_array_append_new(m, json_bytes(lv->mapped[i], strnlen(lv->mapped[i], F_PATH)));
	json_object_set_new(o, "mapped", m);
	return o;
}

/* .python[]: environments with their packages and frameworks, each
 * framework with the libraries it resolves. */
static json_t *
python_to_json(const struct facts *f)
{
	json_t *a = json_array();
	int i, k;

	for (i = 0; i < f->npython && i < MAX_PYENVS; i++) {
		const struct python_env_facts *e = &f->python[i];
		json_t *o = obj_to_json(e, pyenv_fields, NFIELDS(pyenv_fields));
		json_t *fws = json_array();

		json_object_set_new(o, "packages", ARRAY_JSON(e->pkgs, e->npkgs, pypkg_fields));
		for (k = 0; k < e->nframeworks && k < MAX_FRAMEWORKS; k++) {
			const struct framework_facts *fw = &e->frameworks[k];
			json_t *fo = obj_to_json(fw, framework_fields, NFIELDS(framework_fields));
			json_object_set_new(fo, "resolved",
					    ARRAY_JSON(fw->resolved, fw->nresolved, resolved_fields));
			json_object_set_new(fo, "targets",
					    fw->targets.file[0]
						    ? obj_to_json(&fw->targets, targets_fields,
								  NFIELDS(targets_fields))
						    : json_null());
			if (fw->live.ran)
				json_object_set_new(fo, "live", live_to_json(&fw->live));
			json_array_append_new(fws, fo);
		}
		json_object_set_new(o, "frameworks", fws);
		json_array_append_new(a, o);
	}
	return a;
}

json_t *
facts_to_json(const struct facts *f, const struct findings *fs)
{
	json_t *doc = obj_to_json(f, top_fields, NFIELDS(top_fields));
	json_t *host = obj_to_json(&f->host, host_fields, NFIELDS(host_fields));
	json_t *kmod = obj_to_json(&f->kmod, kmod_fields, NFIELDS(kmod_fields));
	json_t *driver = obj_to_json(&f->driver, driver_fields, NFIELDS(driver_fields));
	json_t *env = json_object(), *gids = json_array();
	int i;

	for (i = 0; i < f->host.ngids && i < 32; i++)
		json_array_append_new(gids, json_integer(f->host.gids[i]));
	json_object_set_new(host, "gids", gids);
	json_object_set_new(doc, "host", host);
	json_object_set_new(doc, "gpus", ARRAY_JSON(f->gpus, f->ngpus, gpu_fields));
	json_object_set_new(doc, "other_gpus",
			    ARRAY_JSON(f->other_gpus, f->nother_gpus, other_gpu_fields));
	json_object_set_new(kmod, "devnodes",
			    ARRAY_JSON(f->kmod.devnodes, f->kmod.ndevnodes, devnode_fields));
	json_object_set_new(doc, "kmod", kmod);
	json_object_set_new(driver, "libs",
			    ARRAY_JSON(f->driver.libs, f->driver.nlibs, driver_lib_fields));
	json_object_set_new(doc, "driver", driver);
	json_object_set_new(doc, "libs", ARRAY_JSON(f->libs, f->nlibs, lib_fields));
	json_object_set_new(env, "vars", ARRAY_JSON(f->env.vars, f->env.nvars, env_var_fields));
	json_object_set_new(env, "ld_library_path",
			    ARRAY_JSON(f->env.ldpath, f->env.nldpath, ldpath_fields));
	json_object_set_new(doc, "env", env);
	json_object_set_new(doc, "procs", ARRAY_JSON(f->procs, f->nprocs, proc_fields));
	json_object_set_new(doc, "python", python_to_json(f));
	json_object_set_new(doc, "notes", ARRAY_JSON(f->notes, f->nnotes, note_fields));
	/* what a document read back did not hold stays unknown: null */
	for (i = 0; i < (int)(sizeof(parts) / sizeof(parts[0])); i++)
		if (f->unknown_parts & parts[i].part)
			json_object_set_new(doc, parts[i].key, json_null());
	if (f->unknown_parts & FACTS_PART_GPUS)
		json_object_set_new(doc, "other_gpus", json_null());
	if (fs)
		json_object_set_new(doc, "findings", findings_to_json(fs));
	return doc;
}

/* ---- cleaning for people --------------------------------------------------- */

static void
obj_clean(void *base, const struct field *fields, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fields[i].type == FT_STR || fields[i].type == FT_WORDS)
			text_clean_str((char *)base + fields[i].off, fields[i].size);
}

static void
array_clean(void *items, size_t stride, int count, int max, const struct field *fields, size_t n)
{
	int i;

	for (i = 0; i < count && i < max; i++)
		obj_clean((char *)items + (size_t)i * stride, fields, n);
}

#define ARRAY_CLEAN(arr, count, fields)                                                     \
	array_clean((arr), sizeof((arr)[0]), (count), (int)(sizeof(arr) / sizeof((arr)[0])), \
		    (fields), NFIELDS(fields))

void
facts_clean_text(struct facts *f)
{
	int i, k;

	obj_clean(f, top_fields, NFIELDS(top_fields));
	obj_clean(&f->host, host_fields, NFIELDS(host_fields));
	ARRAY_CLEAN(f->gpus, f->ngpus, gpu_fields);
	ARRAY_CLEAN(f->other_gpus, f->nother_gpus, other_gpu_fields);
	obj_clean(&f->kmod, kmod_fields, NFIELDS(kmod_fields));
	ARRAY_CLEAN(f->kmod.devnodes, f->kmod.ndevnodes, devnode_fields);
	obj_clean(&f->driver, driver_fields, NFIELDS(driver_fields));
	ARRAY_CLEAN(f->driver.libs, f->driver.nlibs, driver_lib_fields);
	ARRAY_CLEAN(f->libs, f->nlibs, lib_fields);
	ARRAY_CLEAN(f->env.vars, f->env.nvars, env_var_fields);
	ARRAY_CLEAN(f->env.ldpath, f->env.nldpath, ldpath_fields);
	ARRAY_CLEAN(f->procs, f->nprocs, proc_fields);
	ARRAY_CLEAN(f->notes, f->nnotes, note_fields);
	for (i = 0; i < f->npython && i < MAX_PYENVS; i++) {
		struct python_env_facts *e = &f->python[i];

		obj_clean(e, pyenv_fields, NFIELDS(pyenv_fields));
		ARRAY_CLEAN(e->pkgs, e->npkgs, pypkg_fields);
		for (k = 0; k < e->nframeworks && k < MAX_FRAMEWORKS; k++) {
			struct framework_facts *fw = &e->frameworks[k];
			int m;

			obj_clean(fw, framework_fields, NFIELDS(framework_fields));
			ARRAY_CLEAN(fw->resolved, fw->nresolved, resolved_fields);
			obj_clean(&fw->targets, targets_fields, NFIELDS(targets_fields));
			obj_clean(&fw->live, live_fields, NFIELDS(live_fields));
			for (m = 0; m < fw->live.nmapped && m < MAX_LIVE_MAPPED; m++)
				text_clean_str(fw->live.mapped[m], sizeof(fw->live.mapped[m]));
		}
	}
}

/* ---- reading ---------------------------------------------------------------- */

/* What reading found wrong, for the notes: the first few keys of the wrong
 * type by name, the rest counted. */
#define BAD_NAMED 6

struct reader {
	struct facts *f;
	int nbad;
};

static const char *
json_kind(json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a real number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	}
	return "a value";
}

static void
bad(struct reader *r, const char *where, const char *key, json_t *v, const char *want)
{
	if (r->nbad++ < BAD_NAMED)
		facts_note(r->f, "from", "%s%s%s is %s, not %s: taken as unknown", where,
			   key ? "." : "", key ? key : "", json_kind(v), want);
}

static unsigned
parse_hex(const char *s, bool *ok)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 16);
	*ok = end != s && !*end && !errno && v <= 0xffffffu;
	return (unsigned)v;
}

static bool
is_int(json_t *v, json_int_t lo, json_int_t hi)
{
	return json_is_integer(v) && json_integer_value(v) >= lo && json_integer_value(v) <= hi;
}

/* One value into its field; false when v has the wrong type (the field
 * then keeps its unknown value). null is unknown, always right. */
static bool
field_from_json(void *base, const struct field *fd, json_t *v)
{
	char *p = (char *)base + fd->off;
	bool ok = true;

	if (json_is_null(v)) {
		/* unknown: the sentinel facts_init already set (strings stay "") */
		if (fd->type == FT_INT_OPT || fd->type == FT_TRISTATE)
			*(int *)p = -1;
		if (fd->type == FT_U64_OPT)
			*(uint64_t *)p = UINT64_MAX;
		if (fd->type == FT_STR)
			p[0] = '\0';
		return true;
	}
	switch (fd->type) {
	case FT_BOOL:
		if (!json_is_boolean(v))
			return false;
		*(bool *)p = json_is_true(v);
		return true;
	case FT_INT:
	case FT_INT_OPT:
	case FT_INT_NZ:
		if (!is_int(v, INT32_MIN, INT32_MAX))
			return false;
		*(int *)p = (int)json_integer_value(v);
		return true;
	case FT_UINT:
		if (!is_int(v, 0, UINT32_MAX))
			return false;
		*(unsigned *)p = (unsigned)json_integer_value(v);
		return true;
	case FT_U64:
	case FT_U64_OPT:
		if (!is_int(v, 0, LLONG_MAX))
			return false;
		*(uint64_t *)p = (uint64_t)json_integer_value(v);
		return true;
	case FT_DOUBLE:
		if (!json_is_number(v))
			return false;
		*(double *)p = json_number_value(v);
		return true;
	case FT_STR:
		if (!json_is_string(v))
			return false;
		json_bytes_copy(p, fd->size, json_string_value(v));
		return true;
	case FT_WORDS: {
		size_t i, len = 0;
		char w[64];

		if (!json_is_array(v))
			return false;
		p[0] = '\0';
		for (i = 0; i < json_array_size(v); i++) {
			json_t *e = json_array_get(v, i);
			size_t n;

			if (!json_is_string(e)) {
				ok = false;
				continue;
			}
			n = json_bytes_copy(w, sizeof(w), json_string_value(e));
			/* one word each: no spaces, and all of it or none */
			if (!n || strchr(w, ' ') || len + n + 2 > fd->size)
				continue;
			if (len)
				p[len++] = ' ';
			memcpy(p + len, w, n + 1);
			len += n;
		}
		return ok;
	}
	case FT_HEX4:
	case FT_HEX6: {
		unsigned h;

		if (json_is_string(v))
			h = parse_hex(json_string_value(v), &ok);
		else if ((ok = is_int(v, 0, 0xffffff)))
			h = (unsigned)json_integer_value(v);
		if (!ok)
			return false;
		*(unsigned *)p = h;
		return true;
	}
	case FT_CHAR: {
		char c[2];

		if (!json_is_string(v))
			return false;
		json_bytes_copy(c, sizeof(c), json_string_value(v));
		*p = c[0];
		return true;
	}
	case FT_CHILD: {
		int s;

		if (!json_is_string(v) || (s = child_state_parse(json_string_value(v))) < 0)
			return false;
		*(int *)p = s;
		return true;
	}
	case FT_ORIGIN: {
		int o;

		if (!json_is_string(v) || (o = lib_origin_parse(json_string_value(v))) < 0)
			return false;
		*(int *)p = o;
		return true;
	}
	case FT_TRISTATE:
		if (!json_is_boolean(v))
			return false;
		*(int *)p = json_is_true(v);
		return true;
	}
	return false;
}

static const char *
want_of(enum ftype t)
{
	switch (t) {
	case FT_BOOL:
	case FT_TRISTATE:
		return "a boolean";
	case FT_INT:
	case FT_INT_OPT:
	case FT_INT_NZ:
	case FT_UINT:
	case FT_U64:
	case FT_U64_OPT:
		return "an integer in range";
	case FT_DOUBLE:
		return "a number";
	case FT_WORDS:
		return "an array of strings";
	case FT_HEX4:
	case FT_HEX6:
		return "a hexadecimal string";
	case FT_CHILD:
		return "a child state (ok, load_failed, crashed, timeout, failed, not_run)";
	case FT_ORIGIN:
		return "a library origin";
	case FT_STR:
	case FT_CHAR:
		break;
	}
	return "a string";
}

/* The fields of object o at `where` (".driver", ".gpus[1]"); false when o
 * is not an object (reported). */
static bool
obj_from_json(struct reader *r, const char *where, void *base, const struct field *fields, size_t n,
	      json_t *o)
{
	size_t i;

	if (!json_is_object(o)) {
		bad(r, where, NULL, o, "an object");
		return false;
	}
	for (i = 0; i < n; i++) {
		json_t *v = json_object_get(o, fields[i].key);
		if (v && !field_from_json(base, &fields[i], v))
			bad(r, where, fields[i].key, v, want_of(fields[i].type));
	}
	return true;
}

/* Read array `a` at `where` into items (stride bytes each, at most max)
 * with an optional per-item initialiser; an item that is not an object is
 * reported and left out. Returns the count; -1 when a is not an array. */
static int
array_from_json(struct reader *r, const char *where, void *items, size_t stride, int max,
		const struct field *fields, size_t n, json_t *a, void (*init)(void *))
{
	size_t i;
	int count = 0;

	if (!json_is_array(a)) {
		if (a && !json_is_null(a))
			bad(r, where, NULL, a, "an array");
		return -1;
	}
	for (i = 0; i < json_array_size(a) && count < max; i++) {
		char *item = (char *)items + (size_t)count * stride;
		char at[64];

		snprintf(at, sizeof(at), "%s[%zu]", where, i);
		if (init)
			init(item);
		else
			memset(item, 0, stride);
		if (obj_from_json(r, at, item, fields, n, json_array_get(a, i)))
			count++;
	}
	return count;
}

static void
gpu_init_item(void *p)
{
	gpu_facts_init(p);
}

static void
proc_init_item(void *p)
{
	struct proc_facts *pr = p;

	memset(pr, 0, sizeof(*pr));
	pr->used_mib = UINT64_MAX;
	pr->state = '?';
}

#define ARRAY_FROM(r, where, arr, fields, a, init)                                          \
	array_from_json((r), (where), (arr), sizeof((arr)[0]),                              \
			(int)(sizeof(arr) / sizeof((arr)[0])), (fields), NFIELDS(fields), (a), \
			(init))

static void
framework_init_item(void *p)
{
	struct framework_facts *fw = p;

	memset(fw, 0, sizeof(*fw));
	fw->cuda_build = -1;
}

static void
live_from_json(struct reader *r, const char *where, struct framework_live_facts *lv, json_t *o)
{
	json_t *m, *v;
	size_t i;

	memset(lv, 0, sizeof(*lv));
	if (!o || json_is_null(o))
		return;
	lv->cuda_build = -1;
	lv->gpu_count = -1;
	lv->run_uid = -1;
	if (!obj_from_json(r, where, lv, live_fields, NFIELDS(live_fields), o))
		return;
	m = json_object_get(o, "mapped");
	for (i = 0; json_is_array(m) && i < json_array_size(m) && lv->nmapped < MAX_LIVE_MAPPED; i++) {
		v = json_array_get(m, i);
		if (json_is_string(v))
			json_bytes_copy(lv->mapped[lv->nmapped++], F_PATH, json_string_value(v));
		else
			bad(r, where, "mapped[]", v, "a string");
	}
}

/* Count from array_from_json: -1 (not an array) is none. */
static int
none_if_bad(int n)
{
	return n < 0 ? 0 : n;
}

static bool
python_from_json(struct reader *r, struct facts *f, json_t *a)
{
	size_t i;

	f->npython = 0;
	if (!json_is_array(a))
		return false;
	for (i = 0; i < json_array_size(a) && f->npython < MAX_PYENVS; i++) {
		struct python_env_facts *e = &f->python[f->npython];
		json_t *o = json_array_get(a, i), *fws;
		char at[48], fat[80];
		size_t k;

		memset(e, 0, sizeof(*e));
		snprintf(at, sizeof(at), ".python[%zu]", i);
		if (!obj_from_json(r, at, e, pyenv_fields, NFIELDS(pyenv_fields), o))
			continue;
		f->npython++;
		snprintf(fat, sizeof(fat), "%s.packages", at);
		e->npkgs = none_if_bad(ARRAY_FROM(r, fat, e->pkgs, pypkg_fields,
						  json_object_get(o, "packages"), NULL));
		fws = json_object_get(o, "frameworks");
		snprintf(fat, sizeof(fat), "%s.frameworks", at);
		e->nframeworks = 0;
		for (k = 0; json_is_array(fws) && k < json_array_size(fws) &&
			    e->nframeworks < MAX_FRAMEWORKS; k++) {
			struct framework_facts *fw = &e->frameworks[e->nframeworks];
			json_t *fo = json_array_get(fws, k), *t;
			char w[128];

			framework_init_item(fw);
			snprintf(w, sizeof(w), "%s[%zu]", fat, k);
			if (!obj_from_json(r, w, fw, framework_fields, NFIELDS(framework_fields), fo))
				continue;
			e->nframeworks++;
			snprintf(w, sizeof(w), "%s[%zu].resolved", fat, k);
			fw->nresolved = none_if_bad(ARRAY_FROM(r, w, fw->resolved, resolved_fields,
							      json_object_get(fo, "resolved"), NULL));
			snprintf(w, sizeof(w), "%s[%zu].live", fat, k);
			live_from_json(r, w, &fw->live, json_object_get(fo, "live"));
			t = json_object_get(fo, "targets");
			snprintf(w, sizeof(w), "%s[%zu].targets", fat, k);
			if (t && !json_is_null(t))
				obj_from_json(r, w, &fw->targets, targets_fields, NFIELDS(targets_fields), t);
		}
	}
	return true;
}


/* Mark the parts the document lacks (absent, null, or not an object or
 * array as it should be) as unknown, with a note each. */
static void
parts_present(struct facts *f, json_t *doc)
{
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		json_t *v = json_object_get(doc, parts[i].key);
		bool want_obj = !strcmp(parts[i].key, "host") || !strcmp(parts[i].key, "kmod") ||
				!strcmp(parts[i].key, "driver") || !strcmp(parts[i].key, "env");

		if (want_obj ? json_is_object(v) : json_is_array(v))
			continue;
		f->unknown_parts |= parts[i].part;
		facts_note(f, "from", "the document has %s .%s: %s unknown here, not absent",
			   !v ? "no" : json_is_null(v) ? "a null" : "a malformed", parts[i].key,
			   parts[i].what);
	}
}

int
facts_from_json(json_t *doc, struct facts *f, char *err, size_t errsize)
{
	struct reader r = {.f = f};
	json_t *schema, *host, *kmod, *driver, *env, *gids;
	size_t i;

	if (!json_is_object(doc)) {
		snprintf(err, errsize, "not a facts document: the top level is not an object");
		return -1;
	}
	schema = json_object_get(doc, "schema");
	if (!json_is_string(schema) || strncmp(json_string_value(schema), "gpudoctor/facts/", 16)) {
		snprintf(err, errsize, "not a facts document: .schema is not \"%s\"", FACTS_SCHEMA);
		return -1;
	}
	if (strcmp(json_string_value(schema), FACTS_SCHEMA)) {
		snprintf(err, errsize, "facts schema \"%s\" is newer than this gpudoctor reads (\"%s\")",
			 json_string_value(schema), FACTS_SCHEMA);
		return -1;
	}
	parts_present(f, doc);
	obj_from_json(&r, "", f, top_fields, NFIELDS(top_fields), doc);
	host = json_object_get(doc, "host");
	if (json_is_object(host)) {
		obj_from_json(&r, ".host", &f->host, host_fields, NFIELDS(host_fields), host);
		gids = json_object_get(host, "gids");
		for (i = 0; json_is_array(gids) && i < json_array_size(gids) && i < 32; i++) {
			json_t *g = json_array_get(gids, i);
			if (is_int(g, 0, UINT32_MAX))
				f->host.gids[f->host.ngids++] = (unsigned)json_integer_value(g);
			else
				bad(&r, ".host", "gids[]", g, "an integer in range");
		}
	}
	f->ngpus = none_if_bad(ARRAY_FROM(&r, ".gpus", f->gpus, gpu_fields, json_object_get(doc, "gpus"),
					  gpu_init_item));
	f->nother_gpus = none_if_bad(ARRAY_FROM(&r, ".other_gpus", f->other_gpus, other_gpu_fields,
						json_object_get(doc, "other_gpus"), NULL));
	kmod = json_object_get(doc, "kmod");
	if (json_is_object(kmod)) {
		obj_from_json(&r, ".kmod", &f->kmod, kmod_fields, NFIELDS(kmod_fields), kmod);
		f->kmod.ndevnodes = none_if_bad(ARRAY_FROM(&r, ".kmod.devnodes", f->kmod.devnodes,
							   devnode_fields,
							   json_object_get(kmod, "devnodes"), NULL));
	}
	driver = json_object_get(doc, "driver");
	if (json_is_object(driver)) {
		obj_from_json(&r, ".driver", &f->driver, driver_fields, NFIELDS(driver_fields), driver);
		/* documents from before nvml_init_called: NVML answered, so it was */
		if (!json_object_get(driver, "nvml_init_called") && f->driver.nvml_state == CHILD_OK)
			f->driver.nvml_init_called = true;
		f->driver.nlibs = none_if_bad(ARRAY_FROM(&r, ".driver.libs", f->driver.libs,
							 driver_lib_fields,
							 json_object_get(driver, "libs"), NULL));
	}
	f->nlibs = none_if_bad(ARRAY_FROM(&r, ".libs", f->libs, lib_fields, json_object_get(doc, "libs"),
					  NULL));
	env = json_object_get(doc, "env");
	if (json_is_object(env)) {
		f->env.nvars = none_if_bad(ARRAY_FROM(&r, ".env.vars", f->env.vars, env_var_fields,
						      json_object_get(env, "vars"), NULL));
		f->env.nldpath = none_if_bad(ARRAY_FROM(&r, ".env.ld_library_path", f->env.ldpath,
							ldpath_fields,
							json_object_get(env, "ld_library_path"), NULL));
	}
	f->nprocs = none_if_bad(ARRAY_FROM(&r, ".procs", f->procs, proc_fields,
					   json_object_get(doc, "procs"), proc_init_item));
	/* the recorded notes first, then what this reading found (a reading
	 * of an earlier document said what it found of that one: left out) */
	{
		struct probe_note mine[MAX_PROBE_NOTES];
		int nmine = f->nnotes, k = 0;

		memcpy(mine, f->notes, sizeof(mine));
		f->nnotes = none_if_bad(ARRAY_FROM(&r, ".notes", f->notes, note_fields,
						   json_object_get(doc, "notes"), NULL));
		for (i = 0; i < (size_t)f->nnotes; i++)
			if (strcmp(f->notes[i].probe, "from"))
				f->notes[k++] = f->notes[i];
		f->nnotes = k;
		for (i = 0; i < (size_t)nmine && f->nnotes < MAX_PROBE_NOTES; i++)
			f->notes[f->nnotes++] = mine[i];
	}
	python_from_json(&r, f, json_object_get(doc, "python"));
	if (r.nbad > BAD_NAMED)
		facts_note(f, "from", "%d more values of the wrong type: taken as unknown",
			   r.nbad - BAD_NAMED);
	f->from_file = true;
	return 0;
}

/* Read fd whole into a heap buffer, at most max bytes: -1 with errno set
 * on a read error, -2 when there is more than max. */
static int
read_capped(int fd, size_t max, char **out, size_t *len)
{
	size_t got = 0, alloc = 64 << 10;
	char *data = xmalloc(alloc);

	for (;;) {
		ssize_t n;

		if (got == alloc) {
			if (alloc > max) {
				free(data);
				return -2;
			}
			alloc *= 2;
			data = xrealloc(data, alloc);
		}
		n = read(fd, data + got, alloc - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			free(data);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		if (got > max) {
			free(data);
			return -2;
		}
	}
	*out = data;
	*len = got;
	return 0;
}

/* The '{', '[' and ',' outside strings: each value but the first has one
 * or two of them. The parser's memory grows with values (about 230 bytes
 * each), not with bytes. */
static size_t
count_structure(const char *s, size_t n)
{
	size_t i, v = 0;
	bool in = false;

	for (i = 0; i < n; i++) {
		if (in) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == '"')
				in = false;
		} else if (s[i] == '"') {
			in = true;
		} else if (s[i] == '{' || s[i] == '[' || s[i] == ',') {
			v++;
		}
	}
	return v;
}

int
facts_load_text(const char *text, size_t len, const char *name, struct facts *f, char *err,
		size_t errsize)
{
	json_error_t je;
	json_t *doc;
	int rc;

	if (len > FACTS_MAX_BYTES) {
		snprintf(err, errsize, "'%s' is larger than %u MiB: not a facts document (`doctor "
			 "--json` writes 20-200 KB)", name, FACTS_MAX_BYTES >> 20);
		return -1;
	}
	if (count_structure(text, len) > FACTS_MAX_STRUCTURE) {
		snprintf(err, errsize, "'%s' holds more than %u objects, arrays and commas: not a "
			 "facts document (`doctor --json` writes under 40000)", name, FACTS_MAX_STRUCTURE);
		return -1;
	}
	doc = json_loadb(text, len, 0, &je);
	if (!doc) {
		snprintf(err, errsize, "'%s' is not valid JSON (line %d, column %d: %s)",
			 name, je.line, je.column, je.text);
		return -1;
	}
	rc = facts_from_json(doc, f, err, errsize);
	if (rc < 0) {
		char tmp[256];
		snprintf(tmp, sizeof(tmp), "'%s': %s", name, err);
		str_copy(err, errsize, tmp);
	}
	json_decref(doc);
	return rc;
}

int
facts_load_file(const char *path, struct facts *f, char *err, size_t errsize)
{
	struct stat st;
	char *text;
	size_t len;
	int fd, rc;

	if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errsize, "'%s' is a directory, not a facts document (gpudoctor doctor --json > FILE)", path);
		return -1;
	}
	if (strcmp(path, "-") && stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISFIFO(st.st_mode)) {
		/* a pipe is how `<(...)` arrives; a device is never opened */
		snprintf(err, errsize, "cannot read '%s': not a regular file", path);
		return -1;
	}
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY) : 0;
	if (fd < 0) {
		snprintf(err, errsize, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	rc = read_capped(fd, FACTS_MAX_BYTES, &text, &len);
	if (fd)
		close(fd);
	if (rc == -2) {
		snprintf(err, errsize, "'%s' is larger than %u MiB: not a facts document (`doctor "
			 "--json` writes 20-200 KB)", path, FACTS_MAX_BYTES >> 20);
		return -1;
	}
	if (rc < 0) {
		snprintf(err, errsize, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	rc = facts_load_text(text, len, path, f, err, errsize);
	free(text);
	return rc;
}
