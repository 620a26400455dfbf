build-dev/obj/src/kb/kb_schema.o: src/kb/kb_schema.c src/kb/kb_schema.h \
 src/kb/kb.h src/base/str.h src/base/vers.h
src/kb/kb_schema.h:
src/kb/kb.h:
src/base/str.h:
src/base/vers.h:
