build-dev/obj/src/sys/child.o: src/sys/child.c src/sys/child.h \
 src/base/clock.h src/facts.h
src/sys/child.h:
src/base/clock.h:
src/facts.h:
