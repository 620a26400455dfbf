build-dev/obj/src/explain/codes.o: src/explain/codes.c \
 src/explain/codes.h src/kb/kb.h src/base/xalloc.h
src/explain/codes.h:
src/kb/kb.h:
src/base/xalloc.h:
