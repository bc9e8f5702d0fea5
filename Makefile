# fence-trace: tools, guest lab and tests for DRM explicit fencing.
#
#   make check   install what is missing, build the guest kernel (cached),
#                run the host unit tests and the guest tests
#   make demo    boot the guest and run the compositor workload
#   make         build the tools only
#
# Build products go to build/; the kernel and its cache to
# $FENCE_TRACE_CACHE (default ~/.cache/fence-trace).  V=1 shows commands.

CC ?= gcc
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wno-unused-parameter
override CFLAGS += -std=gnu11 -D_GNU_SOURCE $(WARN) -MMD -MP
DRM_CFLAGS := $(shell pkg-config --cflags libdrm 2>/dev/null)
TRACEFS_CFLAGS := $(shell pkg-config --cflags libtracefs 2>/dev/null)

OUT := build
BIN := $(OUT)/bin
HOSTBIN := $(OUT)/bin-host
OBJ := $(OUT)/obj

ifeq ($(V),1)
Q :=
else
Q := @
endif

.DELETE_ON_ERROR:
.PHONY: all deps kernel kernel-stock kernel-debug check unit-tests guest-tests \
	demo clean series-tree series-export

# Programs that go into the guest (everything in build/bin is copied there).
GUEST_PROGS := $(BIN)/fence-workload $(BIN)/abi-conformance $(BIN)/series-events
HOST_PROGS := $(HOSTBIN)/logscan $(HOSTBIN)/unit-tests

# Stand-ins for a user's own programs in the run-guest tests.
LAB_EXTRA := $(OUT)/lab-extra/hello-static $(OUT)/lab-extra/hello-dynamic

all: $(GUEST_PROGS) $(HOST_PROGS) $(LAB_EXTRA)

$(OUT)/lab-extra/hello-static: tests/lab/hello.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -static -o $@ $<
$(OUT)/lab-extra/hello-dynamic: tests/lab/hello.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $<

LAB_LIB := tools/kms.c tools/sync.c
WORKLOAD_SRC := tools/fence-workload.c tools/producer.c tools/workload-plan.c \
	tools/parse-num.c $(LAB_LIB)
CONFORMANCE_SRC := tests/guest/abi-conformance.c tests/guest/tap.c \
	tests/guest/guest-trace.c $(LAB_LIB)
SERIES_EVENTS_SRC := tests/guest/series-events.c tests/guest/tap.c \
	tests/guest/guest-trace.c $(LAB_LIB)
LOGSCAN_SRC := tests/lab/logscan.c tests/lab/logscan-rules.c
UNIT_SRC := tests/unit/unit-tests.c tests/unit/test-logscan.c \
	tests/unit/test-workload-plan.c tests/unit/test-sync-name.c \
	tests/lab/logscan-rules.c tools/workload-plan.c tools/parse-num.c tools/sync.c

objs = $(patsubst %.c,$(OBJ)/%.o,$(1))

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(DRM_CFLAGS) $(TRACEFS_CFLAGS) -Itools -Itests/lab -Itests/guest -c -o $@ $<

$(BIN)/fence-workload: $(call objs,$(WORKLOAD_SRC))
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ldrm -lpthread

$(BIN)/abi-conformance: $(call objs,$(CONFORMANCE_SRC))
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ldrm -lpthread -ltracefs -ltraceevent

$(BIN)/series-events: $(call objs,$(SERIES_EVENTS_SRC))
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -ldrm -lpthread -ltracefs -ltraceevent

$(HOSTBIN)/logscan: $(call objs,$(LOGSCAN_SRC))
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^

$(HOSTBIN)/unit-tests: $(call objs,$(UNIT_SRC))
	@mkdir -p $(dir $@)
	$(Q)$(CC) -o $@ $^ -lcmocka

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)

deps:
	$(Q)scripts/install-deps

kernel: deps
	$(Q)kernel/build-kernel patched >/dev/null
kernel-stock: deps
	$(Q)kernel/build-kernel stock >/dev/null
kernel-debug: deps
	$(Q)kernel/build-kernel debug >/dev/null

# The README's test command.  Dependencies install first, so that the
# compile below finds its headers on a fresh machine.
check: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)kernel/build-kernel patched >/dev/null
	$(Q)tests/run-tests

unit-tests: $(HOSTBIN)/unit-tests
	$(Q)$(HOSTBIN)/unit-tests

# The README's main job: the compositor workload in the guest.
demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tests/lab/demo

# Editing the series: a git tree with kernel/series applied as commits, and
# the way back into kernel/patches + kernel/series.
series-tree: deps
	$(Q)kernel/series-tree
series-export:
	$(Q)kernel/series-export

clean:
	rm -rf $(OUT)
