/*
 * libver.c - the CUDA libraries' own version calls, in a child
 * (libver_probe_start / libver_probe_finish).
 *
 * Only libraries whose files did not already give a version as exact as the
 * call would (three components; two for cudart, NVRTC and nvJitLink) are
 * loaded, so on a machine with dist-info or versioned file names this costs
 * nothing. Loading is not free: measured warm on a CUDA 13.0 machine,
 * dlopen of libcublas.so.13 takes ~120 ms (it pulls in the 541 MB
 * libcublasLt), libcusolver ~80 ms, cudart/cuDNN/NCCL/cuRAND ~1 ms. Only
 * real ELF shared objects for this machine are loaded, and only those that
 * nobody but root and the caller can change (sys/trust.h: a library in
 * another user's environment would run its code as the caller, root
 * included); under a fixture root (--load-root) the root-prefixed file is
 * loaded, and anything else is skipped. A crash
 * or a timeout of the child loses the call-based versions only (a note
 * says so). The entry points are declared here (NVIDIA's documented
 * signatures), never taken from CUDA headers.
 */
#include "probe/probe.h"
#include "base/str.h"
#include "base/vers.h"
#include "base/xalloc.h"
#include "sys/child.h"
#include "sys/elf.h"
#include "sys/root.h"
#include "sys/trust.h"

#include <dlfcn.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum call_kind {
	CALL_CUDART,     /* int cudaRuntimeGetVersion(int *) */
	CALL_CUDNN,      /* size_t cudnnGetVersion(void) */
	CALL_PROPERTY,   /* int xGetProperty(int type, int *value): 0 major, 1 minor, 2 patch */
	CALL_NCCL,       /* int ncclGetVersion(int *) */
	CALL_NVRTC,      /* int nvrtcVersion(int *major, int *minor) */
	CALL_NVJITLINK,  /* int nvJitLinkVersion(unsigned *major, unsigned *minor) */
	CALL_TENSORRT,   /* int32_t getInferLibVersion(void) */
};

static const struct call {
	const char *name;        /* lib_facts.name */
	int kind;
	const char *sym;
	int precision;           /* components the call gives */
} calls[] = {
	{"cudart", CALL_CUDART, "cudaRuntimeGetVersion", 2},
	{"cudnn", CALL_CUDNN, "cudnnGetVersion", 3},
	{"cudnn_graph", CALL_CUDNN, "cudnnGetVersion", 3},
	{"cublas", CALL_PROPERTY, "cublasGetProperty", 3},
	{"cublasLt", CALL_PROPERTY, "cublasLtGetProperty", 3},
	{"cufft", CALL_PROPERTY, "cufftGetProperty", 3},
	{"curand", CALL_PROPERTY, "curandGetProperty", 3},
	{"cusolver", CALL_PROPERTY, "cusolverGetProperty", 3},
	{"cusparse", CALL_PROPERTY, "cusparseGetProperty", 3},
	{"nccl", CALL_NCCL, "ncclGetVersion", 3},
	{"nvrtc", CALL_NVRTC, "nvrtcVersion", 2},
	{"nvjitlink", CALL_NVJITLINK, "nvJitLinkVersion", 2},
	{"tensorrt", CALL_TENSORRT, "getInferLibVersion", 3},
};
#define NCALLS ((int)(sizeof(calls) / sizeof(calls[0])))

struct libver_req {
	int lib;                 /* index in facts->libs */
	const struct call *call;
	char load[PATH_MAX];     /* host path given to dlopen */
};

/* The child's answer: fixed size, one row per request. */
struct libver_answer {
	int n;
	struct {
		int lib;
		int ok;          /* 1 answered, 0 load/symbol/call failed */
		char version[32];
	} r[MAX_LIBS];
};

struct libver_job {
	int n;
	struct libver_req *req;
	struct child child;
	bool started;
};

typedef int (*int_ptr_fn)(int *);
typedef size_t (*size_void_fn)(void);
typedef int (*prop_fn)(int, int *);
typedef int (*two_int_fn)(int *, int *);
typedef int (*two_uint_fn)(unsigned *, unsigned *);
typedef int (*int_void_fn)(void);

/* Split a major*m1 + minor*m2 + patch code. */
static void
split3(long v, long m1, long m2, char *out, size_t size)
{
	str_fmt(out, size, "%ld.%ld.%ld", v / m1, (v % m1) / m2, v % m2);
}

/* Call the version function; write "X.Y[.Z]" to out. 0 ok, -1 failed. */
static int
call_version(void *h, const struct call *c, char *out, size_t size)
{
	void *sym = dlsym(h, c->sym);
	int a = 0, b = 0, p = 0;

	if (!sym)
		return -1;
	switch (c->kind) {
	case CALL_CUDART:
		if (((int_ptr_fn)sym)(&a) != 0 || a <= 0)
			return -1;
		vers_from_cuda_int(a, out, size);
		return 0;
	case CALL_CUDNN: {
		size_t v = ((size_void_fn)sym)();
		if (v == 0 || v > 10000000)
			return -1;
		/* cuDNN 9: major*10000 + minor*100 + patch; before: major*1000 + ... */
		if (v >= 90000)
			split3((long)v, 10000, 100, out, size);
		else
			split3((long)v, 1000, 100, out, size);
		return 0;
	}
	case CALL_PROPERTY:
		if (((prop_fn)sym)(0, &a) != 0 || ((prop_fn)sym)(1, &b) != 0 ||
		    ((prop_fn)sym)(2, &p) != 0 || a <= 0 || b < 0 || p < 0)
			return -1;
		str_fmt(out, size, "%d.%d.%d", a, b, p);
		return 0;
	case CALL_NCCL:
		if (((int_ptr_fn)sym)(&a) != 0 || a <= 0)
			return -1;
		vers_from_nccl_code(a, out, size);
		return 0;
	case CALL_NVRTC:
		if (((two_int_fn)sym)(&a, &b) != 0 || a <= 0 || b < 0)
			return -1;
		str_fmt(out, size, "%d.%d", a, b);
		return 0;
	case CALL_NVJITLINK: {
		unsigned ua = 0, ub = 0;
		if (((two_uint_fn)sym)(&ua, &ub) != 0 || ua == 0 || ua > 1000 || ub > 1000)
			return -1;
		str_fmt(out, size, "%u.%u", ua, ub);
		return 0;
	}
	case CALL_TENSORRT:
		a = ((int_void_fn)sym)();
		if (a <= 0)
			return -1;
		/* TensorRT 10: major*10000 + minor*100 + patch; 8.x: major*1000 + ... */
		if (a >= 100000)
			split3(a, 10000, 100, out, size);
		else
			split3(a, 1000, 100, out, size);
		return 0;
	default:
		return -1;
	}
}

static void
libver_child(void *arg, int fd)
{
	struct libver_job *job = arg;
	struct libver_answer *a = xcalloc(1, sizeof(*a));
	int i;

	a->n = job->n;
	for (i = 0; i < job->n && i < MAX_LIBS; i++) {
		const struct libver_req *r = &job->req[i];
		void *h;

		a->r[i].lib = r->lib;
		h = dlopen(r->load, RTLD_LAZY | RTLD_LOCAL);
		if (!h)
			continue;
		if (call_version(h, r->call, a->r[i].version, sizeof(a->r[i].version)) == 0)
			a->r[i].ok = 1;
	}
	child_write(fd, a, sizeof(*a));
	free(a);
}

static const struct call *
call_for(const char *name)
{
	int i;

	for (i = 0; i < NCALLS; i++)
		if (strcmp(calls[i].name, name) == 0)
			return &calls[i];
	return NULL;
}

static int
ncomp(const char *v)
{
	int tmp[8];

	return v && *v ? vers_parse(v, tmp, 8) : 0;
}

struct libver_job *
libver_probe_start(struct facts *f, const struct probe_opts *o)
{
	struct libver_job *job;
	int i, timeout = o && o->timeout_ms > 0 ? o->timeout_ms : 5000;

	if (o && o->no_driver_calls) {
		facts_note(f, "libver", "no library loaded for its version (%s)",
			   o->no_load_why ? o->no_load_why : "--no-load");
		return NULL;
	}
	job = xcalloc(1, sizeof(*job));
	job->req = xcalloc(MAX_LIBS, sizeof(*job->req));
	for (i = 0; i < f->nlibs && job->n < MAX_LIBS; i++) {
		const struct lib_facts *l = &f->libs[i];
		const struct call *c = call_for(l->name);
		struct libver_req *r;
		struct elf_info info;
		char why[PATH_MAX + 96];

		if (!c || ncomp(l->version) >= c->precision || !l->real_path[0])
			continue;
		if (elf_read(l->real_path, &info) < 0 || !elf_is_native_lib(&info))
			continue;
		r = &job->req[job->n];
		root_path(l->real_path, r->load, sizeof(r->load));
		if (!trust_path(r->load, geteuid(), why, sizeof(why))) {
			facts_note(f, "libver", "not loaded, its code would run as you: %s; its version "
				   "is from its files", why);
			continue;
		}
		job->n++;
		r->lib = i;
		r->call = c;
	}
	if (job->n == 0)
		return job;
	if (child_start(&job->child, libver_child, job, timeout) < 0) {
		facts_note(f, "libver", "could not start a child for the library version calls");
		return job;
	}
	job->started = true;
	return job;
}

/* Take the library's own answer v for l: it refines or corrects the file
 * version; a less exact answer that agrees leaves the file version. */
static void
apply(struct facts *f, struct lib_facts *l, const char *v)
{
	int have[8], got[8], nh = vers_parse(l->version, have, 8), ng = vers_parse(v, got, 8);
	int i, n = nh < ng ? nh : ng;

	if (ng == 0)
		return;
	for (i = 0; i < n; i++)
		if (have[i] != got[i])
			break;
	if (i < n) {
		facts_note(f, "libver", "%s: the files say %s, the library itself %s", l->path,
			l->version, v);
	} else if (ng < nh) {
		return;
	}
	STR_COPY(l->version, v);
	STR_COPY(l->version_source, "call");
}

void
libver_probe_finish(struct libver_job *job, struct facts *f)
{
	struct libver_answer *a;
	struct child_result res;
	int i;

	if (!job)
		return;
	if (!job->started) {
		free(job->req);
		free(job);
		return;
	}
	a = xcalloc(1, sizeof(*a));
	if (child_finish(&job->child, a, sizeof(*a), &res) < 0) {
		if (res.state == CHILD_CRASHED)
			facts_note(f, "libver", "library version calls crashed (signal %d): versions from files only",
				res.signal);
		else if (res.state == CHILD_TIMEOUT)
			facts_note(f, "libver", "library version calls timed out after %.0f ms: versions from files only",
				res.ms);
		else
			facts_note(f, "libver", "library version calls failed: versions from files only");
		goto out;
	}
	for (i = 0; i < a->n && i < job->n && i < MAX_LIBS; i++) {
		int lib = a->r[i].lib;

		a->r[i].version[sizeof(a->r[i].version) - 1] = '\0';
		if (!a->r[i].ok || lib != job->req[i].lib || lib < 0 || lib >= f->nlibs)
			continue;
		apply(f, &f->libs[lib], a->r[i].version);
	}
out:
	free(a);
	free(job->req);
	free(job);
}
