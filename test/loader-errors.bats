#!/usr/bin/env bats
# loader-errors/: each test states one fact about one row, read from the
# loader's own words in the run, from the evidence, or from the binaries.
load helpers

setup_file() {
	load helpers
	# The host's files the lab must never change, before it runs.
	# (a user cannot stat the aux-cache: /var/cache/ldconfig is root's, 0700)
	stat -c '%n %Y %s' /etc/ld.so.cache /var/cache/ldconfig/aux-cache 2>/dev/null > "$BATS_FILE_TMPDIR/host-files.before" || true
	# One run with the evidence; the plain run is the same stream without the
	# evidence lines (run_rows prints the same runs either way), so the lab
	# runs once per test file.
	lab_output le-evidence loader-errors EVIDENCE=1
	grep -v '^  | ' "$(out_file le-evidence)" > "$(out_file le)"
}

# The run and the run with the evidence, named once a test (not a process
# at each use: tests loop over rows).
setup() { O=$BATS_FILE_TMPDIR/le.out E=$BATS_FILE_TMPDIR/le-evidence.out; }
rowdir() { echo "$BUILD/loader-errors/$1"; }
hostfact() { sed -n "s/^$1=//p" "$BUILD/loader-errors/host-glibc.txt"; }
# evidence ROW FILE FACT: the value of one "  | FILE: FACT=value" line.
evidence() { row "$E" "$1" | awk -v k="  | $2: $3=" 'index($0, k) == 1 { print substr($0, length(k) + 1) }'; }

@test "golden: normalised make loader-errors equals expected/loader-errors.txt" {
	# A row that cannot run here (as a user: no private mount namespace) is
	# left out of both sides, and named in the skip that follows the rest.
	local cannot
	cannot=$(awk '/^== / { id = $2 } /^\[skipped: / { print id }' "$O" | tr -d : | tr '\n' ' ')
	if [ -n "$cannot" ]; then
		drop() { awk -v ids=" $cannot" '/^== / { on = index(ids, " " substr($2, 1, length($2) - 1) " ") } !on' "$1"; }
		run diff -u <(drop "$TOP/expected/loader-errors.txt") <("$TOP/scripts/normalise" < "$O" | drop /dev/stdin)
		assert_success
		skip "every row but ${cannot% }, which cannot run here: $(grep -m 1 '^\[skipped: ' "$O")"
	fi
	run golden_diff "$O" "$TOP/expected/loader-errors.txt"
	assert_success
}

@test "every row of the table is printed, in table order" {
	run bash -c "grep -oE '^== [^:]+' '$O' | sed 's/^== //'"
	assert_output "$(table_rows loader-errors | tr ' ' '\n' | sed '/^$/d')"
}

@test "every row's derived outcome is its expect cell" {
	# the derived facts and the expect cells each read once, joined by the shell
	local -A derived
	while read -r id v _; do derived[$id]=${v#verdict=}; done < <("$TOP/scripts/verdict" --facts < "$O")
	while IFS=$'\t' read -r r cell; do
		read -r want _ <<< "$cell"
		[ "${derived[$r]-}" = skipped ] && continue      # a skipped run is reported by its own test
		assert_equal "$r ${derived[$r]-}" "$r $want"
	done < <(table_column loader-errors expect)
}

@test "loader-error rows: the refusal is the loader's own line, and the program never printed" {
	list=$(rows_expecting loader-errors loader-error)
	[ -n "$list" ] || fail "nothing to check: rows_expecting loader-errors loader-error"
	# Every listed row read in one pass, each failure one line "<row>: ...",
	# then "checked N": a row that cannot run here (secure mode, as a user)
	# said so, and has no refusal to read.
	run awk -v list=" ${list//$'\n'/ } " -v refusal="^[[]loader: .*(version '[^']+' not found|cannot open shared object file|symbol lookup error)" '
		function done_row() {
			if (id == "" || skipped) return
			n++
			if (!refused) print id ": no loader message"
			if (bad) print id ": a refused run printed program output"
		}
		/^== / { done_row(); id = substr($2, 1, length($2) - 1); if (!index(list, " " id " ")) id = ""; else seen[id] = 1; skipped = refused = bad = 0 }
		id == "" { next }
		/^\[skipped: / { skipped = 1 }
		$0 ~ refusal { refused = 1 }
		# A refused run has no program output between its command and its [exit].
		/^\$ / { out = 0; msg = 0 } /^\[[^] ]+ called / { out = 1 } /^\[loader: / { msg = 1 } /^\[exit / { if (msg && out) bad = 1 }
		END { done_row(); k = split(list, l, " "); for (i = 1; i <= k; i++) if (!(l[i] in seen)) print l[i] ": not in the run"; print "checked " n + 0 }' "$O"
	assert_output --regexp '^checked [0-9]+$'
	[ "$output" != "checked 0" ] || fail "every loader-error row was skipped"
}

@test "runs rows: every run exits 0; a loader line only in a run that printed its proof line first (a warning)" {
	list=$(rows_expecting loader-errors runs)
	[ -n "$list" ] || fail "nothing to check: rows_expecting loader-errors runs"
	# every listed row read in one pass, each failure one line "<row>: ..."
	run awk -v list=" ${list//$'\n'/ } " '
		/^== / { id = substr($2, 1, length($2) - 1); on = index(list, " " id " ") > 0; if (on) seen++ }
		!on { next }
		/^\[exit [1-9]/ { print id ": " $0 }
		# a loader line with no proof line before it in its run is a refusal
		/^\$ / { proof = 0 } /^\[[^] ]+ called / { proof = 1 }
		/^\[loader: / && !proof { print id ": a loader line before the program called into its library" }
		END { print "rows " seen + 0 }' "$O"
	local -a listed=($list)
	assert_output "rows ${#listed[@]}"
}

# preload_rows: each row whose secure-mode run preloads a shim, as "ROW WORD".
preload_rows() {
	local r v
	while IFS=$'\t' read -r r v; do [[ $v =~ ^setuid\+preload ]] && echo "$r $v"; done < <(table_column loader-errors run); true
}

@test "secure mode: LD_PRELOAD loads the shim only when named bare and set-user-ID (in app's absolute RUNPATH); a refused bare name says cannot open, a slash says nothing" {
	[ -n "$(preload_rows)" ] || fail "nothing to check: no setuid+preload row in the table"
	while read -r r w; do
		row "$O" "$r" > "$BATS_TEST_TMPDIR/row"
		if grep -q '^\[skipped: ' "$BATS_TEST_TMPDIR/row"; then skip "$(grep -m 1 '^\[skipped: ' "$BATS_TEST_TMPDIR/row")"; fi
		shim=${w#*:}; shim=${shim##*/}
		# the bit is on the shim when set-user-id lists it
		suid=0; grep -qE "(^|/)$shim( |\$)" "$(rowdir "$r")/set-user-id" 2>/dev/null && suid=1
		if [ "${w#setuid+preloadname:}" != "$w" ] && [ "$suid" = 1 ]; then
			grep -qE "^\[app called [^ ]+ in $shim\]" "$BATS_TEST_TMPDIR/row" || fail "$r: the shim was not preloaded"
		else
			grep -qE '^\[app called [^ ]+ in libaccel\.so\.1\]' "$BATS_TEST_TMPDIR/row" || fail "$r: the shim was preloaded"
			if [ "${w#setuid+preloadname:}" != "$w" ]; then
				grep -qF "[loader: ERROR: ld.so: object '$shim' from LD_PRELOAD cannot be preloaded (cannot open shared object file): ignored.]" "$BATS_TEST_TMPDIR/row" || fail "$r: no refusal line"
			else
				! grep -q '^\[loader: ' "$BATS_TEST_TMPDIR/row" || fail "$r: a loader line for a name with a slash"
			fi
		fi
	done < <(preload_rows)
}

@test "version-not-found: app needs LIB_2.0 from libv.so.1, the deployed release defines only LIB_1.0" {
	assert_equal "$(evidence version-not-found app 'needs libv.so.1' | grep -o 'LIB_2.0')" LIB_2.0
	run evidence version-not-found lib/libv.so.1 defines
	assert_output --regexp '^LIB_1\.0#0x[0-9a-f]+$'
	run evidence version-not-found build/libv.so.1 defines
	assert_output --partial 'LIB_2.0#'
	run row "$O" version-not-found
	assert_line "[loader: ./app: <row>/lib/libv.so.1: version 'LIB_2.0' not found (required by ./app)]"
}

@test "glibc-too-new: the node app needs is the one after the host's newest, and only the stub defines it" {
	next=$(hostfact next); host=$(hostfact host); libc=$(hostfact libc)
	defines_node "$libc" "$host" || fail "host libc lacks its own newest node $host"
	! defines_node "$libc" "$next" || fail "host libc defines $next"
	needs_node "$(rowdir glibc-too-new)/app" "$next" || fail "app does not need $next"
	defines_node "$(rowdir glibc-too-new)/stub/libc.so.6" "$next" || fail "the stub does not define $next"
	assert_equal "$(evidence glibc-too-new '<host libc>' 'defines GLIBC_<host+1>')" no
}

@test "glibc-too-new-preload: the shim is mapped first and defines the node, yet the check asks the host libc" {
	defines_node "$(rowdir glibc-too-new-preload)/libshim.so" "$(hostfact next)" || fail "shim lacks the node"
	run row "$O" glibc-too-new-preload
	# Mapped before libc.so.6 ...
	assert_equal "$(echo "$output" | grep -m 2 'generating link map' | sed 's/.*file=\([^ ]*\).*/\1/' | tr '\n' ' ')" "./libshim.so libc.so.6 "
	# ... but the version is looked up in the file .gnu.version_r names, and no code of the shim ran.
	assert_line "[ld.so: checking for version 'GLIBC_<host+1>' in file <host libc> [0] required by file ./app [0]]"
	refute_line '[shim constructor ran]'
	refute_line --partial 'calling init'
}

@test "glibc-too-new-soname-hijack: the shim answers for libc.so.6, the real libc is never mapped" {
	assert_equal "$(evidence glibc-too-new-soname-hijack libc-shim.so SONAME)" libc.so.6
	run row "$O" glibc-too-new-soname-hijack
	assert_line --partial 'file=./libc-shim.so [0]; generating link map'
	refute_line --partial 'file=libc.so.6 [0]; generating link map'
	assert_line "[loader: ./app: ./libc-shim.so: version 'GLIBC_2.2.5' not found (required by ./app)]"
	refute_line --partial "version 'GLIBC_<host+1>' not found"
}

@test "glibc-too-new-patched-version: the host libc defines the new name, but the hash is still the old name's" {
	old=$(hostfact old); libc=$(hostfact libc); d=$(rowdir glibc-too-new-patched-version)
	run row "$O" glibc-too-new-patched-version
	assert_line "[loader: ./app: <host libc>: version '$old' not found (required by ./app)]"
	defined=$(objdump -p "$libc" | awk -v v="$old" '/^Version definitions:/ { on = 1 } on && $4 == v { print $3 }')
	[ -n "$defined" ] || fail "host libc does not define $old"
	patched=$(objdump -p "$d/app" | awk -v v="$old" '$4 == v { print $1 }')
	original=$(objdump -p "$d/app.orig" | awk -v v="$(hostfact next)" '$4 == v { print $1 }')
	assert_equal "$patched" "$original"
	[ "$patched" != "$defined" ] || fail "the patched hash matches the host's: the run should have passed"
}

@test "glibc-too-new-patched-hash: with name and hash patched the check passes; the symbol is not in the host libc" {
	old=$(hostfact old); libc=$(hostfact libc); d=$(rowdir glibc-too-new-patched-hash)
	patched=$(objdump -p "$d/app" | awk -v v="$old" '$4 == v { print $1 }')
	defined=$(objdump -p "$libc" | awk -v v="$old" '/^Version definitions:/ { on = 1 } on && $4 == v { print $3 }')
	assert_equal "$patched" "$defined"
	run row "$O" glibc-too-new-patched-hash
	assert_line "[loader: ./app: symbol lookup error: ./app: undefined symbol: lab_strtoul_next, version $old]"
	run nm -D --defined-only "$libc"
	refute_output --partial lab_strtoul_next
}

@test "glibc-too-new-patchelf: the import loses its version, the need for the node stays" {
	assert_equal "$(evidence glibc-too-new-patchelf app.orig imports | tr ' ' '\n' | grep '^lab_strtoul_next')" 'lab_strtoul_next@GLIBC_<host+1>'
	assert_equal "$(evidence glibc-too-new-patchelf app imports | tr ' ' '\n' | grep '^lab_strtoul_next')" lab_strtoul_next
	assert_equal "$(evidence glibc-too-new-patchelf app 'needs libc.so.6')" "$(evidence glibc-too-new-patchelf app.orig 'needs libc.so.6')"
	run row "$O" glibc-too-new-patchelf
	assert_line "[loader: ./app: <host libc>: version 'GLIBC_<host+1>' not found (required by ./app)]"
}

@test "glibc-too-new-fix: every node the rebuilt app needs from libc.so.6 is defined by the host libc" {
	for v in $(evidence glibc-too-new-fix app 'needs libc.so.6'); do
		assert_equal "${v%%#*} $(evidence glibc-too-new-fix '<host libc>' "defines ${v%%#*}")" "${v%%#*} ${v#*#}"
	done
}

@test "slash-in-needed: NEEDED holds ./libmath.so, the RUNPATH is there and unused; the fix names the library" {
	assert_equal "$(evidence slash-in-needed app NEEDED)" '[./libmath.so libc.so.6]'
	assert_equal "$(evidence slash-in-needed app RUNPATH)" '$ORIGIN'
	run row "$O" slash-in-needed
	assert_line --partial 'error while loading shared libraries: ./libmath.so: cannot open shared object file'
	assert_equal "$(evidence slash-in-needed-fix app NEEDED)" '[libmath.so libc.so.6]'
}

@test "missing-soname-link: only the development name exists; the fix adds the SONAME link" {
	assert_equal "$(evidence missing-soname-link lib/libaccel.so SONAME)" libaccel.so.1
	assert_equal "$(evidence missing-soname-link app NEEDED)" '[libaccel.so.1 libc.so.6]'
	[ ! -e "$(rowdir missing-soname-link)/lib/libaccel.so.1" ] || fail "the SONAME file exists in the broken row"
	run row "$E" missing-soname-link-fix
	assert_line '  | lib/libaccel.so.1: symlink=libaccel.so'
}

@test "outside-search-path: the loader probes the cache and the system directories, never wsl/lib" {
	run row "$E" outside-search-path
	assert_line '  | LD_DEBUG: search cache=/etc/ld.so.cache'
	assert_line --regexp '^  \| LD_DEBUG: search path=.* \(system search path\)$'
	refute_line --partial 'trying file=<row>/wsl/lib'
	assert_equal "$(evidence outside-search-path-runpath app RUNPATH)" '$ORIGIN/wsl/lib'
}

@test "outside-search-path-ld-so-conf: the private cache maps the library; the host's cache never learns it" {
	run row "$O" outside-search-path-ld-so-conf
	if echo "$output" | grep -q '^\[skipped: '; then skip "$(echo "$output" | grep '^\[skipped: ')"; fi
	assert_line --regexp '^ld\.so\.cache \(private\): libaccel\.so\.1 \(libc6[^)]*\) => <row>/wsl/lib/libaccel\.so\.1$'
	run ldconfig -p
	refute_output --partial libaccel.so.1
}

@test "a row that needs a private mount namespace where none can be made (unshare fails, as in a plain chroot) is a skipped row of check-toolchains, with the reason, not an unexpected cell" {
	r=$(rows_with loader-errors run '^ldconf:' | head -n 1)
	[ -n "$r" ] || fail "nothing to check: no ldconf: row in the table"
	unshare_fails "$BATS_TEST_TMPDIR/bin"
	make -s -C "$TOP" --no-print-directory B="$BUILD" "$BUILD/toolchains/expect.tsv"
	# the row run anew (ROW=: not the lab's kept run) under a stand-in for
	# gcc:bfd's column, in this build directory
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$TOP/scripts/toolchain-facts" gcc:bfd "$BATS_TEST_TMPDIR/tc/gcc+bfd" "$BUILD" \
		"loader-errors=loader-errors EVIDENCE=1 ROW=$r"
	assert_success
	run "$TOP/scripts/toolchain-table" "$BUILD/toolchains/expect.tsv" "$BATS_TEST_TMPDIR/tc" gcc:bfd
	assert_line --regexp "^loader-errors:$r +$(expect_verdict loader-errors "$r") +- *\$"
	assert_line --regexp "^skipped: gcc:bfd loader-errors:$r -- no private mount namespace: unshare: cannot change root filesystem propagation: Invalid argument \(/ is not a mount point"
	refute_line --partial "unexpected: loader-errors:$r "
}

@test "whether a private mount namespace can be made is asked once for all the rows of a run, and each row that needs one says why it skipped" {
	[ "$(id -u)" = 0 ] || skip "needs root: as a user the secure-mode rows skip before they ask"
	rows=$(rows_with loader-errors run '^(trace\+)?(ldconf:|setuid\+|nobody\+|setgid\+|setcap\+)' | head -n 3)
	[ "$(echo $rows | wc -w)" -ge 2 ] || fail "nothing to check: fewer than two rows that need a private mount namespace"
	# unshare fails as in a plain chroot, and notes each time it is asked
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho "$*" >> "%s"\necho "unshare: cannot change root filesystem propagation: Invalid argument" >&2\nexit 1\n' \
		"$BATS_TEST_TMPDIR/asked" > "$BATS_TEST_TMPDIR/bin/unshare" && chmod +x "$BATS_TEST_TMPDIR/bin/unshare"
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" make -s -C "$TOP" --no-print-directory B="$BUILD" loader-errors ROW="$(echo $rows)"
	for r in $rows; do
		assert_line "== $r: $(table_cell loader-errors "$r" what)"
	done
	assert_equal "$(grep -c '^\[skipped: no private mount namespace: unshare: cannot change root' <<< "$output")" "$(echo $rows | wc -w)"
	assert_equal "$(cat "$BATS_TEST_TMPDIR/asked")" "--mount --propagation private true"
}

@test "runpath-not-transitive: libouter.so needs libinner.so and has no RUNPATH of its own; the fix gives it one" {
	assert_equal "$(evidence runpath-not-transitive lib/libouter.so NEEDED)" '[libinner.so libc.so.6]'
	assert_equal "$(evidence runpath-not-transitive lib/libouter.so RUNPATH)" none
	assert_equal "$(evidence runpath-not-transitive app RUNPATH)" '$ORIGIN/lib'
	assert_equal "$(evidence runpath-not-transitive-fix lib/libouter.so RUNPATH)" '$ORIGIN'
}

@test "lazy-vs-now: -z lazy fills the slot at the first call, -z now before main; full RELRO makes it read-only" {
	slots() { row "$O" lazy-vs-now | sed -n "s/^\[$1 got_target slot@[0-9a-fx]*\] $2 the first call holds \(0x[0-9a-f]*\) (in \(.*\))$/\1 \2/p"; }
	read -r lb lbm < <(slots app-lazy before); read -r la lam < <(slots app-lazy after)
	read -r nb nbm < <(slots app-now before); read -r na nam < <(slots app-now after)
	[ "$lb" != "$la" ] || fail "lazy: the slot did not change at the first call"
	assert_equal "$lbm $lam" "app-lazy libgot.so"
	assert_equal "$nb" "$na"
	assert_equal "$nbm $nam" "libgot.so libgot.so"
	row "$O" lazy-vs-now | grep -q '^\[app-lazy got_target slot@[0-9a-fx]*\] page protection: rw' || fail "lazy slot not writable"
	row "$O" lazy-vs-now | grep -q '^\[app-now got_target slot@[0-9a-fx]*\] page protection: r-' || fail "now slot writable"
	assert_equal "$(evidence lazy-vs-now app-lazy RELRO) $(evidence lazy-vs-now app-now RELRO)" "partial full"
}

# secure_pairs: "<setuid row> <control row>" for each row run set-user-ID
# (setuid+SPEC) and the row of the same case run with nobody+SPEC.
secure_pairs() {
	local r c v rows=() ; local -A spec kind
	while IFS=$'\t' read -r r v; do spec[$r]=$v; rows+=("$r"); done < <(table_column loader-errors run)
	while IFS=$'\t' read -r r v; do kind[$r]=$v; done < <(table_column loader-errors case)
	for r in "${rows[@]}"; do
		[[ ${spec[$r]} == setuid+* ]] || continue
		for c in "${rows[@]}"; do
			[ "${spec[$c]}" = "nobody+${spec[$r]#setuid+}" ] && [ "${kind[$c]}" = "${kind[$r]}" ] && echo "$r $c"
		done
	done
	true
}

@test "secure mode: set-user-ID root and started by nobody, app's library is not found; the same user and files without the bit find it" {
	pairs=$(secure_pairs)
	[ -n "$pairs" ] || fail "nothing to check: no setuid+ row with a nobody+ control in the table"
	while read -r r c; do
		row "$O" "$r" > "$BATS_TEST_TMPDIR/secure"; row "$O" "$c" > "$BATS_TEST_TMPDIR/control"
		if grep -q '^\[skipped: ' "$BATS_TEST_TMPDIR/secure"; then skip "$(grep -m 1 '^\[skipped: ' "$BATS_TEST_TMPDIR/secure")"; fi
		grep -qE '^\[loader: \./app: error while loading shared libraries: [^:]+: cannot open shared object file' "$BATS_TEST_TMPDIR/secure" ||
			fail "$r: no loader refusal"
		grep -qE '^\[app called [^ ]+ in [^] ]+\.so' "$BATS_TEST_TMPDIR/control" || fail "$c: app did not call into its library"
		grep -q '^\[exit 0\]$' "$BATS_TEST_TMPDIR/control" || fail "$c: app did not exit 0"
	done <<< "$pairs"
}

@test "secure mode: no set-user-ID file is left in the build directory, no private mount outlives its run" {
	[ -n "$(secure_pairs)" ] || fail "nothing to check: no setuid+ row in the table"
	run find "$BUILD/loader-errors" -perm -4000
	assert_output ''
	run grep -c ' lab-secure-mode ' /proc/self/mountinfo
	assert_output 0
}

@test "secure mode: where the bit cannot make secure mode (under an emulator) the run is skipped with its reason, and derives no verdict" {
	read -r r _ < <(secure_pairs) || true
	[ -n "$r" ] || fail "nothing to check: no setuid+ row in the table"
	cp -a "$(rowdir "$r")" "$BATS_TEST_TMPDIR/$r"
	run sh -c '{ echo "== $1: x"; LAB_RUN=true "$2" "$3" "$4" $5; } | "$6" --facts' _ "$r" "$TOP/loader-errors/run" \
		"$BATS_TEST_TMPDIR/$r" "$BUILD/loader-errors/host-glibc.txt" "$(table_cell loader-errors "$r" run)" "$TOP/scripts/verdict"
	assert_success
	assert_output "$r verdict=skipped consumers="
	[ "$(id -u)" = 0 ] || return 0     # a user's run is skipped natively too (needs root)
	run "$TOP/loader-errors/run" "$BATS_TEST_TMPDIR/$r" "$BUILD/loader-errors/host-glibc.txt" "$(table_cell loader-errors "$r" run)"
	# natively, only where a private mount namespace can be made (not in a
	# plain chroot, a container): elsewhere skipped, for that reason alone
	if private_mounts; then refute_line --partial '[skipped: '
	else assert_line "[skipped: no private mount namespace: $private_mounts_why]"; fi
}

@test "secure mode: a source tree and build directory under /tmp, which the private tree's tmpfs covers, still run the control" {
	[ "$(id -u)" = 0 ] || skip "needs root: the control runs as nobody from a private tree"
	need_private_mounts
	read -r _ c < <(secure_pairs) || true
	[ -n "$c" ] || fail "nothing to check: no nobody+ control row in the table"
	# The runner, its helpers and a copy of the row under a /tmp of a private
	# mount namespace (a tmpfs of its own, filled before it is moved onto
	# /tmp, gone with the namespace): the runner then mounts the private
	# tree's tmpfs over that /tmp in turn.
	mkdir "$BATS_TEST_TMPDIR/t"
	run unshare --mount --propagation private sh -c '
		t=$5/t && mount -t tmpfs le-test "$t" && mkdir -p "$t/loader-errors" "$t/scripts" &&
		cp "$1/loader-errors/run" "$1/loader-errors/clean-paths" "$t/loader-errors/" &&
		cp "$1/scripts/row-env" "$1/scripts/ld-debug" "$1/scripts/private-mounts" "$t/scripts/" && cp -a "$2" "$t/row" && cp "$3" "$t/host-glibc.txt" &&
		mount --move "$t" /tmp && exec /tmp/loader-errors/run /tmp/row /tmp/host-glibc.txt $4' _ \
		"$TOP" "$(rowdir "$c")" "$BUILD/loader-errors/host-glibc.txt" "$(table_cell loader-errors "$c" run)" "$BATS_TEST_TMPDIR"
	assert_success
	refute_line --partial '[skipped: '
	assert_line --regexp '^\[app called [^ ]+ in [^] ]+\.so'
	assert_line '[exit 0]'
}

@test "nothing outside the build directory changed: the host's ld.so.cache and ldconfig's aux-cache" {
	run bash -c "stat -c '%n %Y %s' /etc/ld.so.cache /var/cache/ldconfig/aux-cache 2>/dev/null"
	assert_output "$(cat "$BATS_FILE_TMPDIR/host-files.before")"
	assert_line --regexp '^/etc/ld.so.cache '
	grep -q '^/var/cache/ldconfig/aux-cache ' "$BATS_FILE_TMPDIR/host-files.before" ||
		skip "ld.so.cache checked; ldconfig's aux-cache cannot be read as a user (/var/cache/ldconfig is root's, 0700)"
}

@test "an unknown row is one line and a failure" {
	run make -s -C "$TOP" --no-print-directory B="$BUILD" loader-errors ROW=no-such-row
	assert_failure
	assert_output --partial "unknown row 'no-such-row' (known: "
}

@test "the runner refuses an unknown run word in one line" {
	run "$TOP/loader-errors/run" "$(rowdir glibc-too-new)" "$BUILD/loader-errors/host-glibc.txt" sideways
	assert_failure 2
	assert_output "run: unknown run spec 'sideways'"
}

@test "runs rows: a program that only returns 0 does not meet the cell; the real one does" {
	# Each runs row, copied, its programs replaced by int main(){return 0;},
	# run and checked as make check does (run, scripts/verdict, scripts/check).
	list=$(rows_expecting loader-errors runs)
	[ -n "$list" ] || fail "nothing to check: rows_expecting loader-errors runs"
	printf 'int main(void) { return 0; }\n' > "$BATS_TEST_TMPDIR/null.c"
	${CC:-gcc} -o "$BATS_TEST_TMPDIR/null" "$BATS_TEST_TMPDIR/null.c"
	# the run and expect cells read once for every row
	local -A spec expect
	local r v skipped='could not run here|\| skipped +\| skipped '
	while IFS=$'\t' read -r r v; do spec[$r]=$v; done < <(table_column loader-errors run)
	while IFS=$'\t' read -r r v; do expect[$r]=$v; done < <(table_column loader-errors expect)
	checked=0
	for r in $list; do
		printf '%s\t%s\tx\n' "$r" "${expect[$r]}" > "$BATS_TEST_TMPDIR/expect"
		d=$BATS_TEST_TMPDIR/$r
		cp -a "$BUILD/loader-errors/$r" "$d"
		run sh -c '{ echo "== $1: x"; "$2" "$3" "$4" $5; } | "$6" --facts | "$7" "$8"' _ \
			"$r" "$TOP/loader-errors/run" "$d" "$BUILD/loader-errors/host-glibc.txt" "${spec[$r]}" "$TOP/scripts/verdict" "$TOP/scripts/check" "$BATS_TEST_TMPDIR/expect"
		# skipped here (no private mount namespace, as a user): nothing to prove
		[[ $output =~ $skipped ]] && continue
		assert_success
		for p in "$d"/app*; do [ -L "$p" ] || cp "$BATS_TEST_TMPDIR/null" "$p"; done
		run sh -c '{ echo "== $1: x"; "$2" "$3" "$4" $5; } | "$6" --facts | "$7" "$8"' _ \
			"$r" "$TOP/loader-errors/run" "$d" "$BUILD/loader-errors/host-glibc.txt" "${spec[$r]}" "$TOP/scripts/verdict" "$TOP/scripts/check" "$BATS_TEST_TMPDIR/expect"
		assert_failure
		# unproven; or loader-error where the run's environment asks the loader
		# for something the stand-in cannot give it (a preload its RUNPATH found)
		assert_line --regexp "^check: row $r broke its expectation: expected runs, observed (unproven|loader-error)\$"
		checked=$((checked + 1))
	done
	[ "$checked" -gt 0 ] || fail "every runs row was skipped here: nothing checked"
}
