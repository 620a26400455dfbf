build-dev/obj/src/main.o: src/main.c src/cli/command.h
src/cli/command.h:
