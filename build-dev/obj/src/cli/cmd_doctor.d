build-dev/obj/src/cli/cmd_doctor.o: src/cli/cmd_doctor.c \
 src/cli/command.h src/diag/rule.h src/diag/finding.h src/facts.h \
 src/kb/kb.h src/probe/probe.h src/render/facts_json.h \
 src/render/render.h
src/cli/command.h:
src/diag/rule.h:
src/diag/finding.h:
src/facts.h:
src/kb/kb.h:
src/probe/probe.h:
src/render/facts_json.h:
src/render/render.h:
