build-dev/obj/src/base/clock.o: src/base/clock.c src/base/clock.h
src/base/clock.h:
