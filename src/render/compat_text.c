/*
 * compat_text.c - `gpudoctor compat` answers for people. The answer is the
 * JSON object cmd_compat.c built (the same one --json prints); this file
 * only lays it out, one kind of answer per function, into memory; the
 * lines are then fitted into 80 columns (render/wrap.c: long lists and
 * sources wrap under their label).
 */
#include "render/compat_text.h"
#include "render/wrap.h"

#include <stdlib.h>
#include <string.h>

static const char *
s(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v ? v : "";
}

static const char *
or_dash(const char *v)
{
	return v && v[0] ? v : "-";
}

static void
python(FILE *out, json_t *o)
{
	json_t *p = json_object_get(o, "python");
	const char *lo = s(p, "min"), *hi = s(p, "max");

	if (lo[0] || hi[0])
		fprintf(out, "%s-%s", or_dash(lo), or_dash(hi));
	else
		fprintf(out, "?");
}

static void
list(FILE *out, json_t *a, const char *sep)
{
	size_t i;

	for (i = 0; i < json_array_size(a); i++)
		fprintf(out, "%s%s", i ? sep : "", json_string_value(json_array_get(a, i)));
	if (!json_array_size(a))
		fprintf(out, "none");
}

/* ---- one framework release ------------------------------------------------------ */

/* "targets": per official build, the compute capabilities it carries
 * machine code for, and PTX. */
static void
gpu_code_text(FILE *out, json_t *o)
{
	json_t *a = json_object_get(o, "gpu_code");
	size_t i;

	if (!json_array_size(a)) {
		fprintf(out, "  %-14snot in the knowledge base\n", "targets");
		return;
	}
	for (i = 0; i < json_array_size(a); i++) {
		json_t *c = json_array_get(a, i);
		json_t *ptx = json_object_get(c, "ptx");

		fprintf(out, "  %-14s%s CUDA %s: ", i ? "" : "targets", s(c, "platform"), s(c, "cuda"));
		list(out, json_object_get(c, "sass"), " ");
		if (json_array_size(ptx)) {
			fprintf(out, ", PTX ");
			list(out, ptx, " ");
		}
		fputc('\n', out);
	}
}

static void
tf_text(FILE *out, json_t *o)
{
	json_t *plats = json_object_get(o, "platforms"), *pins = json_object_get(o, "and_cuda");
	json_t *libs = json_object_get(o, "libraries");
	size_t i;

	fprintf(out, "TensorFlow %s\n", s(o, "version"));
	fprintf(out, "  %-14s", "Python");
	python(out, o);
	fputc('\n', out);
	for (i = 0; i < json_array_size(plats); i++) {
		json_t *p = json_array_get(plats, i);
		fprintf(out, "  %-7s %-6s", s(p, "platform"), s(p, "kind"));
		if (!strcmp(s(p, "kind"), "gpu"))
			fprintf(out, "CUDA %s, cuDNN %s, ", s(p, "cuda"), s(p, "cudnn"));
		fprintf(out, "Python ");
		python(out, p);
		if (s(p, "compiler")[0])
			fprintf(out, ", %s", s(p, "compiler"));
		fputc('\n', out);
	}
	fprintf(out, "  %-14s%s\n", "Windows GPU",
		json_is_true(json_object_get(o, "windows_native_gpu"))
			? "native (CUDA and cuDNN installed on Windows)"
			: "no native GPU support (last: 2.10): use WSL2, or TensorFlow 2.10");
	fprintf(out, "  %-14s%s\n", "CPU needs", s(o, "cpu_isa")[0] ? s(o, "cpu_isa") : "nothing special");
	if (json_is_true(json_object_get(o, "and_cuda_extra"))) {
		fprintf(out, "  %-14spip install 'tensorflow[and-cuda]==%s' brings CUDA from pip%s\n",
			"[and-cuda]", s(o, "version"), json_array_size(pins) ? ":" : "");
		for (i = 0; i < json_array_size(pins); i++) {
			json_t *p = json_array_get(pins, i);
			fprintf(out, "    %s%s\n", s(p, "package"), s(p, "requirement"));
		}
	} else {
		fprintf(out, "  %-14sno: install CUDA %s and cuDNN %s yourself\n", "[and-cuda]",
			or_dash(s(o, "cuda")), or_dash(s(o, "cudnn")));
	}
	if (json_array_size(libs)) {
		fprintf(out, "  %-14s", "loads");
		for (i = 0; i < json_array_size(libs); i++) {
			json_t *l = json_array_get(libs, i);
			fprintf(out, "%s%s", i ? (i % 3 ? ", " : ",\n                ") : "", s(l, "linux"));
			if (s(l, "windows")[0])
				fprintf(out, " (%s)", s(l, "windows"));
		}
		fputc('\n', out);
	}
	gpu_code_text(out, o);
	fprintf(out, "  %-14s%s\n", "source", s(o, "source"));
}

static void
torch_text(FILE *out, json_t *o)
{
	fprintf(out, "PyTorch %s\n  %-14s", s(o, "version"), "Python");
	python(out, o);
	fprintf(out, "\n  %-14s", "CUDA wheels");
	list(out, json_object_get(o, "cuda_variants"), ", ");
	if (s(o, "cuda_default")[0])
		fprintf(out, " (plain pip install: %s)", s(o, "cuda_default"));
	fputc('\n', out);
	gpu_code_text(out, o);
	fprintf(out, "  %-14s%s\n", "source", s(o, "source"));
}

static void
jax_text(FILE *out, json_t *o)
{
	fprintf(out, "JAX %s\n  %-14s", s(o, "version"), "Python");
	python(out, o);
	fprintf(out, "\n  %-14s", "CUDA plugins");
	list(out, json_object_get(o, "cuda_plugins"), ", ");
	fprintf(out, "\n  %-14sCUDA >= %s, cuDNN >= %s\n", "needs", or_dash(s(o, "cuda_min")),
		or_dash(s(o, "cudnn_min")));
	gpu_code_text(out, o);
	fprintf(out, "  %-14s%s\n", "source", s(o, "source"));
}

static void
releases_text(FILE *out, json_t *o)
{
	json_t *rel = json_object_get(o, "releases");
	const char *fw = s(o, "framework");
	size_t i;

	if (!strcmp(fw, "tensorflow"))
		fprintf(out, "%-10s %-11s %-7s %-7s %s\n", "release", "Python", "CUDA", "cuDNN", "native Windows GPU");
	else if (!strcmp(fw, "torch"))
		fprintf(out, "%-10s %-11s %s\n", "release", "Python", "CUDA wheels");
	else
		fprintf(out, "%-10s %-11s %-14s %s\n", "release", "Python", "CUDA plugins", "needs CUDA");
	for (i = 0; i < json_array_size(rel); i++) {
		json_t *r = json_array_get(rel, i);
		char py[24];
		json_t *p = json_object_get(r, "python");
		snprintf(py, sizeof(py), "%s-%s", or_dash(s(p, "min")), or_dash(s(p, "max")));
		fprintf(out, "%-10s %-11s ", s(r, "version"), py);
		if (!strcmp(fw, "tensorflow")) {
			fprintf(out, "%-7s %-7s %s\n", or_dash(s(r, "cuda")), or_dash(s(r, "cudnn")),
				json_is_true(json_object_get(r, "windows_native_gpu")) ? "yes" : "no");
		} else if (!strcmp(fw, "torch")) {
			list(out, json_object_get(r, "cuda_variants"), " ");
			fputc('\n', out);
		} else {
			char pl[48] = "";
			size_t k;
			json_t *a = json_object_get(r, "cuda_plugins");
			for (k = 0; k < json_array_size(a); k++)
				snprintf(pl + strlen(pl), sizeof(pl) - strlen(pl), "%s%s", k ? " " : "",
					 json_string_value(json_array_get(a, k)));
			fprintf(out, "%-14s %s\n", pl[0] ? pl : "none", or_dash(s(r, "cuda_min")));
		}
	}
}

/* ---- driver, GPU, CUDA ------------------------------------------------------------ */

static void
frameworks_text(FILE *out, json_t *fw, const char *why)
{
	json_t *tf = json_object_get(fw, "tensorflow"), *pt = json_object_get(fw, "torch");
	json_t *jx = json_object_get(fw, "jax");

	fprintf(out, "  newest releases %s:\n", why);
	if (json_is_object(tf))
		fprintf(out, "    %-12s%s (CUDA %s, cuDNN %s)\n", "tensorflow", s(tf, "version"), s(tf, "cuda"),
			s(tf, "cudnn"));
	else
		fprintf(out, "    %-12snone\n", "tensorflow");
	if (json_is_object(pt))
		fprintf(out, "    %-12s%s (CUDA %s wheel)\n", "torch", s(pt, "version"), s(pt, "cuda"));
	else
		fprintf(out, "    %-12snone\n", "torch");
	if (json_is_object(jx))
		fprintf(out, "    %-12s%s (needs CUDA %s)\n", "jax", s(jx, "version"), or_dash(s(jx, "cuda_min")));
	else
		fprintf(out, "    %-12snone\n", "jax");
}

/* The newest release of each framework that runs on a GPU, and how. */
static void
gpu_frameworks_text(FILE *out, json_t *fw)
{
	static const char *const names[] = {"tensorflow", "torch", "jax"};
	size_t i;

	fprintf(out, "  newest releases that run on it (with a driver that supports it):\n");
	for (i = 0; i < 3; i++) {
		json_t *x = json_object_get(fw, names[i]);
		const char *how;

		if (!json_is_object(x)) {
			fprintf(out, "    %-12snone\n", names[i]);
			continue;
		}
		fprintf(out, "    %-12s%s", names[i], s(x, "version"));
		if (i == 0)
			fprintf(out, " (CUDA %s, cuDNN %s)", s(x, "cuda"), s(x, "cudnn"));
		else if (i == 1)
			fprintf(out, " (CUDA %s wheel)", s(x, "variant"));
		else
			fprintf(out, " (%s plugin, needs CUDA %s)", s(x, "variant"), or_dash(s(x, "cuda_min")));
		how = s(x, "runs");
		if (!strcmp(how, "native"))
			fprintf(out, ": %s machine code\n", s(x, "via"));
		else if (!strcmp(how, "jit"))
			fprintf(out, ": only from %s PTX, JIT-compiled at first start\n", s(x, "via"));
		else
			fprintf(out, ": its GPU code is not in the knowledge base\n");
	}
}

static void
driver_text(FILE *out, json_t *o)
{
	fprintf(out, "NVIDIA driver %s\n", s(o, "driver"));
	fprintf(out, "  runs CUDA up to %s (by each toolkit's own minimum driver)\n", s(o, "max_cuda"));
	if (s(o, "max_cuda_minor_compat")[0])
		fprintf(out, "  with minor-version compatibility, CUDA %s applications too (no PTX JIT)\n",
			s(o, "max_cuda_minor_compat"));
	frameworks_text(out, json_object_get(o, "frameworks"), "built for CUDA it runs");
}

static void
gpu_text(FILE *out, json_t *o)
{
	json_t *peak = json_object_get(o, "peak"), *others = json_object_get(o, "other_device_ids");
	json_t *mem = json_object_get(o, "memory_mib");

	fprintf(out, "%s [10de:%s]\n", s(o, "name"), s(o, "device_id") + 2);
	fprintf(out, "  %-14s%s, compute capability %s, %s\n", "architecture", s(o, "architecture"),
		s(o, "compute_capability"), s(o, "segment"));
	if (json_is_integer(mem))
		fprintf(out, "  %-14s%lld MiB\n", "memory", (long long)json_integer_value(mem));
	if (s(peak, "fp32_tflops")[0])
		fprintf(out, "  %-14sFP32 %s TFLOP/s, FP16/BF16 tensor %s TFLOP/s, %s GB/s\n", "peak",
			s(peak, "fp32_tflops"), or_dash(s(peak, "fp16_tensor_tflops")), or_dash(s(peak, "mem_bw_gbs")));
	if (s(o, "cuda_min")[0])
		fprintf(out, "  %-14sfrom %s%s%s\n", "CUDA", s(o, "cuda_min"),
			s(o, "cuda_max")[0] ? " to " : " on (still supported)", s(o, "cuda_max"));
	else
		fprintf(out, "  %-14s%s%s\n", "CUDA", s(o, "cuda_max")[0] ? "up to " : "still supported",
			s(o, "cuda_max"));
	if (s(o, "driver_last_branch")[0])
		fprintf(out, "  %-14sthe %s branch is the last that supports it\n", "driver",
			s(o, "driver_last_branch"));
	if (json_is_true(json_object_get(o, "tegra")))
		fprintf(out, "  %-14sintegrated (Tegra): machine code runs only if built for exactly %s\n",
			"code", s(o, "compute_capability"));
	gpu_frameworks_text(out, json_object_get(o, "frameworks"));
	if (json_array_size(others)) {
		fprintf(out, "  %-14s", "also PCI ids");
		list(out, others, ", ");
		fputc('\n', out);
	}
}

static void
cuda_text(FILE *out, json_t *o)
{
	json_t *d = json_object_get(o, "min_driver"), *fw = json_object_get(o, "frameworks");
	json_t *tf = json_object_get(fw, "tensorflow");
	size_t i;

	fprintf(out, "CUDA %s\n", s(o, "cuda"));
	fprintf(out, "  %-14sLinux >= %s", "driver", or_dash(s(d, "linux")));
	if (s(d, "linux_minor_compat")[0])
		fprintf(out, " (>= %s with minor-version compatibility)", s(d, "linux_minor_compat"));
	fprintf(out, "\n  %-14sWindows >= %s", "", or_dash(s(d, "windows")));
	if (s(d, "windows_minor_compat")[0])
		fprintf(out, " (>= %s with minor-version compatibility)", s(d, "windows_minor_compat"));
	if (s(o, "ptx_isa")[0])
		fprintf(out, "\n  %-14s%s: a driver for it JIT-compiles PTX up to this version", "PTX ISA",
			s(o, "ptx_isa"));
	fprintf(out, "\n  %-14s", "cuDNN");
	list(out, json_object_get(o, "cudnn"), ", ");
	fprintf(out, "\n  %-14s", "tensorflow");
	for (i = 0; i < json_array_size(tf); i++)
		fprintf(out, "%s%s", i ? ", " : "", s(json_array_get(tf, i), "version"));
	if (!json_array_size(tf))
		fprintf(out, "none");
	fprintf(out, "\n  %-14s", "torch");
	list(out, json_object_get(fw, "torch"), ", ");
	fprintf(out, "\n  %-14s", "jax");
	list(out, json_object_get(fw, "jax"), ", ");
	fprintf(out, "\n  %-14s%s\n", "source", s(o, "source"));
}

static void
kb_info_text(FILE *out, json_t *o)
{
	json_t *t = json_object_get(o, "tables");
	size_t i;

	fprintf(out, "%-22s %6s  %-14s %s\n", "table", "rows", "newest", "from");
	for (i = 0; i < json_array_size(t); i++) {
		json_t *r = json_array_get(t, i);
		fprintf(out, "%-22s %6lld  %-14s %s\n", s(r, "file"),
			(long long)json_integer_value(json_object_get(r, "rows")), or_dash(s(r, "newest")),
			s(r, "from"));
	}
}

static int
layout(FILE *out, json_t *answer)
{
	const char *fw = s(answer, "framework");

	if (json_object_get(answer, "releases"))
		releases_text(out, answer);
	else if (!strcmp(fw, "tensorflow"))
		tf_text(out, answer);
	else if (!strcmp(fw, "torch"))
		torch_text(out, answer);
	else if (!strcmp(fw, "jax"))
		jax_text(out, answer);
	else if (json_object_get(answer, "driver"))
		driver_text(out, answer);
	else if (json_object_get(answer, "device_id"))
		gpu_text(out, answer);
	else if (json_object_get(answer, "min_driver"))
		cuda_text(out, answer);
	else if (json_object_get(answer, "tables"))
		kb_info_text(out, answer);
	else
		return -1;
	return ferror(out) ? -1 : 0;
}

int
compat_render_text(FILE *out, json_t *answer, bool color)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int rc;

	(void)color;
	if (!mem)
		return -1;
	rc = layout(mem, answer);
	if (fclose(mem) != 0)
		rc = -1;
	if (rc == 0 && text)
		wrap_fit(out, 80, text);
	free(text);
	return rc == 0 && !ferror(out) ? 0 : -1;
}
