build-dev/obj/src/explain/lognorm.o: src/explain/lognorm.c \
 src/explain/lognorm.h
src/explain/lognorm.h:
