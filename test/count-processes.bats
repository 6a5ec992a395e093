#!/usr/bin/env bats
# scripts/count-processes: the processes a command starts, counted in a PID
# namespace of its own (make count-processes reads it for every phase and
# bats file).
load helpers

@test "count-processes: a command's processes, itself included, and its exit status" {
	[ "$(id -u)" = 0 ] || skip "needs root (a PID namespace)"
	need_private_mounts   # --mount-proc: a mount namespace of its own for its /proc
	run "$TOP/scripts/count-processes" sh -c '/bin/true; /bin/true; exit 3'
	assert_equal "$status" 3
	assert_output --regexp '^count-processes: 3 processes, [0-9.]+ CPU-s, [0-9.]+ s wall$'
	run "$TOP/scripts/count-processes" sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do /bin/true; done'
	assert_success
	assert_output --regexp '^count-processes: 11 processes, '
}

@test "count-processes: interrupted, the count so far, said so, and the signal's exit status" {
	[ "$(id -u)" = 0 ] || skip "needs root (a PID namespace)"
	need_private_mounts
	# a group of its own, killed as make or a Ctrl-C kills one: all of it
	setsid "$TOP/scripts/count-processes" sh -c '/bin/true; /bin/true; exec sleep 30' > "$BATS_TEST_TMPDIR/out" 2>&1 &
	group=$!
	for _ in $(seq 100); do pgrep -g "$group" -x sleep > /dev/null && break; sleep 0.1; done
	pgrep -g "$group" -x sleep > /dev/null || fail "the command never started"
	kill -TERM -- "-$group"
	rc=0; wait "$group" || rc=$?
	assert_equal "$rc" 143
	run cat "$BATS_TEST_TMPDIR/out"
	assert_output --regexp '^count-processes: 3 processes, [0-9.]+ CPU-s, [0-9.]+ s wall \(interrupted by SIGTERM\)$'
}

@test "count-processes and count-test: without root one line and exit 2; no command is a usage line" {
	run_unprivileged "$TOP/scripts/count-processes" true
	assert_equal "$status" 2
	assert_output "count-processes: needs root (a PID namespace of its own)"
	run_unprivileged "$TOP/scripts/count-test" "$BATS_TEST_TMPDIR/c" test/matrix.bats
	assert_equal "$status" 2
	assert_output --partial "count-test: needs root"
	run "$TOP/scripts/count-processes"
	assert_equal "$status" 2
	assert_output "usage: count-processes CMD..."
}
