build-dev/obj/src/diff/factsdiff.o: src/diff/factsdiff.c \
 src/diff/factsdiff.h src/base/xalloc.h
src/diff/factsdiff.h:
src/base/xalloc.h:
