/*
 * fuzz_explain.c - libFuzzer harness for `explain` (src/explain/): the
 * input is a log, any bytes. It is read through the line reader, matched,
 * ranked, and written by both renderers (to /dev/null); the matcher is
 * built once, as each `explain` run builds it once.
 */
#include "explain/explain.h"
#include "explain/logread.h"
#include "render/explain_render.h"

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
	struct render_opts ro = {.width = 80};
	struct explain x;
	struct logread r;
	char err[256];

	if (explain_init(&x, err, sizeof(err)) < 0)
		abort();
	logread_init_mem(&r, (const char *)data, size);
	if (explain_stream(&x, &r) < 0)
		abort();
	logread_release(&r);
	explain_finish(&x);
	explain_render_text(devnull, &x, "fuzz", NULL, &ro);
	explain_render_json(devnull, &x, "fuzz", NULL);
	explain_release(&x);
	return 0;
}
