build-dev/obj/src/explain/logfacts.o: src/explain/logfacts.c \
 src/explain/logfacts.h src/facts.h src/base/clean.h src/base/str.h \
 src/base/vers.h src/kb/kb.h src/kb/kb_query.h
src/explain/logfacts.h:
src/facts.h:
src/base/clean.h:
src/base/str.h:
src/base/vers.h:
src/kb/kb.h:
src/kb/kb_query.h:
