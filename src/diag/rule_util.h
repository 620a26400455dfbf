/*
 * rule_util.h - small helpers several rule files share: how a GPU is named
 * in a finding, and the newest CUDA the driver runs as the facts say it.
 */
#ifndef GPUDOCTOR_RULE_UTIL_H
#define GPUDOCTOR_RULE_UTIL_H

#include "facts.h"

#include <stddef.h>

/* "NVIDIA H200 (0000:00:06.0)", or by PCI ids when the name is unknown. */
void rule_gpu_label(const struct gpu_facts *g, char *out, size_t size);
/* The newest CUDA the driver runs, "12.2" (from cuDriverGetVersion, else
 * NVML); "" when unknown. */
void rule_driver_cuda(const struct facts *f, char *out, size_t size);

#endif
