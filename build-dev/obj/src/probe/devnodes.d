build-dev/obj/src/probe/devnodes.o: src/probe/devnodes.c \
 src/probe/probe.h src/facts.h src/base/str.h src/sys/root.h
src/probe/probe.h:
src/facts.h:
src/base/str.h:
src/sys/root.h:
