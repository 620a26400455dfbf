build-dev/obj/src/cli/cli_facts.o: src/cli/cli_facts.c src/cli/command.h \
 src/facts.h src/probe/probe.h src/render/facts_json.h src/diag/finding.h \
 src/base/str.h src/sys/root.h src/sys/trust.h
src/cli/command.h:
src/facts.h:
src/probe/probe.h:
src/render/facts_json.h:
src/diag/finding.h:
src/base/str.h:
src/sys/root.h:
src/sys/trust.h:
