build-dev/obj/src/serve/page.o: src/serve/page.c src/serve/serve.h \
 src/base/buf.h src/diag/finding.h src/facts.h src/monitor/session.h \
 src/monitor/alert.h src/monitor/monitor.h src/monitor/sample.h \
 src/sys/child.h src/base/str.h
src/serve/serve.h:
src/base/buf.h:
src/diag/finding.h:
src/facts.h:
src/monitor/session.h:
src/monitor/alert.h:
src/monitor/monitor.h:
src/monitor/sample.h:
src/sys/child.h:
src/base/str.h:
