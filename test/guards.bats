#!/usr/bin/env bats
# The build directory among other users and hostile inputs: whose marker
# counts, whose lock is written, where make clean stops, one run per build
# directory whatever PID namespace each make runs in, and make -f from
# another directory. Each test is a reproduction of an attack that once
# worked. Build directories are the test's own; the source tree is only read.
load helpers

# mk ARGS...: make of the tree, outside any run's lock (a test's own B).
mk() { env -u SPLIT_STATE_LAB_LOCK make -s -C "$TOP" --no-print-directory "$@"; }
# noop B: a goal that builds nothing but takes B's lock (as every build does)
NOOP=(--eval 'guards-noop: ; @:' guards-noop)

teardown() {
	[ -z "${OTHER-}" ] || userdel "$OTHER" 2>/dev/null || true
	[ -z "${SHARED-}" ] || rm -rf "$SHARED"
}
# other_user: a second user, OTHER (removed by teardown), and SHARED, a
# directory every user can write in (sticky, as /tmp), outside the test's
# own 0700 directory, which OTHER could not enter.
other_user() {
	[ "$(id -u)" = 0 ] || skip "needs root to make a second user (useradd)"
	command -v useradd > /dev/null || skip "no useradd to make a second user"
	useradd --system --no-create-home --shell /usr/sbin/nologin "ssl-guards-$$" 2> /dev/null ||
		skip "useradd cannot make a user here"
	OTHER=ssl-guards-$$
	SHARED=$(mktemp -d "${TMPDIR:-/tmp}/split-state-lab-guards.XXXXXX") && chmod 1777 "$SHARED"
}
as_other() { setpriv --reuid="$OTHER" --regid="$(id -g "$OTHER")" --clear-groups "$@"; }

@test "a marker in a directory above B does not make B the suite's: another's files there are refused, nothing written" {
	s=$BATS_TEST_TMPDIR/shared
	mkdir -p "$s/theirs" && echo theirs > "$s/theirs/file" && touch "$s/.split-state-lab-build"
	for goal in "${NOOP[*]}" clean distclean; do
		if [ "$goal" = "${NOOP[*]}" ]; then run mk B="$s/theirs" "${NOOP[@]}"; else run mk B="$s/theirs" "$goal"; fi
		assert_equal "$status" 2
		assert_equal "${#lines[@]}" 1
		assert_output --partial "holds files the suite did not make"
	done
	assert_equal "$(ls -A "$s/theirs")" file
	assert_equal "$(cat "$s/theirs/file")" theirs
}

@test "a .lock that is a link is refused, never written through, even in a build directory of one's own" {
	b=$BATS_TEST_TMPDIR/lb; victim=$BATS_TEST_TMPDIR/victim
	run mk B="$b" "${NOOP[@]}"
	assert_success
	echo precious > "$victim"
	rm "$b/.lock" && ln -s "$victim" "$b/.lock"
	run mk B="$b" "${NOOP[@]}"
	assert_equal "$status" 2
	assert_equal "${#lines[@]}" 1
	assert_output --partial "the lock $b/.lock is a symbolic link"
	assert_equal "$(cat "$victim")" precious
	rm "$b/.lock" && mkfifo "$b/.lock"
	run timeout -k 5 30 make -s -C "$TOP" --no-print-directory B="$b" "${NOOP[@]}"
	assert_equal "$status" 2
	assert_output --partial "the lock $b/.lock is not a regular file"
}

@test "another user's marker, build directory or .lock is not trusted: root's make clean removes none of their files, root's build writes no file through their link" {
	other_user
	victim=$BATS_TEST_TMPDIR/victim; echo precious > "$victim"
	# their directory, marked, with their files: make clean B=<it>
	as_other sh -c 'mkdir "$1/pub" && echo theirs > "$1/pub/file" && touch "$1/pub/.split-state-lab-build"' sh "$SHARED"
	# their directory, marked, its .lock a link to a root-only file
	as_other sh -c 'mkdir "$1/b2" && touch "$1/b2/.split-state-lab-build" && ln -s "$2" "$1/b2/.lock"' sh "$SHARED" "$victim"
	# the shared directory itself (root's, everyone's files in it), marked by them
	echo mine > "$SHARED/file"
	as_other touch "$SHARED/.split-state-lab-build"
	for args in "clean B=$SHARED/pub" "distclean B=$SHARED/pub" "${NOOP[*]} B=$SHARED/b2" "clean B=$SHARED"; do
		# shellcheck disable=SC2086  # ARGS are words
		run mk $args
		assert_equal "$status" 2
		assert_equal "${#lines[@]}" 1
		assert_output --regexp "belongs to another user|holds files the suite did not make"
	done
	assert_equal "$(cat "$SHARED/pub/file")" theirs
	assert_equal "$(cat "$SHARED/file")" mine
	assert_equal "$(cat "$victim")" precious
	[ ! -e "$SHARED/pub/.lock" ] || fail "root wrote a .lock in another user's directory"
}

@test "make clean stops at a filesystem mounted inside B (tmpfs, bind mount): nothing removed there or anywhere" {
	need_private_mounts
	b=$BATS_TEST_TMPDIR/mb; other=$BATS_TEST_TMPDIR/elsewhere
	run mk B="$b" "${NOOP[@]}"
	assert_success
	mkdir -p "$b/tmp" "$b/bound" "$other" && echo built > "$b/built" && echo theirs > "$other/file"
	run unshare -m --propagation private sh -c '
		mount -t tmpfs none "$1/tmp" && echo mounted > "$1/tmp/file" && mount --bind "$2" "$1/bound" || exit 9
		env -u SPLIT_STATE_LAB_LOCK make -s -C "$3" --no-print-directory B="$1" clean; echo "clean: exit $?"
		cat "$1/tmp/file" "$1/bound/file"' sh "$b" "$other" "$TOP"
	[ "$status" != 9 ] || skip "cannot mount here: $output"
	assert_line mounted
	assert_line theirs
	assert_equal "$(cat "$other/file")" theirs
	assert_equal "$(cat "$b/built")" built
	assert_line --regexp "^clean: a filesystem is mounted on $b/(tmp|bound) inside $b: nothing removed"
	assert_line "clean: exit 2"
}

@test "make clean empties a build directory that was there before the suite used it and leaves it; one it made it removes" {
	pre=$BATS_TEST_TMPDIR/pre new=$BATS_TEST_TMPDIR/new never=$BATS_TEST_TMPDIR/never
	mkdir "$pre" "$never"
	for b in "$pre" "$new"; do
		run mk B="$b" "${NOOP[@]}"
		assert_success
		mkdir -p "$b/matrix" && echo built > "$b/matrix/app"
		run mk B="$b" clean
		assert_success
	done
	[ -d "$pre" ] || fail "make clean removed $pre, which was there before"
	assert_equal "$(ls -A "$pre")" ''
	[ ! -e "$new" ] || fail "make clean left $new, which it made: $(ls -A "$new")"
	# an empty directory the suite never used: nothing written in it, nothing removed
	run mk B="$never" clean
	[ -d "$never" ] || fail "make clean removed $never, which the suite never used"
	assert_equal "$(ls -A "$never")" ''
}

@test "two makes in separate PID namespaces (each pid 1) do not both take the lock" {
	need_private_mounts    # --mount-proc makes a private mount namespace too
	b=$BATS_TEST_TMPDIR/pb
	unshare -p -f --mount-proc env -u SPLIT_STATE_LAB_LOCK make -s -C "$TOP" --no-print-directory B="$b" \
		--eval 'guards-slow: ; @sleep 5' guards-slow > "$BATS_TEST_TMPDIR/first" 2>&1 3>&- &
	first=$!
	for i in $(seq 50); do grep -qs '^pid' "$b/.lock" && break; sleep 0.1; done
	assert_equal "$(cut -d, -f1 "$b/.lock")" "pid 1"
	run unshare -p -f --mount-proc env -u SPLIT_STATE_LAB_LOCK make -s -C "$TOP" --no-print-directory B="$b" "${NOOP[@]}"
	assert_equal "$status" 2
	assert_equal "${#lines[@]}" 1
	assert_output --regexp "is in use by another run \(pid 1, make guards-slow, since [0-9:]+\)"
	wait "$first" || fail "the first run failed: $(cat "$BATS_TEST_TMPDIR/first")"
	# and once it has ended, the build directory is free again
	run unshare -p -f --mount-proc env -u SPLIT_STATE_LAB_LOCK make -s -C "$TOP" --no-print-directory B="$b" "${NOOP[@]}"
	assert_success
}

@test "make -f <tree>/Makefile from another directory is one line naming the make -C that works" {
	run env -C "$BATS_TEST_TMPDIR" make -s -f "$TOP/Makefile" --no-print-directory help
	assert_equal "$status" 2
	assert_equal "${#lines[@]}" 1
	assert_output --partial "run make -C $(cd "$TOP" && pwd -P) instead"
	[ -z "$(ls -A "$BATS_TEST_TMPDIR")" ] || fail "it wrote $(ls -A "$BATS_TEST_TMPDIR")"
}

@test "a build directory a run makes inside its own (a toolchain column's, make bench's) is taken again by that run's next make" {
	b=$BATS_TEST_TMPDIR/nb
	inner='guards-inner: ; @mkdir -p $(B_ABS)/x && echo built > $(B_ABS)/x/file && echo "inner: $(B_ABS)"'
	outer='guards-outer: ; +@$(MAKE) -s --no-print-directory B=$(B_ABS)/sub guards-inner && $(MAKE) -s --no-print-directory B=$(B_ABS)/sub guards-inner'
	run mk B="$b" --eval "$inner" --eval "$outer" guards-outer
	assert_success
	assert_equal "$(grep -c "^inner: $b/sub\$" <<< "$output")" 2
	# and make clean of the outer directory removes it all
	run mk B="$b" clean
	assert_success
	[ ! -e "$b" ] || fail "make clean left $(find "$b")"
}
