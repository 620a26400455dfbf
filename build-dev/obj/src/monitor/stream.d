build-dev/obj/src/monitor/stream.o: src/monitor/stream.c \
 src/monitor/monitor.h src/monitor/sample.h src/sys/child.h \
 src/base/clock.h src/base/str.h src/base/xalloc.h
src/monitor/monitor.h:
src/monitor/sample.h:
src/sys/child.h:
src/base/clock.h:
src/base/str.h:
src/base/xalloc.h:
