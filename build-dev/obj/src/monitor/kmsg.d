build-dev/obj/src/monitor/kmsg.o: src/monitor/kmsg.c \
 src/monitor/monitor.h src/monitor/sample.h src/sys/child.h \
 src/base/clean.h src/base/str.h
src/monitor/monitor.h:
src/monitor/sample.h:
src/sys/child.h:
src/base/clean.h:
src/base/str.h:
