# guest-suites.sh: the TAP suites that run in the guest (conformance,
# the series' events and state, the kernel's own selftests, the debug
# kernel, the stock kernel's known defect) and the lab's own proofs
# (leak checks, run-guest's interface).  Sourced by tests/run-tests.

# "events-instance: N events fired" in a guest console, N > 0.
events_fired() {
	local n
	n=$(tr -d '\r' <"$1" | sed -n 's/^events-instance: \([0-9]*\) events fired$/\1/p' | tail -1)
	[ "${n:-0}" -gt 0 ]
}

# guest_tap_suite PART NAME [RUN-GUEST OPTION]... -- COMMAND [ARG]...: one
# boot running a TAP suite.  Its TAP is read from the console (between
# the lines guest-init prints around COMMAND) and judged with its exit
# status, which run-guest passes back: a crash (139), a missing binary
# (127), an "exit 1" or a kernel problem (125) fails PART, whatever the
# TAP said.  Output in $results/NAME.*.
guest_tap_suite() {
	local part=$1 name=$2 rc=0
	shift 2
	rm -f "$results/$name.console"
	"$run_guest" --quiet --log "$results/$name.console" --out "$results/$name" "$@" \
		>"$results/$name.out" 2>&1 || rc=$?
	sed -n '/fence-trace-lab: running/,/^fence-trace-lab: exit=/p' "$results/$name.console" 2>/dev/null |
		tr -d '\r' >"$results/$name.tap"
	tap_part "$part" "$results/$name.tap" $rc "$results/$name.out"
}

# The runner's guest side: a guest command that does not exist (exit 127
# from the guest) fails its part, in a real boot.  tests/run/self-test
# proves the rest of guest_tap_suite with a stand-in for run-guest.
guest_runner_selftest() {
	local o=$results/runner-guest.run
	run_alone "$o" guest_tap_suite runner-missing runner-missing --timeout 120 -- /no/such/suite
	part_failed "$o" && grep '^not ok [0-9]* - runner-missing: ' "$o" | grep -qF 'exit status 127 (command not found)'
	verdict $? "runner: a guest suite that is not there (exit status 127 in the guest) fails its part" "$o"
}

# The whole conformance suite in one boot, with every fence event enabled.
guest_conformance() {
	guest_tap_suite abi conformance --timeout 600 --add tests/lab/events-instance -- \
		/extra/events-instance --no-reader abi-conformance
	events_fired "$results/conformance.console"
	verdict $? "abi: ran with every drm_fence, sync_file and dma_fence event enabled" "$results/conformance.console"
}

# The debug kernel (lockdep, atomic-sleep checks, debug objects, kmemleak):
# conformance and tracepoint tests with every event enabled, the stall
# scenarios (tests/lab/debug-suite), then a kmemleak scan.  run-guest fails the boot on any splat or leak report.
# pci=noacpi: with lockdep under TCG, evaluating the PCI routing table
# (_PRT) in ACPI's interpreter hits its 30 s loop timeout, again and again;
# the MP table routes the interrupts instead, and the boot takes 5 s.
guest_debug_kernel() {
	local rc=0 kernel
	rm -rf "$results/debug"	# debug-suite waits for lines in its files: none may be left from before
	kernel=$("$repo/kernel/build-kernel" debug 2>"$results/debug-build.out" | tail -1)/bzImage
	"$run_guest" --quiet --timeout 900 --kernel "$kernel" --append pci=noacpi \
		--log "$results/debug.console" \
		--add tests/lab/events-instance --add tests/lab/kmemleak-scan --add tests/lab/debug-suite \
		--out "$results/debug" -- /extra/debug-suite \
		>"$results/debug.out" 2>&1 || rc=$?
	verdict $rc "debug kernel: conformance, series-events and series-state pass with every event enabled, and the stall scenarios; no lockdep, atomic-sleep or debug-objects splat; kmemleak finds no leak" "$results/debug.out"
	# each stall scenario said what it was about (the suite's own lines)
	[ "$(tr -d '\r' <"$results/debug.console" | grep -c '^debug-suite: ok: stall ')" = 8 ]
	verdict $? "debug kernel: the 8 stall scenarios (EBUSY and blocked-behind included) each report their stall" "$results/debug.console"
}

# The series' tracepoints and debug state, all cases in one boot.
guest_series_events() {
	guest_tap_suite series series-events --timeout 300 -- series-events
}

# The series' per-CRTC debugfs file and its later events, in one boot.
guest_series_state() {
	guest_tap_suite state series-state --timeout 300 -- series-state
}

# The kernel's own suites from the patched tree, with every drm_fence,
# sync_file and dma_fence event enabled (tests/lab/events-instance), in one
# boot: tools/testing/selftests/sync (built static on the host) and the
# dma-buf selftests, a module that runs them as it loads (a module, not
# built in, so that the lab's other boots do not run them).  Each must pass,
# the trace must have seen the events they exercise, and the kernel log
# must stay clean.
guest_kernel_suites() {
	local rc=0 d=$results/kernel-suites kdir tree
	rm -rf "$d"
	kdir=$("$repo/kernel/build-kernel" patched 2>"$results/kernel-suites.build" | tail -1)
	tree=${FENCE_TRACE_CACHE:-$HOME/.cache/fence-trace}/tree
	make -s -C "$repo" build/kselftest/sync_test >"$d.make" 2>&1
	verdict $? "kselftest: sync_test built static from $tree" "$d.make"
	[ -x "$repo/build/kselftest/sync_test" ] || return 0
	# sync_test's stress cases create sw_sync fences at a value already
	# pending on a shared timeline; stock 6.1's sync_pt_create() kfree()s
	# the duplicate it has dma_fence_init()ed, an init no destroy matches
	# (about 16000 a run).  The series' patch 0003 drops it with
	# dma_fence_put(): the fence balance of this boot proves it.
	"$run_guest" --quiet --timeout 400 --out "$d" --add "$repo/build/kselftest/sync_test" \
		--add "$repo/tests/lab/events-instance" --add "$kdir/dmabuf_selftests.ko" -- sh -c '
		/extra/events-instance /extra/sync_test >sync.out 2>&1; echo $? >sync.status
		/extra/events-instance insmod /extra/dmabuf_selftests.ko >dmabuf.out 2>&1
		echo $? >insmod.status; dmesg >dmesg.txt' >"$d.out" 2>&1 || rc=$?
	tap_part kselftest-sync "$d/sync.out" "$(cat "$d/sync.status" 2>/dev/null)"
	[ "$(cat "$d/sync.status" 2>/dev/null)" = 0 ] && grep -Eq '^# Totals: pass:([1-9][0-9]*) fail:0 xfail:0 xpass:0 skip:0 error:0$' "$d/sync.out"
	verdict $? "kselftest-sync: sync_test passes with every fence event enabled (exit 0, all passed)" "$d/sync.out"
	has_events "$d/sync.out" sync_file_create sync_file_merge sync_file_install sync_file_release dma_fence_signaled dma_fence_member
	verdict $? "kselftest-sync: the trace instance saw sync_file create/merge/install/release, dma_fence signalled and merge members" "$d/sync.out"
	local st=0
	"$repo/tests/lab/dmabuf-tap" "$tree/drivers/dma-buf/selftests.h" "$d/dmesg.txt" \
		"$(cat "$d/insmod.status" 2>/dev/null)" >"$d/dmabuf.tap" 2>"$d/dmabuf.tap.err" || st=$?
	tap_part dmabuf-selftests "$d/dmabuf.tap" $st "$d/dmabuf.tap.err"
	[ "$(cat "$d/insmod.status" 2>/dev/null)" = 0 ]
	verdict $? "dmabuf-selftests: dmabuf_selftests.ko loads (every selftest passed) with every fence event enabled" "$d/dmabuf.out"
	has_events "$d/dmabuf.out" dma_fence_init dma_fence_signaled dma_fence_destroy dma_fence_member dma_fence_error
	verdict $? "dmabuf-selftests: the trace instance saw fence init/signal/destroy, container members and an error" "$d/dmabuf.out"
	verdict $rc "kernel suites: guest run clean, exit status 0 (no panic, WARNING, lockdep report or timeout)" "$d.out"
}

# sync_test (tools/testing/selftests/sync, the patched tree) recorded by
# fence-trace record on the patched kernel with no event lost; report's
# fence counts and anomalies must be what the test's structure implies and
# what trace-cmd's own reading of the same file counts (fence-key-counts).
# Its consumer stress has five producers ask sw_sync for the same value of
# one timeline: those after the first get a duplicate, created and (patch
# 0003) destroyed at once; how many depends on the timing, so that count
# comes from the capture, never from a figure seen once.
# The guest writes the trace to its own memory (a page at a time over 9p
# slows the recorder down), then copies it out.  Some 3 M events: under
# TCG on a loaded host it takes minutes; SYNC_IDENTITY_TIMEOUT (seconds,
# default 600) bounds the boot.
guest_sync_identity() {
	local rc=0 d=$results/sync-identity ft=$repo/build/bin/fence-trace
	rm -rf "$d" "$d".*
	mkdir -p "$d"
	make -s -C "$repo" build/kselftest/sync_test >"$d.make" 2>&1
	verdict $? "sync-identity: sync_test built static" "$d.make"
	[ -x "$repo/build/kselftest/sync_test" ] || return 0
	"$run_guest" --quiet --timeout "${SYNC_IDENTITY_TIMEOUT:-600}" \
		--add "$repo/build/kselftest/sync_test" --out "$d" -- sh -c '
		fence-trace record -b 32768 -o /tmp/trace.dat -- /extra/sync_test >sync.out 2>record.err
		echo $? >sync.status; cp /tmp/trace.dat .' >"$d.out" 2>&1 || rc=$?
	[ $rc = 0 ] && [ "$(cat "$d/sync.status" 2>/dev/null)" = 0 ] &&
		grep -Eq '^# Totals: pass:10 fail:0 xfail:0 xpass:0 skip:0 error:0$' "$d/sync.out"
	verdict $? "sync-identity: sync_test passes (10 of 10) under fence-trace record, guest run clean" "$d.out"
	"$ft" report --json "$d/trace.dat" >"$d/report.json" 2>"$d/report.err" &&
		trace-cmd report "$d/trace.dat" 2>"$d/trace-cmd.err" | "$repo/tests/lab/fence-key-counts" >"$d/counts" &&
		[ "$(jq '.lost_events + .lost_unknown_pages + .missing_events' "$d/report.json")" = 0 ]
	verdict $? "sync-identity: recorded with no event lost (report and trace-cmd read it)" "$d/report.err"
	sync_identity_check "$d/report.json" "$d/counts" >"$d/check" 2>&1
	verdict $? "sync-identity: each creation a fence, duplicates told from collisions; counts exact against sync_test's structure and against trace-cmd's count" "$d/check"
}

# sync_identity_check REPORT.JSON COUNTS: report's figures against
# sync_test's structure and fence-key-counts' COUNTS of the same capture;
# each figure on a line, the first that differs named.
sync_identity_check() {
	local json=$1 counts=$2 bad=0 name want have
	# sw_sync_fence_create() calls, each one dma_fence_init (a duplicate
	# too), in the order sync_test.c runs them: alloc_fence 1,
	# alloc_fence_negative 0 (an fd of -1: no ioctl reaches sw_sync),
	# fence_one_timeline_wait 1, fence_one_timeline_merge 3,
	# fence_merge_same_fence 1, fence_multi_timeline_wait 3; two threads
	# times 1 << 16 iterations; the consumer stress: 5 producers times
	# 1 << 12, and the consumer 1 << 12 times one per producer timeline (5);
	# the merge stress: 1 + 1024 * 32.
	local structure=$((1 + 0 + 1 + 3 + 1 + 3 + 2 * (1 << 16) + 5 * (1 << 12) + (1 << 12) * 5 + 1 + 1024 * 32))
	count() { sed -n "s/^$1=//p" "$counts"; }
	rows() { jq "[.timelines[], .timeline_groups[]] | $1" "$json"; }
	expect() {
		echo "$1: want $2, report says $3"
		[ -n "$2" ] && [ "$2" = "$3" ] || { echo "  ^ differs"; bad=1; }
	}
	# Where two fences of one key are live at once, which of them a signal
	# or a destroy ends is known from the identity the events carry;
	# fence-key-counts follows it too, fence by fence, in awk.
	expect "sw_sync fences (sync_test's calls)" "$structure" "$(rows 'map(select(.driver == "sw_sync") | .fences) | add')"
	# the series' dma_fence events carry each fence's identity (patch
	# 0005): the model and fence-key-counts follow it, not the key rules
	expect "fences whose init carries their identity (trace-cmd)" "$(count inits)" "$(count identified_inits)"
	expect "sw_sync fences (trace-cmd)" "$(count sw_sync_inits)" "$structure"
	expect "fences (trace-cmd's inits)" "$(count inits)" "$(rows 'map(.fences) | add')"
	expect "signalled (trace-cmd)" "$(count signals)" "$(rows 'map(.signaled) | add')"
	expect "duplicates (trace-cmd: destroyed by their task right after its init, key live twice)" \
		"$(count duplicates)" "$(jq .anomalies.duplicates "$json")"
	expect "duplicates seen at all (the consumer stress makes them)" true "$(jq '.anomalies.duplicates > 0' "$json")"
	expect "duplicates' destroys traced (the series)" true "$(jq .anomalies.duplicates_traced "$json")"
	expect "duplicates all sw_sync's" "$(jq .anomalies.duplicates "$json")" \
		"$(rows 'map(select(.driver == "sw_sync") | .duplicates) | add')"
	expect "collisions (trace-cmd: the other inits while the key is live)" \
		"$(($(count inits_while_live | grep . || echo 0) - $(count duplicates | grep . || echo 0)))" \
		"$(jq .anomalies.key_reused "$json")"
	# merging signalled fences gives a private stub, all (0, 0); sw_sync
	# signals at creation a fence whose value has passed while the old
	# fence of that value is still held: no other collision
	expect "rows with collisions other than stub's and sw_sync's" 0 \
		"$(rows 'map(select(.key_reused > 0 and .driver != "stub" and .driver != "sw_sync")) | length')"
	expect "destroyed unsignalled (trace-cmd)" "$(count destroyed_unsignaled)" "$(jq .anomalies.destroyed_unsignaled "$json")"
	expect "never signalled (trace-cmd: live at the end)" "$(count live_at_end)" "$(jq .anomalies.never_signaled "$json")"
	expect "never signalled (sync_test closes every fd)" 0 "$(jq .anomalies.never_signaled "$json")"
	expect "signals of fences from before the trace (trace-cmd)" "$(count signals_unknown)" "$(jq .anomalies.signals_of_unknown_fences "$json")"
	expect "signals that found every fence of their key signalled (trace-cmd)" 0 "$(count signals_of_signalled)"
	expect "signals of fences from before the trace (record started first)" 0 "$(jq .anomalies.signals_of_unknown_fences "$json")"
	expect "rows whose fences are not signalled + destroyed unsignalled + live + duplicates" 0 \
		"$(rows 'map(select(.fences != .signaled + .destroyed_unsignaled + .unsignaled + .duplicates)) | length')"
	return $bad
}

# Every event named after file $1 has a non-zero count in the
# events-instance summary in $1.
has_events() {
	local f=$1 e; shift
	for e in "$@"; do grep -Eq "^  $e [1-9][0-9]*$" "$f" || return 1; done
}

# The defect the series fixes, pinned on the stock kernel (same tree, no
# series); and proof that the log scan catches its WARNING.
guest_known_defect() {
	local rc=0 stock
	stock=$("$repo/kernel/build-kernel" stock 2>"$results/stock-build.out" | tail -1)/bzImage
	"$run_guest" --quiet --timeout 120 --kernel "$stock" \
		--expect-warning drm_atomic_helper_wait_for_fences \
		--out "$results/defect" -- abi-conformance --only no-fb-in-fence-known-defect \
		>"$results/defect.out" 2>&1 || rc=$?
	verdict $rc "abi (stock kernel): IN_FENCE_FD without framebuffer WARNs in drm_atomic_helper_wait_for_fences (the defect patch 1 fixes)" "$results/defect.out"
	rc=0
	"$run_guest" --quiet --timeout 120 --kernel "$stock" --out "$results/defect-scan" -- \
		abi-conformance --only no-fb-in-fence-known-defect >"$results/defect-scan.out" 2>&1 || rc=$?
	[ $rc = 125 ] && grep -q 'WARNING:.*drm_atomic_helper_wait_for_fences' "$results/defect-scan.out"
	verdict $? "lab: an unexpected WARNING fails the guest run (scan proof, stock kernel)" "$results/defect-scan.out"
}

# The leak checks can fail (leak-proof leaks on purpose): a TAP case that
# leaves an fd open is "not ok", naming it, and its twin that closes it is
# "ok"; a process still holding a sw_sync fence after the command fails the
# run (125) with the fence balance and the live sync_files, and the fence;
# with --no-leak-check the same run passes and says why it was not checked.
# A command that hangs gets every task's stack on the console first.
guest_leak_proof() {
	local rc=0 d=$results/leak-proof
	rm -rf "$d"
	mkdir -p "$d"
	"$run_guest" --quiet --log "$d/fd.console" -- leak-proof >"$d/fd.out" 2>&1 || rc=$?
	tr -d '\r' <"$d/fd.console" >"$d/fd.tap"
	[ $rc = 1 ] && grep -q '^not ok 1 - leaks-an-fd$' "$d/fd.tap" &&
		grep -q '^# leaks-an-fd: fd 3 left open -> /dev/null$' "$d/fd.tap" &&
		grep -q '^ok 2 - closes-its-fd$' "$d/fd.tap"
	verdict $? "lab: a TAP case that leaves an fd open fails, naming the fd and its target; one that closes it passes" "$d/fd.tap"
	local hold='leak-proof --only holds-a-fence >hold.txt & await-line hold.txt holding $! || exit 1'
	rc=0
	"$run_guest" --out "$d/fence" -- sh -c "$hold" >"$d/fence.out" 2>&1 || rc=$?
	[ $rc = 125 ] && grep -q '^run-guest: fence-balance: created=1 destroyed=0$' "$d/fence.out" &&
		grep -Eq 'dma_fence_init: driver=sw_sync timeline=leak-proof context=[0-9]* seqno=1( fence=[0-9a-f]{16})?$' "$d/fence.out" &&
		grep -q '^run-guest: live-sync-files: before=0 after=1$' "$d/fence.out" &&
		grep -q '^run-guest: COMMAND left dma_fences or sync_files behind' "$d/fence.out"
	verdict $? "lab: a sync_file held past the command fails the run: fences created 1, destroyed 0, the fence named; one live sync_file more" "$d/fence.out"
	rc=0
	"$run_guest" --log "$d/off.console" --out "$d/off" --no-leak-check "leak-proof: opting out" -- \
		sh -c "$hold" >"$d/off.out" 2>&1 || rc=$?
	[ $rc = 0 ] && grep -q '^fence-trace-lab: leak-check=off: leak-proof: opting out' "$d/off.console"
	verdict $? "lab: run-guest --no-leak-check REASON skips the leak check and says why" "$d/off.out"
	rc=0
	"$run_guest" --timeout 30 --out "$d/hang" --no-leak-check "a hang on purpose" -- sleep 120 >"$d/hang.out" 2>&1 || rc=$?
	[ $rc = 125 ] && grep -q '^run-guest: timed out after 30s$' "$d/hang.out" &&
		grep -q "^fence-trace-lab: still running at 80% of the host's timeout; every task:" "$d/hang/console.log" &&
		grep -A1 '^fence-trace-lab: task [0-9]* sleep state S wchan hrtimer_nanosleep' "$d/hang/console.log" |
		grep -q '^fence-trace-lab:   \[<0>\] hrtimer_nanosleep+'
	verdict $? "lab: a command that hangs: each task's state, wait channel and kernel stack on the console before the timeout, then 125" "$d/hang/console.log"
	[ "$(grep -cE '^  \| vCPU [01]: in the kernel at [A-Za-z0-9_.]+\+0x[0-9a-f]+; on its stack: ' "$d/hang.out")" = 2 ]
	verdict $? "lab: and where each vCPU was at 90% of the timeout, named from vmlinux (QEMU's monitor)" "$d/hang.out"
}

# run-guest's public interface: your own static and dynamic programs, with
# arguments intact and the exit status passed back.
guest_own_programs() {
	local rc=0 extra=$repo/build/lab-extra
	"$run_guest" --timeout 120 --add "$extra/hello-static" --add "$extra/hello-dynamic" \
		-- sh -c '/extra/hello-static "a b" c && HELLO_EXIT=7 /extra/hello-dynamic "*"' \
		>"$results/own.out" 2>&1 || rc=$?
	[ $rc = 7 ] && grep -qx '\[a b\]' "$results/own.out" && grep -qx '\[\*\]' "$results/own.out" &&
		grep -q 'hello-dynamic: argc=2' "$results/own.out"
	verdict $? "lab: run-guest --add runs a static and a dynamic program, status passed back" "$results/own.out"
	# the benchmarks' guest: one CPU, and a TSC clock that counts instructions
	rc=0
	"$run_guest" --icount --timeout 120 -- sh -c 'grep -c "^processor" /proc/cpuinfo
		cat /sys/devices/system/clocksource/clocksource0/current_clocksource
		fence-storm -n 1000' >"$results/icount.out" 2>&1 || rc=$?
	[ $rc = 0 ] && grep -qx 1 "$results/icount.out" && grep -qx tsc "$results/icount.out" &&
		grep -q '^fences=1000 threads=1 .* ns=[1-9][0-9]*$' "$results/icount.out"
	verdict $? "lab: run-guest --icount boots one CPU on the TSC; fence-storm times itself there" "$results/icount.out"
}
