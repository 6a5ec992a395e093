#!/usr/bin/env bats
# The make targets refuse what they cannot do, in one line and before any
# work, and fail when they did less than they say: an unknown ROW, a ROW a
# target cannot honour, a missing OUT= or BASELINE=, a run in which no row ran.
load helpers

mk() { make -s -C "$TOP" --no-print-directory "$@"; }

@test "a lab whose every row failed to run exits non-zero, saying so in one line" {
	run mk matrix RUN=false
	assert_failure
	assert_line --partial 'verdict: no row ran: all '
	[ "$(grep -c '^\[run failed: exit' <<< "$output")" -eq "$(table_rows matrix | wc -w)" ] ||
		fail "not every row failed to run under RUN=false"
}
