build-dev/obj/src/facts.o: src/facts.c src/facts.h src/base/str.h
src/facts.h:
src/base/str.h:
