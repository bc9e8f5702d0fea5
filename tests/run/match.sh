# match.sh: patterns for values whose printed unit depends on the value,
# so that an expectation holds whatever the timing.  Sourced by
# tests/run-tests (and tested by tests/run/self-test).

# A duration as report_dur() (output/report-common.c) prints it: "812 ns",
# "896.5 us", "12.34 ms" or "1.50 s", the unit chosen by the value.  An
# extended regular expression (grep -E), no anchors.
dur_re='([0-9]+ ns|[0-9]+\.[0-9] us|[0-9]+\.[0-9]{2} ms|[0-9]+\.[0-9]{2} s)'
