build-dev/obj/src/cli/cmd_plan.o: src/cli/cmd_plan.c src/cli/command.h \
 src/base/buf.h src/base/str.h src/base/vers.h src/diag/fix.h src/facts.h \
 src/diag/rule.h src/diag/finding.h src/kb/kb.h src/kb/kb_query.h \
 src/plan/plan.h src/probe/probe.h src/probe/pyver.h \
 src/render/plan_text.h src/render/facts_json.h src/render/render.h
src/cli/command.h:
src/base/buf.h:
src/base/str.h:
src/base/vers.h:
src/diag/fix.h:
src/facts.h:
src/diag/rule.h:
src/diag/finding.h:
src/kb/kb.h:
src/kb/kb_query.h:
src/plan/plan.h:
src/probe/probe.h:
src/probe/pyver.h:
src/render/plan_text.h:
src/render/facts_json.h:
src/render/render.h:
