/*
 * kmod.c - the kernel-module layer: which of nvidia, nvidia_uvm,
 * nvidia_modeset, nvidia_drm and nouveau are loaded (/proc/modules); the
 * loaded NVIDIA module's version and flavour (/proc/driver/nvidia/version,
 * else /sys/module/nvidia{,_current}/version); whether nouveau is blacklisted in
 * modprobe.d; whether an nvidia.ko is installed for the running kernel
 * (/lib/modules/<kernel_release>/...).
 *
 * Device nodes are devnodes.c's. Needs facts->host.kernel_release, so
 * probe_host runs first.
 */
#include "probe/probe.h"
#include "base/str.h"
#include "sys/root.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MODULES_MAX (1u << 20)
#define CONF_MAX (256u << 10)
#define MODDIR_BUDGET 600 /* directory entries examined in all */
#define MODDIR_DEPTH 4

/* Resolve symlinks in dir inside the root (/lib -> usr/lib on merged-/usr
 * systems) so listing never follows a link out of a fixture tree. */
static int
resolve_dir(const char *dir, char *out, size_t size)
{
	char real[F_PATH];

	if (root_realpath(dir, real, sizeof(real)) < 0 || !root_is_dir(real))
		return -1;
	str_copy(out, size, real);
	return 0;
}

/* ---- /proc/modules ----------------------------------------------------------- */

/* Debian renames the modules of its driver packages: nvidia-current,
 * nvidia-tesla-470, nvidia-legacy-390xx (files nvidia-current.ko,
 * nvidia-current-uvm.ko..., loaded as nvidia_current, nvidia_current_uvm).
 * Length of such a flavour prefix after "nvidia" in s (sep is '_' for
 * module names, '-' for file names), else 0. */
static size_t
debian_flavour(const char *s, char sep)
{
	static const char *const names[] = {"current", "tesla", "legacy"};
	size_t i, n;

	if (strncmp(s, "nvidia", 6) || s[6] != sep)
		return 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		n = strlen(names[i]);
		if (strncmp(s + 7, names[i], n))
			continue;
		n += 7;
		/* nvidia-tesla-470, nvidia-legacy-390xx: a version word follows */
		if (i > 0) {
			if (s[n] != sep || s[n + 1] < '0' || s[n + 1] > '9')
				return 0;
			n++;
			while ((s[n] >= '0' && s[n] <= '9') || s[n] == 'x')
				n++;
		}
		if (s[n] != sep && s[n] != '.' && s[n] != '\0')
			return 0;
		return n - 6;
	}
	return 0;
}

static void
probe_modules(struct kmod_facts *k, struct facts *f)
{
	char *data, *line, *save = NULL;

	data = root_read_all("/proc/modules", MODULES_MAX, NULL, &k->modules_cut);
	if (!data) {
		k->modules_readable = false;
		facts_note(f, "kmod", "/proc/modules unreadable");
		return;
	}
	k->modules_readable = true;
	if (k->modules_cut)
		facts_note(f, "kmod", "/proc/modules is larger than %u KiB: a module not in "
				      "its first part is unknown, not absent", MODULES_MAX >> 10);
	for (line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t n = strcspn(line, " \t"), fl;

		line[n] = '\0';
		/* nvidia_current_uvm -> nvidia_uvm */
		if ((fl = debian_flavour(line, '_')))
			memmove(line + 6, line + 6 + fl, strlen(line + 6 + fl) + 1);
		if (!strcmp(line, "nvidia"))
			k->nvidia = true;
		else if (!strcmp(line, "nvidia_uvm"))
			k->nvidia_uvm = true;
		else if (!strcmp(line, "nvidia_modeset"))
			k->nvidia_modeset = true;
		else if (!strcmp(line, "nvidia_drm"))
			k->nvidia_drm = true;
		else if (!strcmp(line, "nouveau"))
			k->nouveau = true;
	}
	free(data);
}

/* ---- version ---------------------------------------------------------------- */

/* A driver version token: digits and dots with at least one dot
 * ("580.159.04", "470.82.01"); the first such word after "Module". */
static bool
is_driver_version(const char *w, size_t n)
{
	size_t i, dots = 0;

	if (n < 3 || n >= 32 || w[0] < '0' || w[0] > '9')
		return false;
	for (i = 0; i < n; i++) {
		if (w[i] == '.')
			dots++;
		else if (w[i] < '0' || w[i] > '9')
			return false;
	}
	return dots >= 1 && w[n - 1] != '.';
}

/* Parse "NVRM version: NVIDIA UNIX [Open Kernel Module for x86_64|x86_64
 * Kernel Module]  580.159.04  ..." into version and flavour. */
static void
parse_version_line(struct kmod_facts *k, const char *line)
{
	const char *p = strstr(line, "Module");
	size_t n;

	if (strstr(line, "Open Kernel Module"))
		STR_COPY(k->flavour, "open");
	else if (strstr(line, "Kernel Module"))
		STR_COPY(k->flavour, "proprietary");
	p = p ? p + strlen("Module") : line;
	while (*p) {
		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (n == 0)
			break;
		if (is_driver_version(p, n)) {
			memcpy(k->nvidia_version, p, n);
			k->nvidia_version[n] = '\0';
			return;
		}
		p += n;
	}
}

static void
probe_version(struct kmod_facts *k)
{
	char line[F_TEXT * 2];

	if (root_read_line("/proc/driver/nvidia/version", line, sizeof(line)) == 0 && line[0]) {
		STR_COPY(k->version_line, line);
		parse_version_line(k, line);
	}
	if (!k->nvidia_version[0] &&
	    (root_read_line("/sys/module/nvidia/version", line, sizeof(line)) == 0 ||
	     root_read_line("/sys/module/nvidia_current/version", line, sizeof(line)) == 0) &&
	    is_driver_version(line, strlen(line)))
		STR_COPY(k->nvidia_version, line);
}

/* ---- nouveau blacklist ----------------------------------------------------------- */

/* True when one modprobe.d line keeps nouveau from driving the GPU:
 * "blacklist nouveau" or "options nouveau modeset=0". */
static bool
blacklists_nouveau(char *line)
{
	char *w[16], *save = NULL, *t;
	int n = 0, i;

	if ((t = strchr(line, '#')))
		*t = '\0';
	for (t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		if (n == (int)(sizeof(w) / sizeof(w[0])))
			break;
		w[n++] = t;
	}
	if (n < 2 || strcmp(w[1], "nouveau"))
		return false;
	if (!strcmp(w[0], "blacklist"))
		return true;
	if (!strcmp(w[0], "options"))
		for (i = 2; i < n; i++)
			if (!strcmp(w[i], "modeset=0"))
				return true;
	return false;
}

static bool
file_blacklists_nouveau(const char *path)
{
	char *data, *line, *save = NULL;
	bool hit = false;

	data = root_read_all(path, CONF_MAX, NULL, NULL);
	if (!data)
		return false;
	for (line = strtok_r(data, "\n", &save); line && !hit; line = strtok_r(NULL, "\n", &save))
		hit = blacklists_nouveau(line);
	free(data);
	return hit;
}

static void
probe_blacklist(struct kmod_facts *k)
{
	static const char *const dirs[] = {"/etc/modprobe.d", "/usr/lib/modprobe.d",
					   "/lib/modprobe.d", "/run/modprobe.d"};
	size_t d;

	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]) && !k->nouveau_blacklisted; d++) {
		char dir[F_PATH], **names;
		int n, i;

		if (resolve_dir(dirs[d], dir, sizeof(dir)) < 0)
			continue;
		n = root_list(dir, &names);

		for (i = 0; i < n && i < 500; i++) {
			char path[F_PATH];

			if (!str_ends(names[i], ".conf"))
				continue;
			STR_FMT(path, "%s/%s", dir, names[i]);
			if (file_blacklists_nouveau(path)) {
				k->nouveau_blacklisted = true;
				/* named as the user knows it: /lib/..., not /usr/lib/... */
				STR_FMT(k->nouveau_blacklist_file, "%s/%s", dirs[d], names[i]);
				break;
			}
		}
		root_free_list(names, n);
	}
}

/* ---- installed module -------------------------------------------------------------- */

/* nvidia.ko, nvidia.ko.{xz,zst,gz}, and Debian's nvidia-current.ko,
 * nvidia-tesla-470.ko... (but not their -uvm, -modeset, -drm siblings). */
static bool
is_nvidia_ko(const char *name)
{
	const char *ext;

	/* checked first: name + 6 must stay inside a shorter name */
	if (strncmp(name, "nvidia", 6))
		return false;
	ext = name + 6 + debian_flavour(name, '-');
	return !strcmp(ext, ".ko") || !strcmp(ext, ".ko.xz") || !strcmp(ext, ".ko.zst") ||
	       !strcmp(ext, ".ko.gz");
}

/* Depth-limited search of dir for nvidia.ko*; *budget counts entries. */
static bool
find_ko(const char *dir, int depth, int *budget, char *out, size_t size)
{
	char **names;
	int n, i;
	bool found = false;

	if (depth > MODDIR_DEPTH || *budget <= 0)
		return false;
	n = root_list(dir, &names);
	for (i = 0; i < n && !found && *budget > 0; i++, (*budget)--) {
		char path[F_PATH];
		struct stat st;

		STR_FMT(path, "%s/%s", dir, names[i]);
		if (is_nvidia_ko(names[i])) {
			str_copy(out, size, path);
			found = true;
			break;
		}
		/* lstat: never follow a link out of the module tree */
		if (root_lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			found = find_ko(path, depth + 1, budget, out, size);
	}
	root_free_list(names, n);
	return found;
}

static void
probe_installed(struct kmod_facts *k, const struct host_facts *h, struct facts *f)
{
	static const char *const subdirs[] = {"updates/dkms", "updates", "extra",
					      "kernel/drivers/video", "kernel/drivers/gpu", "misc"};
	char base[F_PATH], kreal[F_PATH];
	char **names;
	int budget = MODDIR_BUDGET, n, i;
	size_t s;

	if (!h->kernel_release[0] || strchr(h->kernel_release, '/') ||
	    !strcmp(h->kernel_release, "..")) {
		facts_note(f, "kmod", "kernel release unknown: installed nvidia.ko not searched");
		return;
	}
	STR_FMT(base, "/lib/modules/%s", h->kernel_release);
	for (s = 0; s < sizeof(subdirs) / sizeof(subdirs[0]); s++) {
		char dir[F_PATH];

		char real[F_PATH], found[F_PATH];

		STR_FMT(dir, "%s/%s", base, subdirs[s]);
		if (resolve_dir(dir, real, sizeof(real)) < 0)
			continue;
		if (find_ko(real, 0, &budget, found, sizeof(found))) {
			/* named under /lib/modules/<release>, as searched */
			STR_FMT(k->nvidia_module_path, "%s%s", dir, found + strlen(real));
			k->nvidia_module_installed = true;
			return;
		}
	}
	/* kernel/nvidia*, as some distributions package it (kernel/nvidia-580/) */
	STR_FMT(base, "/lib/modules/%s/kernel", h->kernel_release);
	if (resolve_dir(base, kreal, sizeof(kreal)) < 0)
		return;
	n = root_list(kreal, &names);
	for (i = 0; i < n && !k->nvidia_module_installed; i++) {
		char dir[F_PATH], found[F_PATH];

		if (!str_starts(names[i], "nvidia"))
			continue;
		STR_FMT(dir, "%s/%s", kreal, names[i]);
		if (is_nvidia_ko(names[i])) {
			STR_FMT(k->nvidia_module_path, "%s/%s", base, names[i]);
			k->nvidia_module_installed = true;
		} else if (find_ko(dir, 1, &budget, found, sizeof(found))) {
			STR_FMT(k->nvidia_module_path, "%s%s", base, found + strlen(kreal));
			k->nvidia_module_installed = true;
		}
	}
	root_free_list(names, n);
	if (!k->nvidia_module_installed)
		k->nvidia_module_path[0] = '\0';
}

void
probe_kmod(struct facts *f, const struct probe_opts *o)
{
	struct kmod_facts *k = &f->kmod;

	(void)o;
	probe_modules(k, f);
	probe_version(k);
	probe_blacklist(k);
	probe_installed(k, &f->host, f);
}
