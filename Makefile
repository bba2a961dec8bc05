# rdma-collect / rdma-analyze
#
#   make              build both programs in build/
#   make check        build with -fsanitize=address,undefined -Werror in
#                     build-check/ and run every test (tests/run.sh)
#   make check-vm     only the Soft-RoCE guests under qemu (tests/vm/),
#                     the static collector's library-free guest among them
#   make bench        speed, memory and size figures (tests/bench.sh,
#                     tests/bench-fabric.sh, tests/bench-pairs.sh,
#                     tests/bench-analyze.sh, tests/bench-html.sh,
#                     tests/bench-static.sh, tests/bench-check.sh,
#                     tests/bench-history.sh)
#   make fuzz         libFuzzer targets, FUZZ_SECONDS=N each (tests/fuzz/)
#   make static       one rdma-collect with no shared library at all, for
#                     any Linux node: build-static/rdma-collect-$(ARCH);
#                     ARCH=aarch64 cross-compiles (static/deps.sh)
#   make install      PREFIX=/usr/local DESTDIR= (SYSTEMDUNITDIR for the units,
#                     LIBEXECDIR and DATADIR for contrib/)
#   make dist         the source tarball $(BUILD)/rdma-collect-$(VERSION).tar.gz
#   make deb          Debian packages from it in $(BUILD)/deb/ (debian/)
#   make rpm          RPM packages from it in $(BUILD)/rpm/ (redhat/*.spec)
#   make V=1          show the commands

VERSION    := 0.1.0
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
SBINDIR    ?= $(PREFIX)/sbin
MANDIR     ?= $(PREFIX)/share/man
# contrib/: the Slurm and NPD wrappers (programs) and the NHC check and
# Kubernetes files (data), for the site to point its configuration at
LIBEXECDIR ?= $(PREFIX)/libexec
DATADIR    ?= $(PREFIX)/share
# the timer and service of systemd/ (packages: /lib/systemd/system or
# /usr/lib/systemd/system); installed, never enabled
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
CC         ?= cc
PKG_CONFIG ?= pkg-config
BUILD      ?= build

PKGS       := libarchive libzstd libpci sqlite3
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS))

CFLAGS     ?= -O2 -g
WARN       := -std=c11 -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes \
              -Wmissing-prototypes -Wvla
ALL_CFLAGS = $(WARN) $(FILE_WARN) $(DIR_INC) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS) \
              $(PKG_CFLAGS) $(LINK_CFLAGS) -Iinclude -D_GNU_SOURCE \
              -DVERSION=\"$(VERSION)\" -MMD -MP
ALL_LDFLAGS := $(LDFLAGS) $(EXTRA_LDFLAGS)
LIBS       := $(PKG_LIBS) -ldl -lm

# the static collector (make static runs this Makefile again with
# LINKAGE=static): libarchive and libpci built by static/deps.sh from
# Debian's source packages, zstd, libnl and rdma-core's own static
# libraries with every verbs provider Debian builds (rdmalib.c registers
# them), glibc's libc.a; rdma-core is linked in instead of dlopen'ed
LINKAGE    ?= dynamic
ARCH       ?= $(shell uname -m)
TRIPLET    := $(ARCH)-linux-gnu
DEB_ARCH   := $(patsubst x86_64,amd64,$(patsubst aarch64,arm64,$(ARCH)))
STATIC_DIR ?= build-static
STATIC_SRC ?= $(STATIC_DIR)/src
ifeq ($(LINKAGE),static)
STATIC_DEPS := $(STATIC_DIR)/deps-$(ARCH)
RDMA_CORE_A := $(shell dpkg -L libibverbs-dev:$(DEB_ARCH) 2>/dev/null | \
                 grep '/lib[^/]*\.a$$' | sort)
PKG_CFLAGS  := -I$(STATIC_DEPS)/include
LINK_CFLAGS := -DRDMA_COLLECT_STATIC
LIBS        := -static $(STATIC_DEPS)/lib/libarchive.a \
               $(STATIC_DEPS)/lib/libpci.a -lzstd -Wl,--start-group \
               -libnetdisc -libmad -libumad $(RDMA_CORE_A) -Wl,--end-group \
               -lnl-route-3 -lnl-3 -lpthread -lm \
               -Wl,-Map=$(BUILD)/rdma-collect.map
RDMA_CORE_VERSION := $(shell dpkg-query -W -f='$${Version}' \
                 libibverbs-dev:$(DEB_ARCH) 2>/dev/null)
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

COMMON_SRC  := $(sort $(wildcard include/*.c))
COLLECT_SRC := $(sort $(wildcard collect/*.c))
ANALYZE_SRC := $(sort $(wildcard analyze/*.c analyze/import/*.c))
UNIT_SRC    := $(sort $(wildcard tests/unit/test-*.c))
TOOL_SRC    := $(sort $(wildcard tests/tools/*.c))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
COMMON_OBJ  := $(call obj,$(COMMON_SRC))
COLLECT_OBJ := $(call obj,$(COLLECT_SRC))
ANALYZE_OBJ := $(call obj,$(ANALYZE_SRC))
COLLECT_LIB := $(filter-out $(BUILD)/obj/collect/main.o,$(COLLECT_OBJ))
ANALYZE_LIB := $(filter-out $(BUILD)/obj/analyze/main.o,$(ANALYZE_OBJ)) \
               $(BUILD)/obj/gen/schema.o $(BUILD)/obj/gen/report-assets.o \
               $(BUILD)/obj/gen/rules-sql.o
SCHEMA_SQL  := $(sort $(wildcard schema/*.sql))
REPORT_ASSETS := $(sort $(wildcard analyze/report/*.js analyze/report/*.css))
RULES_SQL   := $(sort $(wildcard analyze/rules/[A-Z]*.sql))
RULES_VIEWS := $(sort $(wildcard analyze/rules/[a-z]*.sql))
AUNIT_SRC   := $(sort $(wildcard tests/unit/atest-*.c))
UNIT_BIN    := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC) $(AUNIT_SRC))
TOOL_BIN    := $(patsubst tests/tools/%.c,$(BUILD)/tests/%,$(TOOL_SRC))

all: $(BUILD)/rdma-collect $(BUILD)/rdma-analyze

# the analyzer builds paths from bundle contents with snprintf: a path cut
# by the buffer simply is not found in the bundle, which is the intent
$(BUILD)/obj/analyze/%.o: FILE_WARN := -Wno-format-truncation
# the import (analyze/import/) includes the analyzer's headers by name
$(BUILD)/obj/analyze/import/%.o: DIR_INC := -Ianalyze

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# what --version names besides the version: the commit (with -dirty when
# the tree differs from it; in a tree unpacked from `make dist`, the one
# its COMMIT file names; "unknown" elsewhere) and how the program is
# linked; the file is rewritten only when they change, so an unchanged
# tree relinks nothing
$(BUILD)/gen/build-info.c: FORCE
	@mkdir -p $(dir $@)
	$(Q)if [ -f COMMIT ]; then c=$$(tr -cd '0-9a-f' <COMMIT); c=$${c:-unknown}; \
	  else c=$$(git -C "$(CURDIR)" rev-parse --short=12 HEAD 2>/dev/null || \
		echo unknown); \
	  [ "$$c" = unknown ] || git -C "$(CURDIR)" diff --quiet HEAD -- \
		2>/dev/null || c="$$c-dirty"; fi; \
	  printf '%s\n' '/* generated by the Makefile */' \
		'#include "version.h"' \
		"const char build_commit[] = \"$$c\";" \
		'const char build_linkage[] = "$(LINKAGE)";' \
		'const char build_rdma_core[] = "$(RDMA_CORE_VERSION)";' >$@.tmp; \
	  if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/obj/gen/build-info.o: $(BUILD)/gen/build-info.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

FORCE:
.PHONY: FORCE

$(BUILD)/rdma-collect: $(COLLECT_OBJ) $(COMMON_OBJ) $(BUILD)/obj/gen/build-info.o
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

# the HTML report's script and style sheet, analyze/report/NAME.js and
# NAME.css, become the C strings NAME_js and NAME_css (report-html.h):
# comment lines (// in a script, /* to */ in a style sheet) and empty
# lines are left out, a line that starts with a tab continues the line
# before it; a script's lines end in a newline, a style sheet's in
# nothing.  The page gets the bytes it had when they were C literals.
$(BUILD)/gen/report-assets.c: $(REPORT_ASSETS) Makefile
	@mkdir -p $(dir $@)
	$(Q){ echo '/* generated from analyze/report/ by the Makefile */'; \
	  echo '#include "report-html.h"'; \
	  for f in $(REPORT_ASSETS); do \
	    echo "const char $$(basename $$f | tr . _)[] ="; \
	    case $$f in \
	    *.js) sed -e '/^\/\//d' -e '/^$$/d' $$f ;; \
	    *) sed -e '/^\/\*/{' -e ':c' -e '/\*\/$$/!{N;bc' -e '}' -e 'd' \
		-e '}' -e '/^$$/d' $$f ;; \
	    esac | sed -e ':a' -e '$$!N' -e 's/\n\t//' -e 'ta' -e 'P' -e 'D' | \
	    case $$f in \
	    *.js) sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' ;; \
	    *) sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/"/' ;; \
	    esac; echo ';'; \
	  done; } >$@

$(BUILD)/obj/gen/report-assets.o: $(BUILD)/gen/report-assets.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -Ianalyze -c -o $@ $<

# the rules' queries, analyze/rules/<ID>.sql, become C strings keyed by
# the file's name (rule_sql()); the lower-case files are the views they
# share, created first
SQL_TO_C = sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $(1)
$(BUILD)/gen/rules-sql.c: $(RULES_SQL) $(RULES_VIEWS) Makefile
	@mkdir -p $(dir $@)
	$(Q){ echo '/* generated from analyze/rules/ by the Makefile */'; \
	  echo '#include <stddef.h>'; \
	  echo 'extern const char *const rules_sql[];'; \
	  echo 'extern const char *const rules_sql_views[];'; \
	  echo 'const char *const rules_sql[] = {'; \
	  for f in $(RULES_SQL); do \
	    b=$${f##*/}; echo "\"$${b%.sql}\","; $(call SQL_TO_C,$$f); echo ','; \
	  done; echo 'NULL };'; \
	  echo 'const char *const rules_sql_views[] = {'; \
	  for f in $(RULES_VIEWS); do $(call SQL_TO_C,$$f); echo ','; done; \
	  echo 'NULL };'; } >$@

$(BUILD)/obj/gen/rules-sql.o: $(BUILD)/gen/rules-sql.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/rdma-analyze: $(ANALYZE_OBJ) $(BUILD)/obj/gen/schema.o \
		$(BUILD)/obj/gen/report-assets.o $(BUILD)/obj/gen/rules-sql.o \
		$(COMMON_OBJ) \
		$(BUILD)/obj/gen/build-info.o
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

# rxe-add adds rxe0 in the static VM guest, which has no shared library:
# linked with -static, so without the sanitizers of a check build
$(BUILD)/tests/rxe-add: tests/tools/rxe-add.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TOOL    $@")
	$(Q)$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) \
		$(filter-out -fsanitize% -fno-sanitize%,$(EXTRA_CFLAGS)) \
		-D_GNU_SOURCE $(LDFLAGS) -static -o $@ $<

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

# only the Soft-RoCE guests under qemu (tests/cli/vm.sh, tests/vm/); the
# static collector first, for the library-free guest (where tests/cli/
# static.sh puts it in a full check; if it cannot be built, that guest is
# skipped with the reason)
check-vm:
	-$(Q)$(MAKE) --no-print-directory static STATIC_DIR=$(CHECK_BUILD)/static
	$(Q)$(MAKE) --no-print-directory check TESTS=vm

# every figure also goes to $(BUILD)/bench.tsv; the table at the end
bench: all $(TOOL_BIN)
	$(Q): >$(BUILD)/bench.tsv
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv tests/bench.sh $(BUILD)
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv tests/bench-check.sh $(BUILD)
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv tests/bench-fabric.sh $(BUILD)
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv tests/bench-pairs.sh $(BUILD)
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv $(if $(N),N=$(N) )tests/bench-analyze.sh $(BUILD)
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv tests/bench-fleet.sh $(BUILD)
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv tests/bench-history.sh $(BUILD)
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv $(if $(N),N=$(N) )tests/bench-html.sh $(BUILD)
	$(Q)$(MAKE) --no-print-directory static ARCH=$(shell uname -m)
	$(Q)[ "$(shell uname -m)" != x86_64 ] || \
		$(MAKE) --no-print-directory static ARCH=aarch64
	$(Q)BENCH_TSV=$(abspath $(BUILD))/bench.tsv tests/bench-static.sh $(BUILD) \
		$(abspath $(STATIC_DIR))
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

# one file per architecture to copy to a node: build-static/rdma-collect-$(ARCH)
# (stripped; the one with its symbols stays in build-static/$(ARCH)/)
STATIC_CROSS := $(if $(filter $(ARCH),$(shell uname -m)),,$(TRIPLET)-)
static:
	$(Q)static/deps.sh $(STATIC_SRC) $(STATIC_DIR)/deps-$(ARCH) $(TRIPLET)
	$(Q)$(MAKE) --no-print-directory LINKAGE=static ARCH=$(ARCH) \
		BUILD=$(STATIC_DIR)/$(ARCH) CC=$(STATIC_CROSS)gcc \
		$(STATIC_DIR)/$(ARCH)/rdma-collect
	$(Q)$(STATIC_CROSS)strip -o $(STATIC_DIR)/rdma-collect-$(ARCH).tmp \
		$(STATIC_DIR)/$(ARCH)/rdma-collect && \
	  mv $(STATIC_DIR)/rdma-collect-$(ARCH).tmp $(STATIC_DIR)/rdma-collect-$(ARCH)
	$(Q)echo "static: $(STATIC_DIR)/rdma-collect-$(ARCH) ($$(stat -c %s \
		$(STATIC_DIR)/rdma-collect-$(ARCH)) bytes)"

install: all
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(SYSTEMDUNITDIR)
	install -m 0755 $(BUILD)/rdma-collect $(DESTDIR)$(SBINDIR)/rdma-collect
	install -m 0755 $(BUILD)/rdma-analyze $(DESTDIR)$(BINDIR)/rdma-analyze
	install -m 0644 collect/rdma-collect.8 $(DESTDIR)$(MANDIR)/man8/rdma-collect.8
	install -m 0644 analyze/rdma-analyze.1 $(DESTDIR)$(MANDIR)/man1/rdma-analyze.1
	install -m 0644 systemd/rdma-collect.service systemd/rdma-collect.timer \
		$(DESTDIR)$(SYSTEMDUNITDIR)
	install -d $(DESTDIR)$(LIBEXECDIR)/rdma-analyze \
		$(DESTDIR)$(DATADIR)/rdma-analyze/nhc \
		$(DESTDIR)$(DATADIR)/rdma-analyze/kubernetes
	install -m 0755 contrib/slurm/rdma-healthcheck \
		contrib/kubernetes/rdma-npd-check $(DESTDIR)$(LIBEXECDIR)/rdma-analyze
	install -m 0644 contrib/nhc/rdma.nhc $(DESTDIR)$(DATADIR)/rdma-analyze/nhc
	install -m 0644 contrib/kubernetes/rdma-npd.yaml \
		contrib/kubernetes/rdma-check.json contrib/kubernetes/Dockerfile \
		$(DESTDIR)$(DATADIR)/rdma-analyze/kubernetes

# the source tarball of HEAD (what is committed, not the work tree), with
# a COMMIT file naming the commit for --version where git is absent; the
# Debian and RPM packages build from it
DIST := rdma-collect-$(VERSION)
dist:
	$(Q)c=$$(git -C "$(CURDIR)" rev-parse --short=12 HEAD) || exit 1; \
	  git -C "$(CURDIR)" diff --quiet HEAD -- || \
		echo "make dist: uncommitted changes are left out of $(DIST).tar.gz" >&2; \
	  mkdir -p $(BUILD)/dist && printf '%s\n' "$$c" >$(BUILD)/dist/COMMIT && \
	  touch -d @$$(git -C "$(CURDIR)" log -1 --format=%ct HEAD) \
		$(BUILD)/dist/COMMIT && \
	  git -C "$(CURDIR)" archive --format=tar.gz --prefix=$(DIST)/ \
		--add-file=$(BUILD)/dist/COMMIT \
		-o $(abspath $(BUILD))/$(DIST).tar.gz HEAD && \
	  echo "  DIST    $(BUILD)/$(DIST).tar.gz ($$c)"

# the Debian packages, built by dpkg-buildpackage in the unpacked tarball
# so what it writes beside the tree (.deb, .changes, .buildinfo) lands in
# $(BUILD)/deb, never in the folder holding this checkout; the packages'
# own make must not inherit this one's variables (BUILD=, V=, ...)
DEB_DIR := $(BUILD)/deb
PKG_ENV := env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL \
	   -u BUILD -u PREFIX -u DESTDIR -u V
deb: dist
	$(Q)rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR) && \
	  tar -C $(DEB_DIR) -xzf $(BUILD)/$(DIST).tar.gz && \
	  ln -s ../$(DIST).tar.gz $(DEB_DIR)/rdma-collect_$(VERSION).orig.tar.gz
	$(Q)cd $(DEB_DIR)/$(DIST) && $(PKG_ENV) dpkg-buildpackage -us -uc -b -Jauto \
		>../build.log 2>&1 || { tail -n 40 ../build.log; exit 1; }
	$(Q)cd $(DEB_DIR) && for f in *.deb; do echo "  DEB     $(DEB_DIR)/$$f"; done

# the RPM packages, from the tarball and the spec in it, in a topdir of
# their own; --nodeps: on a Debian machine the BuildRequires are Debian
# packages rpm does not know
RPM_DIR := $(BUILD)/rpm
rpm: dist
	$(Q)rm -rf $(RPM_DIR) && mkdir -p $(RPM_DIR)/SOURCES $(RPM_DIR)/SPECS && \
	  cp $(BUILD)/$(DIST).tar.gz $(RPM_DIR)/SOURCES/ && \
	  tar -xzOf $(BUILD)/$(DIST).tar.gz $(DIST)/redhat/rdma-collect.spec \
		>$(RPM_DIR)/SPECS/rdma-collect.spec
	$(Q)$(PKG_ENV) rpmbuild -bb --nodeps --define "_topdir $(abspath $(RPM_DIR))" \
		$(RPM_DIR)/SPECS/rdma-collect.spec >$(RPM_DIR)/build.log 2>&1 || \
		{ tail -n 40 $(RPM_DIR)/build.log; exit 1; }
	$(Q)cd $(RPM_DIR) && for f in RPMS/*/*.rpm; do echo "  RPM     $(RPM_DIR)/$$f"; done

clean:
	rm -rf build build-check build-static

.PHONY: all tests check check-vm bench demo samples install clean fuzz \
	fuzz-build fuzz-targets dist deb rpm static

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
