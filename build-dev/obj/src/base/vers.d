build-dev/obj/src/base/vers.o: src/base/vers.c src/base/vers.h
src/base/vers.h:
