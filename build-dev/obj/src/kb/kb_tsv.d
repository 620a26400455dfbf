build-dev/obj/src/kb/kb_tsv.o: src/kb/kb_tsv.c src/kb/kb_tsv.h \
 src/kb/kb_schema.h src/kb/kb.h src/base/str.h src/base/utf8.h \
 src/base/vers.h src/base/xalloc.h
src/kb/kb_tsv.h:
src/kb/kb_schema.h:
src/kb/kb.h:
src/base/str.h:
src/base/utf8.h:
src/base/vers.h:
src/base/xalloc.h:
