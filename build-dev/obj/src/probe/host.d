build-dev/obj/src/probe/host.o: src/probe/host.c src/probe/probe.h \
 src/facts.h src/base/str.h src/sys/root.h
src/probe/probe.h:
src/facts.h:
src/base/str.h:
src/sys/root.h:
