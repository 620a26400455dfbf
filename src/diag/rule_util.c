/*
 * rule_util.c - see rule_util.h.
 */
#include "diag/rule_util.h"
#include "base/str.h"
#include "base/vers.h"

void
rule_gpu_label(const struct gpu_facts *g, char *out, size_t size)
{
	if (g->name[0] && g->pci_bus_id[0])
		str_fmt(out, size, "%s (%s)", g->name, g->pci_bus_id);
	else if (g->name[0])
		str_copy(out, size, g->name);
	else if (g->pci_bus_id[0])
		str_fmt(out, size, "NVIDIA GPU %04x:%04x (%s)", g->vendor, g->device, g->pci_bus_id);
	else
		str_fmt(out, size, "NVIDIA GPU %04x:%04x", g->vendor, g->device);
}

void
rule_driver_cuda(const struct facts *f, char *out, size_t size)
{
	const struct driver_facts *d = &f->driver;

	if (d->cuda_version[0])
		vers_truncate(d->cuda_version, 2, out, size);
	else if (d->cuda_driver_version > 0)
		vers_from_cuda_int(d->cuda_driver_version, out, size);
	else if (d->nvml_cuda_version > 0)
		vers_from_cuda_int(d->nvml_cuda_version, out, size);
	else if (size)
		out[0] = '\0';
}
