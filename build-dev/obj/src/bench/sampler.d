build-dev/obj/src/bench/sampler.o: src/bench/sampler.c \
 src/bench/cuda_load.h src/bench/bench.h src/facts.h \
 src/nvidia/cuda_api.h src/base/xalloc.h src/nvidia/nvml_api.h
src/bench/cuda_load.h:
src/bench/bench.h:
src/facts.h:
src/nvidia/cuda_api.h:
src/base/xalloc.h:
src/nvidia/nvml_api.h:
