build-dev/obj/src/explain/here.o: src/explain/here.c src/explain/here.h \
 src/diag/finding.h src/explain/explain.h src/explain/logread.h \
 src/explain/codes.h src/kb/kb.h src/explain/linememo.h \
 src/explain/acmatch.h src/explain/logfacts.h src/facts.h src/base/buf.h \
 src/base/str.h src/base/vers.h src/base/xalloc.h src/diag/fw_common.h \
 src/plan/plan.h src/diag/rule_util.h src/kb/runs_on.h
src/explain/here.h:
src/diag/finding.h:
src/explain/explain.h:
src/explain/logread.h:
src/explain/codes.h:
src/kb/kb.h:
src/explain/linememo.h:
src/explain/acmatch.h:
src/explain/logfacts.h:
src/facts.h:
src/base/buf.h:
src/base/str.h:
src/base/vers.h:
src/base/xalloc.h:
src/diag/fw_common.h:
src/plan/plan.h:
src/diag/rule_util.h:
src/kb/runs_on.h:
