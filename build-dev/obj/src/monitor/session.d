build-dev/obj/src/monitor/session.o: src/monitor/session.c \
 src/monitor/session.h src/monitor/alert.h src/monitor/monitor.h \
 src/monitor/sample.h src/sys/child.h src/base/clean.h src/base/str.h \
 src/base/xalloc.h
src/monitor/session.h:
src/monitor/alert.h:
src/monitor/monitor.h:
src/monitor/sample.h:
src/sys/child.h:
src/base/clean.h:
src/base/str.h:
src/base/xalloc.h:
