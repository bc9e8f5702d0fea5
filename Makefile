# fence-trace: tools, guest lab and tests for DRM explicit fencing.
#
#   make check   install what is missing, build the guest kernel (cached),
#                run the host unit tests and the guest tests
#   make demo    boot the guest and run the compositor workload
#   make         build the tools only
#   make install / make uninstall   fence-trace, its man pages and its bash
#                completion under $(DESTDIR)$(PREFIX) (default PREFIX /usr/local)
#
# Build products go to build/; the kernel and its cache to
# $FENCE_TRACE_CACHE (default ~/.cache/fence-trace).  V=1 shows commands.

CC ?= gcc
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wno-unused-parameter
override CFLAGS += -std=gnu11 -D_GNU_SOURCE $(WARN) -MMD -MP
DRM_CFLAGS := $(shell pkg-config --cflags libdrm 2>/dev/null)
TRACEFS_CFLAGS := $(shell pkg-config --cflags libtracefs libtracecmd 2>/dev/null)
TRACEEVENT_CFLAGS := $(shell pkg-config --cflags libtraceevent 2>/dev/null)

OUT := build
# The tool's version (lib/version.c): one line in VERSION.
FT_VERSION := $(shell cat VERSION)
BIN := $(OUT)/bin
HOSTBIN := $(OUT)/bin-host
OBJ := $(OUT)/obj

ifeq ($(V),1)
Q :=
else
Q := @
endif

.DELETE_ON_ERROR:
.PHONY: FORCE all deps kernel kernel-stock kernel-debug check-series check-prefixes check unit-tests guest-tests \
	demo bench fuzz clean series-tree series-export install uninstall check-golden

# Programs that go into the guest (everything in build/bin is copied there).
GUEST_PROGS := $(BIN)/fence-trace $(BIN)/fence-workload $(BIN)/fence-storm $(BIN)/abi-conformance $(BIN)/series-events \
	$(BIN)/series-state $(BIN)/pty-run $(BIN)/fence-cost $(BIN)/leak-proof $(BIN)/ring-floor
HOST_PROGS := $(HOSTBIN)/logscan $(HOSTBIN)/unit-tests $(HOSTBIN)/tracedat-bench $(HOSTBIN)/storm-synth \
	$(HOSTBIN)/merge-synth $(HOSTBIN)/timeline-synth $(HOSTBIN)/golden-traces \
	$(HOSTBIN)/tracedat-fuzz $(HOSTBIN)/docgen $(HOSTBIN)/v7-zip $(HOSTBIN)/tracedat-walk \
	$(HOSTBIN)/fleet-synth

# Man pages: the prose is scdoc(5) text in docs/man/; docgen fills in each
# command's OPTIONS (and fence-trace.1's COMMANDS) from the option tables
# that --help prints and getopt_long() parses (cli/usage.c), then scdoc
# writes the page.  docgen writes the bash completion from the same tables.
DOCGEN_SRC := cli/docgen/docgen.c cli/docgen/man.c cli/docgen/completion.c cli/usage.c
MAN_OUT := $(OUT)/man
MAN_SCD := $(OUT)/man-scd
MAN_PAGES := $(patsubst docs/man/%.scd,$(MAN_OUT)/%,$(wildcard docs/man/*.scd))
COMPLETION := $(OUT)/completion/fence-trace
MAN_EPOCH = $(shell git log -1 --format=%ct 2>/dev/null)

# Stand-ins for a user's own programs in the run-guest tests.
LAB_EXTRA := $(OUT)/lab-extra/hello-static $(OUT)/lab-extra/hello-dynamic

all: $(GUEST_PROGS) $(HOST_PROGS) $(LAB_EXTRA) $(OUT)/asan/unit-tests $(OUT)/asan/bin/fence-trace \
	$(MAN_PAGES) $(COMPLETION)

$(OUT)/lab-extra/hello-static: tests/lab/hello.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -static -o $@ $<
$(OUT)/lab-extra/hello-dynamic: tests/lab/hello.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $<

# The layers, one folder and one static archive each (docs/architecture.md;
# tests/layout/check-layers holds the objects to it).  A program links the
# archives of the layers it uses, top layer first.
LIB_SRC := $(wildcard lib/*.c)
# viz-assets.c is generated from viz/ (the page's HTML, CSS and JS,
# embedded into the binary).
VIZ_ASSETS := viz/timeline.html viz/timeline.css viz/timeline.js
OUTPUT_SRC := $(wildcard output/*.c) $(OUT)/gen/viz-assets.c
CAPTURE_SRC := $(wildcard capture/*.c)
LIVE_SRC := $(filter-out %.bpf.c,$(wildcard live/*.c))
CLI_SRC := $(wildcard cli/*.c)
LAYER_SRC := $(LIB_SRC) $(OUTPUT_SRC) $(CAPTURE_SRC) $(LIVE_SRC)
AR_DIR := $(OUT)/ar
LIB_A := $(AR_DIR)/lib.a
OUTPUT_A := $(AR_DIR)/output.a
CAPTURE_A := $(AR_DIR)/capture.a
LIVE_A := $(AR_DIR)/live.a
LAYER_HEADERS := $(wildcard lib/*.h output/*.h capture/*.h live/*.h cli/*.h workload/*.h)
LAYER_INCLUDES := -Ilib -Ioutput -Icapture -Ilive -Icli -Iworkload

# The lab's programs (workload/): they use lib/'s sync_file helpers only.
LAB_LIB := workload/kms.c lib/sync.c
WORKLOAD_SRC := workload/fence-workload.c workload/frame-print.c workload/producer.c workload/starve.c workload/release-usr1.c workload/vgem-fence-source.c workload/workload-plan.c \
	lib/parse-num.c $(LAB_LIB)
ZIP_LIBS := -lzstd -lz
CORE_LIBS := -ltracecmd -ltracefs -ltraceevent $(ZIP_LIBS) -lm
BPF_LIBS := -lbpf -lelf -lz
CONFORMANCE_SRC := tests/guest/abi-conformance.c tests/guest/tap.c tests/guest/fd-leak.c tests/guest/lab.c \
	tests/guest/guest-trace.c $(LAB_LIB)
SERIES_EVENTS_SRC := tests/guest/series-events.c tests/guest/tap.c tests/guest/fd-leak.c tests/guest/lab.c \
	tests/guest/guest-trace.c tests/guest/trace-lines.c $(LAB_LIB)
SERIES_STATE_SRC := tests/guest/series-state.c tests/guest/vgem-fence.c tests/guest/tap.c tests/guest/fd-leak.c \
	tests/guest/lab.c tests/guest/guest-trace.c tests/guest/trace-lines.c $(LAB_LIB)
LOGSCAN_SRC := tests/lab/logscan.c tests/lab/logscan-rules.c
# The unit tests link the layers' archives, and of live/ only the spill
# file and a few more (the rest of live/ needs the BPF skeletons, so the guest kernel).
UNIT_TEST_SRC := tests/unit/unit-tests.c tests/unit/test-logscan.c tests/unit/test-frames.c tests/unit/test-failed-frames.c tests/unit/test-driver-part.c tests/unit/test-sched-wakeup.c \
	tests/unit/test-workload-plan.c tests/unit/test-series-probe.c tests/unit/test-sync-name.c tests/unit/test-hist.c \
	tests/unit/test-tracedat.c tests/unit/test-tracedat-bad.c \
	tests/unit/test-tracedat-compat.c tests/unit/test-tracedat-v7-stats.c tests/unit/test-report.c \
	tests/unit/test-model-contexts.c \
	tests/unit/v7-zip.c tests/unit/test-tracedat-zip.c \
	tests/unit/test-timeline.c tests/unit/series-formats.c tests/unit/trace-fixture.c tests/unit/test-report-series.c \
	tests/unit/test-report-sections.c tests/unit/test-report-waits.c tests/unit/test-report-odd.c \
	tests/unit/test-fence-identity.c tests/unit/test-tie-order.c \
	tests/lab/logscan-rules.c workload/workload-plan.c \
	tests/unit/test-mutant-kills.c \
	tests/unit/tmpdir.c tests/unit/test-tmpdir.c tests/unit/vblank-land.c \
	tests/unit/test-spill.c live/record-bpf-spill.c tests/unit/test-stall-class.c live/stall-class.c \
	tests/unit/test-kallsyms.c live/kallsyms.c tests/unit/test-event-formats.c \
	tests/unit/test-lockdown.c tests/unit/test-proc-comm.c \
	tests/unit/test-names-ask.c live/names-ask.c live/fence-names.c tests/unit/test-decode-slots.c \
	tests/unit/test-tables-names.c
UNIT_SRC := $(UNIT_TEST_SRC) $(LIB_SRC) $(OUTPUT_SRC) $(CAPTURE_SRC)

objs = $(patsubst %.c,$(OBJ)/%.o,$(patsubst $(OUT)/%,%,$(1)))

# xxd -i names each array after its path: viz_timeline_js, ..._len.
$(OUT)/gen/viz-assets.c: $(VIZ_ASSETS)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  EMBED   $@")
	$(Q)for f in $^; do xxd -i "$$f"; done >$@

$(OBJ)/gen/%.o: $(OUT)/gen/%.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(DRM_CFLAGS) $(TRACEFS_CFLAGS) $(TRACEEVENT_CFLAGS) \
		$(LAYER_INCLUDES) -Itests/lab -Itests/guest -Itests/unit -I$(OUT)/bpf -c -o $@ $<

$(OBJ)/lib/version.o: VERSION
$(OBJ)/lib/version.o: override CFLAGS += -DFENCE_TRACE_VERSION='"$(FT_VERSION)"'

$(LIB_A): $(call objs,$(LIB_SRC))
$(OUTPUT_A): $(call objs,$(OUTPUT_SRC))
$(CAPTURE_A): $(call objs,$(CAPTURE_SRC))
$(LIVE_A): $(call objs,$(LIVE_SRC))
$(AR_DIR)/%.a:
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BIN)/fence-trace: $(call objs,$(CLI_SRC)) $(LIVE_A) $(CAPTURE_A) $(OUTPUT_A) $(LIB_A)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ $(CORE_LIBS) $(BPF_LIBS)

# BPF: vmlinux.h from the guest kernel's BTF (rewritten only when it
# changes), objects with clang, skeletons with bpftool.  Nothing tracked.
BPF_OUT := $(OUT)/bpf
$(BPF_OUT)/vmlinux.h: FORCE
	@mkdir -p $(dir $@)
	$(Q)kdir=$$(kernel/build-kernel patched | tail -1) && \
		bpftool btf dump file $$kdir/vmlinux format c >$@.tmp && \
		{ cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@; }

$(BPF_OUT)/%.bpf.o: live/%.bpf.c live/%.h live/fence-ops.h live/fence-ops.bpf.h live/fence-names.bpf.h $(BPF_OUT)/vmlinux.h
	$(if $(Q),@echo "  BPF     $<")
	$(Q)clang -g -O2 -Wall -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 -I$(BPF_OUT) -Ilive -c $< -o $@

$(BPF_OUT)/%.skel.h: $(BPF_OUT)/%.bpf.o
	$(if $(Q),@echo "  SKEL    $@")
	$(Q)bpftool gen skeleton $< name $(subst -,_,$*)_bpf >$@

$(OBJ)/cli/cmd-latency.o $(OBJ)/live/latency-print.o $(OBJ)/live/latency-bpf.o \
	$(OBJ)/cli/cmd-top.o $(OBJ)/live/top-pending.o: $(BPF_OUT)/fence-latency.skel.h
$(OBJ)/cli/cmd-stall.o $(OBJ)/live/stall-print.o $(OBJ)/live/stall-print-class.o $(OBJ)/live/stall-series.o $(OBJ)/live/stall-debugfs.o \
	$(OBJ)/live/stall-tables.o: \
	$(BPF_OUT)/fence-stall.skel.h
$(OBJ)/live/record-bpf.o $(OBJ)/cli/cmd-record.o $(OBJ)/tests/bench/ring-floor.o: $(BPF_OUT)/fence-record.skel.h
$(OBJ)/cli/cmd-stall.o $(OBJ)/live/stall-before.o: $(BPF_OUT)/fence-waiters.skel.h
$(OBJ)/live/attach-check.o: $(BPF_OUT)/fence-latency.skel.h $(BPF_OUT)/fence-stall.skel.h \
	$(BPF_OUT)/fence-record.skel.h

FORCE:

$(BIN)/fence-storm: $(call objs,workload/fence-storm.c lib/sync.c lib/parse-num.c)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -lpthread

$(BIN)/fence-workload: $(call objs,$(WORKLOAD_SRC))
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ldrm -lpthread

$(BIN)/abi-conformance: $(call objs,$(CONFORMANCE_SRC))
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ldrm -lpthread -ltracefs -ltraceevent

$(BIN)/series-events: $(call objs,$(SERIES_EVENTS_SRC))
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ldrm -lpthread -ltracefs -ltraceevent

$(BIN)/leak-proof: $(call objs,tests/guest/leak-proof.c tests/guest/tap.c tests/guest/fd-leak.c lib/sync.c)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^

$(BIN)/pty-run: $(call objs,tests/guest/pty-run.c)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^

$(BIN)/series-state: $(call objs,$(SERIES_STATE_SRC))
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ldrm -lpthread -ltracefs -ltraceevent

$(BIN)/fence-cost: $(call objs,tests/bench/fence-cost.c tests/guest/lab.c tests/guest/tap.c tests/guest/fd-leak.c lib/parse-num.c $(LAB_LIB))
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ldrm -lm

$(BIN)/ring-floor: $(call objs,tests/bench/ring-floor.c) $(LIVE_A) $(CAPTURE_A) $(LIB_A)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ltracefs -ltraceevent $(BPF_LIBS)

$(HOSTBIN)/logscan: $(call objs,$(LOGSCAN_SRC))
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^

$(HOSTBIN)/unit-tests: $(call objs,$(UNIT_TEST_SRC)) $(CAPTURE_A) $(OUTPUT_A) $(LIB_A)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -lcmocka $(CORE_LIBS) $(BPF_LIBS)

# Compressed copies of uncompressed v7 files (the zlib fixture; tests/unit/v7-zip.c).
$(HOSTBIN)/v7-zip: $(call objs,tests/unit/v7-zip-main.c tests/unit/v7-zip.c)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ $(ZIP_LIBS)

$(HOSTBIN)/storm-synth: $(call objs,tests/bench/storm-synth.c) $(LIB_A)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ltraceevent $(ZIP_LIBS)

$(HOSTBIN)/merge-synth: $(call objs,tests/bench/merge-synth.c) $(LIB_A)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ltraceevent

$(HOSTBIN)/tracedat-walk: $(call objs,tests/bench/tracedat-walk.c) $(LIB_A)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ltraceevent $(ZIP_LIBS)

$(HOSTBIN)/tracedat-bench: $(call objs,tests/bench/tracedat-bench.c) $(LIB_A)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ltraceevent $(ZIP_LIBS)

$(HOSTBIN)/fleet-synth: $(call objs,tests/fleet/fleet-synth.c tests/unit/vblank-land.c) $(LIB_A)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ltraceevent $(ZIP_LIBS)

$(HOSTBIN)/timeline-synth: $(call objs,tests/bench/timeline-synth.c tests/unit/vblank-land.c) $(LIB_A)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ltraceevent $(ZIP_LIBS)

# The golden tests' constructed traces, written at test time (tests/golden).
GOLDEN_SRC := tests/golden/golden-traces.c tests/golden/golden-stock.c tests/golden/golden-series.c \
	tests/golden/golden-frames.c \
	tests/unit/series-formats.c tests/unit/tmpdir.c tests/unit/vblank-land.c
$(HOSTBIN)/golden-traces: $(call objs,$(GOLDEN_SRC)) $(LIB_A)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ltraceevent $(ZIP_LIBS)

# The unit tests again with AddressSanitizer + UndefinedBehaviorSanitizer.
ASAN := $(OUT)/asan
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
$(ASAN)/unit-tests: $(UNIT_SRC) $(LAYER_HEADERS) $(wildcard tests/unit/*.h tests/lab/*.h) VERSION
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  ASAN    $@")
	$(Q)$(CC) -std=gnu11 -D_GNU_SOURCE -DFENCE_TRACE_VERSION='"$(FT_VERSION)"' -O1 -g $(ASAN_FLAGS) $(DRM_CFLAGS) $(TRACEFS_CFLAGS) \
		$(TRACEEVENT_CFLAGS) $(LAYER_INCLUDES) -Itests/lab -Itests/unit -o $@ $(UNIT_SRC) -lcmocka $(CORE_LIBS) $(BPF_LIBS)

# fence-trace itself with the same sanitizers, for tests/cli/test-cli in
# the unit part of tests/run-tests (a build of its own: build/asan/bin).
$(ASAN)/bin/fence-trace: $(CLI_SRC) $(LAYER_SRC) $(LAYER_HEADERS) $(BPF_OUT)/fence-latency.skel.h \
		$(BPF_OUT)/fence-stall.skel.h $(BPF_OUT)/fence-record.skel.h $(BPF_OUT)/fence-waiters.skel.h VERSION
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  ASAN    $@")
	$(Q)$(CC) -std=gnu11 -D_GNU_SOURCE -DFENCE_TRACE_VERSION='"$(FT_VERSION)"' -O1 -g $(ASAN_FLAGS) $(DRM_CFLAGS) $(TRACEFS_CFLAGS) \
		$(TRACEEVENT_CFLAGS) $(LAYER_INCLUDES) -I$(BPF_OUT) -o $@ $(CLI_SRC) $(LAYER_SRC) $(CORE_LIBS) $(BPF_LIBS)

$(HOSTBIN)/docgen: $(call objs,$(DOCGEN_SRC))
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^

# The filled-in sources stay, to be read when a page looks wrong.
.SECONDARY: $(patsubst $(MAN_OUT)/%,$(MAN_SCD)/%.scd,$(MAN_PAGES))
$(MAN_SCD)/%.scd: docs/man/%.scd $(HOSTBIN)/docgen
	@mkdir -p $(dir $@)
	$(Q)$(HOSTBIN)/docgen man $< >$@

# The page's date is the last commit's (SOURCE_DATE_EPOCH), not today's.
$(MAN_OUT)/%.1: $(MAN_SCD)/%.1.scd
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  SCDOC   $@")
	$(Q)$(if $(MAN_EPOCH),SOURCE_DATE_EPOCH=$(MAN_EPOCH) )scdoc <$< >$@

$(COMPLETION): $(HOSTBIN)/docgen
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  GEN     $@")
	$(Q)$(HOSTBIN)/docgen bash-completion >$@

$(HOSTBIN)/tracedat-fuzz: $(call objs,tests/fuzz/tracedat-fuzz.c) $(LIB_A)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ltraceevent $(ZIP_LIBS)

# The kernel's own sync_file selftest, built static from kernel/build-kernel's
# worktree (there once a kernel is built; the series does not touch the
# selftest, so the worktree's state does not matter) against the host's
# uapi headers, and run in the guest by tests/run-tests.
KERNEL_TREE := $(or $(FENCE_TRACE_CACHE),$(HOME)/.cache/fence-trace)/tree
SYNC_SELFTEST_DIR := $(KERNEL_TREE)/tools/testing/selftests/sync
$(OUT)/kselftest/sync_test: $(wildcard $(SYNC_SELFTEST_DIR)/*.c $(SYNC_SELFTEST_DIR)/*.h)
	@test -d $(SYNC_SELFTEST_DIR) || { echo "$(SYNC_SELFTEST_DIR) missing: run kernel/build-kernel patched" >&2; exit 1; }
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  STATIC  $@")
	$(Q)$(CC) -O2 -g -std=gnu89 -pthread -Wall -static -o $@ $(SYNC_SELFTEST_DIR)/*.c

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)

deps:
	$(Q)scripts/install-deps

kernel: deps
	$(Q)kernel/build-kernel patched >/dev/null
kernel-stock: deps
	$(Q)kernel/build-kernel stock >/dev/null

# checkpatch --strict per patch; W=1 and kernel-doc warnings the series adds;
# the drivers' sync_file_fd_install() callers compiled.
check-series: kernel kernel-stock
	$(Q)kernel/check-series
	$(Q)kernel/check-driver-builds

# Every prefix of the series builds and boots (about 2 minutes a patch).
check-prefixes: kernel
	$(Q)kernel/check-prefixes

kernel-debug: deps
	$(Q)kernel/build-kernel debug >/dev/null

# The README's test command.  Dependencies install first, so that the
# compile below finds its headers on a fresh machine.  The tools compile
# in parallel with the patched kernel (vmlinux.h's recipe, started first,
# its make given -j of its own): on a cold cache they fill the minute of
# the tarball's import and the kernel's link, when one core is idle,
# instead of following the kernel one file at a time.
check: deps
	$(Q)$(MAKE) --no-print-directory -j$$(nproc) $(BPF_OUT)/vmlinux.h all
	$(Q)kernel/build-kernel patched >/dev/null
	$(Q)tests/run-tests

unit-tests: $(HOSTBIN)/unit-tests
	$(Q)$(HOSTBIN)/unit-tests

# Mutation smoke: every mutant of tests/mutants/mutants.list must fail a
# host test, in a copy of the tree (fence-trace's skeletons come from here).
.PHONY: check-mutants
check-mutants: $(BPF_OUT)/fence-latency.skel.h $(BPF_OUT)/fence-stall.skel.h $(BPF_OUT)/fence-record.skel.h
	$(Q)tests/mutants/run-mutants

# Every output of fence-trace on fixed inputs, byte for byte with
# tests/golden/expected; UPDATE=1 make check-golden rewrites them.
check-golden: $(BIN)/fence-trace $(HOSTBIN)/golden-traces
	$(Q)tests/golden/run-golden $(BIN) $(HOSTBIN)

# The README's main job: the compositor workload in the guest.
demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tests/lab/demo

# libFuzzer harnesses (clang), run by tests/fuzz/run-fuzz for a bounded time.
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -std=gnu11 -D_GNU_SOURCE \
	-DFENCE_TRACE_VERSION='"$(FT_VERSION)"' \
	$(TRACEEVENT_CFLAGS) $(TRACEFS_CFLAGS) $(LAYER_INCLUDES)
$(OUT)/fuzz/fuzz-report: tests/fuzz/fuzz-report.c $(LIB_SRC) $(OUTPUT_SRC)
	@mkdir -p $(dir $@)
	$(Q)clang $(FUZZ_CFLAGS) -o $@ $^ $(CORE_LIBS)
$(OUT)/fuzz/fuzz-drm-map: tests/fuzz/fuzz-drm-map.c lib/drm-map.c lib/parse-num.c
	@mkdir -p $(dir $@)
	$(Q)clang $(FUZZ_CFLAGS) -o $@ $^

$(OUT)/fuzz/fuzz-report-zip: tests/fuzz/fuzz-report-zip.c tests/unit/v7-zip.c $(LIB_SRC) $(OUTPUT_SRC)
	@mkdir -p $(dir $@)
	$(Q)clang $(FUZZ_CFLAGS) -Itests/unit -o $@ $^ $(CORE_LIBS)

fuzz: deps $(OUT)/fuzz/fuzz-report $(OUT)/fuzz/fuzz-drm-map $(OUT)/fuzz/fuzz-report-zip
	$(Q)tests/fuzz/run-fuzz $(FUZZ_SECONDS)

# Benchmarks (not tests): figures appended to build/bench/results.txt.
bench: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)kernel/build-kernel patched >/dev/null
	$(Q)kernel/build-kernel stock >/dev/null
	$(Q)tests/bench/lab-bench
	$(Q)tests/bench/report-bench
	$(Q)tests/bench/overhead-bench
	$(Q)tests/bench/overhead-bench 30000 5 stock
	$(Q)tests/bench/bpf-prog-cost
	$(Q)tests/bench/series-cost
	$(Q)tests/bench/timeline-bench
	$(Q)tests/bench/merge-rss
	$(Q)tests/bench/fleet-bench
	$(Q)tests/lab/soak-record 60 $(OUT)/bench/soak | tee -a $(OUT)/bench/results.txt
	$(Q)tests/lab/soak-record --bpf 60 $(OUT)/bench/soak-bpf | tee -a $(OUT)/bench/results.txt
	$(Q)tests/lab/soak-record --tmpfs --rate 10000 60 $(OUT)/bench/soak-tmpfs | tee -a $(OUT)/bench/results.txt
	$(Q)tests/lab/soak-record --bpf --tmpfs --rate 10000 60 $(OUT)/bench/soak-bpf-tmpfs | tee -a $(OUT)/bench/results.txt

# The BPF programs are compiled into the binary (bpftool skeletons), so
# there are no BPF objects to install: the binary, a man page per command
# plus fence-trace(1), and the bash completion.  uninstall removes those
# files, never the directories, which may be shared ones like
# /usr/local/bin; the pages are those of docs/man/.
PREFIX ?= /usr/local
BINDIR := $(PREFIX)/bin
MAN1DIR := $(PREFIX)/share/man/man1
COMPLETIONDIR := $(PREFIX)/share/bash-completion/completions

install: $(BIN)/fence-trace $(MAN_PAGES) $(COMPLETION)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MAN1DIR) $(DESTDIR)$(COMPLETIONDIR)
	install -m 755 $(BIN)/fence-trace $(DESTDIR)$(BINDIR)/fence-trace
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(MAN1DIR)/
	install -m 644 $(COMPLETION) $(DESTDIR)$(COMPLETIONDIR)/fence-trace

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/fence-trace $(DESTDIR)$(COMPLETIONDIR)/fence-trace
	rm -f $(addprefix $(DESTDIR)$(MAN1DIR)/,$(notdir $(MAN_PAGES)))

# Editing the series: a git tree with kernel/series applied as commits, and
# the way back into kernel/patches + kernel/series.
series-tree: deps
	$(Q)kernel/series-tree
series-export:
	$(Q)kernel/series-export

clean:
	rm -rf $(OUT)
