build-dev/obj/src/probe/procs.o: src/probe/procs.c src/probe/probe.h \
 src/facts.h src/base/str.h src/sys/root.h
src/probe/probe.h:
src/facts.h:
src/base/str.h:
src/sys/root.h:
