build-dev/obj/src/kb/kb.o: src/kb/kb.c src/kb/kb.h src/kb/kb_schema.h \
 src/kb/kb_tsv.h src/base/str.h src/base/vers.h
src/kb/kb.h:
src/kb/kb_schema.h:
src/kb/kb_tsv.h:
src/base/str.h:
src/base/vers.h:
