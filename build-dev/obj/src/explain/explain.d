build-dev/obj/src/explain/explain.o: src/explain/explain.c \
 src/explain/explain.h src/diag/finding.h src/explain/logread.h \
 src/explain/codes.h src/kb/kb.h src/explain/linememo.h \
 src/explain/acmatch.h src/explain/logfacts.h src/facts.h \
 src/base/clean.h src/base/buf.h src/base/str.h src/base/vers.h \
 src/base/xalloc.h src/explain/lognorm.h src/kb/kb_schema.h
src/explain/explain.h:
src/diag/finding.h:
src/explain/logread.h:
src/explain/codes.h:
src/kb/kb.h:
src/explain/linememo.h:
src/explain/acmatch.h:
src/explain/logfacts.h:
src/facts.h:
src/base/clean.h:
src/base/buf.h:
src/base/str.h:
src/base/vers.h:
src/base/xalloc.h:
src/explain/lognorm.h:
src/kb/kb_schema.h:
