build-dev/obj/src/cli/cmd_diff.o: src/cli/cmd_diff.c src/cli/command.h \
 src/base/clean.h src/base/str.h src/diff/factsdiff.h
src/cli/command.h:
src/base/clean.h:
src/base/str.h:
src/diff/factsdiff.h:
