build-dev/obj/src/cli/cmd_explain.o: src/cli/cmd_explain.c \
 src/cli/command.h src/diag/rule.h src/diag/finding.h src/facts.h \
 src/explain/explain.h src/explain/logread.h src/explain/codes.h \
 src/kb/kb.h src/explain/linememo.h src/explain/acmatch.h \
 src/explain/logfacts.h src/explain/here.h src/probe/probe.h \
 src/render/explain_render.h src/render/render.h src/render/facts_json.h
src/cli/command.h:
src/diag/rule.h:
src/diag/finding.h:
src/facts.h:
src/explain/explain.h:
src/explain/logread.h:
src/explain/codes.h:
src/kb/kb.h:
src/explain/linememo.h:
src/explain/acmatch.h:
src/explain/logfacts.h:
src/explain/here.h:
src/probe/probe.h:
src/render/explain_render.h:
src/render/render.h:
src/render/facts_json.h:
