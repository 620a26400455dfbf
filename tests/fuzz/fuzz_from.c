/*
 * fuzz_facts_json.c - libFuzzer harness for the facts reader
 * (src/render/facts_json.c): the input is the JSON text `doctor --from`
 * reads. A document that loads then goes where `doctor --from` sends it:
 * every rule, the text and JSON renderers (to /dev/null), and a write and
 * read back that must load again.
 */
#include "diag/finding.h"
#include "diag/rule.h"
#include "facts.h"
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
	struct render_opts ro = {.width = 80, .verbose = true};
	struct findings fs;
	char err[256];
	json_t *doc, *again;

	doc = json_loadb((const char *)data, size, 0, NULL);
	if (!doc)
		return 0;
	facts_init(&f);
	if (facts_from_json(doc, &f, err, sizeof(err)) < 0) {
		if (!memchr(err, '\0', sizeof(err)) || !err[0])
			abort();
		json_decref(doc);
		return 0;
	}
	json_decref(doc);

	findings_init(&fs);
	rules_run(&f, &fs);
	render_text(devnull, &f, &fs, &ro);
	ro.verbose = false;
	ro.color = true;
	render_text(devnull, &f, &fs, &ro);
	render_json(devnull, &f, &fs);

	again = facts_to_json(&f, &fs);
	facts_init(&back);
	if (facts_from_json(again, &back, err, sizeof(err)) < 0)
		abort();
	json_decref(again);
	findings_release(&fs);
	return 0;
}
