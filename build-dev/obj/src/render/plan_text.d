build-dev/obj/src/render/plan_text.o: src/render/plan_text.c \
 src/render/plan_text.h src/base/buf.h src/plan/plan.h src/facts.h \
 src/render/wrap.h src/base/str.h src/base/vers.h src/kb/kb.h \
 src/kb/kb_query.h
src/render/plan_text.h:
src/base/buf.h:
src/plan/plan.h:
src/facts.h:
src/render/wrap.h:
src/base/str.h:
src/base/vers.h:
src/kb/kb.h:
src/kb/kb_query.h:
