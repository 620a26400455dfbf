build-dev/obj/src/diag/rule_driver.o: src/diag/rule_driver.c \
 src/diag/fix.h src/base/buf.h src/facts.h src/diag/rule.h \
 src/diag/finding.h src/diag/rule_util.h src/base/str.h src/base/vers.h \
 src/kb/kb.h src/kb/runs_on.h
src/diag/fix.h:
src/base/buf.h:
src/facts.h:
src/diag/rule.h:
src/diag/finding.h:
src/diag/rule_util.h:
src/base/str.h:
src/base/vers.h:
src/kb/kb.h:
src/kb/runs_on.h:
