/*
 * fix.c - the distro-aware commands that fixes print: which package
 * manager, whether to prefix sudo, how to install the NVIDIA driver and
 * rebuild the initramfs on this distro. See fix.h.
 *
 * Nothing here runs a command or decides whether one is needed; it only
 * writes text. Every word that comes from the machine (a kernel release,
 * a package name) is shell-quoted with buf_add_shquoted.
 *
 * Where each driver recipe comes from:
 *  - Ubuntu: Ubuntu Server documentation "NVIDIA drivers installation"
 *    (ubuntu-drivers install, --gpgpu for compute servers, the explicit
 *    nvidia-driver-BRANCH / nvidia-driver-BRANCH-server packages).
 *  - Debian: wiki.debian.org/NvidiaGraphicsDrivers (enable contrib,
 *    non-free and non-free-firmware; apt install linux-headers-ARCH
 *    nvidia-driver firmware-misc-nonfree).
 *  - Fedora: rpmfusion.org/Configuration and rpmfusion.org/Howto/NVIDIA
 *    (the two rpmfusion-*-release packages, then akmod-nvidia and
 *    xorg-x11-drv-nvidia-cuda for CUDA and nvidia-smi).
 *  - RHEL and rebuilds: NVIDIA Driver Installation Guide (r580), the
 *    network repository cuda-rhelN.repo and the nvidia-open package.
 *  - openSUSE: en.opensuse.org/SDB:NVIDIA_drivers (the NVIDIA repository,
 *    then zypper install-new-recommends --repo NVIDIA).
 *  - Arch: wiki.archlinux.org/title/NVIDIA and the Arch news of the 590
 *    driver: nvidia-open for Turing and newer; older GPUs need the legacy
 *    nvidia-580xx-dkms from the AUR.
 *  - initramfs: update-initramfs(8) (Debian, Ubuntu), dracut(8) (Fedora,
 *    RHEL, openSUSE), mkinitcpio(8) (Arch).
 */
#include "diag/fix.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"

#include <string.h>

/* The branch ubuntu-drivers would pick for current GPUs when nothing in
 * the facts points to an older legacy branch. */
#define CURRENT_BRANCH "580"

const char *
fix_sudo(const struct facts *f)
{
	return f->host.uid != 0 ? "sudo " : "";
}

/* Is `word` one of the space-separated words of `list`? */
static bool
has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	if (!n)
		return false;
	while ((p = strstr(p, word)) != NULL) {
		bool start = p == list || p[-1] == ' ';
		bool end = p[n] == '\0' || p[n] == ' ';
		if (start && end)
			return true;
		p += n;
	}
	return false;
}

/* os-release ID or ID_LIKE names `id`. */
static bool
os_is(const struct facts *f, const char *id)
{
	return !strcmp(f->host.os_id, id) || has_word(f->host.os_like, id);
}

static bool
os_is_ubuntu(const struct facts *f)
{
	return os_is(f, "ubuntu");
}

/* RHEL and its rebuilds (ID_LIKE names rhel or centos), not Fedora. */
static bool
os_is_rhel(const struct facts *f)
{
	if (!strcmp(f->host.os_id, "fedora"))
		return false;
	return os_is(f, "rhel") || os_is(f, "centos") || !strcmp(f->host.os_id, "rocky") ||
	       !strcmp(f->host.os_id, "almalinux") || !strcmp(f->host.os_id, "ol");
}

const char *
fix_pkg_manager(const struct facts *f)
{
	const char *pm = f->host.pkg_manager;

	if (!strcmp(pm, "apt") || !strcmp(pm, "dnf") || !strcmp(pm, "zypper") ||
	    !strcmp(pm, "pacman"))
		return pm;
	if (!strcmp(pm, "yum"))
		return "dnf";
	if (os_is(f, "debian") || os_is(f, "ubuntu"))
		return "apt";
	if (os_is(f, "fedora") || os_is(f, "rhel") || os_is(f, "centos"))
		return "dnf";
	if (os_is(f, "suse") || os_is(f, "opensuse") || !strncmp(f->host.os_id, "opensuse", 8) ||
	    !strcmp(f->host.os_id, "sles"))
		return "zypper";
	if (os_is(f, "arch"))
		return "pacman";
	return "apt";
}

/* Append each space-separated word of `pkgs`, shell-quoted. */
static void
add_words(struct buf *b, const char *pkgs)
{
	const char *p = pkgs;

	while (*p) {
		const char *e;
		char word[128];

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		e = strchr(p, ' ');
		if (!e)
			e = p + strlen(p);
		if ((size_t)(e - p) < sizeof(word)) {
			memcpy(word, p, (size_t)(e - p));
			word[e - p] = '\0';
			buf_addch(b, ' ');
			buf_add_shquoted(b, word);
		}
		p = e;
	}
}

void
fix_install(struct buf *b, const struct facts *f, const char *apt, const char *dnf,
	    const char *zypper, const char *pacman)
{
	const char *pm = fix_pkg_manager(f);
	const char *pkgs;

	if (!strcmp(pm, "dnf"))
		pkgs = dnf;
	else if (!strcmp(pm, "zypper"))
		pkgs = zypper;
	else if (!strcmp(pm, "pacman"))
		pkgs = pacman;
	else
		pkgs = apt;
	if (!pkgs || !*pkgs)
		return;
	buf_adds(b, fix_sudo(f));
	if (!strcmp(pm, "dnf"))
		buf_adds(b, "dnf install -y");
	else if (!strcmp(pm, "zypper"))
		buf_adds(b, "zypper install -y");
	else if (!strcmp(pm, "pacman"))
		buf_adds(b, "pacman -S --needed");
	else
		buf_adds(b, "apt install -y");
	add_words(b, pkgs);
	buf_addch(b, '\n');
}

/*
 * The newest driver branch that still supports every NVIDIA GPU here, from
 * the architecture table ("470" for Kepler); "" when all are current or
 * unknown.
 */
static void
legacy_branch(const struct facts *f, char *out, size_t size)
{
	int i;

	out[0] = '\0';
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct kb_arch *a;

		if (!f->gpus[i].compute_capability[0])
			continue;
		a = kb_arch_by_cc(f->gpus[i].compute_capability);
		if (!a || !a->driver_last_branch || !a->driver_last_branch[0])
			continue;
		if (!out[0] || vers_cmp(a->driver_last_branch, out) < 0)
			str_copy(out, size, a->driver_last_branch);
	}
}

/* Any GPU Turing (7.5) or newer, and none older? Unknown counts as new. */
static bool
all_turing_or_newer(const struct facts *f)
{
	int i;

	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const char *cc = f->gpus[i].compute_capability;
		if (cc[0] && vers_cmp(cc, "7.5") < 0)
			return false;
	}
	return true;
}

static bool
any_datacenter(const struct facts *f)
{
	int i;

	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		const struct kb_gpu *g = kb_gpu_by_id(f->gpus[i].device);
		if (g && g->segment && !strcmp(g->segment, "datacenter"))
			return true;
	}
	return false;
}

/* "linux-headers-6.1.0-18-amd64" when the release is known. */
static void
add_headers(struct buf *b, const struct facts *f, const char *prefix)
{
	char pkg[F_NAME + 32];

	buf_addch(b, ' ');
	if (f->host.kernel_release[0]) {
		STR_FMT(pkg, "%s%s", prefix, f->host.kernel_release);
		buf_add_shquoted(b, pkg);
	} else {
		buf_adds(b, prefix);
		buf_adds(b, "\"$(uname -r)\"");
	}
}

static void
driver_ubuntu(struct buf *b, const struct facts *f, const char *sudo)
{
	char branch[16];
	bool server = any_datacenter(f);

	legacy_branch(f, branch, sizeof(branch));
	if (!branch[0])
		STR_COPY(branch, CURRENT_BRANCH);
	buf_addf(b, "%s%s\n", sudo, server ? "ubuntu-drivers install --gpgpu" : "ubuntu-drivers install");
	buf_addf(b, "# or name the branch explicitly:\n%sapt install -y nvidia-driver-%s%s\n", sudo,
		 branch, server ? "-server" : "");
	if (server)
		buf_addf(b, "%sapt install -y nvidia-utils-%s-server\n", sudo, branch);
}

static void
driver_debian(struct buf *b, const struct facts *f, const char *sudo)
{
	buf_adds(b, "# enable the contrib, non-free and non-free-firmware components in "
		    "/etc/apt/sources.list (or /etc/apt/sources.list.d/debian.sources), then:\n");
	buf_addf(b, "%sapt update\n", sudo);
	buf_addf(b, "%sapt install -y", sudo);
	add_headers(b, f, "linux-headers-");
	buf_adds(b, " nvidia-driver firmware-misc-nonfree\n");
}

static void
driver_fedora(struct buf *b, const char *sudo)
{
	buf_addf(b,
		 "%sdnf install -y "
		 "https://mirrors.rpmfusion.org/free/fedora/rpmfusion-free-release-$(rpm -E %%fedora).noarch.rpm "
		 "https://mirrors.rpmfusion.org/nonfree/fedora/rpmfusion-nonfree-release-$(rpm -E %%fedora).noarch.rpm\n",
		 sudo);
	buf_addf(b, "%sdnf install -y akmod-nvidia xorg-x11-drv-nvidia-cuda\n", sudo);
	buf_adds(b, "# wait until akmods has built the module (modinfo -F version nvidia), then reboot\n");
}

static void
driver_rhel(struct buf *b, const struct facts *f, const char *sudo)
{
	int v[1] = {0};
	const char *arch = !strcmp(f->host.arch, "aarch64") ? "sbsa" : "x86_64";

	if (vers_parse(f->host.os_version_id, v, 1) < 1 || v[0] < 8)
		v[0] = 9;
	buf_addf(b, "%sdnf install -y", sudo);
	add_headers(b, f, "kernel-devel-");
	buf_addf(b, " kernel-headers\n");
	buf_addf(b,
		 "%sdnf config-manager --add-repo "
		 "https://developer.download.nvidia.com/compute/cuda/repos/rhel%d/%s/cuda-rhel%d.repo\n",
		 sudo, v[0], arch, v[0]);
	if (all_turing_or_newer(f))
		buf_addf(b, "%sdnf install -y nvidia-open\n", sudo);
	else
		buf_addf(b, "%sdnf install -y cuda-drivers\n", sudo);
}

static void
driver_suse(struct buf *b, const struct facts *f, const char *sudo)
{
	const char *repo = strstr(f->host.os_id, "tumbleweed") || strstr(f->host.os_id, "slowroll")
		? "https://download.nvidia.com/opensuse/tumbleweed"
		: "https://download.nvidia.com/opensuse/leap/$releasever";

	buf_addf(b, "%szypper addrepo --refresh '%s' NVIDIA\n", sudo, repo);
	buf_addf(b, "%szypper install-new-recommends --repo NVIDIA\n", sudo);
}

static void
driver_arch(struct buf *b, const struct facts *f, const char *sudo)
{
	if (all_turing_or_newer(f)) {
		buf_addf(b, "%spacman -S --needed nvidia-open nvidia-utils\n", sudo);
	} else {
		buf_adds(b, "# this GPU is older than Turing: the current nvidia-open package no longer "
			    "supports it; install the legacy branch from the AUR:\n");
		buf_adds(b, "yay -S nvidia-580xx-dkms nvidia-580xx-utils\n");
	}
}

void
fix_install_driver(struct buf *b, const struct facts *f)
{
	const char *sudo = fix_sudo(f);
	const char *pm = fix_pkg_manager(f);

	if (f->unknown_parts & FACTS_PART_HOST) {
		/* facts from a log or a partial document: the distribution is unknown */
		buf_adds(b, "install it from your distribution's packages (gpudoctor doctor on that "
			    "machine prints the commands), then reboot\n");
		return;
	}
	if (os_is_ubuntu(f))
		driver_ubuntu(b, f, sudo);
	else if (os_is(f, "debian") || !strcmp(pm, "apt"))
		driver_debian(b, f, sudo);
	else if (os_is_rhel(f))
		driver_rhel(b, f, sudo);
	else if (!strcmp(pm, "dnf"))
		driver_fedora(b, sudo);
	else if (!strcmp(pm, "zypper"))
		driver_suse(b, f, sudo);
	else if (!strcmp(pm, "pacman"))
		driver_arch(b, f, sudo);
	buf_addf(b, "%sreboot\n", sudo);
}

void
fix_rebuild_initramfs(struct buf *b, const struct facts *f)
{
	const char *sudo = fix_sudo(f);
	const char *pm = fix_pkg_manager(f);

	if (!strcmp(pm, "apt"))
		buf_addf(b, "%supdate-initramfs -u\n", sudo);
	else if (!strcmp(pm, "pacman"))
		buf_addf(b, "%smkinitcpio -P\n", sudo);
	else
		buf_addf(b, "%sdracut --force\n", sudo);
}
