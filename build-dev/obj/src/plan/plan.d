build-dev/obj/src/plan/plan.o: src/plan/plan.c src/plan/plan.h \
 src/facts.h src/base/str.h src/base/vers.h src/kb/kb.h src/kb/runs_on.h
src/plan/plan.h:
src/facts.h:
src/base/str.h:
src/base/vers.h:
src/kb/kb.h:
src/kb/runs_on.h:
