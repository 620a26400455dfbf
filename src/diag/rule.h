/*
 * rule.h - a rule reads facts (and the knowledge base) and adds findings.
 *
 * Rules are pure: they never touch the machine, so each one can be tested
 * with a hand-built struct facts. To add one: write rule_<layer>.c with a
 * `void rule_<name>(const struct facts *, struct findings *)` function,
 * declare it below, and add a row to the table in rules.c.
 */
#ifndef GPUDOCTOR_RULE_H
#define GPUDOCTOR_RULE_H

#include "diag/finding.h"
#include "facts.h"

struct rule {
	const char *name;
	void (*check)(const struct facts *f, struct findings *out);
	unsigned needs; /* FACTS_PART_*: the parts whose emptiness it reads as
	                   "absent"; not run when one is unknown (--from) */
};

/* hw.low_vram: a GPU with less memory in all than this, as the driver or
 * a framework reports it (a little under the card's nominal size: a 4 GiB
 * card reports about 3.8 GiB), is too small for most models. rule_hw.c;
 * explain reads it from a log's out-of-memory error (rank.c, stated.c). */
#define HW_LOW_VRAM_MIB 3840

/* The ordered rule table, NULL-terminated name. */
extern const struct rule rules[];

/* Run every rule and sort the findings for reporting. */
void rules_run(const struct facts *f, struct findings *out);

/* host.windows_native_tf_gpu for one environment: TensorFlow 2.11 or
 * newer in a native Windows Python (rule_host.c). */
void rule_windows_tf_env(const struct facts *f, const struct python_env_facts *e,
			 struct findings *out);

/* The rules whose facts a log can state (explain, explain/logfacts.h):
 * each framework of environment e against the driver, the GPUs and its
 * Python; what is not stated is unknown and fires nothing. */
void rules_run_stated(const struct facts *f, const struct python_env_facts *e,
		      struct findings *out);

/* rule_host.c */
void rule_host(const struct facts *f, struct findings *out);
/* rule_hw.c */
void rule_hw(const struct facts *f, struct findings *out);
/* rule_kmod.c */
void rule_kmod(const struct facts *f, struct findings *out);
/* rule_driver.c */
void rule_driver(const struct facts *f, struct findings *out);
/* rule_libs.c */
void rule_libs(const struct facts *f, struct findings *out);
/* rule_env.c */
void rule_env(const struct facts *f, struct findings *out);
/* rule_fw.c: per Python environment, its frameworks and the CUDA libraries
 * they would load */
void rule_fw(const struct facts *f, struct findings *out);
/* rule_mem.c */
void rule_mem(const struct facts *f, struct findings *out);

#endif
