/*
 * t_wrap.c - which lines of a fix the reports print as commands to paste
 * (verbatim, split only with line continuations) and which as prose
 * (wrapped, blanks collapsed): render/wrap.c's wrap_is_command.
 */
#include "unit.h"

#include "render/wrap.h"

static void
commands_are_told_from_prose(void **state)
{
	static const char *const commands[] = {
		"nvidia-smi",
		"sudo dkms autoinstall   # rebuild the modules for the running kernel",
		"ip -br link   # the interfaces this machine has",
		"cmake -B build -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=native",
		"/opt/env/bin/python3 -c \"import torch\"",
		"set CUDA_PATH=C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4",
		"DataLoader(..., num_workers=0)   # to confirm",
		"# a comment on its own",
		"$ docker run --rm --gpus all ubuntu nvidia-smi",
		NULL,
	};
	static const char *const prose[] = {
		"Install the 470 legacy driver (e.g. nvidia-driver-470 on Ubuntu)",
		"Set DS_SKIP_CUDA_CHECK=1 only when the major versions already match",
		"or install the toolkit that matches the driver # not a command",
		"Replace it with a CUDA build for the machine's driver; on the machine, this names the command:",
		NULL,
	};
	int i;

	(void)state;
	for (i = 0; commands[i]; i++)
		if (!wrap_is_command(commands[i]))
			fail_msg("read as prose: %s", commands[i]);
	for (i = 0; prose[i]; i++)
		if (wrap_is_command(prose[i]))
			fail_msg("read as a command: %s", prose[i]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(commands_are_told_from_prose),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
