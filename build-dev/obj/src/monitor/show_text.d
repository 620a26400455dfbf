build-dev/obj/src/monitor/show_text.o: src/monitor/show_text.c \
 src/monitor/session.h src/monitor/alert.h src/monitor/monitor.h \
 src/monitor/sample.h src/sys/child.h src/base/str.h
src/monitor/session.h:
src/monitor/alert.h:
src/monitor/monitor.h:
src/monitor/sample.h:
src/sys/child.h:
src/base/str.h:
