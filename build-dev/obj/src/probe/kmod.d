build-dev/obj/src/probe/kmod.o: src/probe/kmod.c src/probe/probe.h \
 src/facts.h src/base/str.h src/sys/root.h
src/probe/probe.h:
src/facts.h:
src/base/str.h:
src/sys/root.h:
