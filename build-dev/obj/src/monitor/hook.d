build-dev/obj/src/monitor/hook.o: src/monitor/hook.c src/monitor/alert.h \
 src/monitor/monitor.h src/monitor/sample.h src/sys/child.h \
 src/base/clock.h src/base/str.h
src/monitor/alert.h:
src/monitor/monitor.h:
src/monitor/sample.h:
src/sys/child.h:
src/base/clock.h:
src/base/str.h:
