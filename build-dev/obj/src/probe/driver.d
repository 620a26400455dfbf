build-dev/obj/src/probe/driver.o: src/probe/driver.c src/probe/probe.h \
 src/facts.h src/base/str.h src/base/vers.h src/base/xalloc.h src/kb/kb.h \
 src/nvidia/cuda_api.h src/nvidia/nvml_api.h src/sys/child.h \
 src/sys/root.h
src/probe/probe.h:
src/facts.h:
src/base/str.h:
src/base/vers.h:
src/base/xalloc.h:
src/kb/kb.h:
src/nvidia/cuda_api.h:
src/nvidia/nvml_api.h:
src/sys/child.h:
src/sys/root.h:
