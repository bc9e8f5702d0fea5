# host.sh: the host part of tests/run-tests: the runner's own self-test,
# the unit tests (cmocka), the CLI and man-page tests, each also under
# AddressSanitizer + UBSan, the golden files, the JSON schemas and the
# fleet tables with DuckDB.  Sourced by tests/run-tests.

# host_tap PART FILE COMMAND [ARG]...: run a TAP program on the host and
# fold in its TAP (stdout, in FILE) with its exit status.  stderr goes to
# FILE.err: written unbuffered, it could land inside a TAP line that
# stdout's buffer wrote in two pieces.
host_tap() {
	local part=$1 file=$2 rc=0
	shift 2
	"$@" >"$file" 2>"$file.err" || rc=$?
	tap_part "$part" "$file" $rc
}

# The sanitizers' reports in FILE or FILE.err (none: status 0).
no_sanitizer_report() {
	! cat "$@" 2>/dev/null | grep -q 'ERROR: AddressSanitizer\|runtime error:\|ERROR: LeakSanitizer'
}

# The runner's TAP accounting fed broken parts (tests/run/self-test): it
# must fail each, and pass a well-formed one.
runner_selftest() {
	host_tap runner-selftest "$results/runner-selftest.tap" "$repo/tests/run/self-test"
}

unit_tests() {
	runner_selftest
	CMOCKA_MESSAGE_OUTPUT=TAP host_tap unit "$results/unit.tap" "$repo/build/bin-host/unit-tests"
	# The same tests built with AddressSanitizer + UBSan (LeakSanitizer on).
	CMOCKA_MESSAGE_OUTPUT=TAP ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 \
		LSAN_OPTIONS=suppressions=$repo/tests/run/lsan-libtracecmd.supp:print_suppressions=0 \
		host_tap unit-asan "$results/unit-asan.tap" "$repo/build/asan/unit-tests"
	no_sanitizer_report "$results/unit-asan.tap" "$results/unit-asan.tap.err"
	verdict $? "unit-asan: no sanitizer report" "$results/unit-asan.tap.err"
	host_tap cli "$results/cli.tap" "$repo/tests/cli/test-cli" "$repo/build/bin/fence-trace"
	# The CLI tests again against fence-trace built with ASan + UBSan.  Each
	# report goes to a file of its own (log_path: test-cli keeps stderr), in
	# a folder nobody may write to (the tracing commands run as nobody).
	local logs=$results/cli-asan.logs
	rm -rf "$logs" && mkdir -p "$logs" && chmod 1777 "$logs"
	ASAN_OPTIONS=detect_leaks=1:log_path=$logs/asan UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$logs/ubsan \
		LSAN_OPTIONS=suppressions=$repo/tests/run/lsan-libtracecmd.supp:print_suppressions=0 \
		host_tap cli-asan "$results/cli-asan.tap" "$repo/tests/cli/test-cli" "$repo/build/asan/bin/fence-trace"
	cat "$logs"/* >>"$results/cli-asan.tap.err" 2>/dev/null
	[ -z "$(ls -A "$logs")" ] && no_sanitizer_report "$results/cli-asan.tap" "$results/cli-asan.tap.err"
	verdict $? "cli-asan: no sanitizer report from fence-trace under the CLI tests" "$results/cli-asan.tap.err"
	host_tap man "$results/man.tap" "$repo/tests/cli/test-man"
	# The guest scripts' wait for a background tool's ready line.
	host_tap await-line "$results/await-line.tap" "$repo/tests/lab/test-await-line"
	# The guest identity test's second counter, on the model's unit shapes.
	host_tap fence-key-counts "$results/fence-key-counts.tap" "$repo/tests/lab/test-fence-key-counts"
	# The mixed-frames test's judge, on a hand-made truth and report.
	host_tap check-frame-classes "$results/check-frame-classes.tap" "$repo/tests/lab/test-check-frame-classes"
	# Every output on fixed inputs, byte for byte (tests/golden).
	host_tap golden "$results/golden.tap" "$repo/tests/golden/run-golden" "$repo/build/bin" "$repo/build/bin-host"
	# Every host-producible JSON against docs/schema (tests/schema).
	host_tap schema "$results/schema.tap" "$repo/tests/schema/test-schema" "$repo/build/bin/fence-trace"
	# export --tables of 1,000 captures, docs/fleet.md's queries in DuckDB (tests/fleet)
	host_tap fleet "$results/fleet.tap" "$repo/tests/fleet/test-fleet" "$repo/build/bin/fence-trace"
	layout_tests
}

# The layers of docs/architecture.md, judged from the objects (nm), file
# and function sizes (pmccabe), and both checks fed trees that break them.
layout_tests() {
	host_tap layout-selftest "$results/layout-selftest.tap" "$repo/tests/layout/self-test"
	host_tap layers "$results/layers.tap" "$repo/tests/layout/check-layers" "$repo/build/obj" "$repo"
	host_tap sizes "$results/sizes.tap" "$repo/tests/layout/check-sizes" "$repo"
}
