build-dev/obj/src/cli/cmd_help.o: src/cli/cmd_help.c src/cli/command.h
src/cli/command.h:
