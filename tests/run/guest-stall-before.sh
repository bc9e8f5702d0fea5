# shellcheck shell=bash
# guest-stall-before.sh: `fence-trace stall` started on a display that is
# already stuck (issue 18): a blocking commit, a non-blocking commit and a
# compositor polling its sync_file (poll() or epoll_wait()), each stuck
# several seconds before stall starts, with the in-fence fds kept open and
# closed once the commit has them (fence-workload --close-in-fences; not
# for a poll, which needs its fd).  Each must be reported within a second of the line saying stall
# watches, named (task, fence; commit and plane with the series), and
# --once exit 3; a stuck wait it then sees end is CLEARED "at least";
# nothing stuck is no stall.  Sourced by tests/run-tests.

# The guest's script: one run of stall per shape, each line of its output
# stamped with the guest's uptime (10 ms) to time the report against the
# "watching" line.  Set before it: wl (the workload's fence source), p
# (the late producer), ms (its delay) and before (seconds stuck before
# stall starts).  The wait must outlast the time stuck before stall plus
# stall's start (1-2 s in the lab's emulated guest, 3x that on a host
# busy with two other guests): sw_sync fences are due 30 s after the
# submit, and a SIGUSR1 (--release-on-usr1) signals them as soon as stall
# has reported; vgem's signal themselves at 10 s, so there 9.5 s and 1 s
# before.  A shape whose stall was watching only after the fence was due
# (a host so loaded that stall took 9 s to start) is run again, up to 3
# times, and said in retries.txt: that run could not have shown the wait.
stall_before_script='
	ts() { while IFS= read -r l; do read up _ </proc/uptime; echo "$up $l"; done; }
	stuck() { # NAME WORKLOAD-ARGS...: start the workload, wait until it is stuck, then 3 s
		n=$1; shift
		fence-workload $wl -n 3 --timeout 40000 --say-waits --release-on-usr1 "$@" >$n-wl.txt 2>$n-wl.err & w=$!
		echo "$w" >$n.pid
		await-line $n-wl.err " ms after the submit" $w || exit 1
		sleep $before
	}
	in_time() { # LOG: stall watched before the stuck fence was due (not the case to judge otherwise)
		awk -v ms=$ms "/ fence-trace stall: watching/ && !w { w = \$1 }
			match(\$0, /frame [0-9]+: at [0-9]+ ns/) && !s { split(substr(\$0, RSTART, RLENGTH), a, \" \"); s = a[4] / 1e9 }
			END { exit !(w && s && w < s + ms / 1000 - 0.5) }" $1
	}
	again() { # LOG COMMAND...: COMMAND again (3 tries) while its stall was late for the wait to find
		log=$1; shift
		for try in 1 2 3; do
			"$@"
			in_time $log && return
			echo "$*: try $try: stall was watching only after the fence was due ($ms ms): again" >>retries.txt
		done
	}
	shape_once() { # NAME WORKLOAD-ARGS...
		stuck "$@"
		{ fence-trace stall --once --json -d 40 --threshold 1000; echo "rc=$?"; } 2>&1 | ts >$1.log
		cat $1-wl.err >>$1.log	# when it submitted, for a failure to show
		kill -USR1 $w; wait $w
	}
	shape() { again $1.log shape_once "$@"; }
	behind_once() { # the commit behind, found; cleared once the one ahead is released
		stuck behind --nonblock --slow 1:$p:$ms --behind 1
		{ fence-trace stall --json --threshold 1000 2>&1; echo "rc=$?"; } | ts >behind.log & sp=$!
		await-line behind.log behind_stall $sp 30
		kill -USR1 $w; wait $w
		await-line behind.log behind_cleared $sp 30
		kill -INT $(pidof fence-trace); wait $sp
		cat behind-wl.err >>behind.log
	}
	clear_once() { # the text of a stall found at start, then its CLEARED
		stuck clear --slow 1:$p:$ms
		{ fence-trace stall --threshold 1000 2>&1 >clear.txt | ts >clear.err; } & sp=$!
		await-line clear.txt "^STALL" $sp
		kill -USR1 $w; wait $w; sleep 0.5; kill -INT $(pidof fence-trace); wait $sp
		cat clear-wl.err >>clear.err
	}
	shape blocking --slow 1:$p:$ms
	shape blocking-closed --slow 1:$p:$ms --close-in-fences
	shape nonblock --nonblock --slow 1:$p:$ms
	shape nonblock-closed --nonblock --slow 1:$p:$ms --close-in-fences
	shape poll --poll --slow 1:$p:$ms
	shape epoll --epoll --slow 1:$p:$ms
	again behind.log behind_once
	if [ -z "$wl" ]; then	# sw_sync (30 s): time for a run that ends with both still stuck
		stuck going --nonblock --slow 1:$p:$ms --behind 1
		fence-trace stall --threshold 1000 -d 3 >going.txt 2>&1
		kill -USR1 $w; wait $w
	fi
	again clear.err clear_once
	{ fence-trace stall --once --json -d 3 --threshold 50; echo "rc=$?"; } 2>&1 | ts >none.log
	echo 2 >/proc/sys/kernel/kptr_restrict	# kallsyms all zeros: no stock-taking
	{ fence-trace stall --once --json -d 30 --threshold 1000; echo "rc=$?"; } 2>&1 | ts >refused.log & sp=$!
	await-line refused.log watching $sp
	fence-workload $wl -n 3 --timeout 40000 --release-on-usr1 --slow 1:$p:$ms >refused-wl.txt 2>&1 & w=$!
	wait $sp; kill -USR1 $w; wait $w
	echo 0 >/proc/sys/kernel/kptr_restrict'

# stall_before_shape DIR NAME EVENT WHO SERIES: NAME's first report is
# EVENT (stall or poll_stall), within 1 s of "watching", exit 3, began
# before the tool, the task (WHO: workload, its pid; worker, a kworker)
# and its in-fence B as the workload said it, by its names, waited at
# least 3 s; with the series (SERIES 1) the commit and producer B's plane.
# B's names (sw_sync, producer-B; vgem, unbound) come from a sync_file held
# on it, the series' fence_timeline, or (its fds closed on a kernel without
# the series) its ops: sw_sync's timeline read from the kernel, vgem's
# constant.
stall_before_shape() {
	local d=$1 n=$2 event=$3 who=$4 series=$5 ctx seq pid plane
	ctx=$(sed -n "s/.*producer $sb_p (context \([0-9]*\) seqno.*/\1/p" "$d/$n-wl.err")
	seq=$(sed -n "s/.*producer $sb_p (context [0-9]* seqno \([0-9]*\)).*/\1/p" "$d/$n-wl.err")
	plane=$(sed -n 's/^# device=.* plane_b=\([0-9]*\).*/\1/p' "$d/$n-wl.txt")
	pid=$(cat "$d/$n.pid" 2>/dev/null)
	grep -q '^[0-9.]* rc=3$' "$d/$n.log" &&
		awk '/ watching dma_fence waits/ && !w { w = $1 } /^[0-9.]* \{"event": "(stall|poll_stall)"/ && !s { s = $1 }
			END { exit !(w && s && s - w <= 1.0) }' "$d/$n.log" &&
		sed -n 's/^[0-9.]* \({.*\)$/\1/p' "$d/$n.log" | jq -se --arg ev "$event" --arg who "$who" \
			--argjson pid "${pid:-0}" --argjson c "${ctx:-0}" --argjson s "${seq:-0}" \
			--argjson series "$series" --argjson plane "${plane:-0}" \
			--arg n "$n" --arg drv "$sb_driver" --arg tl "$sb_timeline" --argjson before "$sb_before" '.[0] as $e |
			$e.event == $ev and $e.began_before_tool == true and $e.context == $c and $e.seqno == $s and
			$e.timeline == $tl and $e.driver == $drv and
			($ev == "poll_stall" or $e.names_by_ops == ($series == 0 and ($n | endswith("-closed")))) and
			$e.waited_ns >= $before * 1000000000 and
			(if $ev == "poll_stall" then $e.pid == $pid and $e.holder_tgid == $pid and
				$e.via == (if $n == "epoll" then "epoll_wait" else "poll" end)
			 else $e.creator_tgid == 0 and
				(if $who == "worker" then ($e.comm | startswith("kworker")) and
					($e.where | startswith("a non-blocking atomic commit'"'"'s worker: dma_fence_default_wait"))
				 else $e.tgid == $pid and $e.pid == $pid and
					($e.where | startswith("a blocking atomic commit, in the ioctl'"'"'s task: dma_fence_default_wait")) end) and
				$e.fence_found_by == "stack" and
				(if $series == 1 then $e.commit != null and $e.plane == $plane else $e.commit == null end) end)' >/dev/null
}

# stall_before_behind DIR: the blocking commit behind the stuck one (the
# workload's own task) is a behind_stall at hw_done, in swap_state, within
# 1 s of "watching", that waited at least the time stuck before; then
# behind_cleared once the earlier commit's in-fence is released.
stall_before_behind() {
	local d=$1 pid
	pid=$(cat "$d/behind.pid" 2>/dev/null)
	awk '/ watching dma_fence waits/ && !w { w = $1 } /"event": "behind_stall"/ && !s { s = $1 }
		END { exit !(w && s && s - w <= 1.0) }' "$d/behind.log" 2>/dev/null &&
		sed -n 's/^[0-9.]* \({.*\)$/\1/p' "$d/behind.log" | jq -se --argjson pid "${pid:-0}" \
			--argjson before "$sb_before" '[.[] | select(.event == "behind_stall")] as $b |
			[.[] | select(.event == "behind_cleared")] as $c |
			($b | length) == 1 and $b[0].tgid == $pid and $b[0].stage == "hw_done" and
			($b[0].where | test("^drm_atomic_helper_swap_state( \\[drm_kms_helper\\])? < ")) and
			$b[0].waited_ns >= $before * 1000000000 and
			($c | length) == 1 and $c[0].pid == $b[0].pid and $c[0].stall_ns > $b[0].waited_ns' >/dev/null
}

# guest_stall_before [stock|distro]: on the patched kernel, the stock one,
# or Debian's (vgem fences, virtio-gpu's display, one plane: producer A).
guest_stall_before() {
	local kind=${1:-patched} rc=0 d=$results/stall-before-${1:-patched} kernel=() series=1 sig json
	local sb_p=B sb_driver=sw_sync sb_timeline=producer-B sb_before=3
	local setup="wl=; p=B; ms=30000; before=3"
	rm -rf "$d" && mkdir -p "$d"
	if [ "$kind" = stock ]; then
		kernel=(--kernel "$("$repo/kernel/build-kernel" stock 2>/dev/null | tail -1)/bzImage")
		series=0
	elif [ "$kind" = distro ]; then
		kernel=(--kernel distro)
		series=0 sb_p=A sb_driver=vgem sb_timeline=unbound sb_before=1
		setup="wl='--vgem --device virtio_gpu --no-overlay'; p=A; ms=9500; before=1"
	fi
	"$run_guest" "${kernel[@]}" --timeout 300 --out "$d" -- sh -c "$setup; $stall_before_script" >"$d.out" 2>&1 || rc=$?
	verdict $rc "stall before ($kind kernel): the guest ran every shape" "$d.out"
	[ ! -f "$d/retries.txt" ] || sed 's/^/# /' "$d/retries.txt"
	stall_before_shape "$d" blocking stall workload $series
	verdict $? "stall before ($kind): a blocking commit stuck $sb_before s before stall: reported within 1 s of watching, exit 3, the workload's task, its late in-fence (on its stack), where it waits$([ $series = 1 ] && echo ', commit and plane')" "$d/blocking.log"
	stall_before_shape "$d" blocking-closed stall workload $series
	verdict $? "stall before ($kind): the same with the in-fence fds closed$([ $series = 0 ] && echo ' (no sync_file, no series: names known by its ops)')" "$d/blocking-closed.log"
	stall_before_shape "$d" nonblock stall worker $series
	verdict $? "stall before ($kind): a non-blocking commit stuck $sb_before s before stall: its worker, the fence, reported within 1 s, exit 3" "$d/nonblock.log"
	stall_before_shape "$d" nonblock-closed stall worker $series
	verdict $? "stall before ($kind): the same with the in-fence fds closed$([ $series = 0 ] && echo ' (names known by its ops)')" "$d/nonblock-closed.log"
	stall_before_shape "$d" poll poll_stall workload $series
	verdict $? "stall before ($kind): a compositor polling its sync_file $sb_before s before stall: the poller, holder and fd, the fence, within 1 s, exit 3" "$d/poll.log"
	stall_before_shape "$d" epoll poll_stall workload $series
	verdict $? "stall before ($kind): the same in epoll_wait() on an epoll watching the sync_file: the task in epoll_wait named" "$d/epoll.log"
	sig=$(sed -n 's/^frame=1 .* [ab]_signal_ns=\([1-9][0-9]*\) .*/\1/p' "$d/clear-wl.txt" 2>/dev/null)
	grep -q "^STALL: fence-workload-[0-9]* (thread [0-9]*) has waited at least [0-9.]* ms on $sb_driver $sb_timeline context [0-9]* seqno [0-9]* \[began before the tool\]$" "$d/clear.txt" &&
		grep -q '^  began before fence-trace started: waiting since at least [0-9.]* s (CLOCK_MONOTONIC)' "$d/clear.txt" &&
		grep -q '^  created before the tool started: creator unknown$' "$d/clear.txt" &&
		grep -q '^CLEARED after at least [0-9.]* ms (the wait began before the tool): the fence signalled context' "$d/clear.txt" &&
		grep -q '^  signalled at least [0-9.]* ms into the wait (its start: before the tool)' "$d/clear.txt" && [ -n "$sig" ]
	verdict $? "stall before ($kind): text: waiting since at least, creator unknown; then CLEARED, signalled at least X ms into a wait begun before the tool" "$d/clear.txt"
	grep -q '^[0-9.]* rc=0$' "$d/none.log" && ! grep -q '"event"' "$d/none.log" &&
		grep -q 'at start: 0 tasks in a dma_fence wait, 0 polling a sync_file and 0 commits behind an earlier one' "$d/none.log"
	verdict $? "stall before ($kind): nothing stuck: no stall at start, exit 0" "$d/none.log"
	if [ "$kind" != distro ]; then
		grep -q '^fence-trace stall: 2 stalls seen; 2 still going; dropped: 0$' "$d/going.txt"
		verdict $? "stall before ($kind): a run ending with the worker's wait and the commit behind it still stuck counts both as still going" "$d/going.txt"
	fi
	grep -q '^[0-9.]* fence-trace stall: cannot take stock of the waits already in progress (/proc/kallsyms: Operation not permitted): only waits that begin from now on are seen$' "$d/refused.log" &&
		grep -q '^[0-9.]* rc=3$' "$d/refused.log" &&
		sed -n 's/^[0-9.]* \({.*\)$/\1/p' "$d/refused.log" | jq -se '.[0].event == "stall" and .[0].began_before_tool == false' >/dev/null
	verdict $? "stall before ($kind): kallsyms refused (kptr_restrict=2): one line says no stock is taken, and a wait begun later is still a stall, exit 3" "$d/refused.log"
	stall_before_behind "$d"
	verdict $? "stall before ($kind): a blocking commit stuck behind a non-blocking one $sb_before s before stall: found by its stack (hw_done, in swap_state), reported within 1 s of watching; cleared within 1 s of running again" "$d/behind.log"
	json=$d/all.ndjson
	cat "$d"/*.log 2>/dev/null | sed -n 's/^[0-9.]* \({.*\)$/\1/p' >"$json"
	schema_verdict stall "stall --json, waits begun before the tool ($kind)" "$json"
}

# The same on the stock kernel (no series: no commit and plane), as its own
# part so that FENCE_TRACE_TESTS can name it.
guest_stall_before_stock() {
	guest_stall_before stock
}

# And on Debian's own kernel (DRM and vgem as modules, no sw_sync, no series).
guest_stall_before_distro() {
	guest_stall_before distro
}
