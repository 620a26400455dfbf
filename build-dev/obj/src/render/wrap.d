build-dev/obj/src/render/wrap.o: src/render/wrap.c src/render/wrap.h \
 src/base/str.h
src/render/wrap.h:
src/base/str.h:
