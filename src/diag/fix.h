/*
 * fix.h - the commands a fix prints, tailored to this machine: its package
 * manager (from os-release), whether sudo is needed, safe shell quoting.
 *
 * Each function appends ready-to-paste lines to a buf. They never decide
 * whether a fix is needed; rules do.
 */
#ifndef GPUDOCTOR_FIX_H
#define GPUDOCTOR_FIX_H

#include "base/buf.h"
#include "facts.h"

/* "sudo " unless the facts say we run as root; "" for root. */
const char *fix_sudo(const struct facts *f);
/* The package manager: apt, dnf, zypper, pacman, or "apt" as a guess
 * when os-release named none we know. */
const char *fix_pkg_manager(const struct facts *f);
/* "sudo apt install -y PKG..." for this distro (packages given per manager;
 * pass NULL for a manager that has no such package). */
void fix_install(struct buf *b, const struct facts *f, const char *apt, const char *dnf,
		 const char *zypper, const char *pacman);
/* How to install the NVIDIA driver on this distro (Ubuntu: ubuntu-drivers,
 * Debian: nvidia-driver from non-free, Fedora: RPM Fusion akmod-nvidia,
 * openSUSE, Arch). */
void fix_install_driver(struct buf *b, const struct facts *f);
/* Rebuild the initramfs on this distro. */
void fix_rebuild_initramfs(struct buf *b, const struct facts *f);

#endif
