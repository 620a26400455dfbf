build-dev/obj/src/diag/causes.o: src/diag/causes.c src/diag/rule.h \
 src/diag/finding.h src/facts.h
src/diag/rule.h:
src/diag/finding.h:
src/facts.h:
