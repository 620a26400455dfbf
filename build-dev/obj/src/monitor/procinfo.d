build-dev/obj/src/monitor/procinfo.o: src/monitor/procinfo.c \
 src/monitor/monitor.h src/monitor/sample.h src/sys/child.h \
 src/base/clean.h src/base/str.h
src/monitor/monitor.h:
src/monitor/sample.h:
src/sys/child.h:
src/base/clean.h:
src/base/str.h:
