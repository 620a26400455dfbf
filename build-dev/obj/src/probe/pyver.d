build-dev/obj/src/probe/pyver.o: src/probe/pyver.c src/probe/pyver.h \
 src/facts.h src/base/path.h src/base/str.h src/base/vers.h \
 src/sys/root.h
src/probe/pyver.h:
src/facts.h:
src/base/path.h:
src/base/str.h:
src/base/vers.h:
src/sys/root.h:
