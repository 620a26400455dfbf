/*
 * fuzz_kmod.c - libFuzzer harness for the kernel-module probe's parsers
 * (src/probe/kmod.c): /proc/modules, the /proc/driver/nvidia/version line,
 * /sys/module/nvidia/version, a modprobe.d file (the nouveau blacklist) and
 * the kernel release the installed-module search is built from.
 *
 * The input is those five files joined by FUZZ_SEP (fuzz.h), in that order;
 * they are written into a private machine tree and probe_kmod reads them
 * through root_set(), as `doctor --root` would.
 */
#include "base/str.h"
#include "facts.h"
#include "probe/probe.h"
#include "sys/root.h"

#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const files[] = {
	"proc/modules",
	"proc/driver/nvidia/version",
	"sys/module/nvidia/version",
	"etc/modprobe.d/fuzz.conf",
	"proc/sys/kernel/osrelease",
};
#define NFILES ((int)(sizeof(files) / sizeof(files[0])))

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	root_set(fuzz_tree_init("kmod"));
	/* something for the installed-module search to walk */
	fuzz_put("lib/modules/6.1.0-fuzz/kernel/nvidia-580/nvidia.ko", "", 0);
	fuzz_put("lib/modules/6.1.0-fuzz/updates/dkms/nvidia-current-uvm.ko", "", 0);
	fuzz_mkdirs("lib/modules/6.1.0-fuzz/extra");
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct facts f;
	static const struct probe_opts o = {.timeout_ms = 1000, .no_driver_calls = true};
	struct fuzz_seg segs[FUZZ_MAX_SEGS];
	int n = fuzz_split(data, size, segs, NFILES), i;

	for (i = 0; i < NFILES; i++)
		fuzz_put_seg(files[i], segs, n, i);
	facts_init(&f);
	/* as probe_host reads it */
	if (root_read_line("/proc/sys/kernel/osrelease", f.host.kernel_release,
			   sizeof(f.host.kernel_release)) < 0)
		f.host.kernel_release[0] = '\0';
	probe_kmod(&f, &o);
	if (!memchr(f.kmod.nvidia_version, '\0', sizeof(f.kmod.nvidia_version)) ||
	    !memchr(f.kmod.version_line, '\0', sizeof(f.kmod.version_line)) ||
	    !memchr(f.kmod.nvidia_module_path, '\0', sizeof(f.kmod.nvidia_module_path)))
		abort();
	return 0;
}
