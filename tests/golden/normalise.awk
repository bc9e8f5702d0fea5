# normalise.awk: the one filter between a golden case's output and its
# expectation (tests/golden/run-golden).  The inputs are fixed and each
# command runs in the inputs' folder with a relative file name, so the
# outputs hold nothing that varies from run to run but what is below.
# Each rule says what varies and why; no line is ever dropped.
#
#   awk -v tmp=TEMPORARY_FOLDER -f normalise.awk

# Replace every @from in $0 by @to, both taken as plain text.
function replace(from, to,    i, s) {
	s = ""
	while ((i = index($0, from)) > 0) {
		s = s substr($0, 1, i - 1) to
		$0 = substr($0, i + length(from))
	}
	$0 = s $0
}

# The temporary folder run-golden makes (mktemp -d: a new name each run)
# appears where a message gives a path in full: it reads @TMP@.
tmp != "" { replace(tmp, "@TMP@") }

{ print }
