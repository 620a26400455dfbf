/*
 * t_fix.c - fix.c: sudo only for non-root users, the package manager
 * from os-release, install lines per manager with quoting, the driver
 * recipe per distro, the initramfs command per distro.
 */
#include "rules_facts.h"

#include "base/buf.h"
#include "diag/fix.h"

static struct facts *
distro(const char *id, const char *like, const char *ver, const char *pm, unsigned uid)
{
	struct facts *f = facts_new();

	host_ubuntu(f, uid);
	STR_COPY(f->host.os_id, id);
	STR_COPY(f->host.os_like, like);
	STR_COPY(f->host.os_version_id, ver);
	STR_COPY(f->host.pkg_manager, pm);
	return f;
}

static void
test_sudo(void **state)
{
	struct facts *f = distro("ubuntu", "debian", "24.04", "apt", 0);

	(void)state;
	assert_string_equal(fix_sudo(f), "");
	f->host.uid = 1000;
	assert_string_equal(fix_sudo(f), "sudo ");
	free(f);
}

static void
test_pkg_manager(void **state)
{
	struct facts *f = distro("rocky", "rhel centos fedora", "9.4", "", 0);

	(void)state;
	assert_string_equal(fix_pkg_manager(f), "dnf");
	STR_COPY(f->host.os_id, "opensuse-tumbleweed");
	STR_COPY(f->host.os_like, "opensuse suse");
	assert_string_equal(fix_pkg_manager(f), "zypper");
	STR_COPY(f->host.os_id, "manjaro");
	STR_COPY(f->host.os_like, "arch");
	assert_string_equal(fix_pkg_manager(f), "pacman");
	STR_COPY(f->host.os_id, "linuxmint");
	STR_COPY(f->host.os_like, "ubuntu debian");
	assert_string_equal(fix_pkg_manager(f), "apt");
	STR_COPY(f->host.os_id, "gentoo");
	f->host.os_like[0] = '\0';
	assert_string_equal(fix_pkg_manager(f), "apt");
	STR_COPY(f->host.pkg_manager, "yum");
	assert_string_equal(fix_pkg_manager(f), "dnf");
	STR_COPY(f->host.pkg_manager, "pacman");
	assert_string_equal(fix_pkg_manager(f), "pacman");
	free(f);
}

static void
check_install(const char *pm, unsigned uid, const char *want)
{
	struct facts *f = distro("x", "", "1", pm, uid);
	struct buf b;

	buf_init(&b);
	fix_install(&b, f, "nvidia-driver firmware-misc-nonfree", "akmod-nvidia", "nvidia-compute-G06",
		    "nvidia-open");
	assert_string_equal(b.s, want);
	buf_release(&b);
	free(f);
}

static void
test_install(void **state)
{
	struct facts *f;
	struct buf b;

	(void)state;
	check_install("apt", 1000, "sudo apt install -y nvidia-driver firmware-misc-nonfree\n");
	check_install("apt", 0, "apt install -y nvidia-driver firmware-misc-nonfree\n");
	check_install("dnf", 1000, "sudo dnf install -y akmod-nvidia\n");
	check_install("zypper", 1000, "sudo zypper install -y nvidia-compute-G06\n");
	check_install("pacman", 1000, "sudo pacman -S --needed nvidia-open\n");

	/* no package for this manager: nothing; odd names are quoted */
	f = distro("arch", "", "", "pacman", 1000);
	buf_init(&b);
	fix_install(&b, f, "a", "b", "c", NULL);
	assert_string_equal(b.s, "");
	fix_install(&b, f, NULL, NULL, NULL, "it's a;b");
	assert_string_equal(b.s, "sudo pacman -S --needed 'it'\\''s' 'a;b'\n");
	buf_release(&b);
	free(f);
}

static char *
driver_recipe(struct facts *f)
{
	struct buf b;

	buf_init(&b);
	fix_install_driver(&b, f);
	return buf_detach(&b);
}

static void
test_install_driver(void **state)
{
	struct facts *f;
	char *s;

	(void)state;
	f = distro("ubuntu", "debian", "24.04", "apt", 1000);
	s = driver_recipe(f);
	assert_non_null(strstr(s, "sudo ubuntu-drivers install\n"));
	assert_non_null(strstr(s, "sudo apt install -y nvidia-driver-580\n"));
	assert_non_null(strstr(s, "sudo reboot"));
	free(s);
	/* a datacenter GPU: the server driver */
	add_gpu(f, "0000:00:06.0", 0x2335, "NVIDIA H200", "9.0");
	s = driver_recipe(f);
	assert_non_null(strstr(s, "ubuntu-drivers install --gpgpu"));
	assert_non_null(strstr(s, "nvidia-driver-580-server"));
	free(s);
	/* a Kepler GPU: the last branch that supports it */
	STR_COPY(f->gpus[0].compute_capability, "3.7");
	f->gpus[0].device = 0x102d;
	s = driver_recipe(f);
	assert_non_null(strstr(s, "nvidia-driver-470-server"));
	free(s);
	free(f);

	f = distro("debian", "", "12", "apt", 0);
	STR_COPY(f->host.kernel_release, "6.1.0-28-amd64");
	s = driver_recipe(f);
	assert_non_null(strstr(s, "non-free"));
	assert_non_null(strstr(s, "apt install -y linux-headers-6.1.0-28-amd64 nvidia-driver "
				  "firmware-misc-nonfree\n"));
	assert_null(strstr(s, "sudo"));
	free(s);
	free(f);

	f = distro("fedora", "", "41", "dnf", 1000);
	s = driver_recipe(f);
	assert_non_null(strstr(s, "rpmfusion-nonfree-release-$(rpm -E %fedora).noarch.rpm"));
	assert_non_null(strstr(s, "sudo dnf install -y akmod-nvidia xorg-x11-drv-nvidia-cuda\n"));
	free(s);
	free(f);

	f = distro("rocky", "rhel centos fedora", "9.4", "dnf", 1000);
	s = driver_recipe(f);
	assert_non_null(strstr(s, "repos/rhel9/x86_64/cuda-rhel9.repo"));
	assert_non_null(strstr(s, "sudo dnf install -y nvidia-open\n"));
	free(s);
	free(f);

	f = distro("opensuse-tumbleweed", "opensuse suse", "20250101", "zypper", 1000);
	s = driver_recipe(f);
	assert_non_null(strstr(s, "download.nvidia.com/opensuse/tumbleweed"));
	assert_non_null(strstr(s, "sudo zypper install-new-recommends --repo NVIDIA\n"));
	free(s);
	free(f);

	f = distro("arch", "", "", "pacman", 1000);
	add_gpu(f, "0000:01:00.0", 0x2204, "NVIDIA GeForce RTX 3090", "8.6");
	s = driver_recipe(f);
	assert_non_null(strstr(s, "sudo pacman -S --needed nvidia-open nvidia-utils\n"));
	free(s);
	STR_COPY(f->gpus[0].compute_capability, "6.1");
	s = driver_recipe(f);
	assert_non_null(strstr(s, "nvidia-580xx-dkms"));
	assert_null(strstr(s, "pacman -S --needed nvidia-open"));
	free(s);
	free(f);
}

static void
test_initramfs(void **state)
{
	static const struct {
		const char *id, *pm, *want;
	} cases[] = {
		{"ubuntu", "apt", "sudo update-initramfs -u\n"},
		{"fedora", "dnf", "sudo dracut --force\n"},
		{"opensuse-leap", "zypper", "sudo dracut --force\n"},
		{"arch", "pacman", "sudo mkinitcpio -P\n"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct facts *f = distro(cases[i].id, "", "", cases[i].pm, 1000);
		struct buf b;

		buf_init(&b);
		fix_rebuild_initramfs(&b, f);
		assert_string_equal(b.s, cases[i].want);
		buf_release(&b);
		f->host.uid = 0;
		buf_init(&b);
		fix_rebuild_initramfs(&b, f);
		assert_string_equal(b.s, cases[i].want + 5);
		buf_release(&b);
		free(f);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sudo),
		cmocka_unit_test(test_pkg_manager),
		cmocka_unit_test(test_install),
		cmocka_unit_test(test_install_driver),
		cmocka_unit_test(test_initramfs),
	};

	return cmocka_run_group_tests_name("fix", tests, NULL, NULL);
}
