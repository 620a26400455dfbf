build-dev/obj/src/cli/cmd_compat.o: src/cli/cmd_compat.c \
 src/cli/command.h src/plan/plan.h src/facts.h src/base/str.h \
 src/base/vers.h src/kb/kb.h src/kb/kb_query.h src/render/compat_text.h \
 src/render/render.h src/diag/finding.h
src/cli/command.h:
src/plan/plan.h:
src/facts.h:
src/base/str.h:
src/base/vers.h:
src/kb/kb.h:
src/kb/kb_query.h:
src/render/compat_text.h:
src/render/render.h:
src/diag/finding.h:
