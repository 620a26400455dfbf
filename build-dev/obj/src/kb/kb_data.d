build-dev/obj/src/kb/kb_data.o: src/kb/kb_data.c src/kb/kb_schema.h \
 src/kb/kb.h
src/kb/kb_schema.h:
src/kb/kb.h:
