build-dev/obj/src/probe/fw_targets.o: src/probe/fw_targets.c \
 src/probe/fw_targets.h src/facts.h src/base/clock.h src/base/str.h \
 src/sys/fatbin.h src/sys/root.h
src/probe/fw_targets.h:
src/facts.h:
src/base/clock.h:
src/base/str.h:
src/sys/fatbin.h:
src/sys/root.h:
