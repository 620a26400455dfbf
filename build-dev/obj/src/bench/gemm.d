build-dev/obj/src/bench/gemm.o: src/bench/gemm.c src/bench/cuda_load.h \
 src/bench/bench.h src/facts.h src/nvidia/cuda_api.h src/base/str.h \
 src/nvidia/cublaslt_api.h
src/bench/cuda_load.h:
src/bench/bench.h:
src/facts.h:
src/nvidia/cuda_api.h:
src/base/str.h:
src/nvidia/cublaslt_api.h:
