build-dev/obj/src/explain/logread.o: src/explain/logread.c \
 src/explain/logread.h src/base/xalloc.h
src/explain/logread.h:
src/base/xalloc.h:
