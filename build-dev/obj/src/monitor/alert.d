build-dev/obj/src/monitor/alert.o: src/monitor/alert.c \
 src/monitor/alert.h src/monitor/monitor.h src/monitor/sample.h \
 src/sys/child.h src/base/str.h src/nvidia/nvml_api.h
src/monitor/alert.h:
src/monitor/monitor.h:
src/monitor/sample.h:
src/sys/child.h:
src/base/str.h:
src/nvidia/nvml_api.h:
