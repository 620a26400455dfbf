build-dev/obj/src/cli/cmd_check.o: src/cli/cmd_check.c src/cli/command.h \
 src/base/clean.h src/base/str.h src/diag/rule.h src/diag/finding.h \
 src/facts.h src/monitor/session.h src/monitor/alert.h \
 src/monitor/monitor.h src/monitor/sample.h src/sys/child.h \
 src/probe/probe.h src/render/facts_json.h src/slurm/slurm.h
src/cli/command.h:
src/base/clean.h:
src/base/str.h:
src/diag/rule.h:
src/diag/finding.h:
src/facts.h:
src/monitor/session.h:
src/monitor/alert.h:
src/monitor/monitor.h:
src/monitor/sample.h:
src/sys/child.h:
src/probe/probe.h:
src/render/facts_json.h:
src/slurm/slurm.h:
