/*
 * cuinit_floor.c - the floor doctor is measured against: a bare process that
 * loads libcuda.so.1 and calls cuInit(0), nothing else. bench/doctor.sh
 * times it beside `gpudoctor doctor` in the same run.
 * Exit status: 0 cuInit succeeded, 1 it failed, 2 libcuda could not be loaded.
 */
#include <dlfcn.h>
#include <stdio.h>

int
main(void)
{
	int (*cu_init)(unsigned);
	void *h = dlopen("libcuda.so.1", RTLD_NOW);

	if (!h) {
		fprintf(stderr, "cuinit_floor: %s\n", dlerror());
		return 2;
	}
	*(void **)&cu_init = dlsym(h, "cuInit");
	if (!cu_init)
		return 2;
	return cu_init(0) == 0 ? 0 : 1;
}
