build-dev/obj/src/diag/rule_fw.o: src/diag/rule_fw.c src/diag/fw_common.h \
 src/base/buf.h src/diag/finding.h src/facts.h src/kb/kb.h \
 src/plan/plan.h src/diag/rule.h src/diag/fix.h src/diag/rule_util.h \
 src/base/path.h src/base/str.h src/base/vers.h
src/diag/fw_common.h:
src/base/buf.h:
src/diag/finding.h:
src/facts.h:
src/kb/kb.h:
src/plan/plan.h:
src/diag/rule.h:
src/diag/fix.h:
src/diag/rule_util.h:
src/base/path.h:
src/base/str.h:
src/base/vers.h:
