build-dev/obj/src/diag/rule_mem.o: src/diag/rule_mem.c src/diag/fix.h \
 src/base/buf.h src/facts.h src/diag/rule.h src/diag/finding.h \
 src/base/str.h
src/diag/fix.h:
src/base/buf.h:
src/facts.h:
src/diag/rule.h:
src/diag/finding.h:
src/base/str.h:
