build-dev/obj/src/bench/memory.o: src/bench/memory.c \
 src/bench/cuda_load.h src/bench/bench.h src/facts.h \
 src/nvidia/cuda_api.h src/base/clock.h src/base/str.h
src/bench/cuda_load.h:
src/bench/bench.h:
src/facts.h:
src/nvidia/cuda_api.h:
src/base/clock.h:
src/base/str.h:
