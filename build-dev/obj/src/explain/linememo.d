build-dev/obj/src/explain/linememo.o: src/explain/linememo.c \
 src/explain/linememo.h src/explain/acmatch.h src/base/xalloc.h
src/explain/linememo.h:
src/explain/acmatch.h:
src/base/xalloc.h:
