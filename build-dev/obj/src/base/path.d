build-dev/obj/src/base/path.o: src/base/path.c src/base/path.h \
 src/base/str.h
src/base/path.h:
src/base/str.h:
