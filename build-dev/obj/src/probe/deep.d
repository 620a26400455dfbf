build-dev/obj/src/probe/deep.o: src/probe/deep.c src/probe/probe.h \
 src/facts.h src/probe/deep_py.h src/base/str.h src/base/xalloc.h \
 src/sys/child.h src/sys/root.h src/sys/trust.h
src/probe/probe.h:
src/facts.h:
src/probe/deep_py.h:
src/base/str.h:
src/base/xalloc.h:
src/sys/child.h:
src/sys/root.h:
src/sys/trust.h:
