build-dev/obj/src/diag/rule_libs.o: src/diag/rule_libs.c src/diag/fix.h \
 src/base/buf.h src/facts.h src/diag/rule.h src/diag/finding.h \
 src/base/path.h src/diag/rule_util.h src/base/str.h src/base/vers.h \
 src/kb/kb.h
src/diag/fix.h:
src/base/buf.h:
src/facts.h:
src/diag/rule.h:
src/diag/finding.h:
src/base/path.h:
src/diag/rule_util.h:
src/base/str.h:
src/base/vers.h:
src/kb/kb.h:
