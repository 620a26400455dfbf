build-dev/obj/src/slurm/slurm.o: src/slurm/slurm.c src/slurm/slurm.h \
 src/base/str.h src/sys/trust.h
src/slurm/slurm.h:
src/base/str.h:
src/sys/trust.h:
