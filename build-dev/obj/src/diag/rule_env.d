build-dev/obj/src/diag/rule_env.o: src/diag/rule_env.c src/diag/fix.h \
 src/base/buf.h src/facts.h src/diag/rule.h src/diag/finding.h \
 src/base/path.h src/base/str.h src/base/vers.h
src/diag/fix.h:
src/base/buf.h:
src/facts.h:
src/diag/rule.h:
src/diag/finding.h:
src/base/path.h:
src/base/str.h:
src/base/vers.h:
