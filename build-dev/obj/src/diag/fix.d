build-dev/obj/src/diag/fix.o: src/diag/fix.c src/diag/fix.h \
 src/base/buf.h src/facts.h src/base/str.h src/base/vers.h src/kb/kb.h
src/diag/fix.h:
src/base/buf.h:
src/facts.h:
src/base/str.h:
src/base/vers.h:
src/kb/kb.h:
