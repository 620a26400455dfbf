build-dev/obj/src/probe/pci.o: src/probe/pci.c src/probe/probe.h \
 src/facts.h src/base/str.h src/kb/kb.h src/sys/root.h
src/probe/probe.h:
src/facts.h:
src/base/str.h:
src/kb/kb.h:
src/sys/root.h:
