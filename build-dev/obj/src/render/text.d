build-dev/obj/src/render/text.o: src/render/text.c src/render/render.h \
 src/diag/finding.h src/facts.h src/base/buf.h src/base/str.h \
 src/render/wrap.h
src/render/render.h:
src/diag/finding.h:
src/facts.h:
src/base/buf.h:
src/base/str.h:
src/render/wrap.h:
