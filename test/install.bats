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
