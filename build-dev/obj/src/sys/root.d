build-dev/obj/src/sys/root.o: src/sys/root.c src/sys/root.h \
 src/base/str.h src/base/xalloc.h
src/sys/root.h:
src/base/str.h:
src/base/xalloc.h:
