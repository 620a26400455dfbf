build-dev/obj/src/sys/ldcache.o: src/sys/ldcache.c src/sys/ldcache.h \
 src/base/buf.h src/base/str.h src/base/xalloc.h src/sys/root.h
src/sys/ldcache.h:
src/base/buf.h:
src/base/str.h:
src/base/xalloc.h:
src/sys/root.h:
