build-dev/obj/src/probe/libver.o: src/probe/libver.c src/probe/probe.h \
 src/facts.h src/base/str.h src/base/vers.h src/base/xalloc.h \
 src/sys/child.h src/sys/elf.h src/sys/root.h src/sys/trust.h
src/probe/probe.h:
src/facts.h:
src/base/str.h:
src/base/vers.h:
src/base/xalloc.h:
src/sys/child.h:
src/sys/elf.h:
src/sys/root.h:
src/sys/trust.h:
