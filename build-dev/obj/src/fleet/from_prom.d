build-dev/obj/src/fleet/from_prom.o: src/fleet/from_prom.c \
 src/fleet/fleet.h src/base/str.h src/base/xalloc.h
src/fleet/fleet.h:
src/base/str.h:
src/base/xalloc.h:
