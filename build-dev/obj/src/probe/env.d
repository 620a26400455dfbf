build-dev/obj/src/probe/env.o: src/probe/env.c src/probe/probe.h \
 src/facts.h src/base/str.h src/sys/root.h
src/probe/probe.h:
src/facts.h:
src/base/str.h:
src/sys/root.h:
