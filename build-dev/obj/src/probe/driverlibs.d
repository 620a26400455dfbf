build-dev/obj/src/probe/driverlibs.o: src/probe/driverlibs.c \
 src/probe/probe.h src/facts.h src/base/str.h src/base/vers.h \
 src/sys/elf.h src/sys/ldcache.h src/sys/ldresolve.h src/sys/root.h
src/probe/probe.h:
src/facts.h:
src/base/str.h:
src/base/vers.h:
src/sys/elf.h:
src/sys/ldcache.h:
src/sys/ldresolve.h:
src/sys/root.h:
