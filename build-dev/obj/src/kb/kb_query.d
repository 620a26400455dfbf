build-dev/obj/src/kb/kb_query.o: src/kb/kb_query.c src/kb/kb_query.h \
 src/kb/kb.h src/base/str.h src/base/vers.h
src/kb/kb_query.h:
src/kb/kb.h:
src/base/str.h:
src/base/vers.h:
