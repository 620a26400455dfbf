/*
 * devnodes.c - the NVIDIA device nodes and whether this process may open
 * them: /dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia-uvm-tools,
 * /dev/nvidia-modeset, /dev/nvidia<N>, every node in /dev/nvidia-caps, and WSL2's
 * /dev/dxg. Fills facts->kmod.devnodes[].
 *
 * nvidiactl, nvidia-uvm and one /dev/nvidia<N> per GPU bound to the nvidia
 * driver (at least /dev/nvidia0) are always recorded, missing or not, so
 * rules can name them. "accessible" is worked out from the mode bits
 * against the probing process's euid and groups (host facts; probe_host
 * and probe_pci run first), never with access(2): in a fixture tree the
 * nodes are plain files with whatever owner the test run has.
 */
#include "probe/probe.h"
#include "base/str.h"
#include "sys/root.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_MINOR 255

static bool
in_groups(const struct host_facts *h, unsigned gid)
{
	int i;

	for (i = 0; i < h->ngids; i++)
		if (h->gids[i] == gid)
			return true;
	return false;
}

static bool
may_read_write(const struct host_facts *h, const struct stat *st)
{
	mode_t m = st->st_mode;

	if (h->uid == 0)
		return true;
	if ((unsigned)st->st_uid == h->uid)
		return (m & S_IRUSR) && (m & S_IWUSR);
	if (in_groups(h, (unsigned)st->st_gid))
		return (m & S_IRGRP) && (m & S_IWGRP);
	return (m & S_IROTH) && (m & S_IWOTH);
}

static bool
known(const struct kmod_facts *k, const char *path)
{
	int i;

	for (i = 0; i < k->ndevnodes; i++)
		if (!strcmp(k->devnodes[i].path, path))
			return true;
	return false;
}

/* Record one node; `always` records it even when it does not exist. */
static void
add_node(struct facts *f, const struct host_facts *h, const char *path, bool always)
{
	struct kmod_facts *k = &f->kmod;
	struct devnode_facts *d;
	struct stat st;
	bool exists;

	if (known(k, path) || strlen(path) >= sizeof(d->path))
		return;
	exists = root_stat(path, &st) == 0;
	if (!exists && !always)
		return;
	if (k->ndevnodes >= MAX_DEVNODES) {
		facts_note(f, "devnodes", "more device nodes than recorded; %s left out", path);
		return;
	}
	d = &k->devnodes[k->ndevnodes++];
	memset(d, 0, sizeof(*d));
	STR_COPY(d->path, path);
	d->exists = exists;
	if (!exists)
		return;
	d->is_char = S_ISCHR(st.st_mode);
	d->mode = (unsigned)(st.st_mode & 07777);
	d->uid = (unsigned)st.st_uid;
	d->gid = (unsigned)st.st_gid;
	d->accessible = may_read_write(h, &st);
}

/* "nvidia<digits>" -> the number, else -1. */
static int
gpu_minor(const char *name)
{
	const char *p;
	int v = 0;

	if (strncmp(name, "nvidia", 6) || !name[6])
		return -1;
	for (p = name + 6; *p; p++) {
		if (*p < '0' || *p > '9' || v > MAX_MINOR)
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v <= MAX_MINOR ? v : -1;
}

/* Identity of this process when probe_host has not filled it. */
static void
own_identity(struct host_facts *h)
{
	gid_t groups[32];
	int n, i;

	h->uid = (unsigned)geteuid();
	h->gids[0] = (unsigned)getegid();
	h->ngids = 1;
	n = getgroups((int)(sizeof(groups) / sizeof(groups[0])), groups);
	for (i = 0; i < n && h->ngids < (int)(sizeof(h->gids) / sizeof(h->gids[0])); i++)
		h->gids[h->ngids++] = (unsigned)groups[i];
}

void
probe_devnodes(struct facts *f, const struct probe_opts *o)
{
	static const char *const fixed[] = {"/dev/nvidiactl", "/dev/nvidia-uvm",
					    "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset"};
	bool minors[MAX_MINOR + 1] = {false};
	struct host_facts id, *h = &f->host;
	char **names, path[F_NAME];
	int n, i, bound = 0;
	size_t j;

	(void)o;
	f->kmod.ndevnodes = 0;
	if (!h->valid) {
		memset(&id, 0, sizeof(id));
		own_identity(&id);
		h = &id;
	}
	for (j = 0; j < sizeof(fixed) / sizeof(fixed[0]); j++)
		add_node(f, h, fixed[j], j < 2);

	for (i = 0; i < f->ngpus; i++)
		if (!strcmp(f->gpus[i].kernel_driver, "nvidia"))
			bound++;
	for (i = 0; i < (bound ? bound : 1) && i <= MAX_MINOR; i++)
		minors[i] = true;
	n = root_list("/dev", &names);
	for (i = 0; i < n; i++) {
		int m = gpu_minor(names[i]);
		if (m >= 0)
			minors[m] = true;
	}
	root_free_list(names, n);
	for (i = 0; i <= MAX_MINOR; i++) {
		if (!minors[i])
			continue;
		STR_FMT(path, "/dev/nvidia%d", i);
		add_node(f, h, path, i < (bound ? bound : 1));
	}

	n = root_list("/dev/nvidia-caps", &names);
	for (i = 0; i < n; i++) {
		STR_FMT(path, "/dev/nvidia-caps/%s", names[i]);
		add_node(f, h, path, false);
	}
	root_free_list(names, n);

	add_node(f, h, "/dev/dxg", false);
}
