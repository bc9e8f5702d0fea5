# guest-frames.sh: the frame timeline's classes against the workload's
# own ground truth, in the guest.  Sourced by tests/run-tests.

# The frame timeline's classes against what the workload injected: a
# frame queued behind a slow one (queued), the compositor late
# (compositor-late repeats), slow producers (producer); recorded by
# fence-trace record and by trace-cmd with stock events only (its default
# compressed file), both in the guest.  --starve (wakeup) is in the
# mixed plan below, whose judge knows when a loaded host made the fence
# itself late.
guest_frame_classes() {
	local rc=0 d=$results/frame-classes ft=$repo/build/bin/fence-trace
	local wl="fence-workload -n 24 --slow 5:B:40 --slow 12:B:70 --hold 8:60 --slow 19:B:40 --queue 20"
	rm -rf "$d"
	"$run_guest" --timeout 300 --add "$(command -v trace-cmd)" --out "$d" -- sh -c "
		fence-trace record -o trace.dat -- sh -c '$wl >workload.txt'; echo record-status=\$?
		cd /tmp && /extra/trace-cmd record -q -o tc.dat -e dma_fence -e drm sh -c '$wl >workload-tc.txt' >/dev/null
		echo tc-status=\$?; cp tc.dat workload-tc.txt /out/" >"$d.out" 2>&1 || rc=$?
	[ $rc = 0 ] && grep -q '^record-status=0$' "$d.out" && grep -q '^tc-status=0$' "$d.out"
	verdict $? "frames: the injecting workload recorded by fence-trace record and by trace-cmd in the guest" "$d.out"
	"$ft" report --json "$d/trace.dat" >"$d/report.json" 2>"$d/report.err" &&
		"$repo/tests/lab/check-frame-classes" "$d/report.json" "$d/workload.txt" >"$d/check.out" 2>&1 &&
		"$repo/tests/lab/check-late-frames" "$d/report.json" "$d/workload.txt" 5:B 12:B 19:B >>"$d/check.out" 2>&1
	verdict $? "frames (record, series): queued -> queued, held -> compositor-late, slow -> producer" "$d/check.out"
	tc_again "$d" tc.dat workload-tc.txt "$wl" >"$d/tc-again.log" 2>&1 &&
		"$ft" report --json "$d/tc.dat" >"$d/report-tc.json" 2>"$d/report-tc.err" &&
		"$repo/tests/lab/check-frame-classes" "$d/report-tc.json" "$d/workload-tc.txt" >"$d/check-tc.out" 2>&1 &&
		CHECK_TIME=0 "$repo/tests/lab/check-late-frames" "$d/report-tc.json" "$d/workload-tc.txt" 5:B 12:B 19:B \
		>>"$d/check-tc.out" 2>&1
	verdict $? "frames (trace-cmd, stock events): the same classes, queued inferred" "$d/check-tc.out"
}

# starved_frames JSON TRUTH: the late frames of JSON that the ground truth
# TRUTH says were starved (--starve), as JSON lines.
starved_frames() {
	local seqs
	seqs=$(sed -n 's/.* out_seqno=\([0-9]*\) .* starve_from_ns=[1-9].*/\1/p' "$2" | jq -sc .)
	jq -c --argjson s "$seqs" '.frames[].late_frames[] | . as $f | select(any($s[]; . == $f.out_fence_seqno))' "$1"
}

# wakeup_held_by_starver JSON TRUTH: the report names the starver (the
# workload's --starve thread) as what held the woken waiter's CPU, for 5 ms
# or more, in every starved frame classed wakeup, and in at least one
# starved frame.  Not in each: one classed producer had its fences late
# too (a loaded host), and its waiter may have been woken when the
# starver's 40 ms were nearly over, or over (seen under load: a starved
# frame's fences 12 ms from the deadline).  Other frames a loaded host
# made late can be of class wakeup too, held by whatever ran (the
# recorder, an idle CPU slow to wake): not the starver's.
wakeup_held_by_starver() {
	[ "$(jq '.event_sets.sched' "$1")" = true ] &&
		starved_frames "$1" "$2" | jq -se 'length >= 1 and
			([.[] | select(.wakeup.held_by == "starver" and .wakeup.held_ns >= 5e6)] | length >= 1) and
			all(.[] | select(.class == "wakeup"); .wakeup.held_by == "starver" and
				.wakeup.held_ns >= 5e6 and .wakeup.runnable_ns <= .woken_ns)' >/dev/null
}

# starved_wakeup_rows TEXT JSON TRUTH: each starved frame classed wakeup
# has its row in the text report TEXT naming the starver.
starved_wakeup_rows() {
	local seq
	for seq in $(starved_frames "$2" "$3" | jq 'select(.class == "wakeup") | .out_fence_seqno'); do
		grep -Eq "^ +$seq +[0-9]+~? +[0-9]+ .* wakeup .* CPU [0-9]+ held by starver \(pid [0-9]+\) for " "$1" ||
			return 1
	done
}

# starved_detail JSON TRUTH [TEXT]: what the report said of each starved
# frame (class, wakeup) and its text row, for a failure to show.
starved_detail() {
	echo "starved frames in the report (class, wakeup):"
	starved_frames "$1" "$2" | jq -c '{out_fence_seqno, class, woken_ns, wakeup}'
	[ -z "${3:-}" ] || { echo "their rows in the frames section:"; grep -E '^ +[0-9]+ .* wakeup ' "$3"; }
}

# starve_overlapped TRUTH: in the workload's ground truth TRUTH, the last
# fence of some starved frame signalled while the starver held the CPU.  On
# a loaded host the producers' vCPU can run so late that every starved
# frame's fences signal after the starver let go (seen under load: 96 ms
# past the deadline, 18 ms after the starver's 60 ms ended); then the
# scenario was not produced and there is no starver for a report to name.
starve_overlapped() {
	awk '/^frame=/ {
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] + 0 }
		last = v["a_signal_ns"] > v["b_signal_ns"] ? v["a_signal_ns"] : v["b_signal_ns"]
		if (v["starve_from_ns"] > 0 && last >= v["starve_from_ns"] && last <= v["starve_to_ns"]) n++
	} END { exit !n }' "$1"
}

# The scheduler's events: frames whose compositor's CPU a starver took
# while their fences signalled (--starve) are classed wakeup and name the
# starver as the task that held the CPU, recorded by record --sched and by
# trace-cmd with sched_wakeup and sched_switch (its default compressed
# file); the text says so in the frame's cause.
guest_frames_sched() {
	local rc=0 d=$results/frames-sched ft=$repo/build/bin/fence-trace
	local wl="fence-workload -n 30 --starve 10:40 --starve 20:40"
	local tc_events="-e dma_fence -e drm -e sched:sched_wakeup -e sched:sched_switch"
	local try
	for try in 1 2 3; do
		rm -rf "$d"
		rc=0
		"$run_guest" --timeout 300 --add "$(command -v trace-cmd)" --out "$d" -- sh -c "
			fence-trace record --sched -o trace.dat -- sh -c '$wl >workload.txt'; echo record-status=\$?
			cd /tmp && /extra/trace-cmd record -q -o tc.dat $tc_events sh -c '$wl >workload-tc.txt' >/dev/null
			echo tc-status=\$?; cp tc.dat workload-tc.txt /out/" >"$d.out" 2>&1 || rc=$?
		[ $rc != 0 ] || starve_overlapped "$d/workload.txt" && break
		echo "# try $try: no starved frame's fences signalled while the starver held the CPU: recording again" >>"$results/frames-sched.retries"
	done
	[ $rc = 0 ] && grep -q '^record-status=0$' "$d.out" && grep -q '^tc-status=0$' "$d.out"
	verdict $? "frames, sched events: the starving workload recorded by record --sched and by trace-cmd in the guest" "$d.out"
	"$ft" report --json "$d/trace.dat" >"$d/report.json" 2>"$d/report.err" &&
		"$repo/tests/lab/check-frame-classes" "$d/report.json" "$d/workload.txt" >"$d/check.out" 2>&1 &&
		wakeup_held_by_starver "$d/report.json" "$d/workload.txt" &&
		"$ft" report --section frames "$d/trace.dat" >"$d/frames.txt" &&
		starved_wakeup_rows "$d/frames.txt" "$d/report.json" "$d/workload.txt" ||
		{ starved_detail "$d/report.json" "$d/workload.txt" "$d/frames.txt" >>"$d/check.out" 2>&1; false; }
	verdict $? "frames (record --sched): each starved frame names the starver as what held its waiter's CPU, in JSON and text" "$d/check.out"
	tc_again "$d" tc.dat workload-tc.txt "$wl" "$tc_events" starve_overlapped >"$d/tc-again.log" 2>&1 &&
		"$ft" report --json "$d/tc.dat" >"$d/report-tc.json" 2>"$d/report-tc.err" &&
		"$repo/tests/lab/check-frame-classes" "$d/report-tc.json" "$d/workload-tc.txt" >"$d/check-tc.out" 2>&1 &&
		wakeup_held_by_starver "$d/report-tc.json" "$d/workload-tc.txt" ||
		{ starved_detail "$d/report-tc.json" "$d/workload-tc.txt" >>"$d/check-tc.out" 2>&1; false; }
	verdict $? "frames (trace-cmd -e sched_wakeup -e sched_switch): the same" "$d/check-tc.out"
}

# A seeded mix of 600 frames with an injection every 15 (tests/lab/mixed-plan:
# slow producers, frames queued behind slow ones, the compositor held back,
# in-fences signalled with an error, refused commits, the compositor's CPU
# taken while it waits),
# recorded three ways on the patched kernel (fence-trace record, record
# --bpf, trace-cmd with stock events) and once on the stock kernel: each
# report classes every injected frame as injected (counts its in-fence
# errors, or says it cannot), and no frame the
# workload saw on time (its flip on the vblank after its commit, by its own
# vblank counter) is late.
guest_frames_mixed() {
	local kind=${1:-patched} rc=0 d=$results/frames-mixed-${1:-patched} ft=$repo/build/bin/fence-trace kernel=()
	local plan slow way
	plan=$("$repo/tests/lab/mixed-plan" 7 600 | head -1) slow=$("$repo/tests/lab/mixed-plan" 7 600 | tail -1)
	[ "$kind" = stock ] && kernel=(--kernel "$("$repo/kernel/build-kernel" stock 2>/dev/null | tail -1)/bzImage")
	rm -rf "$d"
	"$run_guest" "${kernel[@]}" --timeout 600 --add "$(command -v trace-cmd)" --out "$d" -- sh -c "
		fence-trace record -o record.dat -- sh -c 'fence-workload $plan >record.txt'; echo record-status=\$?
		[ $kind = stock ] && exit 0
		fence-trace record --bpf -o bpf.dat -- sh -c 'fence-workload $plan >bpf.txt'; echo bpf-status=\$?
		cd /tmp && /extra/trace-cmd record -q -o tc.dat -e dma_fence -e drm sh -c 'fence-workload $plan >tc.txt' >/dev/null
		echo tc-status=\$?; cp tc.dat tc.txt /out/" >"$d.out" 2>&1 || rc=$?
	[ "$kind" = stock ] || tc_again "$d" tc.dat tc.txt "fence-workload $plan" >"$d/tc-again.log" 2>&1
	for way in record bpf tc; do
		[ "$kind" = stock ] && [ "$way" != record ] && continue
		[ $rc = 0 ] && grep -q "^$way-status=0\$" "$d.out" && [ -s "$d/$way.dat" ] &&
			grep -q '^# frames=600 ' "$d/$way.txt" &&
			"$ft" report --json "$d/$way.dat" >"$d/$way.json" 2>"$d/$way.err" &&
			"$repo/tests/lab/check-frame-classes" "$d/$way.json" "$d/$way.txt" >"$d/$way.check" 2>&1 &&
			CHECK_TIME=0 "$repo/tests/lab/check-late-frames" "$d/$way.json" "$d/$way.txt" $slow >>"$d/$way.check" 2>&1
		verdict $? "frames, 600 mixed frames ($kind kernel, $way): every injection its class, no frame on time by the workload late" "$d/$way.check"
	done
}