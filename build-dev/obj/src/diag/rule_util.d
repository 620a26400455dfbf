build-dev/obj/src/diag/rule_util.o: src/diag/rule_util.c \
 src/diag/rule_util.h src/facts.h src/base/str.h src/base/vers.h
src/diag/rule_util.h:
src/facts.h:
src/base/str.h:
src/base/vers.h:
