build-dev/obj/src/cli/cmd_fleet.o: src/cli/cmd_fleet.c src/cli/command.h \
 src/fleet/fleet.h src/render/render.h src/diag/finding.h src/facts.h
src/cli/command.h:
src/fleet/fleet.h:
src/render/render.h:
src/diag/finding.h:
src/facts.h:
