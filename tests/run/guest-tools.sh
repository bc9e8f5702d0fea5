# guest-tools.sh: top, check and stall in the guest, and report's stall
# section on recordings made with the series.  Sourced by tests/run-tests.

# top through a pipe: one table per interval with the workload's timelines;
# --pending names a fence that never signals, its age, creator and the fd
# that holds it.
guest_top() {
	local rc=0 d=$results/top
	rm -rf "$d"
	# The workload runs before top starts and after it ends (its timeline
	# open before top; killed after): each of top's intervals sees it,
	# however slow its start.  A fence that never signals is waited for by
	# the workload's own line saying so (it holds the fence by then).
	"$run_guest" --timeout 200 --out "$d" -- sh -c '
		fence-workload -n 3000 -B 20 >/dev/null & w=$!
		await-line /sys/kernel/debug/sync/info producer-A $w || exit 1
		fence-trace top -n 3 >top.txt 2>top.err; kill $w; wait $w
		fence-trace top --pending -d 4 -n 1 >pending.txt 2>pending.err & t=$!
		await-line pending.err watching $t || exit 1
		fence-workload -n 3 --never 1:B >wl.txt 2>&1 & w=$!; wait $t; kill $w; wait $w
		fence-workload -n 3 --never 1:B >wl2.txt 2>&1 & w=$!
		await-line wl2.txt "never signals" $w || exit 1
		fence-trace top --pending -n 1 >before.txt; kill $w; wait
		fence-trace top --pending -d 4 -n 1 >shared.txt 2>shared.err & t=$!
		await-line shared.err watching $t || exit 1
		fence-workload -n 3 --never 1:B --share-never >wl3.txt 2>&1 & w=$!; wait $t; kill $w; wait $w
		fence-trace top --pending -d 12 -n 1 >many.txt 2>many.err & t=$!
		await-line many.err watching $t || exit 1
		fence-storm -t 1 -n 4200 -k >storm.txt & s=$!; wait $t; kill $s; wait $s
		echo storm-status=$?' >"$d.out" 2>&1 || rc=$?
	[ $rc = 0 ] && [ "$(grep -c '^fence-trace top' "$d/top.txt")" = 3 ] &&
		grep -q ' producer-A ' "$d/top.txt" && grep -q ' CRTC:' "$d/top.txt"
	verdict $? "top: one table per interval through a pipe, with the workload's timelines" "$d/top.txt"
	grep -Eq '^sw_sync +producer-B +[0-9]+ +2 +[0-9.]+ ms +fence-workload-[0-9]+ +fence-workload-[0-9]+ fd [0-9]+' "$d/pending.txt" &&
		grep -q '^drops: live table full 0 (fences not tracked, missing here)$' "$d/pending.txt" &&
		grep -Eq '^fence names: [1-9][0-9]* read from the fence, 0 from the tracefs stream, 0 unnamed ' "$d/pending.txt" &&
		! grep -q '^truncated: ' "$d/pending.txt"
	verdict $? "top --pending: the never-signalled fence, with age, creator and holding fd; drop counters, not truncated" "$d/pending.txt"
	grep -Eq '^sw_sync +producer-B +[0-9]+ +2 +unknown +\(before fence-trace\) +fence-workload-[0-9]+ fd [0-9]+' "$d/before.txt"
	verdict $? "top --pending: a held fence older than the tool, with unknown age and creator" "$d/before.txt"
	# one fence, three holders (fd, its dup, a child's inherited fd): a row
	# each, with the same age and the workload as creator
	local h pid fd dup child rows
	h=$(sed -n "s/.*producer B's never-signalled fence (context \([0-9]*\) seqno \([0-9]*\)) is held by pid \([0-9]*\) fd \([0-9]*\), fd \([0-9]*\) (a dup) and child pid \([0-9]*\) fd .*/\1 \2 \3 \4 \5 \6/p" "$d/wl3.txt")
	read -r ctx seq pid fd dup child <<<"$h"
	rows=$(grep -E "^sw_sync +producer-B +${ctx:-x} +${seq:-x} +[0-9.]+ ms +fence-workload-${pid:-x} " "$d/shared.txt")
	[ "$(wc -l <<<"$rows")" = 3 ] && [ "$(awk '{ print $5 }' <<<"$rows" | sort -u | wc -l)" = 1 ] &&
		grep -q " fence-workload-$pid fd $fd\$" <<<"$rows" && grep -q " fence-workload-$pid fd $dup\$" <<<"$rows" &&
		grep -q " fence-workload-$child fd $fd\$" <<<"$rows" && ! grep -q '(before fence-trace)' "$d/shared.txt"
	verdict $? "top --pending: a fence held by two fds of its creator and by a child: one row per holder, each with its age and creator" "$d/shared.txt"
	# 4200 kept fences: the live list keeps the oldest 4096 (seqnos 1-4096 of
	# the storm's one timeline), the held list 1024, and says so; a held
	# fence past the list is not passed off as older than the tool
	local more
	more=$(sed -n 's/^truncated: \([0-9]*\) more fences created since fence-trace started are not listed (at most 4096, the oldest), [0-9]* of their holders with them$/\1/p' "$d/many.txt")
	grep -q '^keeping 4200 fences unsignalled until killed$' "$d/storm.txt" && grep -q '^storm-status=143$' "$d.out" &&
		[ "${more:-0}" -ge 104 ] && grep -q '^truncated: held sync_files beyond 1024 are not listed$' "$d/many.txt" &&
		[ "$(awk '$2 == "fence-storm" { print $4 }' "$d/many.txt" | sort -un | sed -n '1p;$p;' | tr '\n' ' ')" = "1 4096 " ] &&
		[ "$(awk '$2 == "fence-storm" { print $4 }' "$d/many.txt" | sort -u | wc -l)" = 4096 ] &&
		! grep -q '(before fence-trace)' "$d/many.txt" &&
		grep -q '^unsignalled fences, oldest first (4096 created since fence-trace started, 1024 held as sync_file fds)' "$d/many.txt" &&
		grep -q '^drops: live table full 0 ' "$d/many.txt"
	verdict $? "top --pending: past 4096 live fences and 1024 held fds the lists say they are truncated, and by how much; the oldest 4096 are listed" "$d/many.txt"
}

# top on a terminal (a pty): it clears the screen for each table, and 'q'
# quits it (without it, top runs until killed: pty-run says 124 after its
# 60 s, so status 0 is the proof; no bound on the seconds it took, which
# a loaded host stretches).
guest_top_tty() {
	local rc=0 d=$results/top-tty
	rm -rf "$d"
	"$run_guest" --timeout 120 --out "$d" -- sh -c '
		fence-workload -n 3000 -B 10 >/dev/null 2>&1 & w=$!
		start=$(date +%s)
		pty-run --wait "q quits" --keys q --timeout 60 -- \
			fence-trace top -d 1 >top.txt 2>&1
		echo "top-status=$? seconds=$(( $(date +%s) - start ))"
		pty-run --wait "q quits" --keys q --timeout 60 -- \
			fence-trace top --pending -d 1 >pending.txt 2>&1
		echo "pending-status=$?"
		kill $w 2>/dev/null; wait
		pty-run --timeout 60 -- fence-trace record -o /tmp/p.dat -- fence-storm -d 3 >rec.txt 2>&1
		echo "rec-status=$?"
		pty-run --timeout 60 -- fence-trace record --bpf -o /tmp/b.dat -- fence-storm -d 3 >bpf.txt 2>&1
		echo "bpf-status=$?"' >"$d.out" 2>&1 || rc=$?
	[ $rc = 0 ] && grep -q '^top-status=0 ' "$d.out" && grep -q '^pending-status=0$' "$d.out" &&
		grep -q "$(printf '\033\[H\033\[2J')" "$d/top.txt"
	verdict $? "top on a terminal: clears the screen per table; q quits top and top --pending" "$d.out"
	# record on a terminal: a progress line rewritten each second, ended
	# before the summary, for both recorders
	local f what
	for f in rec bpf; do
		what=record
		[ $f = bpf ] && what="record --bpf"
		grep -q "^$f-status=0$" "$d.out" &&
			tr '\r' '\n' <"$d/$f.txt" | grep -q '^fence-trace record: [1-9][0-9]* s, [0-9]* KB, [1-9][0-9]* events, [0-9]* lost' &&
			tr '\r' '\n' <"$d/$f.txt" | grep -q '^fence-trace record: wrote '
		verdict $? "$what on a terminal: seconds, KB, events and lost, then the summary on a line of its own" "$d/$f.txt"
	done
}

# check: in the lab everything record and latency need is there (exit 0),
# every patch of the series seen, on the series kernel; on stock 6.1 the
# same, but the series absent, patch by patch; as an unprivileged user
# (libtracefs mounts tracefs itself for root, so "not root" is what a user
# meets) it says so with hints and exits 1.  The probes' tracefs instance
# and sw_sync fence are gone after (run-guest's leak checks).
guest_check() {
	local rc=0 d=$results/check k stock kargs
	stock=$("$repo/kernel/build-kernel" stock 2>/dev/null | tail -1)/bzImage
	rm -rf "$d"
	mkdir -p "$d"
	for k in patched stock; do
		rc=0 kargs=()
		[ $k = stock ] && kargs=(--kernel "$stock")
		"$run_guest" --timeout 100 --out "$d/$k" "${kargs[@]}" -- sh -c '
			fence-trace check >ok.txt; echo ok-status=$?
			echo kfuncs=$(grep -c " bpf_dma_fence_" /proc/kallsyms)
			echo "instances:$(ls /sys/kernel/tracing/instances/ | grep -v "^fence-balance-")"
			echo "nobody:x:65534:65534:nobody:/tmp:/bin/sh" >>/etc/passwd
			su nobody -s /bin/sh -c "PATH=$PATH fence-trace check >/tmp/no.txt"
			echo no-status=$?; cp /tmp/no.txt no.txt' >"$d/$k.out" 2>&1 || rc=$?
		[ $rc = 0 ] && grep -q '^ok-status=0$' "$d/$k.out" && grep -q '^instances:$' "$d/$k.out" &&
			grep -q '^record: can work$' "$d/$k/ok.txt" && grep -q '^latency and top: can work$' "$d/$k/ok.txt" &&
			grep -q '^record --bpf and stall: can work$' "$d/$k/ok.txt" &&
			[ "$(grep -Ec '^  (latency, top|stall|record --bpf): ([0-9]+) of \2 programs attach \(tp_btf\) +yes$' "$d/$k/ok.txt")" = 3 ] &&
			[ "$(grep -c ' yes$' "$d/$k/ok.txt")" -ge 11 ] &&
			grep -Eq '^  (tracefs writable|dma_fence:\* events|drm:drm_vblank_event\* events|kernel BTF|tp_btf programs attach|raw_tp programs attach|BPF ring buffer maps)' "$d/$k/ok.txt" &&
			! grep -Ev '^  (0[0-9]{3} |series: )' "$d/$k/ok.txt" | grep -q ' NO'
		verdict $? "check ($k kernel): tracefs, the stock events, BTF, tp_btf and raw_tp attach, ring buffers, every program of latency, stall and record --bpf attached, debugfs: all there, exit 0" "$d/$k/ok.txt"
		grep -q '^no-status=1$' "$d/$k.out" && grep -q 'NO  (run as root)' "$d/$k/no.txt" &&
			grep -q '^record: CANNOT work$' "$d/$k/no.txt" && grep -q '^latency and top: CANNOT work$' "$d/$k/no.txt" &&
			grep -q '^  series: cannot tell' "$d/$k/no.txt"
		verdict $? "check ($k kernel): not root: hints, the series cannot be told, exit 1" "$d/$k/no.txt"
	done
	# the series kernel: every observable patch there, its events counted
	grep -Eq '^  0004 debugfs sync/info lists live sync_files +yes$' "$d/patched/ok.txt" &&
		grep -Eq "^  0005 the fence's identity in the dma_fence:\* events \(7 of 7\) +yes$" "$d/patched/ok.txt" &&
		grep -Eq '^  0006 drm_fence:\* commit id and commit stages \(6 of 6\) +yes$' "$d/patched/ok.txt" &&
		grep -Eq '^  0007 drm_fence:\* out-fence create, install, signal \(3 of 3\) +yes$' "$d/patched/ok.txt" &&
		grep -Eq '^  0008 drm_fence:\* plane fences and their waits \(3 of 3\) +yes$' "$d/patched/ok.txt" &&
		grep -Eq '^  0009 drm_fence_commit_stall +yes$' "$d/patched/ok.txt" &&
		grep -Eq '^  0010 drm:drm_vblank_enable and _disable \(2 of 2\) +yes$' "$d/patched/ok.txt" &&
		grep -Eq '^  0011 sync_file:\* events \(7 of 7\) +yes$' "$d/patched/ok.txt" &&
		grep -Eq '^  0012 drm_fence_out_discard, crtc_name in drm_fence_out_create \(2 of 2\) +yes$' "$d/patched/ok.txt" &&
		grep -Eq '^  0013 dma_fence_error and dma_fence_member \(2 of 2\) +yes$' "$d/patched/ok.txt" &&
		grep -Eq '^  0014 debugfs dri/N/crtc-M/fence_timeline +yes$' "$d/patched/ok.txt" &&
		grep -q '^  series: present in full, up to patch 0014 of kernel/series$' "$d/patched/ok.txt"
	verdict $? "check (series kernel): patches 0004-0014 each seen (events, the dma_fence events' fence field, the crtc_name field, sync/info listing a sync_file, fence_timeline); version: up to 0014" "$d/patched/ok.txt"
	# the series' kfunc (dropped: it called through an unchecked pointer) is gone
	grep -q '^kfuncs=0$' "$d/patched.out"
	verdict $? "series kernel: no series kfunc left (no bpf_dma_fence_* in kallsyms)" "$d/patched.out"
	# stock 6.1: each patch absent (sync/info does not list the probe's sync_file)
	[ "$(grep -Ec '^  (000[4-9]|001[0-4]) .* NO  \(kernel/build-kernel patched builds a kernel with it\)$' "$d/stock/ok.txt")" = 11 ] &&
		grep -Eq '^  0006 drm_fence:\* .*\(0 of 6\) +NO' "$d/stock/ok.txt" &&
		grep -Eq '^  0004 debugfs sync/info lists live sync_files +NO' "$d/stock/ok.txt" &&
		grep -q '^  series: absent (a kernel without the fence-trace series)$' "$d/stock/ok.txt"
	verdict $? "check (stock kernel): every patch of the series said absent, with a hint; version: absent" "$d/stock/ok.txt"
}

# stall, live, on the scenarios a stock kernel can explain (the article's
# compositor with producer B misbehaving).  Each run waits for the tool to
# say it is watching before the workload starts, and ends it with SIGINT
# once the workload is done: no -d SECONDS, which a loaded host can use up
# before the workload reaches its stall (seen under load: the 30 s ran
# out just after the never-signalled fence was reported).
guest_stall() {
	local rc=0 d=$results/stall
	rm -rf "$d"
	"$run_guest" --timeout 300 --out "$d" -- sh -c '
		watch() { fence-trace stall --json --threshold 50 "$@" >$out 2>$out.err & sp=$!
			await-line $out.err watching $sp || exit 1; }
		out=never.json watch
		fence-workload -n 3 --never 1:B >never-wl.txt 2>&1 & w=$!
		await-line never-wl.txt "never signals" $w || exit 1
		# B'"'"'s stall, live: on a loaded host A'"'"'s wait can pass the threshold first
		live_b() { grep "\"event\": \"stall\"" never.json | grep -c "\"timeline\": \"producer-B\""; }
		i=0; until [ "$(live_b)" -gt 0 ] || [ $i = 200 ]; do sleep 0.1; i=$((i + 1)); done
		echo "never-reported-live=$(live_b)"
		kill $w; wait $w; sleep 0.5; kill -INT $sp; wait $sp
		out=late.json watch
		fence-workload -n 4 --slow 2:B:500 >late-wl.txt; kill -INT $sp; wait $sp
		out=error.json watch
		fence-workload -n 3 --slow 1:B:300 --error 1:B >error-wl.txt; kill -INT $sp; wait $sp
		out=merge.json watch
		fence-workload -n 3 --merge --slow 1:B:300 >merge-wl.txt; kill -INT $sp; wait $sp
		fence-trace stall --once --threshold 50 >once.txt 2>once.err & sp=$!
		await-line once.err watching $sp || exit 1
		fence-workload -n 3 --slow 1:B:300 >/dev/null; wait $sp; echo once-status=$?' >"$d.out" 2>&1 || rc=$?
	local b
	# frame 1 never completes: its B fence is the one after frame 0's
	b=$(sed -n 's/^frame=0 .* b_context=\([0-9]*\) b_seqno=\([0-9]*\).*/\1 \2/p' "$d/never-wl.txt" 2>/dev/null)
	[ $rc = 0 ] && [ -n "$b" ] && grep -Eq '^never-reported-live=[1-9]' "$d.out" &&
		jq -se --argjson c "${b% *}" --argjson s "$((${b#* } + 1))" '
		# B'"'"'s fence only: on a loaded host an earlier frame can wait past the threshold too
		def of_b: select(.context == $c and .seqno == $s);
		[.[] | select(.event == "stall") | of_b] as $w | [.[] | select(.event == "cleared") | of_b] as $e |
		[.[] | select(.event == "class") | of_b] as $k |
		($w | length) == 1 and $w[0].timeline == "producer-B" and $w[0].waited_ns >= 50000000 and
		($e | length) == 1 and $e[0].signaled == false and
		($k | length) == 1 and $k[0].class == "producer" and $k[0].pending and $k[0].commit == $w[0].commit' \
		"$d/never.json" >/dev/null
	verdict $? "stall: B never signals: named (timeline, seqno) while it lasts (within 20 s of the workload saying so; threshold 50 ms), past the threshold; its commit producer while pending; its end on kill" "$d.out"
	# the kernel's view at that moment: the CRTC's fence_timeline lists the
	# commit's wait on exactly that fence, unsignalled; sync/info is there
	[ -n "$b" ] && jq -se --arg w " context=${b% *} seqno=$((${b#* } + 1)) " --arg last "producer-B: ${b#* }" \
		--argjson c "${b% *}" --argjson s "$((${b#* } + 1))" '
		[.[] | select(.event == "stall" and .context == $c and .seqno == $s)][0] as $stall |
		$stall.commit as $commit | $stall.debugfs as $dbg |
		($dbg.fence_timeline | length) == 1 and
		($dbg.fence_timeline[0].path | test("^/sys/kernel/debug/dri/[0-9]+/crtc-[0-9]+/fence_timeline$")) and
		($dbg.fence_timeline[0].lines | any(startswith("wait commit=\($commit) ") and
			contains($w) and contains(" signalled=0 driver=sw_sync timeline=producer-B"))) and
		($dbg.sync_info.lines | any(. == $last))' "$d/never.json" >/dev/null
	verdict $? "stall: the live snapshot has the stuck CRTC's fence_timeline naming the stuck fence's commit, context and seqno, and sync/info" "$d/never.json"
	# the workload's own clock (CLOCK_MONOTONIC, as the trace's) bounds the
	# wait: it began after frame 2 was submitted and before B signalled
	# (no bound on its length: a loaded host delays the submit, not B)
	# (each check picks the injected fence's events: on a loaded host an
	# earlier frame's wait can pass the threshold too)
	local sig sub
	sig=$(sed -n 's/^frame=2 .* b_signal_ns=\([0-9]*\) .*/\1/p' "$d/late-wl.txt")
	sub=$(sed -n 's/^frame=2 submit_ns=\([0-9]*\) .*/\1/p' "$d/late-wl.txt")
	b=$(sed -n 's/^frame=2 .* b_context=\([0-9]*\) b_seqno=\([0-9]*\).*/\1 \2/p' "$d/late-wl.txt")
	jq -se --argjson sig "${sig:-0}" --argjson sub "${sub:-0}" --argjson c "${b% *}" --argjson s "${b#* }" \
		'[.[] | select(.event == "cleared" and .context == $c and .seqno == $s)] | length == 1 and
		.[0].signal_ns == $sig and .[0].end_ns >= .[0].signal_ns and .[0].start_ns >= $sub and
		.[0].start_ns < $sig and .[0].stall_ns == .[0].end_ns - .[0].start_ns and .[0].stall_ns >= 50000000' \
		"$d/late.json" >/dev/null
	verdict $? "stall: B 500 ms late: reported; cleared with B's own signal time (as SYNC_IOC_FILE_INFO has it), the wait from after the submit to after the signal" "$d/late.json"
	b=$(sed -n 's/^frame=1 .* b_context=\([0-9]*\) b_seqno=\([0-9]*\).*/\1 \2/p' "$d/error-wl.txt")
	jq -se --argjson c "${b% *}" --argjson s "${b#* }" \
		'[.[] | select(.event == "cleared" and .context == $c and .seqno == $s)] | length == 1 and
		.[0].signaled == true and .[0].error == -2' "$d/error.json" >/dev/null
	verdict $? "stall: B signals with an error: the end says -ENOENT" "$d/error.json"
	jq -se --argjson c "${b% *}" --argjson s "${b#* }" '([.[] | select(.event == "stall" and .context == $c and
		.seqno == $s)][0].commit) as $commit |
		([.[] | select(.event == "error_fence")] | length == 1 and .[0].commit == $commit and
		 .[0].context == $c and .[0].seqno == $s and .[0].error == -2 and .[0].wait_ret == 0) and
		([.[] | select(.event == "error_outcome")] | length == 1 and .[0].commit == $commit and
		 .[0].outcome == "shown" and .[0].vblank > 0)' "$d/error.json" >/dev/null
	verdict $? "stall: B's error: what the commit did (its wait returned 0, it flipped: shown)" "$d/error.json"
	b=$(sed -n 's/^frame=1 .* b_context=\([0-9]*\) b_seqno=\([0-9]*\).*/\1 \2/p' "$d/merge-wl.txt")
	# the producers start after the merge (a loaded guest once let A signal
	# before it, and SYNC_IOC_MERGE drops signalled members): always an array
	jq -se --argjson c "${b% *}" --argjson s "${b#* }" '[.[] | select(.event == "stall" and .timeline == "unbound")] |
		length == 1 and .[0].pending_members == [{"context": $c, "seqno": $s}]' "$d/merge.json" >/dev/null
	verdict $? "stall: merged A+B in-fence, B slow: B is named, as the pending member" "$d/merge.json"
	grep -q '^once-status=3$' "$d.out" && grep -q '^STALL: ' "$d/once.txt"
	verdict $? "stall --once: exits with status 3 at the first stall" "$d.out"
	schema_verdict stall "stall --json (never, late, error, merge)" "$d/never.json" "$d/late.json" "$d/error.json" "$d/merge.json"
}

# stall with the kernel series: a compositor that polls its sync_files, one
# commit whose two in-fences are both late (each named with its commit and
# plane; B signals last), and EBUSY behind a commit stuck on B's fence.
guest_stall_series() {
	local rc=0 d=$results/stall-series
	rm -rf "$d"
	"$run_guest" --timeout 300 --out "$d" -- sh -c '
		watch() { fence-trace stall --json --threshold 50 >$out 2>$out.err & sp=$!
			await-line $out.err watching $sp || exit 1; }
		out=poll.json watch
		fence-workload -n 3 --poll --slow 1:B:300 >poll-wl.txt; kill -INT $sp; wait $sp
		out=two.json watch
		fence-workload -n 3 --slow 1:A:200 --slow 1:B:400 >two-wl.txt; kill -INT $sp; wait $sp
		fence-trace stall --threshold 50 >class.txt 2>class.err & sp=$!
		await-line class.err watching $sp || exit 1
		fence-workload -n 3 --slow 1:B:300 >class-wl.txt; kill -INT $sp; wait $sp
		out=ebusy.json watch
		fence-workload -n 3 --nonblock --slow 1:B:300 --ebusy 1 >ebusy-wl.txt; kill -INT $sp; wait $sp
		out=behind.json watch
		fence-workload -n 3 --nonblock --slow 1:B:300 --behind 1 >behind-wl.txt; kill -INT $sp; wait $sp
		fence-trace record -o err.dat -- sh -c "fence-workload -n 3 --slow 1:B:300 --error 1:B >err-wl.txt" 2>rec.err
		fence-trace record -o merge.dat -- sh -c "fence-workload -n 3 --merge --slow 1:B:300 >merge-wl.txt" 2>>rec.err' \
		>"$d.out" 2>&1 || rc=$?
	local b pa pb sig
	b=$(sed -n 's/^frame=0 .* b_context=\([0-9]*\) .*/\1/p' "$d/poll-wl.txt" 2>/dev/null)
	sig=$(sed -n 's/^frame=1 .* b_signal_ns=\([0-9]*\) .*/\1/p' "$d/poll-wl.txt" 2>/dev/null)
	[ $rc = 0 ] && jq -se --argjson c "${b:-0}" --argjson sig "${sig:-0}" '
		[.[] | select(.event == "poll_stall" and .context == $c)] as $p |
		[.[] | select(.event == "poll_cleared" and .context == $c)] as $e |
		($p | length) == 1 and $p[0].timeline == "producer-B" and ($e | length) == 1 and
		$e[0].stall_ns >= 50000000 and $e[0].end_ns >= $sig and $e[0].start_ns < $sig' \
		"$d/poll.json" >/dev/null
	verdict $? "stall (series): a compositor polling its sync_file: the poll stall is named and its end" "$d/poll.json"
	pa=$(sed -n 's/^# device=.* plane_a=\([0-9]*\) plane_b=\([0-9]*\).*/\1/p' "$d/two-wl.txt")
	pb=$(sed -n 's/^# device=.* plane_a=\([0-9]*\) plane_b=\([0-9]*\).*/\2/p' "$d/two-wl.txt")
	local s1
	s1=$(sed -n 's/^frame=1 .* b_seqno=\([0-9]*\).*/\1/p' "$d/two-wl.txt")
	jq -se --argjson pa "${pa:-0}" --argjson pb "${pb:-0}" --argjson s1 "${s1:-0}" '
		[.[] | select(.event == "stall" and .seqno == $s1)] as $s |
		($s | length) == 2 and $s[0].commit == $s[1].commit and $s[0].commit != null and
		$s[0].timeline == "producer-A" and $s[0].plane == $pa and
		$s[1].timeline == "producer-B" and $s[1].plane == $pb and
		([.[] | select(.event == "cleared" and .seqno == $s1)] | last | .context) == $s[1].context' "$d/two.json" >/dev/null
	verdict $? "stall (series): both late in-fences of one commit named with commit and plane; B signalled last" "$d/two.json"
	# each stalled wait's commit: producer, said once, while its fence is pending
	jq -se --argjson s1 "${s1:-0}" '[.[] | select(.event == "stall" and .seqno == $s1)] as $s |
		[.[] | select(.event == "class" and .seqno == $s1)] as $k |
		($k | length) == 2 and ([$k[] | .context] == [$s[] | .context]) and
		all($k[]; .class == "producer" and .commit == $s[0].commit and .why == null and
			(.pending == false or .past_ns > 0))' "$d/two.json" >/dev/null
	verdict $? "stall (series): the commit of each late in-fence wait is stated producer, once per wait" "$d/two.json"
	# under its STALL, or (the series' stream read late) on a CLASS: line after
	grep -Eq '^(  frame class|CLASS: commit [0-9]+ \(fence-workload-[0-9]+.s wait on context [0-9]+ seqno [0-9]+\)): producer: its in-fence (is still pending,|signalled) [0-9]+\.[0-9] ms past its target vblank$' \
		"$d/class.txt" && ! grep -q 'frame class: not known:' "$d/class.txt"
	verdict $? "stall (series), text: the late in-fence's commit is said producer, once certain" "$d/class.txt"
	b=$(sed -n 's/^frame=0 .* b_context=\([0-9]*\) .*/\1/p' "$d/ebusy-wl.txt" 2>/dev/null)
	jq -se --argjson c "${b:-0}" --argjson pb "${pb:-0}" '[.[] | select(.event == "commit_stall")][0] |
		.stage == "ebusy" and .blocker_plane == $pb and .blocker_context == $c and .class == "queued"' "$d/ebusy.json" >/dev/null
	verdict $? "stall (series): EBUSY told apart from an in-fence stall, explained by the earlier commit's wait on B; class queued" "$d/ebusy.json"
	# a blocking commit behind a nonblocking one stuck on B: blocked in
	# swap_state on the earlier commit's hw_done (patch 0012), not an in-fence
	b=$(sed -n 's/^frame=0 .* b_context=\([0-9]*\) .*/\1/p' "$d/behind-wl.txt" 2>/dev/null)
	jq -se --argjson c "${b:-0}" '([.[] | select(.event == "stall" and .context == $c)][0]) as $s |
		[.[] | select(.event == "commit_stall")] | length == 1 and .[0].stage == "hw_done" and
		.[0].timed_out == false and .[0].ret == 0 and .[0].duration_ns >= 50000000 and
		$s.context == $c and .[0].waits_on == $s.commit and .[0].commit != $s.commit and
		.[0].blocker_context == $c and (.[0].debugfs.fence_timeline | length) == 1 and
		.[0].class == "queued"' "$d/behind.json" >/dev/null
	verdict $? "stall (series): a commit blocked in swap_state on an earlier commit's hw_done is told apart from that commit's in-fence stall on B; class queued" "$d/behind.json"
	schema_verdict stall "stall --json with the series (poll, two, ebusy, behind)" "$d/poll.json" "$d/two.json" "$d/ebusy.json" "$d/behind.json"
	series_record_report "$d"
}

# record + report --section stalls with the series' dma_fence_error and
# dma_fence_member: a failed in-fence and what its commit did, a merged
# in-fence put down to its late member.
series_record_report() {
	local d=$1 ft=$repo/build/bin/fence-trace b
	[ "$(grep -c "dma_fence:\* found (with the series' dma_fence_error and dma_fence_member)" "$d/rec.err")" = 2 ] &&
		"$ft" report --section stalls "$d/err.dat" >"$d/err.txt" 2>&1 &&
		"$ft" report --json --by context "$d/err.dat" >"$d/err.json" 2>"$d/err-json.err"
	verdict $? "record (series): dma_fence:* brings dma_fence_error and dma_fence_member, said" "$d/rec.err"
	b=$(sed -n 's/^frame=1 .* b_context=\([0-9]*\) b_seqno=\([0-9]*\).*/\1 \2/p' "$d/err-wl.txt" 2>/dev/null)
	grep -Eq "^    signalled with an error: -ENOENT; commit [0-9]+'s wait on plane [0-9]+ returned 0; the commit went on regardless \(the atomic helpers ignore fence errors\): its out-fence signalled $dur_re later, the frame was shown with that buffer$" "$d/err.txt" &&
		# B's stall alone: under load A's wait may pass the threshold too
		jq -e --argjson c "${b% *}" --argjson s "${b#* }" '[.stalls[] | select(.context == $c)] as $b |
			($b | length) == 1 and $b[0].seqno == $s and $b[0].error == -2 and $b[0].wait_ret == 0 and
			$b[0].outcome == "shown" and ([.stalls[] | select(.error != 0)] | length) == 1 and
			([.timelines[] | select(.context == $c)] | length == 1 and .[0].errors == 1) and
			([.timelines[] | select(.timeline == "producer-B")] | map(.errors) | sort == [0, 1])' "$d/err.json" >/dev/null
	verdict $? "report --section stalls (series): B's error and what the commit did (wait returned 0, frame shown); B's failed timeline counts 1 error, the one reopened after it none" "$d/err.txt"
	b=$(sed -n 's/^frame=1 .* b_context=\([0-9]*\) b_seqno=\([0-9]*\).*/\1 \2/p' "$d/merge-wl.txt" 2>/dev/null)
	"$ft" report --section stalls "$d/merge.dat" >"$d/merge.txt" 2>&1 &&
		grep -q "^    merged fence: the member that held it is sw_sync producer-B context ${b% *} seqno ${b#* }$" "$d/merge.txt" &&
		"$ft" report --json "$d/merge.dat" | jq -e --argjson c "${b% *}" --argjson s "${b#* }" '
			[.crtcs[].late_frames[] | select(.blocking.context == $c and .blocking.seqno == $s)] |
			length == 1 and .[0].blocking.merged != null and .[0].blocking.timeline == "producer-B" and
			.[0].blocking.wait_ns >= 300000000' >/dev/null
	# B's 300 ms run from the commit's block on it (fence-workload --slow), so
	# the wait is that long however late a loaded guest made the commit
	verdict $? "report (series): a wait on a merged in-fence is put down to its late member B, waited on its 300 ms (stalls and late frames)" "$d/merge.txt"
	schema_verdict report "report --json of the series recording" "$d/err.json"
}
