build-dev/obj/src/monitor/nvml_sampler.o: src/monitor/nvml_sampler.c \
 src/monitor/monitor.h src/monitor/sample.h src/sys/child.h \
 src/base/str.h src/kb/kb.h src/nvidia/nvml_api.h
src/monitor/monitor.h:
src/monitor/sample.h:
src/sys/child.h:
src/base/str.h:
src/kb/kb.h:
src/nvidia/nvml_api.h:
