/*
 * host.c - the host layer: distribution and package manager, kernel,
 * architecture, glibc, CPU model and the flags prebuilt frameworks need
 * (AVX, AVX2, AVX-512F, FMA), WSL2, containers, Secure Boot, hypervisor,
 * and the identity of the probing process.
 *
 * Reads, under the sysroot: /etc/os-release (or /usr/lib/os-release),
 * /proc/sys/kernel/osrelease, /proc/version, /proc/cpuinfo, /dev/dxg,
 * /usr/lib/wsl/lib, /.dockerenv, /run/.containerenv, /proc/1/cgroup,
 * /sys/firmware/efi/efivars/SecureBoot-<guid>, /sys/class/dmi/id/{sys_vendor,product_name}.
 * Environment (of this process): KUBERNETES_SERVICE_HOST, container.
 * It records what it finds and judges nothing.
 */
#include "probe/probe.h"
#include "probe/topology.h"
#include "base/buf.h"
#include "base/str.h"
#include "sys/root.h"

#include <gnu/libc-version.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define OS_RELEASE_MAX (64u << 10)
#define CPUINFO_MAX (8u << 20)
#define CGROUP_MAX (64u << 10)

/* EFI global variable GUID (UEFI spec): SecureBoot lives under it. */
#define SECUREBOOT_VAR "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"

/* ---- os-release ---------------------------------------------------------- */

/* One KEY=VALUE line of os-release (a shell-compatible assignment); the
 * value is unquoted and backslash escapes inside quotes are undone. */
static void
os_release_line(struct host_facts *h, char *line)
{
	char *eq, *val;
	size_t i, o;

	str_trim(line);
	if (!*line || *line == '#' || !(eq = strchr(line, '=')))
		return;
	*eq = '\0';
	val = eq + 1;
	str_trim(line);
	str_unquote(val);
	for (i = 0, o = 0; val[i]; i++) {
		if (val[i] == '\\' && val[i + 1])
			i++;
		val[o++] = val[i];
	}
	val[o] = '\0';
	if (!strcmp(line, "ID"))
		STR_COPY(h->os_id, val);
	else if (!strcmp(line, "ID_LIKE"))
		STR_COPY(h->os_like, val);
	else if (!strcmp(line, "VERSION_ID"))
		STR_COPY(h->os_version_id, val);
	else if (!strcmp(line, "PRETTY_NAME"))
		STR_COPY(h->os_pretty, val);
}

/* Package manager for one distribution id, NULL when unknown. */
static const char *
pkg_manager_for(const char *id)
{
	static const struct {
		const char *id;
		const char *pm;
		bool prefix;
	} map[] = {
		{"debian", "apt", false},    {"ubuntu", "apt", false},
		{"linuxmint", "apt", false}, {"pop", "apt", false},
		{"fedora", "dnf", false},    {"rhel", "dnf", false},
		{"centos", "dnf", false},    {"rocky", "dnf", false},
		{"almalinux", "dnf", false}, {"ol", "dnf", false},
		{"amzn", "dnf", false},      {"opensuse", "zypper", true},
		{"sles", "zypper", false},   {"suse", "zypper", false},
		{"arch", "pacman", false},   {"manjaro", "pacman", false},
		{"endeavouros", "pacman", false},
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (map[i].prefix ? str_starts(id, map[i].id) : !strcmp(id, map[i].id))
			return map[i].pm;
	}
	return NULL;
}

static void
probe_os_release(struct host_facts *h, struct facts *f)
{
	char *data, *line, *save = NULL;
	const char *pm;

	data = root_read_all("/etc/os-release", OS_RELEASE_MAX, NULL, NULL);
	if (!data)
		data = root_read_all("/usr/lib/os-release", OS_RELEASE_MAX, NULL, NULL);
	if (!data) {
		facts_note(f, "host", "no readable /etc/os-release or /usr/lib/os-release");
		return;
	}
	for (line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		os_release_line(h, line);
	free(data);

	pm = h->os_id[0] ? pkg_manager_for(h->os_id) : NULL;
	if (!pm && h->os_like[0]) {
		char like[F_NAME], *tok, *s2 = NULL;

		STR_COPY(like, h->os_like);
		for (tok = strtok_r(like, " \t", &s2); tok && !pm; tok = strtok_r(NULL, " \t", &s2))
			pm = pkg_manager_for(tok);
	}
	if (pm)
		STR_COPY(h->pkg_manager, pm);
}

/* ---- cpu ------------------------------------------------------------------ */

/* True when the space-separated list has the word w. */
static bool
has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p = list;

	while ((p = strstr(p, w))) {
		bool start = p == list || p[-1] == ' ' || p[-1] == '\t';
		bool end = p[n] == '\0' || p[n] == ' ' || p[n] == '\t';
		if (start && end)
			return true;
		p += n;
	}
	return false;
}

/* The value after "key<spaces>:" when line starts with key, else NULL. */
static char *
cpuinfo_value(char *line, const char *key)
{
	size_t n = strlen(key);
	char *p;

	if (strncmp(line, key, n))
		return NULL;
	p = line + n;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

struct cpu_scan {
	bool lm, hypervisor, asimd;
};

static void
probe_cpuinfo(struct host_facts *h, struct facts *f, struct cpu_scan *cs)
{
	char *data, *line, *save = NULL;
	bool flags_seen = false;
	size_t len = 0;

	data = root_read_all("/proc/cpuinfo", CPUINFO_MAX, &len, NULL);
	if (!data) {
		facts_note(f, "host", "/proc/cpuinfo unreadable");
		return;
	}
	for (line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *v;

		if (cpuinfo_value(line, "processor")) {
			if (h->cpu_count < 1 << 20)
				h->cpu_count++;
		} else if (!h->cpu_model[0] && (v = cpuinfo_value(line, "model name"))) {
			STR_COPY(h->cpu_model, str_trim(v));
		} else if (!flags_seen && ((v = cpuinfo_value(line, "flags")) ||
					   (v = cpuinfo_value(line, "Features")))) {
			flags_seen = true;
			h->cpu_avx = has_word(v, "avx");
			h->cpu_avx2 = has_word(v, "avx2");
			h->cpu_avx512f = has_word(v, "avx512f");
			h->cpu_fma = has_word(v, "fma");
			cs->hypervisor = has_word(v, "hypervisor");
			cs->lm = has_word(v, "lm");
			cs->asimd = has_word(v, "asimd");
		}
	}
	free(data);
	h->cpu_valid = h->cpu_count > 0 || h->cpu_model[0] || flags_seen;
	if (!h->cpu_valid)
		facts_note(f, "host", "/proc/cpuinfo has no processor, model or flags lines");
}

/* ---- kernel, arch, glibc ---------------------------------------------------- */

static void
probe_arch(struct host_facts *h, const struct cpu_scan *cs)
{
	static const char *const arches[] = {"x86_64", "aarch64", "ppc64le", "s390x", "riscv64"};
	size_t i;

	if (root_is_host()) {
		struct utsname u;

		if (uname(&u) == 0) {
			STR_COPY(h->arch, u.machine);
			return;
		}
	}
	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++) {
		if (strstr(h->kernel_release, arches[i])) {
			STR_COPY(h->arch, arches[i]);
			return;
		}
	}
	if (strstr(h->kernel_release, "arm64"))
		STR_COPY(h->arch, "aarch64");
	else if (cs->lm)
		STR_COPY(h->arch, "x86_64");
	else if (cs->asimd)
		STR_COPY(h->arch, "aarch64");
}

static bool
mentions_wsl(const char *s)
{
	return strcasestr(s, "microsoft") || strcasestr(s, "wsl");
}

static void
probe_wsl(struct host_facts *h)
{
	char version[512];

	h->wsl_dxg = root_exists("/dev/dxg");
	h->wsl_lib_dir = root_is_dir("/usr/lib/wsl/lib");
	h->wsl_libcuda = root_exists("/usr/lib/wsl/lib/libcuda.so.1") ||
			 root_exists("/usr/lib/wsl/lib/libcuda.so");
	h->wsl = h->wsl_dxg || mentions_wsl(h->kernel_release);
	if (!h->wsl && root_read_line("/proc/version", version, sizeof(version)) == 0)
		h->wsl = mentions_wsl(version);
}

/* ---- container ------------------------------------------------------------------ */

static void
set_container(struct host_facts *h, const char *kind)
{
	h->container = true;
	STR_COPY(h->container_kind, kind);
}

/* The systemd convention: a container manager sets `container` in the
 * environment of PID 1 (and often of everything in it). Keep only a
 * plain word so a hostile value cannot reach a report unfiltered. */
static bool
env_container_kind(char *out, size_t size)
{
	const char *v = getenv("container");
	size_t i;

	if (!v || !*v)
		return false;
	for (i = 0; v[i]; i++)
		if (!((v[i] >= 'a' && v[i] <= 'z') || (v[i] >= 'A' && v[i] <= 'Z') ||
		      (v[i] >= '0' && v[i] <= '9') || v[i] == '-' || v[i] == '_' || v[i] == '.'))
			return false;
	str_copy(out, size, v);
	return true;
}

static void
probe_container(struct host_facts *h)
{
	char *cg = root_read_all("/proc/1/cgroup", CGROUP_MAX, NULL, NULL);
	char kind[24];
	const char *k8s = getenv("KUBERNETES_SERVICE_HOST");

	if ((k8s && *k8s) || (cg && strstr(cg, "kubepods")))
		set_container(h, "kubernetes");
	else if (root_exists("/.dockerenv") || (cg && strstr(cg, "docker")))
		set_container(h, "docker");
	else if (root_exists("/run/.containerenv"))
		set_container(h, "podman");
	else if (cg && strstr(cg, "lxc"))
		set_container(h, "lxc");
	else if (env_container_kind(kind, sizeof(kind)))
		set_container(h, kind);
	else if (cg && strstr(cg, "containerd"))
		set_container(h, "container");
	free(cg);
}

/* ---- firmware, hypervisor, identity ------------------------------------------------ */

static void
probe_secure_boot(struct host_facts *h)
{
	unsigned char v[16];
	long n;

	/* efivarfs: 4 bytes of attributes, then the variable's data; for
	 * SecureBoot one byte, 1 = enforcing. */
	n = root_read(SECUREBOOT_VAR, (char *)v, sizeof(v));
	if (n >= 5) {
		h->secure_boot = v[4] == 1 ? 1 : v[4] == 0 ? 0 : -1;
		return;
	}
	if (n >= 0) {
		h->secure_boot = -1;
		return;
	}
	if (root_is_dir("/sys/firmware/efi")) {
		char **names;
		int k = root_list("/sys/firmware/efi/efivars", &names);

		/* efivars listed but no SecureBoot variable: firmware without
		 * Secure Boot. Not mounted or unreadable: unknown. */
		h->secure_boot = k > 0 ? 0 : -1;
		root_free_list(names, k);
	} else if (root_is_dir("/sys/firmware")) {
		h->secure_boot = 0; /* legacy BIOS boot: no Secure Boot */
	} else {
		h->secure_boot = -1;
	}
}

static void
probe_hypervisor(struct host_facts *h)
{
	char vendor[F_NAME] = "", product[F_NAME] = "";

	if (root_read_line("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor)) < 0)
		vendor[0] = '\0';
	if (root_read_line("/sys/class/dmi/id/product_name", product, sizeof(product)) < 0)
		product[0] = '\0';
	if (vendor[0] && product[0] && !strstr(product, vendor))
		STR_FMT(h->hypervisor, "%s %s", vendor, product);
	else if (product[0])
		STR_COPY(h->hypervisor, product);
	else if (vendor[0])
		STR_COPY(h->hypervisor, vendor);
	else
		STR_COPY(h->hypervisor, "unidentified");
}

static void
probe_identity(struct host_facts *h)
{
	gid_t groups[64];
	int n, i, j;

	h->uid = (unsigned)geteuid();
	h->gids[0] = (unsigned)getegid();
	h->ngids = 1;
	n = getgroups((int)(sizeof(groups) / sizeof(groups[0])), groups);
	for (i = 0; i < n && h->ngids < (int)(sizeof(h->gids) / sizeof(h->gids[0])); i++) {
		for (j = 0; j < h->ngids; j++)
			if (h->gids[j] == (unsigned)groups[i])
				break;
		if (j == h->ngids)
			h->gids[h->ngids++] = (unsigned)groups[i];
	}
}

/* The entries of dir as one space-separated list in out (NCCL's
 * NCCL_SOCKET_IFNAME and NCCL_IB_HCA name them); false when dir cannot be
 * read. */
static bool
list_names(const char *dir, char *out, size_t size)
{
	char **names;
	int n, i;
	struct buf b;

	out[0] = '\0';
	if (!root_is_dir(dir))
		return false;
	n = root_list(dir, &names);
	buf_init(&b);
	for (i = 0; i < n; i++)
		buf_addf(&b, "%s%s", i ? " " : "", names[i]);
	str_copy(out, size, b.s ? b.s : "");
	buf_release(&b);
	root_free_list(names, n);
	return true;
}

/* Network interfaces and RDMA devices, for NCCL's interface settings
 * (env.nccl_interface_missing). */
static void
probe_network(struct host_facts *h)
{
	h->net_valid = list_names("/sys/class/net", h->net_ifaces, sizeof(h->net_ifaces));
	h->ib_valid = list_names("/sys/class/infiniband", h->ib_devices, sizeof(h->ib_devices));
}

void
probe_host(struct facts *f, const struct probe_opts *o)
{
	struct host_facts *h = &f->host;
	struct cpu_scan cs = {0};

	(void)o;
	probe_os_release(h, f);
	if (root_read_line("/proc/sys/kernel/osrelease", h->kernel_release,
			   sizeof(h->kernel_release)) < 0) {
		h->kernel_release[0] = '\0';
		facts_note(f, "host", "/proc/sys/kernel/osrelease unreadable");
	}
	probe_cpuinfo(h, f, &cs);
	probe_arch(h, &cs);
	if (root_is_host()) {
		cpu_set_t set;
		STR_COPY(h->glibc_version, gnu_get_libc_version());
		/* where a framework started from this shell may run, against each
		 * GPU's CPU affinity (env.cpu_affinity_remote) */
		CPU_ZERO(&set);
		if (sched_getaffinity(0, sizeof(set), &set) == 0) {
			unsigned long mask[sizeof(set) / sizeof(unsigned long)];
			unsigned k;
			memset(mask, 0, sizeof(mask));
			for (k = 0; k < CPU_SETSIZE; k++)
				if (CPU_ISSET(k, &set))
					mask[k / (8 * sizeof(unsigned long))] |= 1UL << (k % (8 * sizeof(unsigned long)));
			topology_cpulist(mask, sizeof(mask) / sizeof(mask[0]), h->cpus_allowed,
					 sizeof(h->cpus_allowed));
		}
	}
	probe_network(h);
	probe_wsl(h);
	probe_container(h);
	probe_secure_boot(h);
	h->hypervisor[0] = '\0';
	if (cs.hypervisor)
		probe_hypervisor(h);
	probe_identity(h);
	h->valid = true;
}
