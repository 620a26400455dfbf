/*
 * rules.c - the ordered table of rules, and running them.
 */
#include "diag/rule.h"

#include <string.h>

const struct rule rules[] = {
	{.name = "host", .check = rule_host},
	{.name = "hw", .check = rule_hw},
	{.name = "kmod", .check = rule_kmod},
	{.name = "driver", .check = rule_driver},
	{.name = "libs", .check = rule_libs},
	{.name = "fw", .check = rule_fw},
	{.name = "env", .check = rule_env},
	{.name = "mem", .check = rule_mem},
	{.name = NULL, .check = NULL},
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
		r->check(f, out);
	findings_explain(out);
	findings_sort(out);
	group_by_env(f, out);
}
