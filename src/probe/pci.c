/*
 * pci.c - the hw layer: display controllers in /sys/bus/pci/devices.
 *
 * NVIDIA functions (vendor 0x10de, class 0x03xxxx) become facts->gpus[]
 * with ids, bound kernel driver, NUMA node, PCIe link and boot_vga, plus
 * name/architecture/compute capability from the knowledge base by device
 * id. Intel and AMD display controllers (the integrated GPU of a hybrid
 * laptop, or a second GPU) become facts->other_gpus[]; other display
 * functions are not GPUs a framework could use and are left out: a
 * server's BMC VGA (ASPEED, Matrox), a hypervisor's virtual VGA, WSL2's
 * Microsoft "Basic Render Driver" vPCI device. NVIDIA audio functions
 * (class 0x0403) are not GPUs either.
 *
 * Entries are symlinks into /sys/devices on a real machine and plain
 * directories in fixtures; both work, since every read goes through the
 * sysroot. Sorted by bus id.
 */
#include "probe/probe.h"
#include "base/str.h"
#include "kb/kb.h"
#include "sys/root.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCI_DIR "/sys/bus/pci/devices"
#define VENDOR_NVIDIA 0x10deu
#define VENDOR_INTEL 0x8086u
#define VENDOR_AMD 0x1002u /* ATI/AMD graphics */
#define CLASS_DISPLAY 0x03u

/* Read a sysfs attribute "<dev>/<attr>" as one trimmed line. */
static int
attr_line(const char *dev, const char *attr, char *out, size_t size)
{
	char path[F_PATH];

	STR_FMT(path, "%s/%s/%s", PCI_DIR, dev, attr);
	return root_read_line(path, out, size);
}

/* Hex attribute ("0x10de"); false when absent or not a number. */
static bool
attr_hex(const char *dev, const char *attr, unsigned *v)
{
	char buf[32], *end;
	unsigned long x;

	if (attr_line(dev, attr, buf, sizeof(buf)) < 0 || !buf[0])
		return false;
	errno = 0;
	x = strtoul(buf, &end, 16);
	if (errno || end == buf || *end || x > 0xffffffffUL)
		return false;
	*v = (unsigned)x;
	return true;
}

/* Decimal attribute; false when absent or not a number. */
static bool
attr_int(const char *dev, const char *attr, int *v)
{
	char buf[32], *end;
	long x;

	if (attr_line(dev, attr, buf, sizeof(buf)) < 0 || !buf[0])
		return false;
	errno = 0;
	x = strtol(buf, &end, 10);
	if (errno || end == buf || *end || x < -1000000 || x > 1000000)
		return false;
	*v = (int)x;
	return true;
}

/* Basename of the `driver` symlink's target; "" when unbound. */
static void
bound_driver(const char *dev, char *out, size_t size)
{
	char path[F_PATH], target[F_PATH];
	const char *base;

	out[0] = '\0';
	STR_FMT(path, "%s/%s/driver", PCI_DIR, dev);
	if (root_readlink(path, target, sizeof(target)) < 0)
		return;
	while (*target && target[strlen(target) - 1] == '/')
		target[strlen(target) - 1] = '\0';
	base = strrchr(target, '/');
	str_copy(out, size, base ? base + 1 : target);
}

static void
fill_nvidia(struct gpu_facts *g, const char *dev, unsigned device, unsigned cls)
{
	const struct kb_gpu *k;
	int v;

	gpu_facts_init(g);
	STR_COPY(g->pci_bus_id, dev);
	g->vendor = VENDOR_NVIDIA;
	g->device = device;
	g->class_code = cls;
	attr_hex(dev, "subsystem_vendor", &g->subsys_vendor);
	attr_hex(dev, "subsystem_device", &g->subsys_device);
	bound_driver(dev, g->kernel_driver, sizeof(g->kernel_driver));
	if (attr_int(dev, "numa_node", &v) && v >= -1)
		g->numa_node = v;
	if (attr_line(dev, "current_link_speed", g->link_speed_cur, sizeof(g->link_speed_cur)) < 0)
		g->link_speed_cur[0] = '\0';
	if (attr_line(dev, "max_link_speed", g->link_speed_max, sizeof(g->link_speed_max)) < 0)
		g->link_speed_max[0] = '\0';
	if (attr_int(dev, "current_link_width", &v) && v > 0)
		g->link_width_cur = v;
	if (attr_int(dev, "max_link_width", &v) && v > 0)
		g->link_width_max = v;
	g->boot_vga = attr_int(dev, "boot_vga", &v) && v == 1;

	k = kb_gpu_by_id(device);
	if (k) {
		g->kb_known = true;
		STR_COPY(g->name, k->name);
		STR_COPY(g->architecture, k->architecture);
		STR_COPY(g->compute_capability, k->compute_capability);
		g->kb_memory_mib = k->memory_mib;
	}
}

static void
fill_other(struct other_gpu_facts *o, const char *dev, unsigned vendor, unsigned device,
	   unsigned cls)
{
	int v;

	memset(o, 0, sizeof(*o));
	STR_COPY(o->pci_bus_id, dev);
	o->vendor = vendor;
	o->device = device;
	o->class_code = cls;
	bound_driver(dev, o->kernel_driver, sizeof(o->kernel_driver));
	o->boot_vga = attr_int(dev, "boot_vga", &v) && v == 1;
}

/* A PCI address "dddd:bb:dd.f": refuse odd names ("..", long strings). */
static bool
plausible_bus_id(const char *s)
{
	size_t n = strlen(s), i;

	if (n < 7 || n >= sizeof(((struct gpu_facts *)0)->pci_bus_id))
		return false;
	for (i = 0; i < n; i++)
		if (!strchr("0123456789abcdefABCDEF:.", s[i]))
			return false;
	return true;
}

void
probe_pci(struct facts *f, const struct probe_opts *o)
{
	char **names;
	int n, i, skipped = 0;

	(void)o;
	f->ngpus = 0;
	f->nother_gpus = 0;
	n = root_list(PCI_DIR, &names);
	if (n == 0) {
		facts_note(f, "pci", "%s is empty or unreadable", PCI_DIR);
		root_free_list(names, n);
		return;
	}
	f->pci_valid = true;
	/* root_list sorts by name, and sysfs names are fixed-width hex bus
	 * ids, so the GPUs come out sorted by bus id. */
	for (i = 0; i < n; i++) {
		const char *dev = names[i];
		unsigned vendor, device, cls;

		if (!plausible_bus_id(dev))
			continue;
		if (!attr_hex(dev, "vendor", &vendor) || !attr_hex(dev, "device", &device) ||
		    !attr_hex(dev, "class", &cls))
			continue;
		if (cls >> 16 != CLASS_DISPLAY)
			continue;
		if (vendor == VENDOR_NVIDIA) {
			if (f->ngpus >= MAX_GPUS) {
				skipped++;
				continue;
			}
			fill_nvidia(&f->gpus[f->ngpus++], dev, device, cls);
		} else if (vendor == VENDOR_INTEL || vendor == VENDOR_AMD) {
			if (f->nother_gpus >= MAX_OTHER_GPUS) {
				skipped++;
				continue;
			}
			fill_other(&f->other_gpus[f->nother_gpus++], dev, vendor, device, cls);
		}
	}
	if (skipped)
		facts_note(f, "pci", "%d display functions beyond the table size not recorded", skipped);
	root_free_list(names, n);
}

/* PCI bus id in sysfs form, "0000:06:00.0", from NVML's "00000000:06:00.0"
 * or CUDA's "0000:06:00.0", any case. Returns false (out = lower-cased
 * input) when it does not parse. */
bool
pci_bus_norm(const char *in, char *out, size_t size)
{
	unsigned long dom;
	unsigned bus, dev, fn;
	char tail;
	size_t i;

	if (sscanf(in, "%lx:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) == 4 &&
	    dom <= 0xffffffffUL && bus <= 0xff && dev <= 0x1f && fn <= 7) {
		str_fmt(out, size, "%04lx:%02x:%02x.%x", dom, bus, dev, fn);
		return true;
	}
	str_copy(out, size, in);
	for (i = 0; out[i]; i++)
		if (out[i] >= 'A' && out[i] <= 'Z')
			out[i] = (char)(out[i] - 'A' + 'a');
	return false;
}
