build-dev/obj/src/cli/cmd_version.o: src/cli/cmd_version.c \
 src/cli/command.h src/facts.h
src/cli/command.h:
src/facts.h:
