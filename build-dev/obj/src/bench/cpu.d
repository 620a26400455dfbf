build-dev/obj/src/bench/cpu.o: src/bench/cpu.c src/bench/bench.h \
 src/facts.h src/base/clock.h src/base/str.h
src/bench/bench.h:
src/facts.h:
src/base/clock.h:
src/base/str.h:
