build-dev/obj/src/base/clean.o: src/base/clean.c src/base/clean.h \
 src/base/utf8.h
src/base/clean.h:
src/base/utf8.h:
