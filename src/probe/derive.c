/*
 * derive.c - facts that follow from other facts through the knowledge
 * base, for when the machine could not be asked: the newest CUDA a driver
 * runs, from its version, when libcuda and NVML were not loaded (--no-load,
 * a crashed or hung child, a document recorded that way). Marked
 * "derived" so a reader knows no driver said it.
 */
#include "probe/probe.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"

#include <string.h>

/* The newest CUDA whose toolkit minimum a driver version meets; Windows
 * numbers (WSL2 reports the Windows driver) against windows_min. */
static bool
max_cuda(const char *driver, bool windows, char *out, size_t size)
{
	const struct kb_cuda_driver *rows;
	size_t n, i;

	out[0] = '\0';
	rows = kb_list_cuda_driver(&n);
	for (i = 0; i < n; i++) {
		const char *min = windows && rows[i].windows_min[0] ? rows[i].windows_min
								    : rows[i].linux_min;
		if (min[0] && vers_cmp(driver, min) >= 0 && (!out[0] || vers_cmp(rows[i].cuda, out) > 0))
			str_copy(out, size, rows[i].cuda);
	}
	return out[0] != '\0';
}

void
facts_derive(struct facts *f)
{
	struct driver_facts *d = &f->driver;
	const char *drv = d->version[0] ? d->version : f->kmod.nvidia_version;
	int v[2];

	if (d->cuda_version[0]) {
		if (!d->cuda_version_source[0])
			STR_COPY(d->cuda_version_source, d->cuda_driver_version > 0 ? "driver" : "nvml");
		return;
	}
	if (d->cuda_driver_version > 0 || d->nvml_cuda_version > 0 || !drv[0] ||
	    vers_parse(drv, v, 2) != 2)
		return;
	if (max_cuda(drv, f->host.wsl, d->cuda_version, sizeof(d->cuda_version)))
		STR_COPY(d->cuda_version_source, "derived");
}
