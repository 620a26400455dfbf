build-dev/obj/src/render/json_bytes.o: src/render/json_bytes.c \
 src/render/json_bytes.h src/base/buf.h src/base/utf8.h
src/render/json_bytes.h:
src/base/buf.h:
src/base/utf8.h:
