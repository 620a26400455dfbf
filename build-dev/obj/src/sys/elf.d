build-dev/obj/src/sys/elf.o: src/sys/elf.c src/sys/elf.h src/base/str.h \
 src/base/xalloc.h src/sys/root.h
src/sys/elf.h:
src/base/str.h:
src/base/xalloc.h:
src/sys/root.h:
