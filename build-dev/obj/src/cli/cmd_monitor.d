build-dev/obj/src/cli/cmd_monitor.o: src/cli/cmd_monitor.c \
 src/cli/command.h src/base/str.h src/monitor/session.h \
 src/monitor/alert.h src/monitor/monitor.h src/monitor/sample.h \
 src/sys/child.h src/probe/probe.h src/facts.h src/render/render.h \
 src/diag/finding.h src/sys/root.h src/sys/trust.h
src/cli/command.h:
src/base/str.h:
src/monitor/session.h:
src/monitor/alert.h:
src/monitor/monitor.h:
src/monitor/sample.h:
src/sys/child.h:
src/probe/probe.h:
src/facts.h:
src/render/render.h:
src/diag/finding.h:
src/sys/root.h:
src/sys/trust.h:
