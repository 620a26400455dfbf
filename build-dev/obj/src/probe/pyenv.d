build-dev/obj/src/probe/pyenv.o: src/probe/pyenv.c src/probe/probe.h \
 src/facts.h src/probe/pyver.h src/base/path.h src/base/str.h \
 src/base/vers.h src/base/xalloc.h src/sys/root.h
src/probe/probe.h:
src/facts.h:
src/probe/pyver.h:
src/base/path.h:
src/base/str.h:
src/base/vers.h:
src/base/xalloc.h:
src/sys/root.h:
