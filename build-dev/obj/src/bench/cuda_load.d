build-dev/obj/src/bench/cuda_load.o: src/bench/cuda_load.c \
 src/bench/cuda_load.h src/bench/bench.h src/facts.h \
 src/nvidia/cuda_api.h src/base/str.h
src/bench/cuda_load.h:
src/bench/bench.h:
src/facts.h:
src/nvidia/cuda_api.h:
src/base/str.h:
