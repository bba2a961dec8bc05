# rdma-collect / rdma-analyze
#
#   make              build both programs in build/
#   make check        build with -fsanitize=address,undefined -Werror in
#                     build-check/ and run every test (tests/run.sh)
#   make check-vm     only the Soft-RoCE guests under qemu (tests/vm/)
#   make bench        speed, memory and size figures (tests/bench.sh,
#                     tests/bench-fabric.sh, tests/bench-pairs.sh,
#                     tests/bench-analyze.sh, tests/bench-html.sh)
#   make fuzz         libFuzzer targets, FUZZ_SECONDS=N each (tests/fuzz/)
#   make install      PREFIX=/usr/local DESTDIR=
#   make V=1          show the commands

VERSION    := 0.1.0
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
SBINDIR    ?= $(PREFIX)/sbin
MANDIR     ?= $(PREFIX)/share/man
CC         ?= cc
PKG_CONFIG ?= pkg-config
BUILD      ?= build

PKGS       := libarchive libzstd libpci sqlite3
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS))

CFLAGS     ?= -O2 -g
WARN       := -std=c11 -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes \
              -Wmissing-prototypes -Wvla
ALL_CFLAGS = $(WARN) $(FILE_WARN) $(CFLAGS) $(EXTRA_CFLAGS) $(PKG_CFLAGS) -Iinclude \
              -D_GNU_SOURCE -DVERSION=\"$(VERSION)\" -MMD -MP
ALL_LDFLAGS := $(LDFLAGS) $(EXTRA_LDFLAGS)
LIBS       := $(PKG_LIBS) -ldl -lm

ifeq ($(V),1)
Q :=
else
Q := @
endif

COMMON_SRC  := $(sort $(wildcard include/*.c))
COLLECT_SRC := $(sort $(wildcard collect/*.c))
ANALYZE_SRC := $(sort $(wildcard analyze/*.c))
UNIT_SRC    := $(sort $(wildcard tests/unit/test-*.c))
TOOL_SRC    := $(sort $(wildcard tests/tools/*.c))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
COMMON_OBJ  := $(call obj,$(COMMON_SRC))
COLLECT_OBJ := $(call obj,$(COLLECT_SRC))
ANALYZE_OBJ := $(call obj,$(ANALYZE_SRC))
COLLECT_LIB := $(filter-out $(BUILD)/obj/collect/main.o,$(COLLECT_OBJ))
ANALYZE_LIB := $(filter-out $(BUILD)/obj/analyze/main.o,$(ANALYZE_OBJ)) \
               $(BUILD)/obj/gen/schema.o
SCHEMA_SQL  := $(sort $(wildcard schema/*.sql))
AUNIT_SRC   := $(sort $(wildcard tests/unit/atest-*.c))
UNIT_BIN    := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC) $(AUNIT_SRC))
TOOL_BIN    := $(patsubst tests/tools/%.c,$(BUILD)/tests/%,$(TOOL_SRC))

all: $(BUILD)/rdma-collect $(BUILD)/rdma-analyze

# the analyzer builds paths from bundle contents with snprintf: a path cut
# by the buffer simply is not found in the bundle, which is the intent
$(BUILD)/obj/analyze/%.o: FILE_WARN := -Wno-format-truncation

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/rdma-collect: $(COLLECT_OBJ) $(COMMON_OBJ)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# the migrations, schema/NNN-*.sql in order, become C strings
$(BUILD)/gen/schema.c: $(SCHEMA_SQL) Makefile
	@mkdir -p $(dir $@)
	$(Q){ echo '/* generated from the schema folder by the Makefile */'; \
	  echo '#include <stddef.h>'; \
	  echo 'extern const char *const db_migrations[];'; \
	  echo 'const char *const db_migrations[] = {'; \
	  for f in $(SCHEMA_SQL); do \
	    sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $$f; echo ','; \
	  done; echo 'NULL };'; } >$@

$(BUILD)/obj/gen/schema.o: $(BUILD)/gen/schema.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/rdma-analyze: $(ANALYZE_OBJ) $(BUILD)/obj/gen/schema.o $(COMMON_OBJ)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/test-%: tests/unit/test-%.c $(COLLECT_LIB) $(COMMON_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Icollect $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# analyzer unit tests: tests/unit/atest-*.c link the analyzer's objects
$(BUILD)/tests/atest-%: tests/unit/atest-%.c $(ANALYZE_LIB) $(COMMON_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Ianalyze $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/%: tests/tools/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TOOL    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBS) \
		$(if $(filter hangfs,$*),$(shell $(PKG_CONFIG) --cflags --libs fuse3 2>/dev/null))

tests: all $(UNIT_BIN) $(TOOL_BIN)

SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
             -fno-omit-frame-pointer

# make check BUILD=DIR: the sanitized build in DIR instead of build-check
# (several check builds side by side)
CHECK_BUILD := $(if $(filter command line,$(origin BUILD)),$(BUILD),build-check)

check:
	$(Q)$(MAKE) --no-print-directory BUILD=$(CHECK_BUILD) \
		EXTRA_CFLAGS="$(SAN_FLAGS) -Werror -O1 -g" tests
	$(Q)UPDATE=$(UPDATE) TESTS="$(TESTS)" tests/run.sh $(CHECK_BUILD)

# only the Soft-RoCE guests under qemu (tests/cli/vm.sh, tests/vm/)
check-vm:
	$(Q)$(MAKE) --no-print-directory check TESTS=vm

# every figure also goes to $(BUILD)/bench.tsv; the table at the end
bench: all $(TOOL_BIN)
	$(Q): >$(BUILD)/bench.tsv
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv tests/bench.sh $(BUILD)
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv tests/bench-fabric.sh $(BUILD)
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv tests/bench-pairs.sh $(BUILD)
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv $(if $(N),N=$(N) )tests/bench-analyze.sh $(BUILD)
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv tests/bench-fleet.sh $(BUILD)
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv $(if $(N),N=$(N) )tests/bench-html.sh $(BUILD)
	$(Q)tests/bench-table.sh $(BUILD)/bench.tsv

# libFuzzer targets (tests/fuzz/): `make fuzz FUZZ_SECONDS=N` builds the
# analyzer with clang and the fuzzer's instrumentation in build-fuzz/ and
# runs every target N seconds from its committed corpus; what it finds
# goes to build-fuzz/corpus/ and build-fuzz/crash-*, never into tests/
# (the runs take one CPU: no -j here)
FUZZ_SECONDS ?= 10
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all \
                -fno-omit-frame-pointer
FUZZ_SRC     := $(sort $(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BIN     := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRC))

$(BUILD)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(BUILD)/obj/tests/fuzz/lib.o \
		$(ANALYZE_LIB) $(COMMON_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZ    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Ianalyze -Itests/fuzz -fsanitize=fuzzer \
		$(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/obj/tests/fuzz/lib.o: tests/fuzz/lib.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -Ianalyze -c -o $@ $<

fuzz-targets: $(FUZZ_BIN)

# the instrumented build alone, in FUZZ_BUILD (tests/cli/fuzz.sh uses it)
FUZZ_BUILD ?= build-fuzz
fuzz-build:
	$(Q)$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang \
		EXTRA_CFLAGS="$(FUZZ_SAN) -fsanitize=fuzzer-no-link -O1 -g \
		-Wno-unknown-warning-option -Wno-format-nonliteral" fuzz-targets

fuzz: fuzz-build
	$(Q)for t in $(patsubst tests/fuzz/fuzz-%.c,%,$(FUZZ_SRC)); do \
		mkdir -p $(FUZZ_BUILD)/corpus/$$t; c=tests/fuzz/corpus/$$t; \
		[ -d $$c ] || c=; \
		echo "  RUN     $$t ($(FUZZ_SECONDS) s)"; \
		$(FUZZ_BUILD)/fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) \
			-close_fd_mask=3 -artifact_prefix=$(FUZZ_BUILD)/crash-$$t- \
			$(FUZZ_BUILD)/corpus/$$t $$c >$(FUZZ_BUILD)/$$t.log 2>&1 || \
			{ tail -n 40 $(FUZZ_BUILD)/$$t.log; exit 1; }; \
		tail -n 1 $(FUZZ_BUILD)/$$t.log; \
	done

# the README's first command: collect this machine (when it can), then
# analyze it with the shipped samples (three nodes and the sample fleet):
# an HTML report in $(BUILD)/report.html and the text report's first lines
demo: all
	$(Q)b=$$($(BUILD)/rdma-collect -q -o $(BUILD) 2>/dev/null) || b=; \
	set -- $$b samples/*.rdma.tar.zst samples/fleet/*.rdma.tar.zst; \
	$(BUILD)/rdma-analyze report -f html -o $(BUILD)/report.html "$$@"; \
	rc=$$?; [ $$rc -le 2 ] || exit $$rc; \
	$(BUILD)/rdma-analyze report "$$@" >$(BUILD)/report.txt; \
	rc=$$?; [ $$rc -le 2 ] || exit $$rc; \
	head -n 30 $(BUILD)/report.txt; \
	echo "demo: $$# bundles$${b:+ (this machine: $$b)}; full reports in $(BUILD)/report.txt and $(BUILD)/report.html"

# rebuild samples/ from the fixture nodes, and the sample fleet
# samples/fleet/ with its faults.tsv (byte-identical each time)
samples: all
	$(Q)tests/mksamples.sh $(BUILD)
	$(Q)tests/mkfleet.sh $(BUILD)

install: all
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(BUILD)/rdma-collect $(DESTDIR)$(SBINDIR)/rdma-collect
	install -m 0755 $(BUILD)/rdma-analyze $(DESTDIR)$(BINDIR)/rdma-analyze
	install -m 0644 collect/rdma-collect.8 $(DESTDIR)$(MANDIR)/man8/rdma-collect.8
	install -m 0644 analyze/rdma-analyze.1 $(DESTDIR)$(MANDIR)/man1/rdma-analyze.1

clean:
	rm -rf build build-check

.PHONY: all tests check check-vm bench demo samples install clean fuzz \
	fuzz-build fuzz-targets

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
