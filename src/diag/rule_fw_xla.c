/*
 * rule_fw_xla.c - XLA's toolchain (TensorFlow, JAX): libdevice and ptxas
 * that XLA compiles its GPU kernels with.
 */
#include "diag/fw_common.h"
#include "diag/fix.h"
#include "diag/rule_util.h"
#include "base/buf.h"
#include "base/path.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"

#include <string.h>

/* ---- XLA's libdevice and ptxas ---------------------------------------------------------- */

/* The nvidia-cuda-nvcc wheel for CUDA major cm: CUDA 13 wheels dropped the
 * -cuNN suffix. */
static void
nvcc_wheel(int cm, char *out, size_t size)
{
	if (cm >= 13)
		str_fmt(out, size, "nvidia-cuda-nvcc==%d.*", cm);
	else
		str_fmt(out, size, "nvidia-cuda-nvcc-cu%d", cm > 0 ? cm : 12);
}

static void
xla_where(struct finding *fd)
{
	finding_evidence(fd, "looked in: XLA_FLAGS --xla_gpu_cuda_data_dir, <site-packages>/nvidia/cuda_nvcc, "
			     "<site-packages>/triton/backends/nvidia/bin, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, "
			     "/usr/local/cuda-*, PATH");
}

static void
xla_fix(struct finding *fd, const struct python_env_facts *e, const struct framework_facts *fw,
	const char *what)
{
	char spec[48];
	struct buf b;

	nvcc_wheel(fw_major_of(fw->built_cuda), spec, sizeof(spec));
	buf_init(&b);
	buf_addf(&b, "Install %s into the environment:\n", what);
	fw_add_pip(&b, e);
	buf_adds(&b, "install ");
	buf_add_shquoted(&b, spec);
	buf_addf(&b, "\nor point XLA at an installed CUDA %s toolkit:\n"
		     "export XLA_FLAGS=--xla_gpu_cuda_data_dir=/usr/local/cuda-%s\n",
		 fw->built_cuda[0] ? fw->built_cuda : "", fw->built_cuda[0] ? fw->built_cuda : "X.Y");
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* XLA (TensorFlow, JAX) compiles its GPU kernels itself: LLVM links
 * libdevice.10.bc and ptxas turns the PTX into machine code. */
void
fw_check_xla_toolchain(const struct python_env_facts *e, const struct framework_facts *fw,
		    struct findings *out)
{
	bool jax = !strcmp(fw->name, "jax");
	struct finding *fd;
	char title[F_TEXT];
	int bv[2], pv[2], nb, np;

	if (fw->cuda_build != 1 || (!jax && strcmp(fw->name, "tensorflow")))
		return;
	if (!fw->libdevice[0]) {
		STR_FMT(title, "%s %s cannot find libdevice (nvvm/libdevice/libdevice.10.bc) for XLA", fw->name,
			fw->version);
		fd = fw_finding(out, e, fw, "lib.libdevice_missing", jax ? SEV_ERROR : SEV_WARN, title);
		finding_evidence(fd, jax ? "JAX fails every GPU computation without it"
					 : "TensorFlow falls back from XLA-compiled kernels (jit_compile, some fused ops)");
		xla_where(fd);
		xla_fix(fd, e, fw, "the CUDA compiler wheel (libdevice and ptxas)");
	}
	if (!fw->ptxas[0]) {
		STR_FMT(title, "%s %s: no ptxas found for XLA's GPU compiler", fw->name, fw->version);
		fd = fw_finding(out, e, fw, "lib.ptxas_missing", SEV_WARN, title);
		xla_where(fd);
		xla_fix(fd, e, fw, "ptxas (the CUDA compiler wheel)");
		return;
	}
	nb = vers_parse(fw->built_cuda, bv, 2);
	np = fw->ptxas_version[0] ? vers_parse(fw->ptxas_version, pv, 2) : 0;
	if (nb < 1 || np < 1 || !(pv[0] < bv[0] || (nb == 2 && np == 2 && pv[0] == bv[0] && pv[1] < bv[1])))
		return;
	STR_FMT(title, "ptxas %s cannot compile for CUDA %s PTX (%s %s)", fw->ptxas_version, fw->built_cuda,
		fw->name, fw->version);
	fd = fw_finding(out, e, fw, "lib.ptxas_missing", SEV_WARN, title);
	finding_evidence(fd, "ptxas %s (CUDA %s); %s was built with CUDA %s", fw->ptxas, fw->ptxas_version,
			 fw->name, fw->built_cuda);
	xla_fix(fd, e, fw, "a ptxas at least as new as the build's CUDA");
}
