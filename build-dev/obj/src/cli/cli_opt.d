build-dev/obj/src/cli/cli_opt.o: src/cli/cli_opt.c src/cli/command.h \
 src/kb/kb_query.h src/kb/kb.h
src/cli/command.h:
src/kb/kb_query.h:
src/kb/kb.h:
