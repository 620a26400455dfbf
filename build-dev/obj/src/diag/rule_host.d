build-dev/obj/src/diag/rule_host.o: src/diag/rule_host.c src/diag/fix.h \
 src/base/buf.h src/facts.h src/diag/rule.h src/diag/finding.h \
 src/base/str.h src/base/vers.h
src/diag/fix.h:
src/base/buf.h:
src/facts.h:
src/diag/rule.h:
src/diag/finding.h:
src/base/str.h:
src/base/vers.h:
