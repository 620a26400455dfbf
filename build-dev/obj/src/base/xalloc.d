build-dev/obj/src/base/xalloc.o: src/base/xalloc.c src/base/xalloc.h
src/base/xalloc.h:
