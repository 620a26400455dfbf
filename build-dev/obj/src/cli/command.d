build-dev/obj/src/cli/command.o: src/cli/command.c src/cli/command.h
src/cli/command.h:
