build-dev/obj/src/base/buf.o: src/base/buf.c src/base/buf.h \
 src/base/xalloc.h
src/base/buf.h:
src/base/xalloc.h:
