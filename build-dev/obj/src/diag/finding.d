build-dev/obj/src/diag/finding.o: src/diag/finding.c src/diag/finding.h \
 src/base/buf.h src/base/xalloc.h
src/diag/finding.h:
src/base/buf.h:
src/base/xalloc.h:
