#!/usr/bin/env bats
# route-b/: each test states one fact, read from the run-time output, the
# loader's own account (the evidence: LD_DEBUG, maps) or the binaries.
# Rows and expectations come from route-b/rows; verdicts from scripts/verdict.
LAB=route-b
load helpers

setup_file() {
	load helpers
	lab_setup_file
}

R=$RUN_OUT E=$EVIDENCE_OUT
# ev ROW: the row's evidence lines, without the "  | " prefix.
ev() { evidence_lines "$E" "$1"; }
# ids / cell ROW COLUMN: the table, through helpers' cached reader.
ids() { table_rows route-b; }
cell() { table_cell route-b "$@"; }

@test "golden: normalised make route-b equals expected/route-b.txt" {
	run golden_diff "$R" "$TOP/expected/route-b.txt"
	assert_success
}

@test "the run holds the table's rows, in table order" {
	run grep -oE '^== [^:]+' "$R"
	assert_output "$(printf '== %s\n' $(ids))"
}

@test "every row's derived verdict and counts equal its expect cell" {
	"$TOP/scripts/verdict" --facts < "$R" > "$BATS_TEST_TMPDIR/facts"
	for r in $(ids); do
		got=$(awk -v id="$r" '$1 == id { sub(/^verdict=/, "", $2); sub(/^consumers=/, "", $3); print $2 ($3 == "" ? "" : " " $3) }' "$BATS_TEST_TMPDIR/facts")
		assert_equal "$got" "$(cell "$r" expect)"
	done
}

@test "PARTITION rows: some table read is at an address no write went to, through the copy its reader ships or one it was captured into while the copy it ships is used by no line (raw addresses)" {
	list=$(rows_expecting route-b PARTITION)
	[ -n "$list" ] || fail "nothing to check: rows_expecting route-b PARTITION"
	for r in $list; do
		w=$(written_addrs "$R" "$r"); rd=$(read_addrs "$R" "$r")
		[ -n "$w" ] && [ -n "$rd" ] || fail "$r: no write or no read"
		[ -n "$(comm -13 <(echo "$w") <(echo "$rd"))" ] || fail "$r: every read address was written"
		# each read of an unwritten table ran the copy its consumer ships
		row "$R" "$r" | awk -v w="$w" '
			BEGIN { n = split(w, a, "\n"); for (i = 1; i <= n; i++) { sub(/^@/, "", a[i]); wr[a[i]] = 1 } }
			/^\[(register|get_list) / { match($0, /copy=[^ ]+/); used[substr($0, RSTART + 5, RLENGTH - 5)] = 1 }
			/^\[get_list <- / { match($0, /copy=[^ ]+/); c = substr($0, RSTART + 5, RLENGTH - 5); match($0, /@0x[0-9a-fA-F]+/); at = substr($0, RSTART + 1, RLENGTH - 1) }
			/ sees [0-9]+ device/ && !(at in wr) { match($0, /ships copy=[^)]+/); o = substr($0, RSTART + 11, RLENGTH - 11); if (o != c) { cap[o] = c; line[o] = $0 } }
			END { for (o in cap) if (o in used) { print "a reader of an unwritten table ran copy=" cap[o] " while its own copy=" o " is in use: " line[o]; bad = 1 }; exit bad }' || fail "$r: a read of an unwritten table through another copy than its reader ships, whose own copy is in use (a capture dividing two live copies: SPLIT)"
	done
}

@test "no-split rows: every table read was written, and by one copy only" {
	list=$(rows_expecting route-b no-split)
	[ -n "$list" ] || fail "nothing to check: rows_expecting route-b no-split"
	for r in $list; do
		w=$(written_addrs "$R" "$r"); rd=$(read_addrs "$R" "$r")
		[ "$(wc -l <<< "$w")" -eq 1 ] || fail "$r: writes to more than one table: $w"
		[ -z "$(comm -13 <(echo "$w") <(echo "$rd"))" ] || fail "$r: a read of an unwritten table"
	done
}

@test "the host prints every dlopen it makes, one per module or file opened by the steps" {
	for r in $(ids); do
		[ "$(cell "$r" expect)" = refused ] && continue     # stops before its last open
		opens=$(tr ' ' '\n' <<< "$(cell "$r" steps)" | grep -vE '^(libc|maps|env:.*)$' | grep -cE '^file:|^[^.]*$')
		assert_equal "$(row "$R" "$r" | grep -cE '^\[host\] dl(m)?open\(')" "$opens"
	done
}

@test "a loader-error row ends on the loader's own words for the open it refused, then a failed exit" {
	list=$(rows_expecting route-b loader-error)
	[ -n "$list" ] || fail "nothing to check: rows_expecting route-b loader-error"
	for r in $list; do
		run bash -c 'grep -vE "^verdict: " | tail -n 3' < <(row "$R" "$r")
		assert_line --index 0 --regexp '^\[host\] dl(m)?open\('
		assert_line --index 1 --regexp '^\[loader: .+\]$'
		assert_line --index 2 --regexp '^\[run failed: exit [1-9][0-9]*\]$'
	done
}

@test "vendored-local: each plugin's runtime calls bind inside the plugin itself" {
	run ev vendored-local
	assert_line "LD_DEBUG: binding file A/plugin.so [0] to A/plugin.so [0]: normal symbol \`rt_register'"
	assert_line "LD_DEBUG: binding file B/plugin.so [0] to B/plugin.so [0]: normal symbol \`rt_get_list'"
	assert_line 'A/plugin.so: exports=rt_get_list:FUNC rt_register:FUNC'
}

@test "hashed-soname: each copy is named after the sha256 of its own build, and both are mapped" {
	for m in A B; do
		d=$(rowdir hashed-soname)/$m
		h=$(sha256sum "$d/stage/librt.so.1" | cut -c1-8)
		run elf_facts "$d/plugin.so"
		assert_line "dyn NEEDED librt-$h.so.1"
		run elf_facts "$d/librt-$h.so.1"
		assert_line "dyn SONAME librt-$h.so.1"
	done
	run ev hashed-soname
	assert_line 'maps: r-xp A/librt-<hash>.so.1'
	assert_line 'maps: r-xp B/librt-<hash>.so.1'
}

@test "shared-soname: B's own librt.so.1 is on disk but never mapped; B binds A's" {
	[ -e "$(rowdir shared-soname)/B/librt.so.1" ] || fail "B's copy is not on disk: the row would prove nothing"
	run ev shared-soname
	assert_line 'maps: r-xp A/librt.so.1'
	refute_line 'maps: r-xp B/librt.so.1'
	assert_line "LD_DEBUG: binding file B/plugin.so [0] to A/librt.so.1 [0]: normal symbol \`rt_get_list'"
}

@test "global-first and global-late: the same files; B binds T's copy or its own by load order" {
	run ev global-first
	assert_line "LD_DEBUG: binding file B/plugin.so [0] to T/librt-<hash>.so.1 [0]: normal symbol \`rt_get_list'"
	assert_line 'maps: r-xp B/librt-<hash>.so.1'          # B's copy is loaded all the same
	assert_line --regexp '^LD_DEBUG=scopes: B/plugin.so \[0\] scope 0: app .* T/plugin.so T/librt-<hash>.so.1$'
	run ev global-late
	assert_line "LD_DEBUG: binding file B/plugin.so [0] to B/librt-<hash>.so.1 [0]: normal symbol \`rt_get_list'"
	assert_line "LD_DEBUG: binding file C/plugin.so [0] to T/librt-<hash>.so.1 [0]: normal symbol \`rt_get_list'"
}

@test "lazy rows: B is linked without BIND_NOW and its slot starts in its own PLT" {
	list=$(rows_with route-b layout '^torch-lazy$')
	[ -n "$list" ] || fail "nothing to check: rows_with route-b layout '^torch-lazy$'"
	for r in $list; do
		run ev "$r"
		assert_line 'B/plugin.so: BIND_NOW=no'
		assert_line 'A/plugin.so: BIND_NOW=yes'
		run elf_facts "$(rowdir "$r")/B/plugin.so"
		assert_line --regexp '^rel JUMP_SLOT rt_get_list(@|$)'
	done
	run row "$R" global-late-lazy
	assert_line --index 2 --regexp '^\[plt-slot rt_get_list of pluginB@0x[0-9a-f]+\] points to 0x[0-9a-f]+ in B/plugin.so \(its own PLT: not yet resolved\)$'
}

@test "global-late-lazy: the slot resolves after T's promotion, to T's copy; called before, it stays B's" {
	last_slot() { row "$R" "$1" | grep '^\[plt-slot' | tail -n 1; }
	run last_slot global-late-lazy
	assert_output --regexp 'in T/librt-[0-9a-f]{8}\.so\.1 \(rt_get_list\)$'
	run last_slot global-late-lazy-called
	assert_output --regexp 'in B/librt-[0-9a-f]{8}\.so\.1 \(rt_get_list\)$'
}

@test "host-export and deepbind: the plugin binds the host's exported copy, unless RTLD_DEEPBIND" {
	run elf_facts "$(rowdir deepbind)/app"
	assert_line --regexp '^sym rt_get_list - FUNC GLOBAL DEFAULT [0-9]+ '
	run ev host-export
	assert_line "LD_DEBUG: binding file A/plugin.so [0] to app [0]: normal symbol \`rt_get_list'"
	assert_line --regexp '^LD_DEBUG=scopes: A/plugin.so \[0\] scope 0: app '
	run ev deepbind
	assert_line "LD_DEBUG: binding file A/plugin.so [0] to A/plugin.so [0]: normal symbol \`rt_get_list'"
	assert_line --regexp '^LD_DEBUG=scopes: A/plugin.so \[0\] scope 0: A/plugin.so '
	assert_line --regexp '^LD_DEBUG=scopes: A/plugin.so \[0\] scope 1: app '
}

@test "dlmopen: B lives in namespace 1 with its own librt.so.1 and its own libc" {
	run ev dlmopen
	assert_line "LD_DEBUG: binding file B/plugin.so [1] to B/librt.so.1 [1]: normal symbol \`rt_get_list'"
	assert_line 'maps: r-xp B/librt.so.1'
	assert_equal "$(ev dlmopen | grep -c '^maps: r-xp libc.so.6$')" 2
	run row "$R" dlmopen
	assert_line '[libc] libc.so.6 is mapped executable 2 time(s)'
	m0=$(row "$R" dlmopen | sed -nE 's/^\[libc\] namespace 0 .*malloc@(0x[0-9a-f]+).*/\1/p')
	m1=$(row "$R" dlmopen | sed -nE 's/^\[libc\] namespace 1 .*malloc@(0x[0-9a-f]+).*/\1/p')
	[ -n "$m0" ] && [ -n "$m1" ] && [ "$m0" != "$m1" ] || fail "malloc: namespace 0 '$m0', namespace 1 '$m1'"
	assert_line --regexp '^\[libc\] namespace 1 \(pluginB\): .* lies in an anonymous mapping$'
}

@test "dlmopen-first-deps: a new namespace's global scope is its first object and that object's dependencies; B binds T's runtime, not the copy it ships" {
	run ev dlmopen-first-deps
	assert_line 'LD_DEBUG=scopes: B/plugin.so [1] scope 0: T/plugin.so T/librt-<hash>.so.1 libc.so.6 ld-linux-x86-64.so.2'
	assert_line "LD_DEBUG: binding file B/plugin.so [1] to T/librt-<hash>.so.1 [1]: normal symbol \`rt_get_list'"
	refute_line --regexp '^LD_DEBUG: binding file .* to B/librt-'
}

@test "promoted-between: C binds the promoted B's copy, and nothing binds C's own" {
	run ev promoted-between
	assert_line "LD_DEBUG: binding file C/plugin.so [0] to B/plugin.so [0]: normal symbol \`rt_get_list'"
	assert_line "LD_DEBUG: binding file A/plugin.so [0] to A/plugin.so [0]: normal symbol \`rt_register'"
	refute_line --regexp '^LD_DEBUG: binding file .* to C/plugin\.so '
}

@test "dlmopen's cost: the host's free() takes namespace 1's block and its malloc hands it out again" {
	l=$(row "$R" dlmopen | grep "^\[libc\] the host's free() takes pluginB's block@")
	b=$(sed -nE 's/.*block@(0x[0-9a-f]+).*/\1/p' <<< "$l"); a=$(sed -nE 's/.*returns @(0x[0-9a-f]+)$/\1/p' <<< "$l")
	[ -n "$b" ] && [ "$a" = "$b" ] || fail "block '$b', next malloc '$a'"
}

@test "odr-collision rows: the two definitions differ in size; Y's result is wrong only when X is global" {
	run elf_facts "$(rowdir odr-collision)/X/plugin.so"
	assert_line --regexp '^sym worker_vtable - OBJECT GLOBAL DEFAULT [0-9]+ 64$'
	run elf_facts "$(rowdir odr-collision)/Y/plugin.so"
	assert_line --regexp '^sym worker_vtable - OBJECT GLOBAL DEFAULT [0-9]+ 96$'
	for r in $(ids); do
		y=$(row "$R" "$r" | sed -nE 's/^pluginY worker uses vtable@0x[0-9a-f]+: result=([0-9]+), its own code gives ([0-9]+)$/\1 \2/p')
		[ -n "$y" ] || continue
		set -- $y
		if [ "$(cell "$r" expect)" = COLLISION ]; then
			[ "$1" != "$2" ] || fail "$r: a collision row with a right result ($1)"
			collided=$((${collided:-0} + 1))
		else
			assert_equal "$1" "$2"
		fi
	done
	[ "${collided:-0}" -gt 0 ] || fail "no COLLISION row printed pluginY's result"
	run ev odr-collision-global
	assert_line "LD_DEBUG: binding file Y/plugin.so [0] to X/plugin.so [0]: normal symbol \`worker_init'"
}

@test "fix-renamed: each copy exports only its prefixed names, so X's promotion reaches nothing of Y's" {
	run elf_facts "$(rowdir fix-renamed)/Y/plugin.so"
	assert_line --regexp '^sym Y_worker_init '
	refute_line --regexp '^sym worker_init '
	run ev fix-renamed
	assert_line "LD_DEBUG: binding file Y/plugin.so [0] to Y/plugin.so [0]: normal symbol \`Y_worker_init'"
}

@test "duplicate-guard: the second copy names the first, stops the process (134), leaves no core file" {
	run row "$R" duplicate-guard
	assert_line --regexp '^\[guard copy=B\] a second copy is starting in B/plugin.so: copy=A in A/plugin.so already initialised'
	assert_line '[run failed: exit 134]'
	run find "$(rowdir duplicate-guard)" "$TOP" -maxdepth 1 -name 'core*' -newer "$TOP/route-b/rows"
	assert_output ''
}

@test "duplicate-guard-ok: silenced, and the two copies' tables are two addresses" {
	run row "$R" duplicate-guard-ok
	assert_line --partial 'RT_DUPLICATE_LIB_OK=TRUE: silenced, continuing with two copies'
	w=$(written_addrs "$R" duplicate-guard-ok); rd=$(read_addrs "$R" duplicate-guard-ok)
	[ -n "$w" ] && [ -n "$rd" ] && [ "$w" != "$rd" ] || fail "written '$w', read '$rd'"
}

@test "fix-one-soname: one runtime file in the process, whatever the order" {
	run ev fix-one-soname
	assert_equal "$(ev fix-one-soname | grep -c '^maps: r-xp .*librt')" 1
	assert_line 'maps: r-xp lib/librt.so.1'
}

@test "make route-b ROW=nope: unknown row, one line, exit 2" {
	run make -s -C "$TOP" B="$BUILD" route-b ROW=nope
	assert_equal "$status" 2
	assert_equal "${#lines[@]}" 1
	assert_output --partial "unknown row 'nope' (known: $(ids | xargs))"
}

@test "the host refuses a bad step in one line, exit 2" {
	run "$(rowdir vendored-local)/app" A A.frobnicate
	assert_equal "$status" 2
	assert_line --index 1 'host: unknown call (write read work slot): A.frobnicate'
	run "$(rowdir vendored-local)/app" a/b
	assert_equal "$status" 2
	assert_output 'host: a module name is letters and digits: a/b'
}
