build-dev/obj/src/sys/trust.o: src/sys/trust.c src/sys/trust.h \
 src/base/str.h
src/sys/trust.h:
src/base/str.h:
