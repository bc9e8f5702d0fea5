# guest-workload.sh: the compositor workload in the guest, checked
# against its own ground truth.  Sourced by tests/run-tests.

# The workload at known delays: its ground truth must show them.
guest_workload() {
	local name=$1; shift
	local rc=0
	"$run_guest" --timeout 300 --out "$results/$name" -- fence-workload "$@" \
		>"$results/$name.out" 2>&1 || rc=$?
	verdict $rc "workload $name: runs (fence-workload $*)" "$results/$name.out"
	[ $rc = 0 ] || return 0
	"$repo/tests/lab/check-workload" "$results/$name.out" "$@" >"$results/$name.check" 2>&1
	verdict $? "workload $name: per-frame ground truth matches the plan" "$results/$name.check"
}

# A producer that never signals: non-blocking, the compositor gives up on
# the out-fence; blocking, the commit stalls until the process is killed
# (once it says frame 2 is stuck: a fixed timeout raced a slow start).
# Either way the frames before it are complete and the kernel stays clean.
guest_workload_never() {
	local rc=0 o=$results/never.out
	rm -rf "$results/never"	# await-line below must not find a line of an earlier run
	"$run_guest" --timeout 120 --out "$results/never" -- sh -c '
		fence-workload -n 4 --nonblock --never 2:B --timeout 500; echo "nonblock-status=$?"
		fence-workload -n 4 --never 2:B >blocking.txt 2>&1 & w=$!
		await-line blocking.txt "never signals" $w || exit 1
		kill -TERM $w; wait $w; echo "blocking-status=$?"; cat blocking.txt' >"$o" 2>&1 || rc=$?
	[ $rc = 0 ] && grep -q 'frame 2: out-fence not signalled after 500 ms' "$o" &&
		grep -q '^nonblock-status=1$' "$o" && grep -q '^blocking-status=143$' "$o" &&
		grep -q 'frame 2: producer B never signals' "$o" &&
		[ "$(grep -c '^frame=[01] ' "$o")" = 4 ] && [ "$(grep -c '^frame=2 ' "$o")" = 0 ]
	verdict $? "workload never: a fence that never signals stalls frame 2 only" "$o"
}

# Two KMS devices at once: vkms (vblank interrupts) and virtio-gpu (none:
# out-fences signal at commit completion).  Each CRTC keeps its own frames;
# virtio's are told apart as fake-vblank signals and never judged late.
guest_multi_crtc() {
	local rc=0 d=$results/multi-crtc
	rm -rf "$d"
	"$run_guest" --timeout 200 --out "$d" -- fence-trace record -o trace.dat -- sh -c \
		'fence-workload -n 10 --device vkms >vkms.txt & fence-workload -n 10 --device virtio_gpu --no-overlay >virtio.txt; wait' \
		>"$d.out" 2>&1 || rc=$?
	[ $rc = 0 ] && "$repo/build/bin/fence-trace" report --json "$d/trace.dat" >"$d/report.json" &&
		jq -e '(.crtcs | length) == 2 and
			(.crtcs[] | select(.driver == "vkms") | .frames == 10 and .pipe >= 0 and .fake_vblank_signals == 0
				and .device != null and .index == 0) and
			(.crtcs[] | select(.driver == "virtio_gpu") | .frames == 10 and .pipe == -1 and
				.fake_vblank_signals == 10 and .late_frame_count == 0)' "$d/report.json" >"$d/check.out" 2>&1
	verdict $? "report: vkms and virtio-gpu CRTCs kept apart; virtio's fake vblanks recognised" "$d/report.json"
	schema_verdict report "report --json of two CRTCs" "$d/report.json"
}
