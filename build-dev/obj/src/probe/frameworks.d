build-dev/obj/src/probe/frameworks.o: src/probe/frameworks.c \
 src/probe/probe.h src/facts.h src/probe/fw_targets.h src/base/path.h \
 src/base/str.h src/base/vers.h src/base/xalloc.h src/kb/kb.h \
 src/sys/elf.h src/sys/ldcache.h src/sys/ldresolve.h src/sys/root.h
src/probe/probe.h:
src/facts.h:
src/probe/fw_targets.h:
src/base/path.h:
src/base/str.h:
src/base/vers.h:
src/base/xalloc.h:
src/kb/kb.h:
src/sys/elf.h:
src/sys/ldcache.h:
src/sys/ldresolve.h:
src/sys/root.h:
