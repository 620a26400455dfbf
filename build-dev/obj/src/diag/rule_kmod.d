build-dev/obj/src/diag/rule_kmod.o: src/diag/rule_kmod.c src/diag/fix.h \
 src/base/buf.h src/facts.h src/diag/rule.h src/diag/finding.h \
 src/diag/rule_util.h src/base/str.h
src/diag/fix.h:
src/base/buf.h:
src/facts.h:
src/diag/rule.h:
src/diag/finding.h:
src/diag/rule_util.h:
src/base/str.h:
