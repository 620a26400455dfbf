build-dev/obj/src/diag/rules.o: src/diag/rules.c src/diag/rule.h \
 src/diag/finding.h src/facts.h src/diag/fw_common.h src/base/buf.h \
 src/kb/kb.h src/plan/plan.h
src/diag/rule.h:
src/diag/finding.h:
src/facts.h:
src/diag/fw_common.h:
src/base/buf.h:
src/kb/kb.h:
src/plan/plan.h:
