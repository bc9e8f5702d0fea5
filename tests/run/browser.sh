# browser.sh: the timeline page and the Perfetto export of a guest
# recording, in headless Chromium.  Sourced by tests/run-tests.

# The timeline page and the Perfetto export of a guest recording with slow
# frames: the export validates as trace-event JSON, and the page works in
# headless Chromium (lanes, late-frame arrows, zoom/pan/click/search, no
# request leaves it).  Screenshot: build/test-results/timeline.png.
guest_timeline() {
	local rc=0 d=$results/timeline ft=$repo/build/bin/fence-trace
	rm -rf "$d"
	"$run_guest" --timeout 300 --out "$d" -- fence-trace record -o trace.dat -- sh -c \
		'fence-workload -n 30 --slow 5:B:40 --slow 12:A:70 --reject 20 >workload.txt' >"$d.out" 2>&1 || rc=$?
	[ $rc = 0 ] && "$ft" timeline -o "$d/timeline.html" "$d/trace.dat" >>"$d.out" 2>&1 &&
		"$ft" export --perfetto "$d/trace.perfetto.json" "$d/trace.dat" >>"$d.out" 2>&1
	verdict $? "timeline: timeline and export --perfetto of a guest recording" "$d.out"
	[ -s "$d/trace.perfetto.json" ] && "$repo/tests/viz/check-perfetto" "$d/trace.perfetto.json" 2 >"$d/perfetto.check" 2>&1
	verdict $? "export: the Perfetto JSON is valid trace-event JSON with its late-frame flows" "$d/perfetto.check"
	schema_verdict perfetto "export --perfetto of a guest recording" "$d/trace.perfetto.json"
	if [ ! -x /usr/bin/chromium ] && [ -z "${CHROMIUM:-}" ]; then
		skip "timeline: headless Chromium" "chromium not installed (scripts/install-deps)"
		return 0
	fi
	if [ ! -d "$repo/tests/viz/node_modules/playwright-core" ]; then
		(cd "$repo/tests/viz" && npm ci --no-audit --no-fund) >"$d.npm" 2>&1
		verdict $? "timeline: npm ci in tests/viz (playwright-core)" "$d.npm"
	fi
	[ -s "$d/timeline.html" ] || return 0
	# at least the two planned slow frames are late with a known blocker
	host_tap browser "$d/browser.tap" timeout 300 node "$repo/tests/viz/timeline-test.mjs" \
		"$d/timeline.html" "$results/timeline.png" 2
	# a timeline named like a script injection renders as text, runs nothing
	local evil='</script><script>alert(1)</script>'
	"$repo/build/bin-host/timeline-synth" -n 3000 -b "$evil" "$d/hostile.dat" &&
		"$ft" timeline -o "$d/hostile.html" "$d/hostile.dat" 2>/dev/null &&
		! grep -qF "$evil" "$d/hostile.html" && grep -qF 'u003c/script\u003e\u003cscript\u003ealert(1)' "$d/hostile.html"
	verdict $? "timeline: a hostile timeline name is escaped in the HTML"
	host_tap hostile "$d/hostile.tap" timeout 120 node "$repo/tests/viz/hostile-test.mjs" "$d/hostile.html" "$evil"
}
