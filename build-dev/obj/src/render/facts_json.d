build-dev/obj/src/render/facts_json.o: src/render/facts_json.c \
 src/render/facts_json.h src/diag/finding.h src/facts.h src/base/clean.h \
 src/base/str.h src/base/xalloc.h src/render/json_bytes.h
src/render/facts_json.h:
src/diag/finding.h:
src/facts.h:
src/base/clean.h:
src/base/str.h:
src/base/xalloc.h:
src/render/json_bytes.h:
