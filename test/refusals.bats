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
	# every row but those the linker refuses (they run nothing)
	[ "$(grep -c '^\[run failed: exit' <<< "$output")" -eq "$(( $(table_rows matrix | wc -w) - $(rows_expecting matrix link-error | wc -w) ))" ] ||
		fail "not every row with a program failed to run under RUN=false"
}

# refused GOAL...: make GOAL in a build directory of its own exits 2 with one
# line on stderr and nothing on stdout, having made nothing.
refused() {
	local b=$BATS_TEST_TMPDIR/b
	run make -s -C "$TOP" --no-print-directory B="$b" "$@"
	[ "$status" -eq 2 ] || fail "make $*: exit $status, not 2: $output"
	[ "${#lines[@]}" -eq 1 ] || fail "make $*: not one line: $output"
	[ ! -e "$b" ] || fail "make $*: wrote $b before refusing"
}

@test "an unknown ROW is refused in one line, before any work, by every goal that takes ROW" {
	lab=$(labs | head -n 1)
	for goal in "$lab" "evidence-$lab" check fixed diagrams "check LAB=$lab" "diagrams LAB=$lab"; do
		# shellcheck disable=SC2086  # a goal and its variables
		refused $goal ROW=no-such-row-$$
		assert_output --partial "unknown row 'no-such-row-$$'"
	done
}

@test "a row of another lab is unknown to make check LAB= and make diagrams LAB=" {
	labs=$(labs)
	a=$(echo "$labs" | head -n 1)
	for r in $(for l in $labs; do table_rows "$l"; done); do
		table_rows "$a" | tr ' ' '\n' | grep -qxF -- "$r" || { other=$r; break; }
	done
	[ -n "$other" ] || fail "nothing to check: every row is a row of $a"
	refused check LAB="$a" ROW="$other"
	refused diagrams LAB="$a" ROW="$other"
}

@test "a goal that cannot run single rows refuses ROW in one line instead of ignoring it" {
	r=$(table_rows "$(labs | head -n 1)" | awk '{ print $1 }')
	# help first: if ROW were ignored, it costs nothing (bless would rewrite goldens)
	for goal in help evidence exercises check-toolchains test bless; do
		refused "$goal" ROW="$r"
		assert_output --partial "ROW= is not taken by make $goal"
	done
}

@test "make check ROW=<id> checks that row alone" {
	lab=$(labs | head -n 1)
	r=$(table_rows "$lab" | awk '{ print $1 }')
	run mk check LAB="$lab" ROW="$r"
	assert_success
	assert_line 'check: 1 row(s) met their expectation'
	assert_line --regexp "^$lab:$r +\\|"
}

@test "make baseline without OUT=, make compare without a BASELINE= file: one line before any toolchain is built" {
	refused baseline
	assert_output --partial 'make baseline needs OUT=<file>'
	refused baseline OUT="$BATS_TEST_TMPDIR/no-such-dir/f"
	refused compare
	assert_output --partial 'make compare needs BASELINE=<file>'
	refused compare BASELINE="$BATS_TEST_TMPDIR/no-such-file"
}

# The mirror check needs the network, the lock a root: skip with the reason.
need_root_and_mirror() {
	[ "$(id -u)" = 0 ] || skip "check-upgrade needs root"
	. /etc/os-release
	mirror=$(bash -c '. "$1/scripts/debian-root.sh" && apt_uri "$2"' _ "$TOP" "$VERSION_CODENAME")
	[ -n "$mirror" ] || skip "no Debian mirror in /etc/apt"
	/usr/lib/apt/apt-helper download-file "$mirror/dists/$VERSION_CODENAME/InRelease" "$BATS_TEST_TMPDIR/InRelease" > /dev/null 2>&1 ||
		skip "the Debian mirror cannot be reached from here"
}

@test "make check-upgrade and check-fresh SUITE=<no such suite>: one line naming the suite, nothing made, no lock" {
	need_root_and_mirror
	for goal in check-upgrade check-fresh; do
		run make -s -C "$TOP" --no-print-directory B="$BATS_TEST_TMPDIR/b" UPGRADE_CACHE="$BATS_TEST_TMPDIR/cache" $goal SUITE=no-such-suite-$$
		assert_failure 2
		assert_line --partial "SUITE 'no-such-suite-$$': the mirror"
		refute_output --partial mmdebstrap
		[ ! -e "$BATS_TEST_TMPDIR/cache" ] || fail "$goal made $(find "$BATS_TEST_TMPDIR/cache")"
	done
}

@test "make check-upgrade that fails after taking its lock leaves no lock" {
	need_root_and_mirror
	# mmdebstrap (installed: scripts/deps finds it) replaced on PATH by one that fails
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho "fake mmdebstrap: failing" >&2\nexit 1\n' > "$BATS_TEST_TMPDIR/bin/mmdebstrap"
	chmod +x "$BATS_TEST_TMPDIR/bin/mmdebstrap"
	dpkg -s mmdebstrap > /dev/null 2>&1 || skip "mmdebstrap is not installed (make check-upgrade would install it)"
	suite=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
	other=$(for s in trixie bookworm; do [ "$s" != "$suite" ] && echo "$s" && break; done)
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" run make -s -C "$TOP" --no-print-directory B="$BATS_TEST_TMPDIR/b" UPGRADE_CACHE="$BATS_TEST_TMPDIR/cache" check-upgrade SUITE="$other"
	assert_failure
	assert_line --partial 'mmdebstrap failed'
	run find "$BATS_TEST_TMPDIR/cache" -name '*.lock'
	assert_output ''
}

@test "a lab's older name for ROW (CONFIG=, VARIANT= ...) is refused by every goal but that lab's own" {
	aliases=$(mk --eval 'print-row-aliases: ; @echo $(ROW_ALIASES)' print-row-aliases)
	[ -n "$aliases" ] || fail "nothing to check: no lab has an older name for ROW"
	for a in $aliases; do
		r=$(table_rows "${a#*:}" | awk '{ print $1 }')
		refused check "${a%%:*}=$r"
		assert_output --partial "${a%%:*}= is make ${a#*:}'s older name for ROW= and is not taken by make check"
	done
}
