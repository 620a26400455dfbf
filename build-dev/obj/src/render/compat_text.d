build-dev/obj/src/render/compat_text.o: src/render/compat_text.c \
 src/render/compat_text.h src/render/wrap.h
src/render/compat_text.h:
src/render/wrap.h:
