build-dev/obj/src/monitor/reasons.o: src/monitor/reasons.c \
 src/monitor/monitor.h src/monitor/sample.h src/sys/child.h \
 src/base/str.h
src/monitor/monitor.h:
src/monitor/sample.h:
src/sys/child.h:
src/base/str.h:
