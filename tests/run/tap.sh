# tap.sh: the runner's TAP accounting, sourced by tests/run-tests (and by
# tests/run/self-test, which feeds it broken parts).
#
# Every result line the runner prints is numbered here (report); a check
# done in shell is one line (verdict); a TAP stream from a part is folded
# in with its exit status (tap_part), and the part fails, with one
# "not ok" saying why, unless the stream keeps its plan:
# - at least one plan line "1..N", and at least one result;
# - a plan block (a plan and the results it counts: cmocka prints one
#   block per group, each numbered from 1, the plan before its results;
#   dmabuf-tap and the browser tests print theirs after) holds exactly N
#   results, numbered 1 to N in order: none repeated, none missing;
# - every "# SKIP" gives a reason;
# - no "Bail out!";
# - the part's exit status is 0 (a suite that crashes after its last
#   case, or exits 1, fails even when every line it printed was "ok").
# The skips, with their reasons, are listed before the closing line.

passed=0 failed=0 skipped=0 num=0
skips=()

report() {
	num=$((num + 1))
	echo "$1 $num - $2"
}

# One pass/fail line for a check done here rather than by a TAP program.
verdict() {
	if [ "$1" = 0 ]; then
		passed=$((passed + 1)); report "ok" "$2"
	else
		failed=$((failed + 1)); report "not ok" "$2"
		[ -n "${3:-}" ] && [ -f "$3" ] && tail -n 20 "$3" | sed 's/^/#   /'
	fi
}

# schema_verdict SCHEMA WHAT FILE...: the files keep docs/schema/SCHEMA.schema.json.
schema_verdict() {
	local schema=$1 what=$2 log
	schema_checks=$((${schema_checks:-0} + 1))
	log=$results/schema-$schema-$schema_checks.err	# one each: a later check keeps an earlier one's log
	shift 2
	"$repo/tests/schema/validate" "$repo/docs/schema/$schema.schema.json" "$@" >"$log" 2>&1
	verdict $? "$what: valid against docs/schema/$schema.schema.json" "$log"
}

# skip WHAT REASON: a check that cannot run here, and why (listed at the end).
skip() {
	skipped=$((skipped + 1))
	skips+=("$1: $2")
	report "ok" "$1 # SKIP $2"
}

# "exit status 139 (SIGSEGV)": a status as a reader wants it.
status_text() {
	local s=${1:-unknown}
	case $s in
	125) echo "exit status 125 (run-guest: kernel problem, leak or timeout)" ;;
	126) echo "exit status 126 (not executable)" ;;
	127) echo "exit status 127 (command not found)" ;;
	*) if [ "$s" -gt 128 ] 2>/dev/null && [ "$s" -lt 160 ]; then
		echo "exit status $s (SIG$(kill -l $((s - 128)) 2>/dev/null || echo "NAL $((s - 128))"))"
	   else
		echo "exit status $s"
	   fi ;;
	esac
}

# State of the plan block being read (tap_fold and its helpers).
tap_block_reset() {
	bplan=-1 bcount=0 bnext=1 bbad=
}

# Close the block being read: its count must be its plan's.
tap_block_close() {
	[ $bcount = 0 ] && [ $bplan -lt 0 ] && return 0
	if [ $bplan -lt 0 ]; then
		tap_why+=("$bcount results without a plan")
	elif [ $bcount != $bplan ]; then
		tap_why+=("plan 1..$bplan, $bcount results")
	fi
	tap_block_reset
}

# A plan line: it closes a block of results that had none (a plan printed
# last), else it opens a block of its own (a plan printed first).
tap_plan() {
	nplans=$((nplans + 1))
	if [ $bplan -lt 0 ] && [ $bcount -gt 0 ]; then
		bplan=$1
		tap_block_close
	else
		tap_block_close
		bplan=$1
	fi
}

# A result line's case number: the next of its block, else said once.
tap_number() {
	local n=$1
	bcount=$((bcount + 1))
	if [ -z "$n" ]; then
		[ -z "$bbad" ] && tap_why+=("a result without a case number")
		bbad=1
	elif [ "$n" -lt $bnext ]; then
		[ -z "$bbad" ] && tap_why+=("case $n repeated")
		bbad=1
	elif [ "$n" -gt $bnext ]; then
		[ -z "$bbad" ] && tap_why+=("case $n follows case $((bnext - 1)): cases missing")
		bbad=1
	fi
	[ -n "$n" ] && bnext=$((n + 1))
}

# A result line: counted, printed under the runner's own number.
tap_result() {
	local part=$1 line=$2 okness rest n="" skipwhy
	if [[ $line == "not ok"* ]]; then okness="not ok" rest=${line#not ok}; else okness=ok rest=${line#ok}; fi
	[[ $rest =~ ^\ +([0-9]+)($|[^0-9]) ]] && n=${BASH_REMATCH[1]}
	tap_number "$n"
	tap_results=$((tap_results + 1))
	if [[ $rest =~ \#\ *[Ss][Kk][Ii][Pp]([^a-zA-Z].*)?$ ]]; then
		skipwhy=${BASH_REMATCH[1]}
		skipwhy=${skipwhy#:}
		skipwhy=${skipwhy#"${skipwhy%%[![:space:]]*}"}
		if [ -z "$skipwhy" ]; then
			tap_why+=("a skip without a reason (${line})")
			failed=$((failed + 1)); report "not ok" "$part: ${rest# } (a skip must say why)"
			return 0
		fi
		# cmocka's skip() names only the test ("not ok N # SKIP name"):
		# its reason is the "# " line printed before it
		[ "$okness" = "not ok" ] && [ -n "$prevdiag" ] && skipwhy="$skipwhy (${prevdiag#\# })"
		skipped=$((skipped + 1)); skips+=("$part: $skipwhy")
		report "ok" "$part: ${rest# }"
	elif [ "$okness" = ok ]; then
		passed=$((passed + 1)); report "ok" "$part: ${rest# }"
	else
		failed=$((failed + 1)); report "not ok" "$part: ${rest# }"
	fi
}

# tap_fold PART FILE: fold FILE's TAP into the totals; tap_why holds what
# is wrong with the stream itself (empty when it kept its plan).
tap_fold() {
	local part=$1 file=$2 line prevdiag=""
	tap_why=() tap_results=0 nplans=0
	tap_block_reset
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		"ok" | "ok "* | "not ok" | "not ok "*) tap_result "$part" "$line"; prevdiag="" ;;
		"Bail out!"*) tap_why+=("bailed out: ${line#Bail out!}"); prevdiag="" ;;
		"# "*) echo "$line"; prevdiag=$line ;;
		*) [[ $line =~ ^1\.\.([0-9]+)(\ *#.*)?$ ]] && tap_plan "${BASH_REMATCH[1]}"; prevdiag="" ;;
		esac
	done <"$file"
	tap_block_close
	[ $nplans = 0 ] && tap_why+=("no plan (1..N)")
	[ $tap_results = 0 ] && tap_why+=("no results")
	return 0
}

# tap_part PART FILE STATUS [LOG]: a TAP part's results, then one line for
# the part as a whole: ok when its stream kept its plan and it exited 0,
# else "not ok" saying why (with LOG's tail, FILE's by default).
tap_part() {
	local part=$1 file=$2 status=$3 log=${4:-$2} why
	[ -f "$file" ] || : >"$file"
	tap_fold "$part" "$file"
	[ "$status" = 0 ] || tap_why+=("$(status_text "$status")")
	if [ ${#tap_why[@]} = 0 ]; then
		verdict 0 "$part: complete ($tap_results results as planned), exit status 0"
	else
		why=$(printf '%s; ' "${tap_why[@]}")
		verdict 1 "$part: ${why%; }" "$log"
	fi
}

# The closing lines: the plan, the skips and why, then the totals last.
tap_summary() {
	local s
	echo "1..$num"
	for s in "${skips[@]}"; do
		echo "# skipped: $s"
	done
	if [ $skipped -gt 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
}
