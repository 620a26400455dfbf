/*
 * fw_targets.h - the GPU code a framework's CUDA library carries
 * (fw_targets.c), for probe/frameworks.c.
 */
#ifndef GPUDOCTOR_FW_TARGETS_H
#define GPUDOCTOR_FW_TARGETS_H

#include "facts.h"

/* Fill fw->targets from the fat binaries of fw's CUDA libraries in
 * environment e; pkgdir is TensorFlow's package directory ("tensorflow",
 * or "tensorflow_core" in 1.15 and 2.0). Leaves targets.file "" when no
 * library carries any. */
void probe_fw_targets(const struct python_env_facts *e, struct framework_facts *fw,
		      const char *pkgdir);

#endif
