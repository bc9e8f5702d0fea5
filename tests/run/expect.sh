# expect.sh: running a part with totals of its own, to judge the runner
# itself (tests/run/self-test, guest_runner_selftest).  Sourced by
# tests/run-tests and tests/run/self-test.

# run_alone OUT COMMAND [ARG]...: run COMMAND (a part, or tap_part on a
# file) in a subshell with fresh totals; its lines and closing lines in OUT.
run_alone() {
	local out=$1
	shift
	( passed=0 failed=0 skipped=0 num=0 skips=(); "$@"; tap_summary ) >"$out" 2>&1
}

# part_failed OUT: the closing line of a run_alone says a failure.
part_failed() {
	tail -n 1 "$1" | grep -Eq '^[0-9]+ passed, [1-9][0-9]* failed'
}
