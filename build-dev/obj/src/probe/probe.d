build-dev/obj/src/probe/probe.o: src/probe/probe.c src/probe/probe.h \
 src/facts.h src/base/clock.h src/base/str.h src/sys/root.h
src/probe/probe.h:
src/facts.h:
src/base/clock.h:
src/base/str.h:
src/sys/root.h:
