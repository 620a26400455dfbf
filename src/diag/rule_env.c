/*
 * rule_env.c - findings about the environment variables that steer CUDA:
 * CUDA_VISIBLE_DEVICES hiding every GPU or naming one that does not exist,
 * CUDA_DEVICE_ORDER on a machine with different GPUs, stale or harmful
 * LD_LIBRARY_PATH entries, memory-growth advice on a shared GPU.
 *
 * CUDA_VISIBLE_DEVICES is read the way the CUDA driver reads it: a comma
 * list of indices, GPU-UUID prefixes or MIG-UUIDs; it stops at the first
 * entry it cannot use, and everything after that is ignored. An empty
 * value means no device.
 *
 * Pure: reads facts only.
 */
#include "diag/fix.h"
#include "diag/rule.h"
#include "base/path.h"
#include "base/buf.h"
#include "base/str.h"
#include "base/vers.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* GPUs on the machine, independent of CUDA_VISIBLE_DEVICES; 0 unknown. */
static int
gpu_total(const struct facts *f)
{
	if (f->driver.nvml_device_count > 0)
		return f->driver.nvml_device_count;
	return f->ngpus;
}

static bool
gpus_exist(const struct facts *f)
{
	return gpu_total(f) > 0 || (f->host.wsl && f->host.wsl_dxg);
}

struct cvd {
	int valid;              /* entries CUDA uses, before the first bad one */
	int nentries;
	char bad[64];           /* the first entry CUDA cannot use */
	char why[96];
};

static bool
uuid_known(const struct facts *f)
{
	int i;

	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++)
		if (f->gpus[i].uuid[0])
			return true;
	return false;
}

static bool
uuid_matches(const struct facts *f, const char *tok)
{
	int i;

	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++)
		if (f->gpus[i].uuid[0] && !strncasecmp(f->gpus[i].uuid, tok, strlen(tok)))
			return true;
	return false;
}

/* MIG known to be off on every GPU. */
static bool
mig_all_off(const struct facts *f)
{
	int i;

	if (f->ngpus == 0)
		return false;
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++)
		if (f->gpus[i].mig_mode != 0)
			return false;
	return true;
}

/* Judge one entry; false with cv->why set when CUDA cannot use it. */
static bool
cvd_entry_ok(const struct facts *f, const char *tok, struct cvd *cv)
{
	int total = gpu_total(f);

	if (!*tok) {
		STR_COPY(cv->why, "an empty entry");
		return false;
	}
	if (str_all_digits(tok)) {
		int idx[1] = {0};
		vers_parse(tok, idx, 1);
		if (total > 0 && idx[0] >= total) {
			STR_FMT(cv->why, "index %d, but there %s only %d GPU%s (0..%d)", idx[0],
				total == 1 ? "is" : "are", total, total == 1 ? "" : "s", total - 1);
			return false;
		}
		return true;
	}
	if (!strncasecmp(tok, "GPU-", 4)) {
		if (uuid_known(f) && !uuid_matches(f, tok)) {
			STR_COPY(cv->why, "no GPU here has this UUID");
			return false;
		}
		return true;
	}
	if (!strncasecmp(tok, "MIG-", 4)) {
		if (mig_all_off(f)) {
			STR_COPY(cv->why, "a MIG instance, but MIG is off on every GPU");
			return false;
		}
		return true;
	}
	if (tok[0] == '-')
		STR_COPY(cv->why, "a negative index, which CUDA reads as \"no device\"");
	else
		STR_COPY(cv->why, "neither an index nor a GPU-/MIG- UUID");
	return false;
}

static void
cvd_parse(const struct facts *f, const char *value, struct cvd *cv)
{
	char tok[64];
	const char *p = value;

	memset(cv, 0, sizeof(*cv));
	for (;;) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n >= sizeof(tok))
			n = sizeof(tok) - 1;
		memcpy(tok, p, n);
		tok[n] = '\0';
		str_trim(tok);
		cv->nentries++;
		if (!cvd_entry_ok(f, tok, cv)) {
			STR_COPY(cv->bad, tok);
			return;
		}
		cv->valid++;
		if (!e)
			return;
		p = e + 1;
	}
}

static void
fix_where_set(struct buf *b)
{
	buf_adds(b, "If you did not set it yourself, find where it comes from: ~/.bashrc, "
		    "~/.profile, /etc/environment, `conda env config vars list`, a Jupyter "
		    "kernel.json, or the job scheduler (Slurm sets it per job).\n");
}

/* ---- env.visible_devices_hides_all, env.visible_devices_invalid -------------------- */

static void
check_visible_devices(const struct facts *f, struct findings *out)
{
	const char *v = facts_env_value(f, "CUDA_VISIBLE_DEVICES");
	struct finding *fd;
	struct cvd cv;
	struct buf b;
	int total = gpu_total(f);

	if (!v || !gpus_exist(f))
		return;
	cvd_parse(f, v, &cv);
	if (cv.valid > 0 && !cv.bad[0])
		return;
	buf_init(&b);
	if (cv.valid == 0) {
		if (!v[0])
			fd = findings_add(out, "env.visible_devices_hides_all", SEV_ERROR,
					  "CUDA_VISIBLE_DEVICES is set but empty, which hides every GPU "
					  "from CUDA");
		else
			fd = findings_add(out, "env.visible_devices_hides_all", SEV_ERROR,
					  "CUDA_VISIBLE_DEVICES=%s hides every GPU from CUDA", v);
		finding_evidence(fd, "CUDA_VISIBLE_DEVICES=\"%s\"", v);
		if (!cv.bad[0] && cv.nentries <= 1)
			finding_evidence(fd, "an empty value means no device");
		else
			finding_evidence(fd, "first entry \"%s\": %s", cv.bad, cv.why);
		buf_adds(&b, "Unset it, or name the GPUs to use:\nunset CUDA_VISIBLE_DEVICES\n");
		if (total > 0)
			buf_addf(&b, "export CUDA_VISIBLE_DEVICES=%s\n", total > 1 ? "0,1" : "0");
	} else {
		fd = findings_add(out, "env.visible_devices_invalid", SEV_WARN,
				  "CUDA_VISIBLE_DEVICES=%s names a GPU that does not exist", v);
		finding_evidence(fd, "entry \"%s\": %s", cv.bad, cv.why);
		finding_evidence(fd, "CUDA uses the %d entr%s before it and ignores the rest", cv.valid,
				 cv.valid == 1 ? "y" : "ies");
		buf_adds(&b, "Name only existing GPUs (nvidia-smi -L lists indices and UUIDs), e.g.:\n");
		buf_addf(&b, "export CUDA_VISIBLE_DEVICES=%d\n", 0);
	}
	if (total > 0)
		finding_evidence(fd, "%d GPU(s) present", total);
	fix_where_set(&b);
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- env.device_order -------------------------------------------------------------- */

static void
check_device_order(const struct facts *f, struct findings *out)
{
	const char *order = facts_env_value(f, "CUDA_DEVICE_ORDER");
	const char *cvd = facts_env_value(f, "CUDA_VISIBLE_DEVICES");
	bool differ = false, by_index;
	struct finding *fd;
	int i;

	bool reordered = false;
	int next = 0;

	if (f->ngpus < 2 || (order && !strcmp(order, "PCI_BUS_ID")))
		return;
	for (i = 1; i < f->ngpus && i < MAX_GPUS; i++)
		if (f->gpus[i].name[0] && f->gpus[0].name[0] && strcmp(f->gpus[i].name, f->gpus[0].name))
			differ = true;
	/* with every GPU visible, CUDA's ordinals against the PCI order */
	for (i = 0; !cvd && i < f->ngpus && i < MAX_GPUS; i++) {
		if (f->gpus[i].cuda_index < 0)
			continue;
		reordered |= f->gpus[i].cuda_index != next;
		next++;
	}
	if (!differ && !reordered)
		return;
	by_index = cvd && isdigit((unsigned char)cvd[0]);
	if (reordered)
		fd = findings_add(out, "env.device_order", SEV_WARN,
				  "CUDA numbers the GPUs in another order than nvidia-smi: \"GPU 1\" is not "
				  "the same board in both");
	else
		fd = findings_add(out, "env.device_order", by_index ? SEV_WARN : SEV_INFO,
				  "CUDA numbers these different GPUs fastest first, nvidia-smi by PCI bus");
	finding_evidence(fd, "CUDA_DEVICE_ORDER is %s%s", order ? order : "unset",
			 order ? "" : " (CUDA's default: FASTEST_FIRST)");
	for (i = 0; i < f->ngpus && i < MAX_GPUS && i < 8; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		if (g->cuda_index >= 0)
			finding_evidence(fd, "nvidia-smi %d: %s %s, CUDA index %d", i, g->pci_bus_id, g->name,
					 g->cuda_index);
		else
			finding_evidence(fd, "nvidia-smi %d: %s %s", i, g->pci_bus_id, g->name);
	}
	if (by_index)
		finding_evidence(fd, "CUDA_VISIBLE_DEVICES=%s selects by CUDA's order", cvd);
	finding_fix(fd, "Make CUDA number the GPUs as nvidia-smi does:\n"
			"export CUDA_DEVICE_ORDER=PCI_BUS_ID");
}

/* ---- env.nccl_interface_missing -------------------------------------------------- */

/* Whether an NCCL list (NCCL_SOCKET_IFNAME, NCCL_IB_HCA: "eno,ib" name
 * prefixes, "=eno1" exact names, "^docker" names to leave out, ":1" a
 * port after an HCA) names something in have ("eno1 ib0 lo"). A list of
 * names to leave out always does. */
static bool
nccl_list_matches(const char *list, const char *have)
{
	const char *p = list;
	bool exact = false;

	if (*p == '^')
		return true;
	if (*p == '=') {
		exact = true;
		p++;
	}
	while (*p) {
		size_t n = strcspn(p, ","), m = strcspn(p, ",:");
		const char *h = have;

		if (m > n)
			m = n;
		while (m && *h) {
			size_t k = strcspn(h, " ");
			if (exact ? k == m && !strncmp(h, p, m) : k >= m && !strncmp(h, p, m))
				return true;
			h += k;
			h += strspn(h, " ");
		}
		p += n;
		p += *p == ',';
	}
	return false;
}

/* NCCL_SOCKET_IFNAME or NCCL_IB_HCA naming nothing this machine has: the
 * bootstrap fails ("no socket interface found"), or traffic between
 * machines falls back from InfiniBand to TCP without a word. */
static void
check_nccl_interfaces(const struct facts *f, struct findings *out)
{
	const char *ifn = facts_env_value(f, "NCCL_SOCKET_IFNAME"), *hca = facts_env_value(f, "NCCL_IB_HCA");
	struct finding *fd = NULL;

	if (ifn && *ifn && f->host.net_valid && !nccl_list_matches(ifn, f->host.net_ifaces)) {
		fd = findings_add(out, "env.nccl_interface_missing", SEV_WARN,
				  "NCCL is told to use network interfaces this machine does not have");
		finding_evidence(fd, "NCCL_SOCKET_IFNAME=%s matches none of this machine's interfaces (%s): "
				     "NCCL cannot start (\"Bootstrap : no socket interface found\")",
				 ifn, f->host.net_ifaces[0] ? f->host.net_ifaces : "none");
	}
	if (hca && *hca && hca[0] != '^' && f->host.valid &&
	    !(f->host.ib_valid && nccl_list_matches(hca, f->host.ib_devices))) {
		if (!fd)
			fd = findings_add(out, "env.nccl_interface_missing", SEV_WARN,
					  "NCCL is told to use network interfaces this machine does not have");
		if (f->host.ib_valid && f->host.ib_devices[0])
			finding_evidence(fd, "NCCL_IB_HCA=%s matches none of this machine's RDMA devices (%s): "
					     "NCCL falls back to TCP sockets between machines", hca, f->host.ib_devices);
		else
			finding_evidence(fd, "NCCL_IB_HCA=%s, but this machine has no RDMA device "
					     "(/sys/class/infiniband): NCCL uses TCP sockets between machines", hca);
	}
	if (!fd)
		return;
	finding_fix(fd, "See the interfaces and RDMA devices this machine has:\n"
			"ip -br link\n"
			"ls /sys/class/infiniband\n"
			"Name one of them (a prefix matches: NCCL_SOCKET_IFNAME=eno matches eno1), or unset the "
			"variables and let NCCL choose; NCCL_DEBUG=INFO shows what it picked:\n"
			"unset NCCL_SOCKET_IFNAME NCCL_IB_HCA\n"
			"export NCCL_DEBUG=INFO\n");
}

/* ---- env.nccl_slow_path ---------------------------------------------------------- */

/* NCCL settings that turn off its fast paths: each one set in this
 * environment, with what NCCL does instead. Left set after debugging a
 * hang, they cost collectives most of their speed without an error. */
static void
check_nccl(const struct facts *f, struct findings *out)
{
	static const struct {
		const char *name, *does;
		bool local;  /* about GPUs of this machine (else the network) */
	} knobs[] = {
		{"NCCL_P2P_DISABLE", "GPU-to-GPU copies go through host memory instead of NVLink or PCIe "
				     "peer-to-peer", true},
		{"NCCL_SHM_DISABLE", "processes on this machine exchange data through the network stack "
				     "instead of shared memory", true},
		{"NCCL_IB_DISABLE", "InfiniBand and RoCE are not used: traffic between machines goes over "
				    "TCP sockets", false},
		{"NCCL_NET_GDR_LEVEL", "GPUDirect RDMA is off: network traffic is staged through host memory",
		 false},
	};
	const char *level = facts_env_value(f, "NCCL_P2P_LEVEL");
	struct finding *fd = NULL;
	bool local = false;
	struct buf unset;
	size_t i;

	buf_init(&unset);
	for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		const char *v = facts_env_value(f, knobs[i].name);
		bool off;
		if (!v || !*v)
			continue;
		/* NCCL_NET_GDR_LEVEL turns GDR off at 0 / LOC; the others at any non-zero number */
		off = !strcmp(knobs[i].name, "NCCL_NET_GDR_LEVEL") ? (!strcmp(v, "0") || !strcasecmp(v, "LOC"))
								 : strcmp(v, "0") != 0;
		if (!off)
			continue;
		if (!fd)
			fd = findings_add(out, "env.nccl_slow_path", SEV_INFO,
					  "NCCL settings turn off its fast paths");
		finding_evidence(fd, "%s=%s: %s", knobs[i].name, v, knobs[i].does);
		local |= knobs[i].local;
		buf_addf(&unset, " %s", knobs[i].name);
	}
	if (level && (!strcmp(level, "0") || !strcasecmp(level, "LOC"))) {
		if (!fd)
			fd = findings_add(out, "env.nccl_slow_path", SEV_INFO, "NCCL settings turn off its fast paths");
		finding_evidence(fd, "NCCL_P2P_LEVEL=%s: no GPU pair may use peer-to-peer", level);
		local = true;
		buf_adds(&unset, " NCCL_P2P_LEVEL");
	}
	if (!fd) {
		buf_release(&unset);
		return;
	}
	if (local && f->ngpus >= 2) {
		fd->severity = SEV_WARN;
		finding_evidence(fd, "this machine has %d GPUs, which NCCL would connect directly", f->ngpus);
	}
	{
		struct buf b;
		buf_init(&b);
		buf_addf(&b, "Unless they work around a hang you have seen, remove them (where they are set: "
			     "the shell, a job script, the container's environment):\n"
			     "unset%s\n"
			     "A hang that these settings hide is usually IOMMU or PCIe ACS blocking peer-to-peer; "
			     "see which transport NCCL picks:\n"
			     "export NCCL_DEBUG=INFO\n", unset.s);
		finding_fix(fd, b.s);
		buf_release(&b);
	}
	buf_release(&unset);
}

/* ---- env.cpu_affinity_remote ---------------------------------------------------- */

#define AFF_BITS 1024

/* A CPU list ("0-15,32-47") into bits; false when it is none. */
static bool
cpulist_bits(const char *s, unsigned char *bits)
{
	bool any = false;

	memset(bits, 0, AFF_BITS / 8);
	while (*s) {
		char *e;
		unsigned long a = strtoul(s, &e, 10), b = a, k;
		if (e == s)
			return false;
		if (*e == '-') {
			s = e + 1;
			b = strtoul(s, &e, 10);
			if (e == s)
				return false;
		}
		for (k = a; k <= b && k < AFF_BITS; k++) {
			bits[k / 8] |= (unsigned char)(1u << (k % 8));
			any = true;
		}
		s = *e == ',' ? e + 1 : e;
		if (*e && *e != ',')
			return false;
	}
	return any;
}

/* The CPUs this process may use against each GPU's near CPUs: a job started
 * from here reaches the GPUs across the CPU interconnect. */
static void
check_cpu_affinity(const struct facts *f, struct findings *out)
{
	unsigned char allowed[AFF_BITS / 8], near[AFF_BITS / 8];
	int i, k, known = 0, far = 0;
	struct finding *fd = NULL;
	struct buf b;

	if (!f->host.cpus_allowed[0] || !cpulist_bits(f->host.cpus_allowed, allowed))
		return;
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		bool meet = false;
		if (!g->cpu_affinity[0] || !cpulist_bits(g->cpu_affinity, near))
			continue;
		known++;
		for (k = 0; k < AFF_BITS / 8 && !meet; k++)
			meet = (allowed[k] & near[k]) != 0;
		if (meet)
			continue;
		far++;
		if (!fd)
			fd = findings_add(out, "env.cpu_affinity_remote", SEV_INFO,
					  "This process may run only on CPUs far from some GPUs");
		if (g->numa_node >= 0)
			finding_evidence(fd, "GPU%d %s: its CPUs are %s (NUMA node %d)", i, g->pci_bus_id,
					 g->cpu_affinity, g->numa_node);
		else
			finding_evidence(fd, "GPU%d %s: its CPUs are %s", i, g->pci_bus_id, g->cpu_affinity);
	}
	if (!fd)
		return;
	if (far == known) {
		fd->severity = SEV_WARN;
		free(fd->title);
		fd->title = strdup("This process may run only on CPUs far from every GPU: its data crosses "
				   "the CPU interconnect");
	}
	finding_evidence(fd, "this process may run on CPUs %s", f->host.cpus_allowed);
	buf_init(&b);
	buf_adds(&b, "Start the job on the CPUs of its GPUs' NUMA node (nvidia-smi topo -m lists them), "
		     "for example:\n");
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++)
		if (f->gpus[i].cpu_affinity[0] && f->gpus[i].numa_node >= 0) {
			buf_addf(&b, "numactl --cpunodebind=%d --membind=%d python3 train.py   # GPU%d\n",
				 f->gpus[i].numa_node, f->gpus[i].numa_node, i);
			break;
		}
	buf_adds(&b, "Under Slurm: srun --gpu-bind=closest; in a container: docker run --cpuset-cpus with "
		     "the GPU's CPUs.\n");
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- env.ld_library_path_stale ------------------------------------------------------- */

/* A stub libcuda in this LD_LIBRARY_PATH dir; *harmful when dlopen
 * ("libcuda.so.1") would find it. */
static const struct driver_lib_facts *
stub_in(const struct facts *f, const char *dir, bool *harmful)
{
	int i;

	for (i = 0; i < f->driver.nlibs && i < MAX_DRIVER_LIBS; i++) {
		const struct driver_lib_facts *l = &f->driver.libs[i];
		char d[F_PATH];
		if (!l->is_stub || strcmp(l->name, "libcuda"))
			continue;
		path_dir(l->path, d, sizeof(d));
		if (!path_same_dir(d, dir))
			continue;
		*harmful = l->loader_pick || str_ends(l->path, "/libcuda.so.1");
		return l;
	}
	return NULL;
}

static bool
is_stubs_dir(const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return n >= 6 && !strncmp(dir + n - 6, "/stubs", 6);
}

/* CUDA major of the toolkit CUDA_HOME / CUDA_PATH names; 0 unknown. */
static int
cuda_home_major(const struct facts *f, const char **home)
{
	const char *h = facts_env_value(f, "CUDA_HOME");
	int i, v[1];

	if (!h || !h[0])
		h = facts_env_value(f, "CUDA_PATH");
	*home = h;
	if (!h || !h[0])
		return 0;
	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++) {
		const struct lib_facts *l = &f->libs[i];
		if (strcmp(l->name, "cudart") || !l->origin_root[0] || !path_same_dir(l->origin_root, h))
			continue;
		if (l->cuda_major[0] && vers_parse(l->cuda_major, v, 1) == 1)
			return v[0];
		if (vers_parse(l->version, v, 1) == 1)
			return v[0];
	}
	return 0;
}

static void
check_ld_library_path(const struct facts *f, struct findings *out)
{
	const struct env_facts *e = &f->env;
	struct finding *missing = NULL, *stubs = NULL, *majors = NULL;
	const char *home = NULL;
	int hm = cuda_home_major(f, &home);
	int first_major = 0;
	const char *first_dir = NULL;
	struct buf b;
	int i;

	for (i = 0; i < e->nldpath && i < MAX_LDPATH_DIRS; i++) {
		const struct ldpath_dir_facts *d = &e->ldpath[i];
		const struct driver_lib_facts *stub;
		bool harmful = false;
		int m[1] = {0};

		if (!d->dir[0])
			continue;
		if (!d->exists) {
			if (!missing)
				missing = findings_add(out, "env.ld_library_path_stale", SEV_WARN,
						       "LD_LIBRARY_PATH names directories that do not exist");
			finding_evidence(missing, "%s does not exist", d->dir);
			continue;
		}
		stub = stub_in(f, d->dir, &harmful);
		if (stub || is_stubs_dir(d->dir)) {
			stubs = findings_add(out, "env.ld_library_path_stale", harmful ? SEV_ERROR : SEV_WARN,
					     "LD_LIBRARY_PATH contains the CUDA toolkit's stubs directory %s",
					     d->dir);
			finding_evidence(stubs, "LD_LIBRARY_PATH entry %d: %s", i + 1, d->dir);
			if (stub)
				finding_evidence(stubs, "stub %s%s", stub->path,
						 harmful ? ": the loader finds it instead of the driver's "
							   "libcuda.so.1"
							 : "");
			buf_init(&b);
			buf_adds(&b, "The stubs are for linking only (LIBRARY_PATH / -L), never for running. "
				     "Remove this entry from LD_LIBRARY_PATH:\n");
			buf_adds(&b, "export LD_LIBRARY_PATH=$(echo \"$LD_LIBRARY_PATH\" | tr : '\\n' | "
				     "grep -v -x -F ");
			buf_add_shquoted(&b, d->dir);
			buf_adds(&b, " | paste -sd:)\n");
			finding_fix(stubs, b.s);
			buf_release(&b);
			continue;
		}
		if (!d->cuda_major[0] || vers_parse(d->cuda_major, m, 1) != 1)
			continue;
		if (hm && m[0] != hm) {
			if (!majors)
				majors = findings_add(out, "env.ld_library_path_stale", SEV_WARN,
						      "LD_LIBRARY_PATH holds CUDA libraries of another release "
						      "than CUDA_HOME");
			finding_evidence(majors, "%s holds CUDA %d libraries; %s is CUDA %d", d->dir, m[0],
					 home, hm);
		} else if (first_major && m[0] != first_major) {
			if (!majors)
				majors = findings_add(out, "env.ld_library_path_stale", SEV_WARN,
						      "LD_LIBRARY_PATH mixes CUDA %d and CUDA %d libraries",
						      first_major, m[0]);
			finding_evidence(majors, "%s: CUDA %d; %s: CUDA %d", first_dir, first_major, d->dir,
					 m[0]);
		} else if (!first_major) {
			first_major = m[0];
			first_dir = d->dir;
		}
	}
	if (missing)
		finding_fix(missing, "Remove the missing directories from LD_LIBRARY_PATH where it is set "
				     "(~/.bashrc, ~/.profile, /etc/environment, activation scripts): they "
				     "usually point at an uninstalled CUDA release.");
	if (majors)
		finding_fix(majors, "Keep one CUDA release in LD_LIBRARY_PATH: the first directory that "
				    "holds a library wins, so programs get a mix. Point LD_LIBRARY_PATH, "
				    "PATH and CUDA_HOME at the same toolkit.");
}

/* ---- env.memory_growth --------------------------------------------------------------- */

static void
check_memory_growth(const struct facts *f, struct findings *out)
{
	const char *g = facts_env_value(f, "TF_FORCE_GPU_ALLOW_GROWTH");
	uint64_t held = 0;
	int i, n = 0;
	struct finding *fd;

	if (g)
		return;
	for (i = 0; i < f->nprocs && i < MAX_PROCS; i++) {
		const struct proc_facts *p = &f->procs[i];
		if (p->used_mib == UINT64_MAX || p->used_mib == 0)
			continue;
		held += p->used_mib;
		n++;
	}
	if (!n)
		return;
	fd = findings_add(out, "env.memory_growth", SEV_INFO,
			  "The GPU is shared: TensorFlow would try to take all of its free memory");
	finding_evidence(fd, "%d other process(es) hold %llu MiB of GPU memory", n,
			 (unsigned long long)held);
	finding_evidence(fd, "TF_FORCE_GPU_ALLOW_GROWTH is not set");
	finding_fix(fd, "Let TensorFlow allocate GPU memory as it needs it:\n"
			"export TF_FORCE_GPU_ALLOW_GROWTH=true\n"
			"(in code: tf.config.experimental.set_memory_growth(gpu, True) for each GPU; "
			"PyTorch and JAX: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, "
			"XLA_PYTHON_CLIENT_PREALLOCATE=false)");
}

void
rule_env(const struct facts *f, struct findings *out)
{
	check_visible_devices(f, out);
	check_device_order(f, out);
	check_nccl(f, out);
	check_nccl_interfaces(f, out);
	check_cpu_affinity(f, out);
	check_ld_library_path(f, out);
	check_memory_growth(f, out);
}
