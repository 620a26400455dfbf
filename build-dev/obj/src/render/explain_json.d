build-dev/obj/src/render/explain_json.o: src/render/explain_json.c \
 src/render/explain_render.h src/explain/explain.h src/diag/finding.h \
 src/explain/logread.h src/explain/codes.h src/kb/kb.h \
 src/explain/linememo.h src/explain/acmatch.h src/explain/logfacts.h \
 src/facts.h src/render/render.h
src/render/explain_render.h:
src/explain/explain.h:
src/diag/finding.h:
src/explain/logread.h:
src/explain/codes.h:
src/kb/kb.h:
src/explain/linememo.h:
src/explain/acmatch.h:
src/explain/logfacts.h:
src/facts.h:
src/render/render.h:
