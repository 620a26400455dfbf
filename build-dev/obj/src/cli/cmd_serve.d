build-dev/obj/src/cli/cmd_serve.o: src/cli/cmd_serve.c src/cli/command.h \
 src/base/str.h src/diag/rule.h src/diag/finding.h src/facts.h \
 src/probe/probe.h src/render/facts_json.h src/serve/serve.h \
 src/base/buf.h src/monitor/session.h src/monitor/alert.h \
 src/monitor/monitor.h src/monitor/sample.h src/sys/child.h
src/cli/command.h:
src/base/str.h:
src/diag/rule.h:
src/diag/finding.h:
src/facts.h:
src/probe/probe.h:
src/render/facts_json.h:
src/serve/serve.h:
src/base/buf.h:
src/monitor/session.h:
src/monitor/alert.h:
src/monitor/monitor.h:
src/monitor/sample.h:
src/sys/child.h:
