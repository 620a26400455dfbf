build-dev/obj/src/sys/ldresolve.o: src/sys/ldresolve.c \
 src/sys/ldresolve.h src/base/str.h src/sys/elf.h src/sys/ldcache.h \
 src/sys/root.h
src/sys/ldresolve.h:
src/base/str.h:
src/sys/elf.h:
src/sys/ldcache.h:
src/sys/root.h:
