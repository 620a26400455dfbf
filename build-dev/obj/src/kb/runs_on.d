build-dev/obj/src/kb/runs_on.o: src/kb/runs_on.c src/kb/runs_on.h \
 src/kb/kb.h src/base/str.h src/base/vers.h
src/kb/runs_on.h:
src/kb/kb.h:
src/base/str.h:
src/base/vers.h:
