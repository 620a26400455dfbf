/*
 * rules.c - the ordered table of rules, and running them.
 */
#include "diag/rule.h"
#include "diag/fw_common.h"

#include <string.h>

#define P_HOST FACTS_PART_HOST
#define P_GPUS FACTS_PART_GPUS
#define P_KMOD FACTS_PART_KMOD
#define P_DRIVER FACTS_PART_DRIVER
#define P_LIBS FACTS_PART_LIBS
#define P_ENV FACTS_PART_ENV
#define P_PROCS FACTS_PART_PROCS
#define P_PYTHON FACTS_PART_PYTHON

const struct rule rules[] = {
	{.name = "host", .check = rule_host, .needs = P_HOST | P_GPUS | P_KMOD | P_DRIVER | P_PYTHON},
	{.name = "hw", .check = rule_hw, .needs = P_HOST | P_GPUS | P_DRIVER | P_LIBS},
	{.name = "kmod", .check = rule_kmod, .needs = P_HOST | P_GPUS | P_KMOD | P_DRIVER},
	{.name = "driver", .check = rule_driver, .needs = P_HOST | P_GPUS | P_KMOD | P_DRIVER | P_LIBS},
	{.name = "libs", .check = rule_libs, .needs = P_HOST | P_DRIVER | P_LIBS | P_ENV},
	{.name = "fw", .check = rule_fw, .needs = P_HOST | P_GPUS | P_DRIVER | P_LIBS | P_ENV | P_PYTHON},
	{.name = "env", .check = rule_env, .needs = P_HOST | P_GPUS | P_DRIVER | P_LIBS | P_ENV | P_PROCS},
	{.name = "mem", .check = rule_mem, .needs = P_HOST | P_GPUS | P_PROCS},
	{.name = NULL, .check = NULL, .needs = 0},
};

/* Rank of the environment a finding concerns: machine-wide findings 0, then
 * the active environment, then the others in the order they were found. */
static int
env_rank(const struct facts *f, const struct finding *fi)
{
	int i, k = 2;

	if (!fi->env)
		return 0;
	for (i = 0; i < f->npython && i < MAX_PYENVS; i++) {
		if (!strcmp(f->python[i].path, fi->env))
			return f->python[i].active ? 1 : k + i;
	}
	return k + MAX_PYENVS;
}

/* Group the findings per environment, the machine-wide ones first and the
 * active environment next; within a group the layer order of
 * findings_sort stays (insertion sort: stable). */
static void
group_by_env(const struct facts *f, struct findings *out)
{
	size_t i, j;

	for (i = 1; i < out->n; i++) {
		struct finding t = out->v[i];
		int rt = env_rank(f, &t);
		for (j = i; j > 0 && env_rank(f, &out->v[j - 1]) > rt; j--)
			out->v[j] = out->v[j - 1];
		out->v[j] = t;
	}
}

void
rules_run(const struct facts *f, struct findings *out)
{
	const struct rule *r;

	for (r = rules; r->name; r++)
		if (!(r->needs & f->unknown_parts))
			r->check(f, out);
	findings_explain(out);
	findings_sort(out);
	group_by_env(f, out);
}

void
rules_run_stated(const struct facts *f, const struct python_env_facts *e, struct findings *out)
{
	int j;

	rule_windows_tf_env(f, e, out);
	fw_check_shared_packages(f, e, out);
	for (j = 0; j < e->nframeworks && j < MAX_FRAMEWORKS; j++) {
		const struct framework_facts *fw = &e->frameworks[j];

		fw_check_cpu_only(f, e, fw, out);
		fw_check_python(f, e, fw, out);
		fw_check_arch(f, e, fw, out);
		fw_check_driver(f, e, fw, out);
	}
	findings_explain(out);
	findings_sort(out);
}
