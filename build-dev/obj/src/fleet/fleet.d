build-dev/obj/src/fleet/fleet.o: src/fleet/fleet.c src/fleet/fleet.h \
 src/base/clean.h src/base/str.h src/base/xalloc.h
src/fleet/fleet.h:
src/base/clean.h:
src/base/str.h:
src/base/xalloc.h:
