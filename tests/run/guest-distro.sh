# shellcheck shell=bash
# guest-distro.sh: the tools on Debian's own 6.1 kernel (run-guest --kernel
# distro; fetched once per version by kernel/fetch-distro-kernel), as
# users run it: DRM, virtio-gpu and vgem as modules, no sw_sync, no vkms,
# no series.  The display is virtio-gpu, whose out-fences signal at
# commit completion (no vblank interrupt in QEMU: no drm_vblank_event, so
# no late frame can be judged); the in-fences are vgem's
# (fence-workload --vgem), one fence context each, as real drivers make.
# Sourced by tests/run-tests.

# distro_slow_wait FILE GROUND_TRUTH: the stall report of FILE names the
# slow frame's vgem in-fence (its context) and its wait ended within 5 ms
# of the ground truth's signal of that fence.
distro_slow_wait() {
	local truth context signal
	truth=$(grep '^frame=3 ' "$2") || return 1
	context=$(sed -n 's/.* a_context=\([0-9]*\) .*/\1/p' <<<"$truth")
	signal=$(sed -n 's/.* a_signal_ns=\([0-9]*\) .*/\1/p' <<<"$truth")
	"$repo/build/bin/fence-trace" report --json "$1" | jq -e --argjson c "$context" --argjson s "$signal" '
		[.stalls[] | select(.context == $c and .signaled)] | length == 1 and
		(.[0].end_ns - $s | fabs) < 5e6' >/dev/null
}

guest_distro_kernel() {
	local rc=0 d=$results/distro wl
	wl="fence-workload --vgem --device virtio_gpu --no-overlay -n 8 --slow 3:A:300"
	rm -rf "$d" && mkdir -p "$d"
	"$run_guest" --kernel distro --timeout 600 --out "$d" -- sh -c "
		uname -r >uname.txt
		fence-trace check >check.txt 2>&1
		fence-trace record -o t.dat -- $wl >wl.txt 2>record.err || echo record failed >>failed
		fence-trace record --bpf -o b.dat -- $wl >wlb.txt 2>recordb.err || echo record --bpf failed >>failed
		fence-trace record --bpf --raw-tp -o r.dat -- $wl >wlr.txt 2>recordr.err || echo record --raw-tp failed >>failed
		[ ! -e failed ]" >"$d.out" 2>&1 || rc=$?
	verdict $rc "distro kernel: Debian's own kernel boots in the lab (DRM as modules) and every recorder runs the vgem workload" "$d.out"
	grep -q '^6\.1\.0-.*-amd64$' "$d/uname.txt" 2>/dev/null
	verdict $? "distro kernel: the guest ran Debian's 6.1 kernel ($(cat "$d/uname.txt" 2>/dev/null))" "$d/uname.txt"
	grep -q '^  series: absent (a kernel without the fence-trace series; not looked at: 0004)$' "$d/check.txt" 2>/dev/null
	verdict $? "distro kernel: check says the series is absent, naming the patch it could not look at (no sw_sync)" "$d/check.txt"
	grep -q 'drm:drm_vblank_event\* events (stock) *yes' "$d/check.txt" 2>/dev/null &&
		grep -q 'tp_btf programs attach (dma_fence_init) *yes' "$d/check.txt"
	verdict $? "distro kernel: check finds the stock events (drm's in its module) and tp_btf attaching" "$d/check.txt"
	grep -Eq '^  latency, top: ([0-9]+) of \1 programs attach \(tp_btf\) +yes$' "$d/check.txt" 2>/dev/null &&
		grep -Eq '^  stall: ([0-9]+) of \1 programs attach \(tp_btf\) +yes$' "$d/check.txt" &&
		grep -Eq '^  record --bpf: ([0-9]+) of \1 programs attach \(tp_btf\) +yes$' "$d/check.txt" &&
		grep -q '^record --bpf and stall: can work$' "$d/check.txt"
	verdict $? "distro kernel: check loads and attaches every program of latency, stall and record --bpf (drm's vblank hooks in module BTF included)" "$d/check.txt"
	distro_slow_wait "$d/t.dat" "$d/wl.txt"
	verdict $? "distro kernel: record + report: the slow frame's vgem in-fence stall, ended within 5 ms of its signal" "$d/wl.txt"
	distro_slow_wait "$d/b.dat" "$d/wlb.txt"
	verdict $? "distro kernel: record --bpf (tp_btf) + report: the same" "$d/wlb.txt"
	distro_slow_wait "$d/r.dat" "$d/wlr.txt"
	verdict $? "distro kernel: record --bpf --raw-tp + report: the same" "$d/wlr.txt"
}
