build-dev/obj/src/bench/bench.o: src/bench/bench.c src/bench/bench.h \
 src/facts.h src/base/clean.h src/base/str.h src/base/vers.h \
 src/sys/child.h src/sys/ldcache.h src/sys/root.h src/sys/trust.h
src/bench/bench.h:
src/facts.h:
src/base/clean.h:
src/base/str.h:
src/base/vers.h:
src/sys/child.h:
src/sys/ldcache.h:
src/sys/root.h:
src/sys/trust.h:
