#!/usr/bin/env bats
# make install / make uninstall: symsplit and its man page for people who only
# want the tool, staged with DESTDIR in the build directory (never into /).
load helpers

setup() {
	D=$BUILD/install-test/$BATS_TEST_NUMBER.$$
	rm -rf "$D"; mkdir -p "$D"
	P=/opt/split-state-lab-test
}
teardown() { rm -rf "$D"; rmdir "$BUILD/install-test" 2>/dev/null || true; }
mk() { make -s -C "$TOP" --no-print-directory "$@"; }
tree_of() { (cd "$1" && find . | sort); }

@test "make install puts symsplit and its man page under DESTDIR/PREFIX, and the manifest lists every file it wrote" {
	run mk install PREFIX="$P" DESTDIR="$D"
	assert_success
	[ -x "$D$P/bin/symsplit" ] || fail "no $D$P/bin/symsplit"
	cmp "$TOP/docs/symsplit.1" "$D$P/share/man/man1/symsplit.1" || fail "the man page is not docs/symsplit.1"
	m=$D$P/share/split-state-lab/symsplit.manifest
	run bash -c "cd '$D$P' && find . -type f ! -path ./share/split-state-lab/symsplit.manifest | sed 's|^\\./||' | sort"
	assert_output "$(awk '$1 == "file" { print $3 }' "$m" | sort)"
	if command -v man > /dev/null; then
		run man -l "$D$P/share/man/man1/symsplit.1"
		assert_success
		assert_output --regexp 'make +install'
	fi
}

@test "the installed symsplit runs from another directory and opens no file of the tree" {
	mk install PREFIX="$P" DESTDIR="$D" > /dev/null
	exe=$D$P/bin/symsplit
	run bash -c "cd / && '$exe' --version && '$exe' /bin/true"
	assert_success
	command -v strace > /dev/null || skip "no strace to list the files it opens"
	(cd / && strace -f -qq -s 4096 -e trace=%file -o "$BATS_TEST_TMPDIR/trace" "$exe" --json /bin/true > /dev/null) ||
		skip "strace cannot trace here: $(tail -n 1 "$BATS_TEST_TMPDIR/trace" 2>/dev/null)"
	grep -q '/etc/ld.so.cache\|/bin/true' "$BATS_TEST_TMPDIR/trace" || fail "the trace recorded no file symsplit read"
	run bash -c "grep -o '\"$TOP/[^\"]*\"' '$BATS_TEST_TMPDIR/trace' | grep -vxF '\"$exe\"'"
	assert_output ''
}

@test "make uninstall removes exactly what make install made: a file and a directory already there stay" {
	mkdir -p "$D$P/bin"; echo mine > "$D$P/bin/other-tool"
	before=$(tree_of "$D")
	mk install PREFIX="$P" DESTDIR="$D" > /dev/null
	[ "$(tree_of "$D")" != "$before" ] || fail "make install changed nothing"
	run mk uninstall PREFIX="$P" DESTDIR="$D"
	assert_success
	assert_equal "$(tree_of "$D")" "$before"
	assert_equal "$(cat "$D$P/bin/other-tool")" mine
}

@test "make install refuses to overwrite a symsplit it did not install; make uninstall keeps one changed since" {
	mkdir -p "$D$P/bin"; echo foreign > "$D$P/bin/symsplit"
	run mk install PREFIX="$P" DESTDIR="$D"
	assert_failure
	assert_output --partial 'no earlier make install made it'
	assert_equal "$(cat "$D$P/bin/symsplit")" foreign
	rm "$D$P/bin/symsplit"
	mk install PREFIX="$P" DESTDIR="$D" > /dev/null
	mk install PREFIX="$P" DESTDIR="$D" > /dev/null        # again: its own files may be replaced
	echo edited >> "$D$P/share/man/man1/symsplit.1"
	run mk uninstall PREFIX="$P" DESTDIR="$D"
	assert_failure
	assert_output --partial "kept $D$P/share/man/man1/symsplit.1: changed since make install"
	[ ! -e "$D$P/bin/symsplit" ] || fail "the unchanged binary was not removed"
}

@test "PREFIX or DESTDIR not absolute, and make uninstall with nothing installed: one line, exit 2" {
	run mk install PREFIX=relative/dir DESTDIR="$D"
	assert_failure 2
	assert_output --partial 'give absolute paths'
	run mk uninstall PREFIX="$P" DESTDIR="$D"
	assert_failure 2
	assert_output --partial 'nothing installed under'
}

# The reproductions of an adversarial pass: a manifest or an installed file
# tampered with, and names planted in advance in a directory others can write.
@test "make uninstall refuses a manifest path that leaves PREFIX (.., absolute, ./), removing nothing" {
	echo mine > "$D/victim"
	sum=$(sha256sum < "$D/victim" | cut -d' ' -f1)
	# $D$P is $D/opt/split-state-lab-test: two levels up is $D
	for path in ../../victim bin/../../../victim "$D/victim" ./bin/symsplit bin//symsplit; do
		mk install PREFIX="$P" DESTDIR="$D" > /dev/null
		m=$D$P/share/split-state-lab/symsplit.manifest
		echo "file $sum $path" >> "$m"
		run mk uninstall PREFIX="$P" DESTDIR="$D"
		assert_failure
		assert_line --regexp "^make uninstall: .*symsplit.manifest:[0-9]+: \"$path\" is not a normal path inside $D$P .*: nothing removed\$"
		assert_equal "$(cat "$D/victim")" mine
		[ -x "$D$P/bin/symsplit" ] || fail "a refused uninstall removed $D$P/bin/symsplit"
		# put back: the next install finds the manifest it wrote
		sed -i '$d' "$m"
	done
}

@test "make uninstall neither reads nor removes a FIFO, a link to /dev/zero or a link to a copy in place of the binary, and does not block" {
	b=$D$P/bin/symsplit; copy=$BATS_TEST_TMPDIR/copy
	for kind in fifo zero link; do
		mk install PREFIX="$P" DESTDIR="$D" > /dev/null
		cp "$b" "$copy" && rm "$b"
		case $kind in
		fifo) mkfifo "$b" ;;
		zero) ln -s /dev/zero "$b" ;;
		link) ln -s "$copy" "$b" ;;     # same bytes as installed, but a link
		esac
		run timeout -k 5 30 make -s -C "$TOP" --no-print-directory uninstall PREFIX="$P" DESTDIR="$D"
		assert_failure
		[ "$status" != 124 ] && [ "$status" != 137 ] || fail "$kind: make uninstall blocked (killed after 30 s)"
		assert_output --partial "kept $b: not a regular file"
		assert_output --partial "removed $D$P/share/man/man1/symsplit.1"
		[ -p "$b" ] || [ -L "$b" ] || fail "$kind: $b was removed"
		[ -f "$copy" ] || fail "$kind: the link's target was removed"
		rm -f "$b"
	done
}

# install_script: the script make install runs (found where the tool's files
# are, wherever they sit below tools/symsplit).
install_script() { local f; for f in "$TOP"/tools/symsplit/install "$TOP"/tools/symsplit/*/install; do [ -x "$f" ] && { echo "$f"; return; }; done; return 1; }

@test "make install writes through no name planted in advance: links at the old temporary names (.symsplit.PID) are left alone" {
	inst=$(install_script) || fail "no install script below tools/symsplit"
	victim=$BATS_TEST_TMPDIR/victim; echo secret > "$victim"; chmod 600 "$victim"
	bin=$BATS_TEST_TMPDIR/tool; printf '#!/bin/sh\necho tool\n' > "$bin"; chmod 755 "$bin"
	r=$D$P; mkdir -p "$r/bin" "$r/share/man/man1" "$r/share/split-state-lab"
	# the install's pid is this shell's (exec keeps it): every name it could
	# derive from its pid is a link to the victim before it starts
	run sh -c 'for n in bin/.symsplit share/man/man1/.symsplit.1 share/split-state-lab/symsplit.manifest.new; do
			ln -s "$1" "$2/$n.$$"; done
		exec "$3" install "$2" "$4" "$5"' sh "$victim" "$r" "$inst" "$bin" "$TOP/docs/symsplit.1"
	assert_success
	assert_equal "$(cat "$victim")" secret
	assert_equal "$(stat -c %a "$victim")" 600
	[ -f "$r/bin/symsplit" ] && [ ! -L "$r/bin/symsplit" ] || fail "bin/symsplit is not a regular file"
	cmp "$bin" "$r/bin/symsplit" || fail "bin/symsplit is not the program given"
	assert_equal "$(stat -c %a "$r/bin/symsplit")" 755
	# nothing else written: the planted links and what install made
	assert_equal "$(cd "$r" && find . -type f | sort | tr '\n' ' ')" "./bin/symsplit ./share/man/man1/symsplit.1 ./share/split-state-lab/symsplit.manifest "
}
