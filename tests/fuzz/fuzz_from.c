/*
 * fuzz_from.c - libFuzzer harness for `--from FILE` (src/render/
 * facts_json.c): the input is the file's bytes, read through the same
 * limits and reader as `doctor --from` (facts_load_text). A document that
 * loads then goes where `doctor` and `plan` send it: every rule, the JSON
 * renderer, the cleaning of text for a terminal and the text renderer (to
 * /dev/null), the plan for each framework, and a write and read back that
 * must load again.
 */
#include "diag/finding.h"
#include "diag/rule.h"
#include "facts.h"
#include "plan/plan.h"
#include "render/facts_json.h"
#include "render/render.h"

#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct facts f, back;
	static struct plan p;
	struct render_opts ro = {.width = 80, .verbose = true};
	struct plan_machine m;
	struct findings fs;
	char err[256];
	json_t *again;
	int fw;

	facts_init(&f);
	if (facts_load_text((const char *)data, size, "fuzz", &f, err, sizeof(err)) < 0) {
		if (!memchr(err, '\0', sizeof(err)) || !err[0])
			abort();
		return 0;
	}

	findings_init(&fs);
	rules_run(&f, &fs);
	render_json(devnull, &f, &fs);
	again = facts_to_json(&f, &fs);

	plan_machine_from_facts(&f, &m);
	for (fw = PLAN_TF; fw <= PLAN_JAX; fw++)
		if (plan_make(&m, fw, NULL, &p) < 0)
			abort();

	facts_clean_text(&f);
	render_text(devnull, &f, &fs, &ro);
	ro.verbose = false;
	ro.color = true;
	render_text(devnull, &f, &fs, &ro);

	facts_init(&back);
	if (facts_from_json(again, &back, err, sizeof(err)) < 0)
		abort();
	json_decref(again);
	findings_release(&fs);
	return 0;
}
