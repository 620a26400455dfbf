build-dev/obj/src/cli/cmd_bench.o: src/cli/cmd_bench.c src/cli/command.h \
 src/bench/bench.h src/facts.h src/bench/judge.h src/diag/finding.h \
 src/base/clean.h src/base/str.h src/diag/rule.h src/probe/probe.h \
 src/render/facts_json.h src/render/render.h
src/cli/command.h:
src/bench/bench.h:
src/facts.h:
src/bench/judge.h:
src/diag/finding.h:
src/base/clean.h:
src/base/str.h:
src/diag/rule.h:
src/probe/probe.h:
src/render/facts_json.h:
src/render/render.h:
