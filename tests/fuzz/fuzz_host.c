/*
 * fuzz_host.c - libFuzzer harness for the host probe's parsers
 * (src/probe/host.c): /etc/os-release, /proc/cpuinfo, the kernel release,
 * /proc/version, /proc/1/cgroup, the SecureBoot efivar and the DMI vendor
 * and product names.
 *
 * The input is those files joined by FUZZ_SEP (fuzz.h), in the order of
 * files[] below; they are written into a private machine tree and
 * probe_host reads them through root_set(), as `doctor --root` would.
 */
#include "facts.h"
#include "probe/probe.h"
#include "sys/root.h"

#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const files[] = {
	"etc/os-release",
	"proc/cpuinfo",
	"proc/sys/kernel/osrelease",
	"proc/version",
	"proc/1/cgroup",
	"sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c",
	"sys/class/dmi/id/sys_vendor",
	"sys/class/dmi/id/product_name",
};
#define NFILES ((int)(sizeof(files) / sizeof(files[0])))

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	root_set(fuzz_tree_init("host"));
	/* the environment is an input too: keep it out of the way */
	unsetenv("KUBERNETES_SERVICE_HOST");
	unsetenv("container");
	return 0;
}

/* Each string field must end inside its array. */
#define TERMINATED(s) (memchr((s), '\0', sizeof(s)) != NULL)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct facts f;
	static const struct probe_opts o = {.timeout_ms = 1000, .no_driver_calls = true};
	struct fuzz_seg segs[FUZZ_MAX_SEGS];
	struct host_facts *h = &f.host;
	int n = fuzz_split(data, size, segs, NFILES), i;

	for (i = 0; i < NFILES; i++)
		fuzz_put_seg(files[i], segs, n, i);
	facts_init(&f);
	probe_host(&f, &o);
	if (!TERMINATED(h->os_id) || !TERMINATED(h->os_like) || !TERMINATED(h->os_version_id) ||
	    !TERMINATED(h->os_pretty) || !TERMINATED(h->pkg_manager) ||
	    !TERMINATED(h->kernel_release) || !TERMINATED(h->arch) || !TERMINATED(h->cpu_model) ||
	    !TERMINATED(h->container_kind) || !TERMINATED(h->hypervisor) || h->cpu_count < 0 ||
	    h->secure_boot < -1 || h->secure_boot > 1)
		abort();
	return 0;
}
