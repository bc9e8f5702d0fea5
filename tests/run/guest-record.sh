# guest-record.sh: fence-trace record in the guest (tracefs): what it
# captures, its life cycle and exit statuses, its soak, the tracefs
# instances it leaves or removes.  Sourced by tests/run-tests.

# Does a trace-cmd capture hold, per CPU, every event its own stats say it
# took (read events + entries)?  (fence-trace report counts the difference
# as missing_events, but reads trace-cmd's compressed files through
# libtracecmd, whose API gives no stats.)
tc_complete() {
	local want have
	want=$(trace-cmd report --stat "$1" 2>/dev/null |
		awk '/^CPU: /{ c = $2 } /^entries:/{ n[c] += $2 } /^read events:/{ n[c] += $3 }
			END { for (c in n) print c, n[c] }' | sort)
	# the CPU is the first [NNN] of a line (a sched_switch line has more)
	have=$(trace-cmd report "$1" 2>/dev/null |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) { print substr($i, 2, length($i) - 2) + 0; next } }' |
		sort | uniq -c | awk '{ print $2, $1 }' | sort)
	[ -n "$want" ] && awk 'NR == FNR { have[$1] = $2; next } $2 > have[$1] + 0 { bad = 1 } END { exit bad }' \
		<(echo "$have") <(echo "$want")
}

# tc_again DIR DAT TXT WORKLOAD [EVENTS [TRUTH_OK]]: trace-cmd in the guest
# often saves nothing for a CPU (its stats say it took the events, the file
# lacks them): not ours to judge, so while DIR/DAT is such a capture, or
# the command TRUTH_OK fails on its ground truth DIR/TXT (the scenario was
# not produced), WORKLOAD (its ground truth to TXT) is recorded again, five
# times in all, with trace-cmd's EVENTS options (default -e dma_fence -e drm).
tc_again() {
	local d=$1 dat=$2 txt=$3 wl=$4 events=${5:--e dma_fence -e drm} truth_ok=${6:-true} try
	for try in 2 3 4 5; do
		tc_complete "$d/$dat" && "$truth_ok" "$d/$txt" && return 0
		echo "# trace-cmd's capture $dat misses events its stats say it took, or its workload's ground truth fails $truth_ok: recording it again ($try of 5)"
		"$run_guest" --timeout 600 --add "$(command -v trace-cmd)" --out "$d" -- sh -c "
			cd /tmp && /extra/trace-cmd record -q -o $dat $events sh -c '$wl >$txt' >/dev/null
			cp $dat $txt /out/" >"$d/tc-again.out" 2>&1
	done
	tc_complete "$d/$dat" && "$truth_ok" "$d/$txt"
}

# text_late_frames TEXT JSON TRUTH FRAME:PRODUCER...: the text report
# TEXT says what its --json JSON says about late frames (the count per
# CRTC, one row per late frame kept), and each slow frame of the
# workload's ground truth TRUTH is a row naming the producer's own fence
# (timeline, context, seqno) as the blocker, durations in any unit.
text_late_frames() {
	local txt=$1 json=$2 truth=$3 spec frame p line seq ctx pseq tl row found
	shift 3
	[ "$(sed -n 's/^  late frames: \([0-9]*\).*/\1/p' "$txt" | awk '{ n += $1 } END { print n + 0 }')" = \
		"$(jq '[.crtcs[].late_frame_count] | add // 0' "$json")" ] || { echo "late frame counts differ"; return 1; }
	row="^ +[0-9]+ +[0-9]+\.[0-9]{6} +[0-9]+ +[0-9]+ +$dur_re  "
	[ "$(grep -Ec "$row" "$txt")" = "$(jq '[.crtcs[].late_frames[]] | length' "$json")" ] ||
		{ echo "late frame rows differ from --json's"; return 1; }
	for spec in "$@"; do
		frame=${spec%%:*} p=$(tr 'AB' 'ab' <<<"${spec##*:}")
		line=" $(grep "^frame=$frame " "$truth") "
		seq=$(sed -n 's/.* out_seqno=\([0-9]*\) .*/\1/p' <<<"$line")
		found=0
		# the last to signal, or either of a tie (check-late-frames says why)
		for p in $(TIE_NS=20000000 "$repo/tests/lab/last-in-fence" "$truth" "$frame" "$p"); do
			ctx=$(sed -n "s/.* ${p}_context=\([0-9]*\) .*/\1/p" <<<"$line")
			pseq=$(sed -n "s/.* ${p}_seqno=\([0-9]*\) .*/\1/p" <<<"$line")
			tl=$(sed -n "s/.* ${p}_timeline=\([^ ]*\) .*/\1/p" <<<"$line")
			[ -n "$seq" ] && [ -n "$ctx" ] && [ -n "$pseq" ] && [ -n "$tl" ] &&
				[ "$(grep -Ec "^ +$seq +[0-9]+\.[0-9]{6} +[0-9]+ +[0-9]+ +$dur_re  (plane [0-9]+: )?sw_sync $tl context $ctx seqno $pseq, waited $dur_re\$" "$txt")" = 1 ] &&
				found=1
		done
		[ $found = 1 ] || { echo "frame $frame (out-fence seqno $seq): no row blocked by its last in-fence"; return 1; }
	done
}

# record in the guest, report on the host: the slow frames are the late
# ones, blocked by the right fence; trace-cmd reads our file; a plain
# trace-cmd capture of the same workload gives the same late frames.
guest_record_report() {
	local rc=0 d=$results/record ft=$repo/build/bin/fence-trace
	local wl="fence-workload -n 16 --slow 4:B:40 --slow 10:A:60"
	rm -rf "$d"
	"$run_guest" --timeout 300 --add "$(command -v trace-cmd)" --out "$d" -- sh -c "
		fence-trace record -o trace.dat --label run=4711 --label 'branch=fix 2' -- sh -c '$wl >workload.txt'; echo record-status=\$?
		cd /tmp && /extra/trace-cmd record -q -o tc.dat -e dma_fence -e drm sh -c '$wl >workload-tc.txt' >/dev/null
		echo tc-status=\$?; cp tc.dat workload-tc.txt /out/" >"$d.out" 2>&1 || rc=$?
	[ $rc = 0 ] && grep -q '^record-status=0$' "$d.out" && [ -s "$d/trace.dat" ]
	verdict $? "record: fence-trace record captures the workload in the guest" "$d.out"
	"$ft" report --json "$d/trace.dat" >"$d/report.json" 2>"$d/report.err" &&
		"$repo/tests/lab/check-late-frames" "$d/report.json" "$d/workload.txt" 4:B 10:A >"$d/check.out" 2>&1
	verdict $? "report: the slow frames are the late frames, blocked by the right fence, its signal event within 1 ms of the real signal (20 ms after it at most)" "$d/check.out"
	"$ft" report "$d/trace.dat" >"$d/report.txt" 2>"$d/report-txt.err" &&
		text_late_frames "$d/report.txt" "$d/report.json" "$d/workload.txt" 4:B 10:A >"$d/text.check" 2>&1
	verdict $? "report: the text report of the guest recording lists the late frames --json does, the slow ones blocked by the right fence" "$d/text.check"
	trace-cmd report "$d/trace.dat" >"$d/trace-cmd.txt" 2>&1 && grep -q 'dma_fence_init:' "$d/trace-cmd.txt"
	verdict $? "record: trace-cmd report reads fence-trace's trace.dat" "$d/trace-cmd.txt"
	# trace-cmd in the guest often saves nothing for a CPU (its stats say
	# it took the events, the file lacks them): not ours to judge, so such
	# a capture is made again, up to five times in all.
	local try
	for try in 2 3 4 5; do
		tc_complete "$d/tc.dat" && break
		echo "# trace-cmd's capture misses events its stats say it took: recording it again ($try of 5)"
		"$run_guest" --timeout 300 --add "$(command -v trace-cmd)" --out "$d" -- sh -c "
			cd /tmp && /extra/trace-cmd record -q -o tc.dat -e dma_fence -e drm sh -c '$wl >workload-tc.txt' >/dev/null
			echo tc-status=\$?; cp tc.dat workload-tc.txt /out/" >"$d.out2" 2>&1 &&
			grep -q '^tc-status=0$' "$d.out2" && sed -i 's/^tc-status=.*/tc-status=0/' "$d.out"
	done
	grep -q '^tc-status=0$' "$d.out" && "$ft" report --json "$d/tc.dat" >"$d/report-tc.json" 2>"$d/report-tc.err" &&
		CHECK_TIME=0 "$repo/tests/lab/check-late-frames" "$d/report-tc.json" "$d/workload-tc.txt" 4:B 10:A \
		>"$d/check-tc.out" 2>&1
	verdict $? "report: a plain trace-cmd capture (local clock, stock events) gives the same late frames" "$d/check-tc.out"
	schema_verdict report "report --json of fence-trace record and trace-cmd recordings" "$d/report.json" "$d/report-tc.json"
	recorder_and_host "$d"
}

# Both recorders' files say who wrote them and on what (VERSION and UNAME,
# trace-cmd's layout): trace-cmd itself reads record's, and export
# --tables' captures rows have the same host and kernel for both.  record's
# marker line (its --label pairs, the wall clock) shows in trace-cmd's
# report and becomes the labels, the run's folder and the start time.
recorder_and_host() {
	local d=$1 ft=$repo/build/bin/fence-trace want
	want="fence-trace $(cat "$repo/VERSION")"
	{
		[ "$(trace-cmd report --version -i "$d/trace.dat" 2>/dev/null | tail -n 1)" = "$want" ] &&
			trace-cmd report --uname -i "$d/trace.dat" 2>/dev/null | grep -Eq '^Linux [^ ]+ 6\.1\.[0-9]+\+? x86_64$' &&
			"$ft" export --tables "$d/tables" "$d/trace.dat" "$d/tc.dat" &&
			jq -se --arg want "$want" 'length == 2 and (map(.uname_host) | unique | length) == 1 and .[0].uname_host != null and
				(map(.kernel_release) | unique | length) == 1 and
				(map(.recorded_by) | sort | .[0] | startswith("3.")) and (map(.recorded_by) | index($want) != null) and
				(map(select(.recorded_by == $want)) | .[0] | .labels == {"run": "4711", "branch": "fix 2"} and
					(.start_utc | test("^20[0-9]{2}-")) and .start_realtime_ns > 1600000000000000000) and
				(map(select(.recorded_by != $want)) | .[0] | .labels == {} and .start_utc == null)' \
				$(find "$d/tables/captures" -name part.ndjson) &&
			[ -d "$d/tables/captures/kernel=$(jq -r .kernel_release "$(find "$d/tables/captures" -name part.ndjson | head -n 1)")/host=_none_/run=${d//[^A-Za-z0-9._+-]/_}_trace" ] &&
			trace-cmd report "$d/trace.dat" >"$d/trace-cmd-marker.txt" 2>&1 &&
			grep -q 'fence-trace-capture: realtime_ns=[0-9]* run=4711 branch=fix%202$' "$d/trace-cmd-marker.txt"
	} >"$d/recorder.check" 2>&1
	verdict $? "record writes trace-cmd's UNAME layout, its own VERSION (trace-cmd report --version says $want) and its marker line (--label pairs, wall clock); export --tables: the same host and kernel as trace-cmd's capture, record's labels and start time" "$d/recorder.check"
}

# record's life cycle: -d, SIGTERM, SIGINT and SIGHUP mid-record (the
# command goes too), a command killed from outside (said, 128+N), a command
# that does not exist (127) or cannot be executed (126), a ring buffer too
# small (losses counted and said), a full disk (one line naming ENOSPC,
# 125 with a COMMAND, the trace still written), -e naming an event the
# kernel lacks, not root (uid 65534 via busybox su; 1, or 125 with a COMMAND),
# tracefs not mounted (record mounts it, and says so; not root, one line);
# every file stays readable by report and by the host's trace-cmd report,
# the command inherits no tracing fd, and no tracefs instance is left behind
# (the lab's own fence-balance counters aside; they outlive the umount).
guest_record_lifecycle() {
	local rc=0 d=$results/record-life ft=$repo/build/bin/fence-trace
	rm -rf "$d"
	"$run_guest" --timeout 200 --out "$d" -- sh -c '
		# a stop signal goes once record says it records (its events line),
		# and the storm had a second to run: a fixed sleep raced a loaded host
		recording() { await-line $1 "^fence-trace record: events:" $pid || exit 1; sleep 1; }
		fence-trace record -d 1 -o d.dat 2>d.err; echo d-status=$?
		fence-trace record -o term.dat -- fence-storm -d 60 2>term.err & pid=$!
		recording term.err; kill -TERM $pid; wait $pid; echo term-status=$?
		fence-trace record -o nf.dat -- /no/such/program 2>nf.err; echo nf-status=$?
		echo "not a program" >noexec.sh; chmod 644 noexec.sh
		fence-trace record -o nx.dat -- ./noexec.sh 2>nx.err; echo nx-status=$?
		fence-trace record -b 4 -o tiny.dat -- fence-storm -n 3000 2>tiny.err >/dev/null; echo tiny-status=$?
		fence-trace record -o hup.dat -- fence-storm -d 60 2>hup.err & pid=$!
		recording hup.err; kill -HUP $pid; wait $pid; echo hup-status=$?
		fence-trace record -o killed.dat -- sh -c "echo \$\$ >cmd.pid; exec fence-storm -d 60" 2>killed.err &
		pid=$!; recording killed.err; until [ -s cmd.pid ]; do sleep 0.1; done
		kill -KILL $(cat cmd.pid); wait $pid; echo killed-status=$?
		fence-trace record -o fds.dat -- ls -l /proc/self/fd >fds.txt 2>fds.err
		mkdir /tiny && mount -t tmpfs -o size=256k tmpfs /tiny
		fence-trace record -o /tiny/t.dat -- fence-workload -n 300 >/dev/null 2>full.err; echo full-status=$?
		fence-trace report /tiny/t.dat >full.txt 2>&1; echo full-report=$?; cp /tiny/t.dat full.dat
		fence-trace record -o int.dat -- fence-storm -d 60 2>int.err & pid=$!
		recording int.err; kill -INT $pid; wait $pid; echo int-status=$?
		fence-trace record -e dma_fence:no_such_event -d 1 -o noev.dat 2>noev.err; echo noev-status=$?
		fence-trace record -C local -o local.dat -- fence-workload -n 20 >/dev/null 2>local.err; echo local-status=$?
		fence-trace record -b 1048576 -o big.dat -- true 2>big.err; echo big-status=$?
		mkdir -p /etc && echo "nobody:x:65534:65534:nobody:/tmp:/bin/sh" >>/etc/passwd
		su -s /bin/sh nobody -c "fence-trace record -d 1 -o /tmp/nr.dat" 2>nr.err; echo nr-status=$?
		su -s /bin/sh nobody -c "fence-trace record -o /tmp/nrc.dat -- true" 2>nrc.err; echo nrc-status=$?
		umount /sys/kernel/tracing && ! grep -q " tracefs " /proc/mounts && echo tracefs-unmounted
		su -s /bin/sh nobody -c "fence-trace record -d 1 -o /tmp/nr2.dat" 2>nr2.err; echo nr2-status=$?
		fence-trace record -o nomnt.dat -- fence-storm -n 200 2>nomnt.err >/dev/null; echo nomnt-status=$?
		grep -q "^[^ ]* /sys/kernel/tracing tracefs " /proc/mounts && echo tracefs-remounted
		ls /tmp/nr.dat /tmp/nr2.dat /tmp/nrc.dat 2>&1 | sed "s/^/nr-files: /"
		echo "instances:$(ls /sys/kernel/tracing/instances/ | grep -v "^fence-balance-")"' >"$d.out" 2>&1 || rc=$?
	[ $rc = 0 ] && grep -q '^d-status=0$' "$d.out" && "$ft" report "$d/d.dat" >/dev/null
	verdict $? "record: -d SECONDS stops and leaves a valid file" "$d.out"
	grep -q '^term-status=0$' "$d.out" && grep -q 'stopped by signal 15$' "$d/term.err" &&
		grep -q "'fence-storm' stopped by signal 15 with the recording" "$d/term.err" &&
		"$ft" report "$d/term.dat" >/dev/null
	verdict $? "record: SIGTERM mid-record stops the command and leaves a valid file" "$d/term.err"
	grep -q '^nf-status=127$' "$d.out" && grep -q "cannot run '/no/such/program'" "$d/nf.err" && [ ! -e "$d/nf.dat" ]
	verdict $? "record: a command that does not exist is one clear error, exit 127" "$d/nf.err"
	grep -q '^nx-status=126$' "$d.out" && grep -q "cannot run './noexec.sh'" "$d/nx.err" && [ ! -e "$d/nx.dat" ]
	verdict $? "record: a command that is not executable is one clear error, exit 126" "$d/nx.err"
	local lost
	lost=$(sed -n 's/.*wrote tiny.dat: .* \([0-9]*\) events lost.*/\1/p' "$d/tiny.err")
	grep -q '^tiny-status=0$' "$d.out" && [ "${lost:-0}" -gt 0 ] &&
		"$ft" report "$d/tiny.dat" >"$d/tiny.txt" && grep -q 'WARNING: events were lost' "$d/tiny.txt" &&
		[ "$("$ft" report --json "$d/tiny.dat" | jq .lost_events)" = "$lost" ]
	verdict $? "record: a too-small ring buffer loses events; record and report give the same exact count" "$d/tiny.err"
	grep -q '^hup-status=0$' "$d.out" && grep -q 'stopped by signal 1$' "$d/hup.err" &&
		grep -q "'fence-storm' stopped by signal 1 with the recording" "$d/hup.err" &&
		"$ft" report "$d/hup.dat" >/dev/null
	verdict $? "record: SIGHUP mid-record stops the command and leaves a valid file" "$d/hup.err"
	grep -q '^killed-status=137$' "$d.out" && grep -q "'sh' was killed by signal 9" "$d/killed.err" &&
		"$ft" report --json "$d/killed.dat" | jq -e '.events > 0' >/dev/null
	verdict $? "record: a command killed by a signal is said, exit 128+9, the file valid" "$d/killed.err"
	grep -q ' 2 -> ' "$d/fds.txt" && ! grep -q 'trace_pipe_raw\|fds\.dat' "$d/fds.txt"
	verdict $? "record: the command inherits no trace_pipe_raw or temporary file" "$d/fds.txt"
	grep -q '^full-status=125$' "$d.out" && [ "$(grep -c ENOSPC "$d/full.err")" = 1 ] &&
		grep -q '^fence-trace record: /tiny/t.dat: No space left on device (ENOSPC): recording stopped' "$d/full.err" &&
		grep -q '^full-report=0$' "$d.out" && "$ft" report --json "$d/full.dat" | jq -e '.events > 100' >/dev/null
	verdict $? "record -- COMMAND: a full disk is one line naming ENOSPC, exit 125 (record's own failure), and report reads the partial trace" "$d/full.err"
	grep -q '^int-status=0$' "$d.out" && grep -q 'stopped by signal 2$' "$d/int.err" &&
		grep -q "'fence-storm' stopped by signal 2 with the recording" "$d/int.err" &&
		"$ft" report --json "$d/int.dat" | jq -e '.events > 0' >/dev/null
	verdict $? "record: SIGINT mid-record stops the command and leaves a valid file" "$d/int.err"
	grep -q '^noev-status=1$' "$d.out" && [ ! -e "$d/noev.dat" ] &&
		[ "$(grep -c 'no such event' "$d/noev.err")" = 1 ] &&
		grep -q '^fence-trace record: -e dma_fence:no_such_event: no such event in this kernel$' "$d/noev.err"
	verdict $? "record: -e naming an event the kernel lacks is one line, exit 1, no file" "$d/noev.err"
	grep -q '^local-status=0$' "$d.out" &&
		[ "$("$ft" report --json "$d/local.dat" | jq -r '.clock, (.crtcs[0].frames > 10)')" = "local
true" ] && "$ft" report "$d/local.dat" >"$d/local.txt" &&
		grep -q '^fence-trace report: .*, clock local)$' "$d/local.txt"
	verdict $? "record -C local: the file says its clock, and report reads its frames" "$d/local.err"
	grep -q '^big-status=125$' "$d.out" && [ ! -e "$d/big.dat" ] && [ "$(wc -l <"$d/big.err")" = 1 ] &&
		grep -q '^fence-trace record: cannot make a 1048576 KB ring buffer per CPU: Cannot allocate memory$' "$d/big.err"
	verdict $? "record: a ring buffer the guest cannot hold is one line naming the size, exit 125, no file" "$d/big.err"
	grep -q '^nr-status=1$' "$d.out" && [ "$(wc -l <"$d/nr.err")" = 1 ] &&
		grep -q '^fence-trace record: cannot create a tracefs instance: .*(run as root)$' "$d/nr.err"
	verdict $? "record: not root is one line saying to run as root, exit 1" "$d/nr.err"
	grep -q '^nrc-status=125$' "$d.out" && [ "$(wc -l <"$d/nrc.err")" = 1 ] &&
		grep -q '^fence-trace record: cannot create a tracefs instance: .*(run as root)$' "$d/nrc.err" &&
		grep -q '^nr-files: .*nrc.dat: No such file' "$d.out"
	verdict $? "record -- COMMAND: not root is one line saying to run as root, exit 125, no file" "$d/nrc.err"
	grep -q '^tracefs-unmounted$' "$d.out" && grep -q '^nr2-status=1$' "$d.out" &&
		[ "$(wc -l <"$d/nr2.err")" = 1 ] &&
		grep -q '^fence-trace record: tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing); and record needs root$' "$d/nr2.err" &&
		grep -q '^nr-files: .*nr.dat: No such file' "$d.out" && grep -q '^nr-files: .*nr2.dat: No such file' "$d.out"
	verdict $? "record: tracefs not mounted and not root is one line, exit 1, no file" "$d/nr2.err"
	grep -q '^nomnt-status=0$' "$d.out" && grep -q '^tracefs-remounted$' "$d.out" &&
		grep -q '^fence-trace record: tracefs was not mounted: it is now, on /sys/kernel/tracing$' "$d/nomnt.err" &&
		"$ft" report --json "$d/nomnt.dat" | jq -e '.events > 0' >/dev/null
	verdict $? "record: tracefs not mounted, as root: record mounts it, says so, and records" "$d/nomnt.err"
	grep -q '^instances:$' "$d.out"
	verdict $? "record: no tracefs instance is left behind" "$d.out"
	trace_cmd_reads "$d" d term int hup killed tiny full nomnt local
}

# The host's trace-cmd report reads each of record's files $2... in folder
# $1 (the guest has no trace-cmd): exit 0, nothing on stderr, and as many
# of the catalogue's events (tracepoints/catalogue.h) as fence-trace report
# --json counts.
trace_cmd_reads() {
	local d=$1 f n ours ok=0 bad="" names
	shift
	names=$(sed -n 's/.*E([A-Z_0-9]*,[[:space:]]*"[a-z_]*",[[:space:]]*"\([a-z_0-9]*\)".*/\1/p' \
		"$repo/tracepoints/catalogue.h" | tr '\n' ' ')
	if ! command -v trace-cmd >/dev/null; then
		skip "record: trace-cmd report reads every file" "no trace-cmd on the host"
		return 0
	fi
	for f in "$@"; do
		n=$(trace-cmd report -i "$d/$f.dat" 2>"$d/$f.tc-err" | awk -v names="$names" '
			BEGIN { split(names, a, " "); for (i in a) want[a[i] ":"] = 1 }
			/ \[[0-9]+\] +[0-9.]+: [a-z_0-9]+:/ {
				for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+:$/) { if ($(i + 1) in want) n++; break } }
			END { print n + 0 }') || echo "trace-cmd report failed" >>"$d/$f.tc-err"
		ours=$("$repo/build/bin/fence-trace" report --json "$d/$f.dat" 2>/dev/null | jq .events)
		if [ ! -s "$d/$f.tc-err" ] && [ -n "$ours" ] && [ "$n" = "$ours" ]; then
			ok=$((ok + 1))
		else
			bad="$bad $f.dat (trace-cmd $n events, fence-trace ${ours:-none})"
		fi
	done
	[ -z "$bad" ] || echo "trace-cmd report failed on:$bad" >"$d/trace-cmd.err"
	[ -z "$bad" ]
	verdict $? "record: the host's trace-cmd report reads all $# files record left, every event fence-trace counts" "$d/trace-cmd.err"
}

# record under the fence storm, 10 s (make bench runs 60 s): every event
# in the file or counted lost, exactly; flat memory.  record at the
# guest's full rate to the host's share, which loses events (so their
# count is tested); record --bpf at a fixed 5000 fences/s, a quarter of
# what the guest makes, to its tmpfs: the storm stays at or under it and
# nothing is lost.
guest_soak() {
	host_tap soak "$results/soak.tap" "$repo/tests/lab/soak-record" 10 "$results/soak"
	host_tap soak-bpf "$results/soak-bpf.tap" "$repo/tests/lab/soak-record" --bpf --tmpfs --rate 5000 10 "$results/soak-bpf"
}

# A tool killed outright leaves its tracefs instance (events on, costing
# every fence); the next tool removes it, and never a live tool's.  A
# stop signal while a tool loads ends it cleanly, with nothing left.
guest_instances() {
	local rc=0 d=$results/instances
	rm -rf "$d"
	"$run_guest" --timeout 200 --out "$d" -- sh -c '
		inst=/sys/kernel/tracing/instances
		fence-trace latency >/dev/null 2>killed.err & k=$!
		await-line killed.err Tracing $k || exit 1
		kill -KILL $k; wait $k; echo killed=$k
		ls $inst >left.txt
		fence-trace top -d 1 >/dev/null 2>live.err & t=$!
		await-line live.err watching $t || exit 1; echo live=$t
		fence-trace record -o r.dat -- true 2>rec.err; echo record-status=$?
		ls $inst >during.txt
		kill -INT $t; wait $t; echo top-status=$?
		# Wait until process $1 catches SIGTERM (SigCgt bit 14, 0x4000): its
		# handler is in and its loading about to start, however slow the
		# guest (a fixed sleep raced the exec under load).
		caught() {
			while [ -e /proc/$1 ] &&
				[ $(( 0x$(sed -n "s/^SigCgt:[[:space:]]*//p" /proc/$1/status | tail -c 9) & 0x4000 )) = 0 ]
			do sleep 0.01; done
		}
		for tool in latency stall top; do
			fence-trace $tool >/dev/null 2>early.err & e=$!
			caught $e; kill -TERM $e; wait $e; echo "early $tool status=$?"
		done
		# record (tracefs) sets up in a few ms: the signal comes during the
		# set-up (1, said) or, when the set-up won the race, after it (0);
		# up to five tries for one during the set-up
		for i in 1 2 3 4 5; do
			fence-trace record -o s.dat >/dev/null 2>early.err & e=$!
			caught $e; kill -TERM $e; wait $e; st=$?
			said=$(grep -c "stopped by signal 15 before recording" early.err)
			echo "early record try $i: status=$st said=$said"
			[ $said = 1 ] && break
		done
		ls $inst >after.txt' >"$d.out" 2>&1 || rc=$?
	local k t
	k=$(sed -n 's/^killed=//p' "$d.out"); t=$(sed -n 's/^live=//p' "$d.out")
	[ $rc = 0 ] && [ -n "$k" ] && [ -n "$t" ] && grep -qx "fence-trace-names-$k" "$d/left.txt" &&
		grep -Eqx "fence-trace [a-z]+: removed tracefs instance fence-trace-names-$k, left by process $k, which is gone" "$d/live.err" &&
		! grep -q "fence-trace-names-$k" "$d/during.txt"
	verdict $? "instances: a SIGKILLed tool's tracefs instance is removed by the next tool, which says so" "$d.out"
	grep -q '^record-status=0$' "$d.out" && grep -qx "fence-trace-names-$t" "$d/during.txt" &&
		! grep -q 'removed tracefs instance' "$d/rec.err" && grep -q '^top-status=0$' "$d.out"
	verdict $? "instances: a live tool's instance is left alone by another tool" "$d/during.txt"
	[ "$(grep -c '^early [a-z]* status=0$' "$d.out")" = 3 ] &&
		grep -q '^early record try [1-5]: status=1 said=1$' "$d.out" &&
		[ "$(grep -Ec '^early record try [1-5]: (status=1 said=1|status=0 said=0)$' "$d.out")" = \
			"$(grep -c '^early record try ' "$d.out")" ] &&
		! grep -q '^fence-trace-' "$d/after.txt"
	verdict $? "instances: SIGTERM while latency, stall, top or record load: a clean stop, no instance left" "$d.out"
}
