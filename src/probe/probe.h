/*
 * probe.h - probes read the machine (under the sysroot) and fill one part of
 * struct facts each. They never judge; a probe that cannot establish
 * something records why (facts_note) and leaves the field unknown.
 *
 * Slow probes that load vendor code (libcuda, NVML, the CUDA libraries'
 * version calls) run in forked children: they are started first with
 * *_start() and collected with *_finish() after the file probes ran, so
 * doctor costs little more than cuInit alone.
 *
 * To add a probe: write probe/<name>.c with `void probe_<name>(struct facts *,
 * const struct probe_opts *)`, declare it below, add a row to the table in
 * probe.c.
 */
#ifndef GPUDOCTOR_PROBE_H
#define GPUDOCTOR_PROBE_H

#include "facts.h"

#include <stdbool.h>
#include <stddef.h>

struct probe_opts {
	int timeout_ms;          /* for each child; default 5000 */
	bool no_driver_calls;    /* --no-load: never dlopen vendor code */
	const char *no_load_why; /* what no_driver_calls says in the facts' notes; NULL "--no-load" */
	bool load_root;          /* --load-root: load the libraries found under --root */
	char *extra_pythons[8];  /* --python PATH: an interpreter or a prefix */
	int nextra_pythons;
	bool deep;               /* --deep: ask each framework itself (deep.c) */
};

struct probe {
	const char *name;
	void (*run)(struct facts *f, const struct probe_opts *o);
};

extern const struct probe probes[];

/* Run everything: start the children, run the file probes, collect. */
void probe_all(struct facts *f, const struct probe_opts *o);

void probe_host(struct facts *f, const struct probe_opts *o);     /* host.c */
void probe_pci(struct facts *f, const struct probe_opts *o);      /* pci.c */
/* pci.c: a PCI bus id in sysfs form, "0000:06:00.0", from NVML's
 * "00000000:06:00.0" or CUDA's "0000:06:00.0", any case; false (out = the
 * input lower-cased) when it does not parse. */
bool pci_bus_norm(const char *in, char *out, size_t size);
void probe_kmod(struct facts *f, const struct probe_opts *o);     /* kmod.c */
void probe_devnodes(struct facts *f, const struct probe_opts *o); /* devnodes.c */
void probe_driverlibs(struct facts *f, const struct probe_opts *o); /* driverlibs.c */
void probe_libs(struct facts *f, const struct probe_opts *o);     /* libs.c */
void probe_env(struct facts *f, const struct probe_opts *o);      /* env.c */
void probe_procs(struct facts *f, const struct probe_opts *o);    /* procs.c: liveness of GPU processes */
void probe_frameworks(struct facts *f, const struct probe_opts *o); /* frameworks.c: after pyenv and libs */
void probe_python(struct facts *f, const struct probe_opts *o);   /* pyenv.c: environments, GPU packages */
/* deep.c: with --deep, after frameworks: import each framework in its own
 * interpreter (a child each, in parallel, limit max(timeout, 60 s)) and
 * fill frameworks[].live. Runs nothing unless the root is "/". */
void probe_deep(struct facts *f, const struct probe_opts *o);
/* The same with an explicit limit per child (tests). */
void probe_deep_limit(struct facts *f, const struct probe_opts *o, int timeout_ms);

/* derive.c: facts that follow from others through the knowledge base when
 * the machine could not be asked (the driver's CUDA from its version),
 * marked "derived". After probing, and after loading a facts document. */
void facts_derive(struct facts *f);

/* driver.c: libcuda + NVML in one child. start() after probe_driverlibs
 * has found the libraries; finish() fills facts->driver and the GPUs. */
struct driver_job;
struct driver_job *driver_probe_start(struct facts *f, const struct probe_opts *o);
void driver_probe_finish(struct driver_job *job, struct facts *f);

/* libver.c: the CUDA libraries' own version calls, in a child. */
struct libver_job;
struct libver_job *libver_probe_start(struct facts *f, const struct probe_opts *o);
void libver_probe_finish(struct libver_job *job, struct facts *f);

#endif
