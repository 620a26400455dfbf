build-dev/obj/src/base/utf8.o: src/base/utf8.c src/base/utf8.h
src/base/utf8.h:
