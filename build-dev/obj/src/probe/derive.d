build-dev/obj/src/probe/derive.o: src/probe/derive.c src/probe/probe.h \
 src/facts.h src/base/str.h src/base/vers.h src/kb/kb.h
src/probe/probe.h:
src/facts.h:
src/base/str.h:
src/base/vers.h:
src/kb/kb.h:
