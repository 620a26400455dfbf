build-dev/obj/src/base/str.o: src/base/str.c src/base/str.h
src/base/str.h:
