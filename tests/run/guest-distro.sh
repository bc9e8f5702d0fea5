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
# slow frame's vgem in-fence (its context); the wait began no earlier
# than the frame's submit and ended on the fence's signal (the ground
# truth's sync_file timestamp): not before it, and within 50 ms after it.
# What lies between the signal and the wait's end is the waiting task's
# wake-up, which the tool traces but does not cause: 5.5 ms was seen
# under TCG with the host's two cores busy, so no tighter bound holds
# under load.
distro_slow_wait() {
	local truth context signal submit
	truth=$(grep '^frame=3 ' "$2") || return 1
	context=$(sed -n 's/.* a_context=\([0-9]*\) .*/\1/p' <<<"$truth")
	signal=$(sed -n 's/.* a_signal_ns=\([0-9]*\) .*/\1/p' <<<"$truth")
	submit=$(sed -n 's/.* submit_ns=\([0-9]*\) .*/\1/p' <<<"$truth")
	"$repo/build/bin/fence-trace" report --json "$1" |
		jq -e --argjson c "$context" --argjson s "$signal" --argjson b "$submit" '
		[.stalls[] | select(.context == $c and .signaled)] | length == 1 and
		.[0].start_ns >= $b and .[0].end_ns >= $s and .[0].end_ns - $s < 50e6' >/dev/null
}

# distro_nothing_judged FILE: virtio-gpu has no vblank interrupt in QEMU
# (fake vblanks, sequence 0): the frames section of FILE judges no frame,
# gives no class and no repeat, and the text says why.
distro_nothing_judged() {
	"$repo/build/bin/fence-trace" report --json --section frames "$1" | jq -e '.frames | length >= 1 and
		all(.[]; .judged == 0 and .on_time == 0 and .late == 0 and (.late_frames | length) == 0 and
			([.late_by_class[]] | add) == 0 and ([.repeated_vblanks[]] | add) == 0)' >/dev/null &&
		"$repo/build/bin/fence-trace" report --section frames "$1" |
		grep -q '^  no frame landed on a traced vblank (fake vblanks only: nothing can be judged)$'
}

# The live tools in the same boot: latency over the slow workload; top
# while a long one runs (virtio-gpu commits complete at once: 3000 frames
# outlast top's loading); top --pending on a vgem fence that never
# signals (held as an fd); stall over the slow workload.
distro_live_tools='
	fence-trace latency --json -W >lat.json 2>lat.err & p=$!
	await-line lat.err Tracing $p || exit 1
	$wl >/dev/null; kill -INT $p; wait $p || echo latency failed >>failed
	fence-workload --vgem --device virtio_gpu --no-overlay -n 3000 >top-wl.txt & w=$!
	await-line top-wl.txt "^frame=1 " $w || exit 1
	fence-trace top -n 2 -d 1 >top.txt 2>top.err || echo top failed >>failed
	kill $w; wait $w
	fence-workload --vgem --device virtio_gpu --no-overlay -n 3 --never 1:A >never-wl.txt 2>&1 & w=$!
	await-line never-wl.txt "never signals" $w || exit 1
	fence-trace top --pending -n 1 >pending.txt 2>pending.err || echo top --pending failed >>failed
	kill $w; wait $w
	fence-trace stall --json --threshold 50 >stall.json 2>stall.err & sp=$!
	await-line stall.err watching $sp || exit 1
	$wl >stall-wl.txt; kill -INT $sp; wait $sp || echo stall failed >>failed'

# distro_unnamed_top_rows FILE: the rows of a top table in FILE (after its
# heading) that name no driver or timeline; none when every row is named.
distro_unnamed_top_rows() {
	awk '/^ *CONTEXT / { on = 1; next } /^drops:/ { on = 0 } on && NF && ($2 == "?" || $3 == "(unknown)")' "$1"
}

guest_distro_kernel() {
	local rc=0 d=$results/distro wl live_tools
	wl="fence-workload --vgem --device virtio_gpu --no-overlay -n 8 --slow 3:A:300"
	live_tools="wl='$wl'; $distro_live_tools"
	rm -rf "$d" && mkdir -p "$d"
	"$run_guest" --kernel distro --timeout 600 --out "$d" -- sh -c "
		uname -r >uname.txt
		cat /sys/module/drm_kms_helper/parameters/fbdev_emulation >fbdev.txt; ls /dev/fb0 >>fbdev.txt 2>&1
		fence-trace check >check.txt 2>&1
		fence-trace record -o t.dat -- $wl >wl.txt 2>record.err || echo record failed >>failed
		fence-trace record --bpf -o b.dat -- $wl >wlb.txt 2>recordb.err || echo record --bpf failed >>failed
		fence-trace record --bpf --raw-tp -o r.dat -- $wl >wlr.txt 2>recordr.err || echo record --raw-tp failed >>failed
		$live_tools
		[ ! -e failed ]" >"$d.out" 2>&1 || rc=$?
	verdict $rc "distro kernel: Debian's own kernel boots in the lab (DRM as modules) and every recorder runs the vgem workload" "$d.out"
	grep -q '^6\.1\.0-.*-amd64$' "$d/uname.txt" 2>/dev/null
	verdict $? "distro kernel: the guest ran Debian's 6.1 kernel ($(cat "$d/uname.txt" 2>/dev/null))" "$d/uname.txt"
	printf 'N\nls: /dev/fb0: No such file or directory\n' | cmp -s - "$d/fbdev.txt"
	verdict $? "distro kernel: /init gives modules their command-line parameters (drm_kms_helper.fbdev_emulation=0: no /dev/fb0)" "$d/fbdev.txt"
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
	verdict $? "distro kernel: record + report: the slow frame's vgem in-fence stall, begun after its submit, ended on its signal" "$d/wl.txt"
	distro_slow_wait "$d/b.dat" "$d/wlb.txt"
	verdict $? "distro kernel: record --bpf (tp_btf) + report: the same" "$d/wlb.txt"
	distro_slow_wait "$d/r.dat" "$d/wlr.txt"
	verdict $? "distro kernel: record --bpf --raw-tp + report: the same" "$d/wlr.txt"
	# the fleet tables of the three recordings: Debian's kernel release, the
	# drivers named (vgem's one-fence contexts, virtio_gpu's CRTC)
	"$repo/build/bin/fence-trace" export --tables "$d/tables" "$d/t.dat" "$d/b.dat" "$d/r.dat" >"$d/tables.out" 2>&1 &&
		jq -se --arg k "$(cat "$d/uname.txt" 2>/dev/null)" 'length == 3 and
			all(.[]; .kernel_release == $k and (.drivers | index("vgem") != null and index("virtio_gpu") != null))' \
			$(find "$d/tables/captures" -name part.ndjson) >>"$d/tables.out" 2>&1 &&
		[ -d "$d/tables/captures/kernel=$(cat "$d/uname.txt")" ]
	verdict $? "distro kernel: export --tables of its recordings: Debian's release as the kernel, vgem and virtio_gpu among the drivers" "$d/tables.out"
	distro_nothing_judged "$d/t.dat" && distro_nothing_judged "$d/b.dat"
	verdict $? "distro kernel (virtio-gpu: fake vblanks only): the frames section judges and classes no frame, and says why (record, record --bpf)" "$d/t.dat"
	# vgem's fences take a context each: named from the fence (CO-RE),
	# not by a names stream that would need a second fence of the context
	jq -e '(.histograms | length) > 3 and ([.histograms[] | select(.driver == "vgem")] | length) >= 2 and
		([.histograms[] | select(.driver == null or .timeline == null)] | length) == 0' \
		"$d/lat.json" >/dev/null 2>&1
	verdict $? "distro kernel: latency names every histogram, vgem's one-fence contexts included" "$d/lat.json"
	[ "$(grep -c '^ *[0-9]\+  vgem  *unbound ' "$d/top.txt" 2>/dev/null)" -ge 2 ] &&
		grep -q '^ *[0-9]\+  virtio_gpu  *CRTC:' "$d/top.txt" && [ -z "$(distro_unnamed_top_rows "$d/top.txt")" ]
	verdict $? "distro kernel: top lists the vgem and virtio-gpu timelines, every row named" "$d/top.txt"
	grep -q '^vgem  *unbound  *[0-9]\+  *1 .* fence-workload-[0-9]* fd [0-9]*$' "$d/pending.txt" 2>/dev/null &&
		! grep -q '^? ' "$d/pending.txt"
	verdict $? "distro kernel: top --pending names the never-signalled vgem fence and its holder" "$d/pending.txt"
	jq -se '[.[] | select(.event == "stall")] | length >= 1 and all(.driver == "vgem" and .timeline == "unbound")' \
		"$d/stall.json" >/dev/null 2>&1
	verdict $? "distro kernel: stall reports the slow frame's wait on its vgem fence, named" "$d/stall.json"
	[ -s "$d/stall.json" ] && ! grep -q '"event": "class"' "$d/stall.json"
	verdict $? "distro kernel (no series): stall states no frame class (no wait is known to be a commit's)" "$d/stall.json"
	grep -q '^  level: none  (nothing refused)$' "$d/check.txt" 2>/dev/null
	verdict $? "distro kernel: check reads the lockdown level (none)" "$d/check.txt"
}

# Debian's kernel booted with lockdown=integrity (what Secure Boot turns
# on): check says so, and tracing, BPF and the read-only debugfs files
# still work: record and record --bpf name the slow frame's vgem fence,
# latency names its histograms.
guest_distro_lockdown() {
	local rc=0 d=$results/distro-lockdown wl
	wl="fence-workload --vgem --device virtio_gpu --no-overlay -n 8 --slow 3:A:300"
	rm -rf "$d" && mkdir -p "$d"
	"$run_guest" --kernel distro --append lockdown=integrity --timeout 600 --out "$d" -- sh -c "
		fence-trace check >check.txt 2>&1; echo check=\$? >status.txt
		fence-trace record -o t.dat -- $wl >wl.txt 2>record.err || echo record failed >>failed
		fence-trace record --bpf -o b.dat -- $wl >wlb.txt 2>recordb.err || echo record --bpf failed >>failed
		fence-trace latency --json -W >lat.json 2>lat.err & p=\$!
		await-line lat.err Tracing \$p || exit 1
		$wl >/dev/null; kill -INT \$p; wait \$p || echo latency failed >>failed
		[ ! -e failed ]" >"$d.out" 2>&1 || rc=$?
	verdict $rc "distro kernel, lockdown=integrity: record, record --bpf and latency run" "$d.out"
	grep -q '^  level: integrity  (tracing and BPF allowed; debugfs files read-only)$' "$d/check.txt" 2>/dev/null &&
		grep -q '^check=0$' "$d/status.txt"
	verdict $? "distro kernel, lockdown=integrity: check says so, and that record and the BPF tools can work (exit 0)" "$d/check.txt"
	distro_slow_wait "$d/t.dat" "$d/wl.txt" && distro_slow_wait "$d/b.dat" "$d/wlb.txt"
	verdict $? "distro kernel, lockdown=integrity: record and record --bpf: the slow frame's vgem in-fence stall, ended on its signal" "$d/wl.txt"
	jq -e '([.histograms[] | select(.driver == "vgem")] | length) >= 2 and
		([.histograms[] | select(.timeline == null)] | length) == 0' "$d/lat.json" >/dev/null 2>&1
	verdict $? "distro kernel, lockdown=integrity: latency names every histogram" "$d/lat.json"
}

# Debian's kernel with lockdown=confidentiality, which turns tracing off
# and refuses BPF's reads of kernel memory: check says what is refused and
# exits 1; every recorder and live tool, run as root, fails at once, its
# error (the last line, after any notices) naming the lockdown level, and
# no line saying "run as root".
guest_distro_confidentiality() {
	local d=$results/distro-confidentiality t f runs=""
	local tools=("record -o t.dat -- true" "record --bpf -o b.dat -- true" "latency 1 1" "top -n 1" "stall -d 1")
	rm -rf "$d" && mkdir -p "$d"
	for t in "${!tools[@]}"; do
		runs+="timeout 60 fence-trace ${tools[t]} >tool$t.out 2>tool$t.err; echo \$? >tool$t.rc
		"
	done
	"$run_guest" --kernel distro --append lockdown=confidentiality --timeout 300 --out "$d" \
		--no-fence-balance "lockdown=confidentiality refuses the tracefs events it counts" -- sh -c "
		cat /sys/kernel/security/lockdown >level.txt
		fence-trace check >check.txt 2>&1; echo \$? >check.rc
		$runs" >"$d.out" 2>&1
	verdict $? "distro kernel, lockdown=confidentiality: the guest ran (level: $(cat "$d/level.txt" 2>/dev/null))" "$d.out"
	grep -q '^  level: confidentiality  (refuses tracefs' "$d/check.txt" 2>/dev/null &&
		[ "$(cat "$d/check.rc" 2>/dev/null)" = 1 ]
	verdict $? "distro kernel, lockdown=confidentiality: check names the level and says neither record nor the BPF tools can work (exit 1)" "$d/check.txt"
	for t in "${!tools[@]}"; do
		f=$d/tool$t
		tail -n 1 "$f.err" 2>/dev/null | grep -q ': cannot .*(kernel lockdown=confidentiality refuses it' &&
			! grep -q 'run as root' "$f.err" && [ "$(cat "$f.rc")" != 0 ] && [ "$(cat "$f.rc")" != 124 ]
		verdict $? "distro kernel, lockdown=confidentiality: fence-trace ${tools[t]}: its error names the lockdown, non-zero exit ($(cat "$f.rc" 2>/dev/null))" "$f.err"
	done
}

# A hang on Debian's kernel, which comes without its vmlinux: the guest
# copies its kallsyms before the host's timeout, so each vCPU's place is
# named; the dump shows the busy interrupts (a vCPU stuck in a storm) and
# the kernel's own first lockup report with its backtrace (`quiet` keeps
# that off the console).  The report here is a line written to the kernel
# log, standing in for a soft lockup that user space cannot cause.  The
# busy tasks are two dd's from /dev/zero, which spend nearly all their time
# in the kernel, so that the vCPUs are found there: with a shell loop both
# were once found in user mode (the loop, and the 80 % dump's shell), and
# there was no kernel address to name.
guest_distro_hang() {
	local d=$results/distro-hang rc=0
	rm -rf "$d" && mkdir -p "$d"
	"$run_guest" --kernel distro --timeout 90 --out "$d" --no-leak-check "a hang on purpose" -- sh -c '
		echo "watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [lab-hang:1]" >/dev/kmsg
		echo "lab-hang: the line after it" >/dev/kmsg
		dd if=/dev/zero of=/dev/null bs=4M 2>/dev/null & dd if=/dev/zero of=/dev/null bs=4M 2>/dev/null &
		sleep 120' >"$d.out" 2>&1 || rc=$?
	[ $rc = 125 ] && grep -A2 "^run-guest: the kernel's own first lockup report, with its backtrace:$" "$d.out" |
		grep -A1 'soft lockup - CPU#1 stuck for 22s! \[lab-hang:1\]' | grep -q 'lab-hang: the line after it'
	verdict $? "lab: a hang on Debian's kernel shows the kernel's own first lockup report and the lines after it, then 125" "$d.out"
	grep -qE '^  \| vCPU [01]: in the kernel at [A-Za-z0-9_.]+\+0x[0-9a-f]+; ' "$d.out" &&
		! grep -qE '^  \| vCPU [01]: in the kernel at 0x' "$d.out"
	verdict $? "lab: and where each vCPU was, named from the guest's kallsyms (no vmlinux)" "$d.out"
	tr -d '\r' <"$d/console.log" | grep -qE '^fence-trace-lab: interrupts in 1 s: [0-9]+ +LOC:'
	verdict $? "lab: and the interrupts taken in one second, the busy lines (the looping task's timer ticks)" "$d/console.log"
}
