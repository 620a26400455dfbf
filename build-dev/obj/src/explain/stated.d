build-dev/obj/src/explain/stated.o: src/explain/stated.c \
 src/explain/stated.h src/explain/explain.h src/diag/finding.h \
 src/explain/logread.h src/explain/codes.h src/kb/kb.h \
 src/explain/linememo.h src/explain/acmatch.h src/explain/logfacts.h \
 src/facts.h src/base/str.h src/base/xalloc.h src/diag/rule.h
src/explain/stated.h:
src/explain/explain.h:
src/diag/finding.h:
src/explain/logread.h:
src/explain/codes.h:
src/kb/kb.h:
src/explain/linememo.h:
src/explain/acmatch.h:
src/explain/logfacts.h:
src/facts.h:
src/base/str.h:
src/base/xalloc.h:
src/diag/rule.h:
