build-dev/obj/src/explain/acmatch.o: src/explain/acmatch.c \
 src/explain/acmatch.h src/base/xalloc.h
src/explain/acmatch.h:
src/base/xalloc.h:
