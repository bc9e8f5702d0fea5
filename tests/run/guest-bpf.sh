# guest-bpf.sh: the BPF tools in the guest: latency, record --bpf and its
# limits, the programs on the stock kernel and in both flavours.  Sourced
# by tests/run-tests.

# BPF latency histograms against the workload and against report on a
# tracefs recording of the same run; both program flavours load.
guest_latency() {
	local rc=0 d=$results/latency ctx
	rm -rf "$d"
	"$run_guest" --timeout 300 --out "$d" -- sh -c '
		watch() { out=$1; shift; fence-trace latency "$@" >$out 2>$out.err & pid=$!
			await-line $out.err Tracing $pid || exit 1; }
		watch lat.json --json -W
		fence-trace record -o trace.dat -- sh -c "fence-workload -n 20 -A 3 -B 12 >wl.txt"
		kill -INT $pid; wait $pid; echo latency-status=$?
		fence-trace latency --raw-tp --json -P 1 1 >raw.json; echo raw-status=$?
		crtc=$(grep -o "\"kind\": \"signal\", \"id\": [0-9]*, \"driver\": \"[^\"]*\", \"timeline\": \"CRTC:" lat.json |
			sed "s/.*\"id\": \([0-9]*\),.*/\1/"); echo crtc-context=$crtc
		watch crtc.txt -m -W -P -C "$crtc"
		fence-workload -n 10 -A 3 -B 12 >/dev/null; kill -INT $pid; wait $pid; echo crtc-status=$?
		watch b.txt -W -P -T producer-B
		fence-workload -n 10 -A 3 -B 12 >/dev/null
		en=/sys/kernel/tracing/instances/fence-trace-names-$pid/events/dma_fence/dma_fence_init/enable
		i=0; while [ "$(cat $en)" != 0 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
		echo names-enable=$(cat $en)
		kill -INT $pid; wait $pid; echo b-status=$?
		watch merge.json --json
		fence-trace record --bpf -o merge.dat -- sh -c "fence-workload -n 4 --merge >/dev/null" 2>/dev/null
		kill -INT $pid; wait $pid; echo merge-status=$?
		fence-trace top -d 1 >full-top.txt 2>full-top.err & top=$!
		await-line full-top.err watching $top || exit 1
		watch full.txt 1
		fence-storm -t 1 -n 4200 -f >storm.txt; sleep 2
		fence-workload -n 3 >/dev/null; sleep 2
		kill -INT $pid $top; wait $pid; echo full-status=$?; wait $top
		# names as for a driver BPF cannot read: the first storm turns the
		# catch-all on; it names the one-fence contexts of the second storm
		FENCE_TRACE_NAMES=stream fence-trace latency >stream.txt 2>stream.err & pid=$!
		await-line stream.err Tracing $pid || exit 1
		fence-storm -t 1 -n 50 -f >/dev/null; sleep 1
		fence-storm -t 1 -n 300 -f >/dev/null; sleep 1
		kill -INT $pid; wait $pid; echo stream-status=$?
		FENCE_TRACE_NAMES=bogus fence-trace latency 2>bogus.err; echo bogus-status=$?' >"$d.out" 2>&1 || rc=$?
	[ $rc = 0 ] && grep -q '^latency-status=0$' "$d.out" && grep -q '^raw-status=0$' "$d.out" &&
		jq -e '.drops' "$d/raw.json" >/dev/null
	verdict $? "latency: the BPF programs load (tp_btf and raw_tp) and report" "$d.out"
	"$repo/build/bin/fence-trace" report --json "$d/trace.dat" >"$d/report.json" 2>/dev/null &&
		"$repo/tests/lab/check-latency" "$d/lat.json" "$d/report.json" 20 producer-A:3 producer-B:12 >"$d/check.out" 2>&1
	verdict $? "latency: BPF counts equal the workload's fences, every bucket within one log2 bucket of report, render delays in their buckets" "$d/check.out"
	# -W on the series kernel: each plane's waits, timed from the series'
	# wait_begin to its wait_end (the events carry no duration), as many
	# as the report of the same run counts from the trace
	grep -o '"kind": "plane_wait", "id": [0-9]*, [^]]*' "$d/lat.json" |
		sed 's/.*"id": \([0-9]*\),.*"count": \([0-9]*\),.*/\1 \2/' | sort >"$d/plane-bpf.txt"
	jq -r '.waits.by_plane[] | "\(.plane) \(.waits)"' "$d/report.json" | sort >"$d/plane-report.txt"
	[ -s "$d/plane-report.txt" ] && cmp -s "$d/plane-bpf.txt" "$d/plane-report.txt"
	verdict $? "latency -W (series kernel): each plane's wait count, timed begin to end in BPF, equals the report's" "$d/plane-bpf.txt"
	# -C CRTC -m -W -P, text: the CRTC's signal latency alone, in ms; the
	# workload's waits are on the producers, so no wait histogram at all.
	ctx=$(sed -n 's/^crtc-context=\([0-9][0-9]*\)$/\1/p' "$d.out")
	grep -q '^crtc-status=0$' "$d.out" && [ -n "$ctx" ] &&
		[ "$(grep -c '^signal latency: ' "$d/crtc.txt")" = 1 ] &&
		grep -q "^signal latency: context $ctx vkms CRTC:" "$d/crtc.txt" &&
		grep -Eq '^    count 10, mean [0-9]+ ms, max [0-9]+ ms, signalled with an error 0$' "$d/crtc.txt" &&
		grep -q 'msecs' "$d/crtc.txt" && ! grep -q 'usecs' "$d/crtc.txt" &&
		! grep -q '^wait on timeline\|^wait by task' "$d/crtc.txt" && grep -q '^drops: ' "$d/crtc.txt"
	verdict $? "latency -m -C CONTEXT -W -P (text): that context only, in ms; per-task waits honour -C too" "$d/crtc.txt"
	# -T producer-B -W -P, text: producer-B's signal latency and waits, and
	# the waiting task by pid and name with B's 10 waits only (not A's too).
	grep -q '^b-status=0$' "$d.out" &&
		[ "$(grep -c '^signal latency: \|^wait on timeline: ' "$d/b.txt")" = 2 ] &&
		grep -q '^signal latency: context [0-9]* sw_sync producer-B$' "$d/b.txt" &&
		grep -q '^wait on timeline: context [0-9]* sw_sync producer-B$' "$d/b.txt" &&
		grep -A1 '^wait by task: pid [0-9]* (fence-workload)$' "$d/b.txt" | grep -q '^    count 10, ' &&
		[ "$(grep -c '^wait by task: ' "$d/b.txt")" = 1 ] && grep -q 'usecs' "$d/b.txt"
	verdict $? "latency -T TIMELINE -W -P (text): that timeline only; the waiting task named, with its waits on it alone" "$d/b.txt"
	# latency asks for names on demand: with every context it saw named
	# (or given up on, after its own 3 s), its dma_fence_init stream is off
	# again (waited for up to 30 s: a loaded host delays latency's timer)
	grep -q '^names-enable=0$' "$d.out" &&
		grep -Eq '^fence names: [1-9][0-9]* read from the fence, 0 from the tracefs stream, 0 unnamed' "$d/b.txt"
	verdict $? "latency: every context named from the fence (sw_sync, CRTC); the names stream never on" "$d/b.txt"
	# merged in-fences: a dma_fence_array and a new context each, one fence
	# apiece: latency names them by their kind (no fence comes later for the
	# stream on demand); record --bpf (stream always on) names every context
	grep -q '^merge-status=0$' "$d.out" &&
		[ "$(jq '[.histograms[] | select(.kind == "signal" and .driver == "dma_fence_array" and .timeline == "unbound")] | length' "$d/merge.json")" -ge 4 ] &&
		"$repo/build/bin/fence-trace" report --json --by context "$d/merge.dat" >"$d/merge-report.json" 2>/dev/null &&
		[ "$(jq '[.timelines[] | select(.driver == "dma_fence_array" and .timeline == "unbound")] | length' "$d/merge-report.json")" -ge 4 ] &&
		[ "$(jq '[.timelines[] | select(.driver == "?" or .timeline == "?")] | length' "$d/merge-report.json")" = 0 ]
	verdict $? "latency names merged fences (a context each) dma_fence_array/unbound by their kind; record --bpf leaves no context unnamed" "$d/merge.json"
	schema_verdict latency "latency --json (tp_btf -W, raw_tp -P, a merge run)" "$d/lat.json" "$d/raw.json" "$d/merge.json"
	schema_verdict report "report --json of the latency part's recordings" "$d/report.json" "$d/merge-report.json"
	# 4200 new sw_sync contexts of one fence each, named from the fence:
	# latency and top each keep 4096 names, count the rest and say why
	# those are unnamed; no stream was asked.
	local full_re='^fence names: [0-9]+ read from the fence, 0 from the tracefs stream, ([1-9][0-9]*) unnamed \(0 still asked for, \1 not kept: table full, 0 names records lost: ring full\)$'
	grep -q '^full-status=0$' "$d.out" && grep -q '^fences=4200 ' "$d/storm.txt" &&
		grep -q '^signal latency: context [0-9]* ? (name unknown: the table of 4096 names is full)$' "$d/full.txt" &&
		grep -q '^signal latency: context [0-9]* sw_sync ' "$d/full.txt" &&
		grep -Eq "$full_re" "$d/full.txt" && grep -Eq "$full_re" "$d/full-top.txt" &&
		grep -Eq '^ +[0-9]+  \? +\(name table full\) ' "$d/full-top.txt"
	verdict $? "latency and top: 4200 one-fence sw_sync contexts named from the fence up to the 4096 kept; the rest counted and said" "$d/full.txt"
	# FENCE_TRACE_NAMES=stream: the kind unreadable; the catch-all names the
	# second storm's 300 one-fence contexts from their only fence
	grep -q '^stream-status=0$' "$d.out" &&
		grep -Eq '^fence names: 0 read from the fence, ([3-9][0-9]{2}|[0-9]{4,}) from the tracefs stream, ' "$d/stream.txt" &&
		[ "$(grep -c '^signal latency: context [0-9]* sw_sync ' "$d/stream.txt")" -ge 300 ] &&
		grep -q '^bogus-status=1$' "$d.out" &&
		grep -qx "fence-trace: FENCE_TRACE_NAMES: 'bogus' is neither 'fence' nor 'stream'" "$d/bogus.err"
	verdict $? "latency, names from the stream alone (FENCE_TRACE_NAMES=stream): one-fence contexts named by the catch-all; a bad value refused in one line" "$d/stream.txt"
}

# record --bpf: the same workload through the BPF ring buffer gives a
# trace.dat that report (and trace-cmd) read, with the same late frames;
# a tracefs record running all along sees the same late frames, exactly
# (it enables its events before it says which it found, so the run starts
# after that line).
guest_record_bpf() {
	local rc=0 d=$results/record-bpf ft=$repo/build/bin/fence-trace
	rm -rf "$d"
	"$run_guest" --timeout 200 --out "$d" -- sh -c '
		fence-trace record -o tracefs.dat 2>tracefs.err & r=$!
		await-line tracefs.err "record: events: " $r || exit 1
		fence-trace record --bpf -o bpf.dat --label run=bpf-1 -- \
			sh -c "fence-workload -n 16 --slow 4:B:40 --slow 10:A:60 >workload.txt
				ls /sys/kernel/tracing/instances >bpf-instances.txt"
		echo bpf-status=$?; kill -INT $r; wait $r; echo tracefs-status=$?
		fence-trace record --bpf --raw-tp -o raw.dat -- fence-workload -n 3 >/dev/null 2>raw.err
		echo raw-status=$?
		FENCE_TRACE_NAMES=stream fence-trace record --bpf -o stream.dat -- fence-workload -n 6 >/dev/null 2>stream.err
		echo stream-status=$?
		ring-floor -n -- fence-storm -t 1 -n 1000 >floor.txt; echo floor-status=$?
		ring-floor -- fence-storm -t 1 -n 1000 >floor-all.txt; echo floor-all-status=$?
		ring-floor 2>floor-usage.err; echo floor-usage-status=$?
		ring-floor -k -- true 2>>floor-usage.err; echo floor-usage-k-status=$?' >"$d.out" 2>&1 || rc=$?
	[ $rc = 0 ] && grep -q '^bpf-status=0' "$d.out" && grep -q 'wrote bpf.dat: [1-9][0-9]* events from BPF and [1-9][0-9]* from tracefs (the series.), 0 lost' "$d.out" &&
		"$ft" report --json "$d/bpf.dat" >"$d/report.json" &&
		"$repo/tests/lab/check-late-frames" "$d/report.json" "$d/workload.txt" 4:B 10:A >"$d/check.out" 2>&1 &&
		trace-cmd report "$d/bpf.dat" >"$d/trace-cmd.txt" 2>&1 &&
		grep -q 'dma_fence_init: *driver=sw_sync timeline=producer-A' "$d/trace-cmd.txt" &&
		grep -q '^ *fence-workload-[0-9]* .* dma_fence_init:' "$d/trace-cmd.txt" && ! grep -q '<\.\.\.>' "$d/trace-cmd.txt"
	verdict $? "record --bpf: same late frames and blocking fences as tracefs; trace-cmd reads it, fence and task names included" "$d/check.out"
	trace-cmd report --uname -i "$d/bpf.dat" >"$d/uname.txt" 2>&1
	[ "$(trace-cmd report --version -i "$d/bpf.dat" 2>/dev/null | tail -n 1)" = "fence-trace $(cat "$repo/VERSION")" ] &&
		grep -Eq '^Linux [^ ]+ 6\.1\.[0-9]+\+? x86_64$' "$d/uname.txt" &&
		grep -Eq '^ *fence-trace-[0-9]+ .* print: .*fence-trace-capture: realtime_ns=[0-9]+ run=bpf-1$' "$d/trace-cmd.txt" &&
		"$ft" export --tables "$d/tables" "$d/bpf.dat" >"$d/tables.out" 2>&1 &&
		jq -e '.labels == {"run": "bpf-1"} and .recorded_by != null and (.start_utc | test("^20[0-9]{2}-"))' \
			"$(find "$d/tables/captures" -name part.ndjson)" >>"$d/tables.out" 2>&1
	verdict $? "record --bpf: its file says who wrote it (trace-cmd report --version), on what (trace-cmd's uname layout) and its marker line (--label, wall clock), which export --tables reads" "$d/tables.out"
	# The series' events came through tracefs, merged in: per-plane waits
	# and the commits that made each out-fence are in the report.
	jq -e '(.waits.by_plane | length) > 0 and ([.crtcs[].late_frames[].blocking.plane] | all(. != null))' \
		"$d/report.json" >/dev/null 2>&1 && grep -q 'drm_fence_out_create:' "$d/trace-cmd.txt"
	verdict $? "record --bpf (series kernel): the series' events are in the trace, plane waits and late frames' planes in the report" "$d/report.json"
	# both recorders saw the one run: the late frames agree to the field
	local lf='[.crtcs[] | {crtc, late: [.late_frames[] | {out_fence_seqno,
		blocking: (.blocking | {timeline, context, seqno, plane})}]}]'
	grep -q '^tracefs-status=0' "$d.out" && grep -q 'wrote tracefs.dat: .* 0 events lost' "$d/tracefs.err" &&
		"$ft" report --json "$d/tracefs.dat" >"$d/tracefs.json" &&
		jq -S "$lf" "$d/report.json" >"$d/late-bpf.json" && jq -S "$lf" "$d/tracefs.json" >"$d/late-tracefs.json" &&
		jq -e '[.[].late[]] | length >= 2 and all(.blocking.plane != null)' "$d/late-bpf.json" >/dev/null &&
		diff -u "$d/late-tracefs.json" "$d/late-bpf.json" >"$d/late.diff"
	verdict $? "record --bpf and tracefs record of the same run: the same late frames (out-fence seqnos, blocking timeline, context, seqno and plane)" "$d/late.diff"
	# Every context named from the fence (sw_sync, the CRTC): the stream never asked.
	grep -q 'fence names read from each fence, else from a dma_fence_init tracefs stream$' "$d.out" &&
		grep -Eq 'fence names: [1-9][0-9]* read from the fence, 0 from the tracefs stream, 0 unnamed' "$d.out" &&
		"$ft" report --json --by context "$d/bpf.dat" >"$d/report-contexts.json" &&
		jq -e '[.timelines[] | .driver, .timeline] | length > 0 and all(. != "?")' "$d/report-contexts.json" >/dev/null &&
		jq -e '[.timelines[].timeline] | index("producer-A") != null and index("producer-B") != null' \
			"$d/report.json" >/dev/null
	verdict $? "record --bpf: every context named from the fence, none by the stream; every timeline in the report named" "$d.out"
	# raw_tp reads the same names
	grep -q '^raw-status=0$' "$d.out" &&
		grep -Eq 'fence names: [1-9][0-9]* read from the fence, 0 from the tracefs stream, 0 unnamed' "$d/raw.err" &&
		"$ft" report --json --by context "$d/raw.dat" >"$d/raw.json" &&
		jq -e '[.timelines[].timeline] | index("producer-A") != null and index("producer-B") != null and all(. != "?")' \
			"$d/raw.json" >/dev/null
	verdict $? "record --bpf --raw-tp: names read from the fence too, every context named" "$d/raw.err"
	# the readers off: every name from the stream, the workload's timelines all named
	grep -q '^stream-status=0$' "$d.out" &&
		grep -q 'fence names from a dma_fence_init tracefs stream alone (FENCE_TRACE_NAMES=stream)$' "$d/stream.err" &&
		grep -Eq 'fence names: 0 read from the fence, [1-9][0-9]* from the tracefs stream, 0 unnamed' "$d/stream.err" &&
		"$ft" report --json --by context "$d/stream.dat" >"$d/stream.json" &&
		jq -e '[.timelines[].timeline] | index("producer-A") != null and index("producer-B") != null and all(. != "?")' \
			"$d/stream.json" >/dev/null
	verdict $? "record --bpf, names from the stream alone (FENCE_TRACE_NAMES=stream): every context named" "$d/stream.err"
	schema_verdict report "report --json of record --bpf, tracefs and raw_tp recordings" "$d/report.json" "$d/tracefs.json" "$d/raw.json"
	# overhead-bench's floor of a BPF recorder sees every record: 3 a
	# fence, and without -n the names record of the storm's timeline too
	grep -q '^floor-status=0$' "$d.out" && grep -qx 'records=3000 dropped=0' "$d/floor.txt" &&
		grep -q '^floor-all-status=0$' "$d.out" && grep -qx 'records=3001 dropped=0' "$d/floor-all.txt" &&
		grep -q '^floor-usage-status=2$' "$d.out" && grep -q '^floor-usage-k-status=2$' "$d.out" &&
		[ "$(grep -cx 'usage: ring-floor \[-n\] -- COMMAND \[ARG\]...' "$d/floor-usage.err")" = 2 ]
	verdict $? "ring-floor (overhead-bench's floor): 1000 storm fences give 3000 records and one names record, none dropped; no COMMAND, or an unknown option, is a usage error" "$d.out"
}

# record --bpf at its limits: a ring too small for a storm loses records,
# counted exactly; a full disk stops it with one line, and what it kept
# is a trace report reads, with no temporary file left behind.
guest_record_bpf_limits() {
	local rc=0 d=$results/record-bpf-limits ft=$repo/build/bin/fence-trace lost fences events
	rm -rf "$d"
	"$run_guest" --timeout 300 --out "$d" -- sh -c '
		fence-trace record --bpf -b 16 -o tiny.dat -- fence-storm -n 20000 >tiny.txt 2>tiny.err
		echo tiny-status=$?
		mkdir /tiny && mount -t tmpfs -o size=256k tmpfs /tiny
		fence-trace record --bpf -o /tiny/b.dat -- fence-storm -n 20000 >/dev/null 2>full.err
		echo full-status=$?
		fence-trace report /tiny/b.dat >full.txt 2>&1; echo full-report=$?
		cp /tiny/b.dat full.dat; echo "tiny-files:$(ls /tiny | tr "\n" " ")"' >"$d.out" 2>&1 || rc=$?
	lost=$(sed -n 's/.*wrote tiny.dat: .* from tracefs (the series.), \([0-9]*\) lost.*/\1/p' "$d/tiny.err")
	fences=$(sed -n 's/^fences=\([0-9]*\) .*/\1/p' "$d/tiny.txt")
	events=$("$ft" report --json "$d/tiny.dat" 2>/dev/null | jq .events)
	echo "# record --bpf -b 16: $fences fences, ${events:-?} events in the file, ${lost:-?} lost" >>"$d.out"
	[ $rc = 0 ] && grep -q '^tiny-status=0$' "$d.out" && [ "${lost:-0}" -gt 0 ] &&
		[ $((events + lost)) = $((3 * fences)) ] &&
		[ "$("$ft" report --json "$d/tiny.dat" | jq .lost_events)" = "$lost" ]
	verdict $? "record --bpf: a 16 KB ring loses records under a storm; file + lost = 3 x fences exactly, report agrees" "$d.out"
	grep -q '^full-status=125$' "$d.out" && [ "$(grep -c ENOSPC "$d/full.err")" = 1 ] &&
		grep -q '^fence-trace record: /tiny/b.dat: No space left on device (ENOSPC): recording stopped' "$d/full.err" &&
		grep -q '^full-report=0$' "$d.out" && "$ft" report --json "$d/full.dat" | jq -e '.events > 1000' >/dev/null &&
		grep -q '^tiny-files:b.dat b.dat.drm $' "$d.out"
	verdict $? "record --bpf -- COMMAND: a full disk is one line naming ENOSPC, exit 125 (record's own failure); report reads the partial trace; no temporary file left" "$d/full.err"
}

# The BPF programs on the stock 6.1 kernel (no series): the verifier takes
# them, the series' hooks are skipped and said so, and they still work.
guest_bpf_stock() {
	local rc=0 d=$results/bpf-stock kernel
	rm -rf "$d"
	kernel=$("$repo/kernel/build-kernel" stock 2>/dev/null | tail -1)/bzImage
	"$run_guest" --kernel "$kernel" --timeout 200 --out "$d" -- sh -c '
		fence-trace latency --json -W >lat.json 2>lat.err & p=$!
		await-line lat.err Tracing $p || exit 1
		# each step stamped with the guest uptime: a timeout says where it went
		up() { echo "$1 (uptime $(cut -d" " -f1 /proc/uptime) s)"; }
		fence-workload -n 5 >/dev/null; kill -INT $p; wait $p; up latency=$?
		fence-trace stall -d 1 >/dev/null 2>stall.err; up stall=$?
		fence-trace record --bpf -o b.dat -- fence-workload -n 3 >/dev/null 2>rec.err; up record=$?
		fence-trace stall --threshold 50 -d 20 >slow.txt 2>slow.err & sp=$!
		await-line slow.err watching $sp || exit 1
		up "stall watching"
		fence-trace record -o t.dat -- fence-workload -n 3 --slow 1:B:200 --error 1:B >/dev/null 2>t.err
		up t-record=$?
		kill -INT $sp; wait $sp; up slow-stall=$?' \
		>"$d.out" 2>&1 || rc=$?
	[ $rc = 0 ] && grep -q '^latency=0 ' "$d.out" && grep -q '^stall=0 ' "$d.out" &&
		grep -q '^record=0 ' "$d.out" && grep -q 'lacks the fence-trace series: skipped' "$d/lat.err" &&
		grep -Eq 'fence names: [1-9][0-9]* read from the fence, 0 from the tracefs stream, 0 unnamed' "$d/rec.err" &&
		[ "$(jq '[.histograms[] | select(.kind == "signal")] | length' "$d/lat.json")" = 3 ]
	verdict $? "bpf: on the stock kernel latency, stall and record --bpf load and work; series hooks skipped, said; record's names read from the fence" "$d.out"
	schema_verdict latency "latency --json on the stock kernel" "$d/lat.json"
	grep -q '^slow-stall=0 ' "$d.out" && grep -q '^STALL: ' "$d/slow.txt" &&
		grep -q '^  debugfs /sys/kernel/debug/dri/\*/crtc-\*/fence_timeline: absent' "$d/slow.txt" &&
		grep -q '^  debugfs /sys/kernel/debug/sync/info:$' "$d/slow.txt" &&
		grep -q '^  what a commit waiting on it did next: not traced without the fence-trace kernel series$' "$d/slow.txt"
	verdict $? "stall (stock kernel): the debugfs snapshot says fence_timeline is absent; an error's consequence is said to be untraced" "$d/slow.txt"
	grep -q '^t-record=0 ' "$d.out" &&
		grep -q "dma_fence:\* found (the series' dma_fence_error and dma_fence_member missing)" "$d/t.err" &&
		"$repo/build/bin/fence-trace" report "$d/t.dat" >"$d/t.txt" 2>&1 &&
		grep -q 'errors: unknown ("?")' "$d/t.txt" && grep -q '  signalled with an error: unknown' "$d/t.txt" &&
		"$repo/build/bin/fence-trace" report --json "$d/t.dat" | jq -e '[.timelines[].errors] | all(. == null)' >/dev/null
	verdict $? "record + report (stock kernel): dma_fence_error/_member said missing; errors unknown, not 0" "$d/t.txt"
}

# Every program of every BPF tool, in both flavours (tp_btf and raw_tp),
# through the verifier and attached, on the series kernel and on stock
# 6.1 (where the series' hooks must be skipped, not loaded): bpftool in
# the guest lists what is loaded and linked while each tool runs.  And on
# Debian's own kernel, where DRM is a module: its vblank tracepoints are
# in drm's BTF, not vmlinux's, and must attach all the same.
guest_bpf_flavours() {
	local rc kernel_name kernel d tool flavour absent why
	for kernel_name in patched stock distro; do
		rc=0 d=$results/bpf-flavours-$kernel_name
		rm -rf "$d"
		if [ $kernel_name = distro ]; then
			kernel=distro
		else
			kernel=$("$repo/kernel/build-kernel" $kernel_name 2>/dev/null | tail -1)/bzImage
		fi
		"$run_guest" --kernel "$kernel" --timeout 300 --out "$d" --add "$(command -v bpftool)" \
			--add "$repo/tests/lab/bpf-attach" -- /extra/bpf-attach /extra/bpftool >"$d.out" 2>&1 || rc=$?
		for tool in latency stall record; do
			for flavour in tp_btf raw_tp; do
				absent="" why=""
				[ $kernel_name/$tool = stock/latency ] || [ $kernel_name/$tool = distro/latency ] &&
					absent="out_signal plane_wait_begin plane_wait" why=", the series hooks skipped"
				[ $rc = 0 ] && grep -q "^$tool-$flavour=0" "$d.out" &&
					"$repo/tests/lab/check-attach" "$repo/build/bpf/fence-$tool.skel.h" $flavour \
						"$d/$tool-$flavour.progs" "$d/$tool-$flavour.links" $absent \
						>"$d/$tool-$flavour.check" 2>&1
				verdict $? "bpf ($kernel_name kernel): every $flavour program of $tool loads and attaches$why" \
					"$d/$tool-$flavour.check"
			done
		done
	done
}
