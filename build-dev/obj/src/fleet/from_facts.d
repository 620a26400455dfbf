build-dev/obj/src/fleet/from_facts.o: src/fleet/from_facts.c \
 src/fleet/fleet.h src/base/str.h
src/fleet/fleet.h:
src/base/str.h:
