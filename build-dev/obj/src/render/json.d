build-dev/obj/src/render/json.o: src/render/json.c \
 src/render/facts_json.h src/diag/finding.h src/facts.h \
 src/render/render.h
src/render/facts_json.h:
src/diag/finding.h:
src/facts.h:
src/render/render.h:
