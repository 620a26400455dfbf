build-dev/obj/src/bench/judge.o: src/bench/judge.c src/bench/judge.h \
 src/bench/bench.h src/facts.h src/diag/finding.h src/base/str.h \
 src/base/vers.h src/kb/kb.h
src/bench/judge.h:
src/bench/bench.h:
src/facts.h:
src/diag/finding.h:
src/base/str.h:
src/base/vers.h:
src/kb/kb.h:
