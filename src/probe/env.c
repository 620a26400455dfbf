/*
 * env.c - the environment variables that decide what a framework sees
 * (CUDA_VISIBLE_DEVICES, LD_LIBRARY_PATH, TF_*, XLA_FLAGS, NCCL_*, ...) exactly as
 * this process has them, and each LD_LIBRARY_PATH directory: whether it
 * exists under the root, how many CUDA libraries it holds, and the CUDA
 * major of the libcudart there. Fills facts->env.
 *
 * An unset variable is set=false; an empty one is set=true with "". An
 * empty LD_LIBRARY_PATH entry means the current directory to ld.so and is
 * recorded as ".".
 */
#include "probe/probe.h"
#include "base/str.h"
#include "sys/root.h"

#include <stdlib.h>
#include <string.h>

#define LDPATH_LIST_MAX 4000 /* directory entries examined per directory */

static const char *const watched[] = {
	"CUDA_VISIBLE_DEVICES",
	"CUDA_DEVICE_ORDER",
	"LD_LIBRARY_PATH",
	"CUDA_HOME",
	"CUDA_PATH",
	"TF_FORCE_GPU_ALLOW_GROWTH",
	"TF_GPU_ALLOCATOR",
	"TF_CPP_MIN_LOG_LEVEL",
	"XLA_FLAGS",
	"PYTORCH_CUDA_ALLOC_CONF",
	"NVIDIA_VISIBLE_DEVICES",
	"NVIDIA_DRIVER_CAPABILITIES",
	"CONDA_PREFIX",
	"VIRTUAL_ENV",
	"NCCL_P2P_DISABLE",
	"NCCL_SHM_DISABLE",
	"NCCL_IB_DISABLE",
	"NCCL_NET_GDR_LEVEL",
	"NCCL_P2P_LEVEL",
	"NCCL_SOCKET_IFNAME",
	"NCCL_IB_HCA",
};

/* File-name prefixes of the CUDA libraries counted in a directory. */
static const char *const cuda_libs[] = {
	"libcudart",   "libcublas", "libcudnn", "libcufft",  "libcurand",
	"libcusolver", "libcusparse", "libnccl", "libnvrtc", "libnvJitLink",
};

static bool
is_cuda_lib(const char *name)
{
	size_t i;

	if (!strstr(name, ".so"))
		return false;
	for (i = 0; i < sizeof(cuda_libs) / sizeof(cuda_libs[0]); i++)
		if (str_starts(name, cuda_libs[i]))
			return true;
	return false;
}

/* "libcudart.so.12" or "libcudart.so.12.4.127" -> "12"; false otherwise. */
static bool
cudart_major(const char *name, char *out, size_t size)
{
	const char *p;
	size_t n;

	if (!str_starts(name, "libcudart.so."))
		return false;
	p = name + strlen("libcudart.so.");
	n = strspn(p, "0123456789");
	if (n == 0 || n > 3 || n >= size)
		return false;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

static void
scan_ldpath_dir(struct ldpath_dir_facts *d)
{
	char real[F_PATH], **names;
	int n, i;

	/* Relative entries are relative to the working directory, which is
	 * not under the root: only absolute ones are looked at. */
	if (d->dir[0] != '/' || root_realpath(d->dir, real, sizeof(real)) < 0 ||
	    !root_is_dir(real))
		return;
	d->exists = true;
	n = root_list(real, &names);
	for (i = 0; i < n && i < LDPATH_LIST_MAX; i++) {
		char major[8];

		if (!is_cuda_lib(names[i]))
			continue;
		d->ncuda_libs++;
		/* the highest major present wins: libcudart.so.12 beside .so.11 */
		if (cudart_major(names[i], major, sizeof(major)) &&
		    (!d->cuda_major[0] || atoi(major) > atoi(d->cuda_major)))
			STR_COPY(d->cuda_major, major);
	}
	root_free_list(names, n);
}

static void
split_ldpath(struct facts *f, const char *value)
{
	struct env_facts *e = &f->env;
	const char *p = value;

	e->nldpath = 0;
	for (;;) {
		size_t n = strcspn(p, ":");
		struct ldpath_dir_facts *d;

		if (e->nldpath >= MAX_LDPATH_DIRS) {
			facts_note(f, "env", "LD_LIBRARY_PATH has more than %d entries; the rest not examined",
				   MAX_LDPATH_DIRS);
			break;
		}
		d = &e->ldpath[e->nldpath++];
		memset(d, 0, sizeof(*d));
		if (n == 0)
			STR_COPY(d->dir, ".");
		else if (n < sizeof(d->dir)) {
			memcpy(d->dir, p, n);
			d->dir[n] = '\0';
		} else {
			/* too long to name exactly: record it cut, never scan it */
			memcpy(d->dir, p, sizeof(d->dir) - 1);
			d->dir[sizeof(d->dir) - 1] = '\0';
			p += n;
			if (!*p)
				break;
			p++;
			continue;
		}
		scan_ldpath_dir(d);
		p += n;
		if (!*p)
			break;
		p++;
	}
}

void
probe_env(struct facts *f, const struct probe_opts *o)
{
	struct env_facts *e = &f->env;
	const char *ld;
	size_t i;

	(void)o;
	e->nvars = 0;
	for (i = 0; i < sizeof(watched) / sizeof(watched[0]) && e->nvars < MAX_ENV; i++) {
		struct env_var_facts *v = &e->vars[e->nvars++];
		const char *val = getenv(watched[i]);

		memset(v, 0, sizeof(*v));
		STR_COPY(v->name, watched[i]);
		v->set = val != NULL;
		if (val) {
			STR_COPY(v->value, val);
			if (strlen(val) >= sizeof(v->value))
				facts_note(f, "env", "%s is longer than %zu bytes: recorded cut",
					   watched[i], sizeof(v->value) - 1);
		}
	}
	/* glibc ignores an empty LD_LIBRARY_PATH altogether */
	e->nldpath = 0;
	ld = getenv("LD_LIBRARY_PATH");
	if (ld && *ld)
		split_ldpath(f, ld);
}
