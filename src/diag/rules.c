/*
 * rules.c - the ordered table of rules, and running them.
 */
#include "diag/rule.h"

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

void
rules_run(const struct facts *f, struct findings *out)
{
	const struct rule *r;

	for (r = rules; r->name; r++)
		r->check(f, out);
	findings_explain(out);
	findings_sort(out);
}
