/*
 * fuzz_explain.c - libFuzzer harness for `explain` (src/explain/): the
 * input is a log, any bytes. It is read through the line reader, matched,
 * ranked, and written by both renderers (to /dev/null). The matcher is
 * built once per process and reset between inputs (explain_reset), so the
 * fuzzer spends its time on the log, not on building the table.
 */
#include "explain/explain.h"
#include "explain/logread.h"
#include "render/explain_render.h"

#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;
static struct explain x;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[256];

	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull || explain_init(&x, err, sizeof(err)) < 0)
		abort();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct render_opts ro = {.width = 80};
	struct logread r;

	explain_reset(&x);
	logread_init_mem(&r, (const char *)data, size);
	if (explain_stream(&x, &r) < 0)
		abort();
	logread_release(&r);
	explain_finish(&x);
	explain_render_text(devnull, &x, "fuzz", NULL, &ro);
	explain_render_json(devnull, &x, "fuzz", NULL);
	return 0;
}
