build-dev/obj/src/sys/fatbin.o: src/sys/fatbin.c src/sys/fatbin.h \
 src/base/clock.h src/base/str.h src/sys/elf.h src/sys/root.h
src/sys/fatbin.h:
src/base/clock.h:
src/base/str.h:
src/sys/elf.h:
src/sys/root.h:
