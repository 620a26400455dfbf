build-dev/obj/src/explain/rank.o: src/explain/rank.c \
 src/explain/explain.h src/diag/finding.h src/explain/logread.h \
 src/explain/codes.h src/kb/kb.h src/explain/linememo.h \
 src/explain/acmatch.h src/explain/logfacts.h src/facts.h \
 src/explain/libfix.h src/explain/stated.h src/base/buf.h src/base/str.h \
 src/base/vers.h src/base/xalloc.h
src/explain/explain.h:
src/diag/finding.h:
src/explain/logread.h:
src/explain/codes.h:
src/kb/kb.h:
src/explain/linememo.h:
src/explain/acmatch.h:
src/explain/logfacts.h:
src/facts.h:
src/explain/libfix.h:
src/explain/stated.h:
src/base/buf.h:
src/base/str.h:
src/base/vers.h:
src/base/xalloc.h:
