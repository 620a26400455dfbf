# Makefile - the one build entry point (GNU make, non-recursive).
#
#   make run     install missing build dependencies, build, run `gpudoctor doctor`
#   make check   install missing test dependencies, build, run every test
#                (plain and under ASan+UBSan); ends with "N passed, N failed"
#   make         build build/gpudoctor
#   make dev     build with -Werror
#   make kb      regenerate src/kb/kb_data.c from data/kb/*.tsv
#   make bench   print timing figures (bench/doctor.sh, bench/explain.sh)
#   make examples  docs/examples/: reports of the recorded machines
#   make install   PREFIX=/usr/local DESTDIR=: binary, man pages, completion
#   make deb       a Debian package (BUILD/gpudoctor_VERSION_ARCH.deb)
#
# BUILD=dir selects the output directory; SAN=1 builds with ASan+UBSan; V=1
# prints every compiler command (quiet by default).

BUILD ?= build
CC ?= cc
ifeq ($(CC),)
CC := cc
endif
SAN ?=
WERROR ?=

WARN := -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-unused-parameter -Wvla -Wimplicit-fallthrough
CFLAGS ?= -O2 -g
CFLAGS += -std=c17 -D_GNU_SOURCE -Isrc $(WARN) -fno-strict-aliasing
ifneq ($(WERROR),)
CFLAGS += -Werror
endif
ifneq ($(SAN),)
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
# Quiet by default; V=1 prints every compiler command.
ifeq ($(V),1)
Q :=
else
Q := @
endif
CFLAGS += -DGPUDOCTOR_VERSION='"$(VERSION)"'

# Third-party libraries are linked statically: the binary needs only glibc.
LIBS := -l:libjansson.a -l:libncursesw.a -l:libtinfo.a -l:libmicrohttpd.a -ldl -lpthread -lm

SRCS := $(sort $(shell find src -name '*.c'))
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
DEPS := $(SRCS:%.c=$(BUILD)/obj/%.d)

UNIT_SRCS := $(sort $(wildcard tests/unit/t_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
STUB_SRCS := $(sort $(wildcard tests/stubs/*.c))
TOOL_SRCS := $(sort $(wildcard tests/tools/*.c))
TOOL_BINS := $(TOOL_SRCS:tests/tools/%.c=$(BUILD)/tests/tools/%)

.PHONY: all dev run check test unit kb kb-check bench clean deps-build deps-test deps-install asan valgrind format error-codes examples \
	man completion install uninstall deb

all: $(BUILD)/gpudoctor

dev:
	$(MAKE) WERROR=1 all

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/libgpudoctor.a: $(OBJS)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(BUILD)/gpudoctor: $(BUILD)/obj/src/main.o $(BUILD)/libgpudoctor.a
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

# Unit tests: one binary per tests/unit/t_*.c, linked against the library.
$(BUILD)/tests/t_%: tests/unit/t_%.c $(BUILD)/libgpudoctor.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(BUILD)/libgpudoctor.a $(LIBS) -lcmocka

# Test tools (fixture builders such as mk-ldcache).
$(BUILD)/tests/tools/%: tests/tools/%.c $(wildcard tests/tools/*.h) $(BUILD)/libgpudoctor.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libgpudoctor.a $(LIBS)

# Mock driver libraries, built without sanitizers: they are dlopen'ed in
# children and stand in for vendor code.
$(BUILD)/stubs/%.so: tests/stubs/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c17 -D_GNU_SOURCE -O1 -g -fPIC -shared -Wall -Wextra -o $@ $<

unit: $(UNIT_BINS)

test-deps: all unit $(TOOL_BINS) $(BUILD)/tools/gen-kb $(STUB_SRCS:tests/stubs/%.c=$(BUILD)/stubs/%.so)

deps-build:
	@sh tools/deps.sh build

deps-test:
	@sh tools/deps.sh test

run: deps-build
	@echo "building gpudoctor (make V=1 shows the commands)..."
	@$(MAKE) --no-print-directory all
	@./$(BUILD)/gpudoctor doctor; rc=$$?; [ $$rc -lt 3 ] # 1 and 2 report findings, 3 a failure

check: deps-test
	@echo "building (plain, ASan+UBSan, and the fuzz harnesses)..."
	@$(MAKE) -s --no-print-directory -j$$(nproc) test-deps >/dev/null
	@$(MAKE) -s --no-print-directory -j$$(nproc) BUILD=build-asan SAN=1 test-deps >/dev/null
	@$(MAKE) -s --no-print-directory -j$$(nproc) fuzz-build >/dev/null
	@FUZZ=$(FUZZ_BUILD) FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS) sh tests/run.sh build build-asan

test: test-deps
	@sh tests/run.sh $(BUILD)

# Every fixture machine under valgrind's memcheck (slow: minutes).
valgrind: test-deps
	@sh tests/valgrind.sh $(BUILD)

asan:
	@$(MAKE) --no-print-directory BUILD=build-asan SAN=1 test-deps
	@sh tests/run.sh build-asan

# tools/gen-kb: a host tool built from the same reader (src/kb/kb_tsv.c)
# that `--kb DIR` uses at run time, so build and run time accept the same
# tables.
GEN_KB_SRCS := tools/gen-kb.c src/kb/kb_tsv.c src/kb/kb_schema.c src/base/vers.c \
	src/base/str.c src/base/utf8.c src/base/xalloc.c
$(BUILD)/tools/gen-kb: $(GEN_KB_SRCS) src/kb/kb.h src/kb/kb_schema.h src/kb/kb_tsv.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(GEN_KB_SRCS)

kb: $(BUILD)/tools/gen-kb
	$(BUILD)/tools/gen-kb data/kb > src/kb/kb_data.c.tmp || { rm -f src/kb/kb_data.c.tmp; exit 1; }
	mv src/kb/kb_data.c.tmp src/kb/kb_data.c

# tools/gen-error-codes: data/kb/error_codes.tsv from this machine's CUDA
# toolkit (headers, libraries) and, with DRIVER_MESSAGES=FILE, the driver's
# own messages (`gen-error-codes --dump` where a driver is). Review, then
# `make kb`.
CUDA_HOME_DIR ?= /usr/local/cuda
$(BUILD)/tools/gen-error-codes: tools/gen-error-codes.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -ldl

error-codes: $(BUILD)/tools/gen-error-codes
	$(BUILD)/tools/gen-error-codes $(if $(DRIVER_MESSAGES),--messages $(DRIVER_MESSAGES)) \
		$(CUDA_HOME_DIR) > data/kb/error_codes.tsv.tmp || { rm -f data/kb/error_codes.tsv.tmp; exit 1; }
	mv data/kb/error_codes.tsv.tmp data/kb/error_codes.tsv

kb-check: $(BUILD)/tools/gen-kb
	@$(BUILD)/tools/gen-kb data/kb | cmp -s - src/kb/kb_data.c \
		|| { echo "src/kb/kb_data.c is out of date: run make kb"; exit 1; }

bench: all $(BUILD)/tests/tools/maxrss $(BUILD)/tests/tools/http-load
	@sh bench/doctor.sh $(BUILD)/gpudoctor
	@sh bench/explain.sh $(BUILD)/gpudoctor
	@sh bench/top.sh $(BUILD)/gpudoctor
	@sh bench/serve.sh $(BUILD)/gpudoctor

# ---- installing -------------------------------------------------------------
# make install [PREFIX=/usr/local] [DESTDIR=]: the binary, a man page per
# command and shell completion (both generated from the help text), the
# docs. make deb: the same as a Debian package, BUILD/gpudoctor_*.deb.
PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man/man1
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR = $(PREFIX)/share/zsh/vendor-completions
DOCDIR = $(PREFIX)/share/doc/gpudoctor

$(BUILD)/man/gpudoctor.1: $(BUILD)/gpudoctor tools/gen-man.sh
	@sh tools/gen-man.sh $(BUILD)/gpudoctor $(BUILD)/man

$(BUILD)/completion/gpudoctor.bash: $(BUILD)/gpudoctor tools/gen-completion.sh
	@sh tools/gen-completion.sh $(BUILD)/gpudoctor $(BUILD)/completion

man: $(BUILD)/man/gpudoctor.1
completion: $(BUILD)/completion/gpudoctor.bash

deps-install:
	@sh tools/deps.sh install

install: deps-install all man completion
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(DOCDIR)
	install -m 0755 $(BUILD)/gpudoctor $(DESTDIR)$(BINDIR)/gpudoctor
	install -m 0644 $(BUILD)/man/*.1 $(DESTDIR)$(MANDIR)/
	install -m 0644 $(BUILD)/completion/gpudoctor.bash $(DESTDIR)$(BASHCOMPDIR)/gpudoctor
	install -m 0644 $(BUILD)/completion/_gpudoctor $(DESTDIR)$(ZSHCOMPDIR)/_gpudoctor
	install -m 0644 README.md docs/*.md $(DESTDIR)$(DOCDIR)/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gpudoctor $(DESTDIR)$(MANDIR)/gpudoctor.1 \
		$(DESTDIR)$(MANDIR)/gpudoctor-*.1 $(DESTDIR)$(BASHCOMPDIR)/gpudoctor \
		$(DESTDIR)$(ZSHCOMPDIR)/_gpudoctor
	rm -rf $(DESTDIR)$(DOCDIR)

deb: all man completion
	@rm -rf $(BUILD)/deb
	@$(MAKE) -s --no-print-directory install DESTDIR=$(abspath $(BUILD))/deb/root PREFIX=/usr >/dev/null
	@sh tools/make-deb.sh $(BUILD)

# docs/examples/: the report of each recorded machine (tests/report/machines)
examples: all
	@sh tools/make-examples.sh $(BUILD)/gpudoctor

format:
	clang-format -i $(SRCS) $(wildcard src/*/*.h src/*.h)

clean:
	rm -rf build build-asan

-include $(DEPS)

# ---- fuzzing ----------------------------------------------------------------
# make fuzz [FUZZ_SECONDS=30] [FUZZ_TARGETS="ldcache elf"]: build every
# libFuzzer harness tests/fuzz/fuzz_<name>.c with clang (ASan+UBSan, the
# sources compiled again into build-fuzz/, never the gcc objects) and run
# each in turn for FUZZ_SECONDS from the seeds in tests/fuzz/corpus/<name>/.
# tests/fuzz/<name>.dict, when there is one, is the harness's dictionary.
# New inputs go to build-fuzz/corpus/<name>/, crashes to build-fuzz/artifacts/.
FUZZ_CC ?= clang
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 30
FUZZ_SMOKE_SECONDS ?= 3
FUZZ_FLAGS ?= -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
FUZZ_SAN := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -O1 -g -fno-omit-frame-pointer -std=c17 -D_GNU_SOURCE -Isrc -Itests/fuzz \
	$(WARN) -Wno-format-nonliteral -fno-strict-aliasing -DGPUDOCTOR_VERSION='"$(VERSION)"' $(FUZZ_SAN)
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_TARGETS ?= $(FUZZ_SRCS:tests/fuzz/fuzz_%.c=%)
FUZZ_OBJS := $(LIB_SRCS:%.c=$(FUZZ_BUILD)/obj/%.o)

.PHONY: fuzz fuzz-build

$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/libgpudoctor.a: $(FUZZ_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_BUILD)/libgpudoctor.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_BUILD)/libgpudoctor.a $(LIBS)

# ELF seeds built from tests/fuzz/seed_elf.c (no third-party objects in
# the corpus): RPATH+NEEDED, RUNPATH, 32-bit (when clang can), PIE.
FUZZ_ELF_SEEDS := $(FUZZ_BUILD)/seeds/elf/.built
$(FUZZ_ELF_SEEDS): tests/fuzz/seed_elf.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -nostdlib -Wl,-soname,libseed.so.1 -Wl,--disable-new-dtags \
		-Wl,-rpath,'$$ORIGIN/../lib' -Wl,--no-as-needed -o $(dir $@)rpath.so $< -l:libc.so.6
	$(CC) -shared -fPIC -nostdlib -Wl,-soname,libseed.so.2 -Wl,--enable-new-dtags \
		-Wl,-rpath,'$$ORIGIN' -o $(dir $@)runpath.so $<
	-$(FUZZ_CC) -m32 -shared -fPIC -nostdlib -Wl,-soname,libseed32.so.1 -o $(dir $@)lib32.so $<
	$(CC) -nostdlib -pie -fPIE -Wl,-e,gpudoctor_seed -o $(dir $@)pie $<
	@touch $@

# Knowledge-base seeds cut from data/kb by tests/fuzz/kb_seeds.sh.
FUZZ_KB_SEEDS := $(FUZZ_BUILD)/seeds/kb/.built
$(FUZZ_KB_SEEDS): tests/fuzz/kb_seeds.sh $(wildcard data/kb/*.tsv)
	@rm -rf $(dir $@)
	@sh tests/fuzz/kb_seeds.sh data/kb $(dir $@)
	@touch $@

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%) $(FUZZ_ELF_SEEDS) $(FUZZ_KB_SEEDS)

fuzz: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/artifacts tests/fuzz/corpus/$$t; \
		echo "== fuzz_$$t: $(FUZZ_SECONDS)s"; \
		dict=; [ -f tests/fuzz/$$t.dict ] && dict=-dict=tests/fuzz/$$t.dict; \
		seeds=; [ -d $(FUZZ_BUILD)/seeds/$$t ] && seeds=$(FUZZ_BUILD)/seeds/$$t; \
		$(FUZZ_BUILD)/fuzz_$$t $(FUZZ_FLAGS) $$dict -max_total_time=$(FUZZ_SECONDS) \
			-artifact_prefix=$(FUZZ_BUILD)/artifacts/$$t- \
			$(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t $$seeds; \
	done

-include $(FUZZ_OBJS:%.o=%.d)
