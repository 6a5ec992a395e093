#!/usr/bin/env bats
# realworld: the corpus's subset (realworld/cases, column subset) run once by
# make realworld-subset. These tests check the harness: that the truth it
# derives from each process is what the process's own record says, by
# readers of their own (grep over the loader's lines, readelf), and that
# the comparison with symsplit can say "disagree". Whether symsplit agrees
# today is measured (the table), never a test here.
load helpers

setup_file() {
	local rc=0
	make -s -C "$TOP" --no-print-directory B="$BUILD" realworld-subset > "$BATS_FILE_TMPDIR/subset.out" 2>&1 || rc=$?
	echo "$rc" > "$BATS_FILE_TMPDIR/subset.status"
	export RW="$BUILD/realworld"
}

subset_cases() { rows_with realworld subset '^yes$'; }
# ld CASE: the loader's record of the case's process (the file with bindings)
ld() { echo "$RW/$1/ld.$(cat "$RW/$1/pid")"; }
# binds CASE REF DEF NAME: the record has REF's reference to NAME bound to DEF
binds() { grep -qE "binding file [^ ]*/$2 \[0\] to [^ ]*/$4 \[0\]: normal symbol \`$3'" "$(ld "$1")"; }
# mapped CASE FILE: the path of FILE as the case's loader record names it
mapped() { grep -o -m1 "/[^ ]*/$2" "$(ld "$1")" | head -n 1; }

@test "realworld: make realworld-subset runs every subset case and exits 0 (symsplit's disagreements are not failures)" {
	[ "$(cat "$BATS_FILE_TMPDIR/subset.status")" = 0 ] || fail "$(tail -n 20 "$BATS_FILE_TMPDIR/subset.out")"
	local c n=0
	for c in $(subset_cases); do
		grep -q "^== $c: " "$BATS_FILE_TMPDIR/subset.out" || fail "no header for $c"
		n=$((n + 1))
	done
	[ "$n" -ge 3 ] || fail "only $n subset cases"
}

# applies CASE: the case's expect cell speaks of this run (realworld/cell-applies);
# otherwise a test that reads the cell's premise skips, naming why.
applies() { "$TOP/realworld/cell-applies" "$RW/$1"; }
needs_cell() { local why; why=$(applies "$1") || skip "$1: $why"; }

@test "realworld: each subset case's derived truth (verdict, outcome) is its expect cell" {
	local c got n=0 why skipped=
	for c in $(subset_cases); do
		why=$(applies "$c") || { skipped="$skipped$c: $why; "; continue; }
		got="$(sed -n 's/^verdict: //p' "$RW/$c/truth") $(sed -n 's/^outcome: \([a-z]*\).*/\1/p' "$RW/$c/truth")"
		[ "$got" = "$(table_cell realworld "$c" expect)" ] || fail "$c: truth $got, expect cell $(table_cell realworld "$c" expect)"
		n=$((n + 1))
	done
	[ -z "$skipped" ] || echo "# not compared: $skipped" >&3
	[ "$n" -gt 0 ] || [ -z "$skipped" ] || skip "no cell speaks of this machine's processes: $skipped"
	[ "$n" -gt 0 ] || fail "no subset case"
}

@test "realworld: the crash is a fact: the promoted duckdb run died by a signal and the truth says crash" {
	local s; s=$(cat "$RW/node-subset-promote-duckdb/status")
	[ "$s" -ge 128 ] || fail "exit $s"
	grep -q "^outcome: crash .*(exit $s)" "$RW/node-subset-promote-duckdb/truth"
}

@test "realworld: the promotion is in the record: duckdb.node joins the global scope, and the --dlopen options say so" {
	grep -qE 'add [^ ]*/duckdb\.node \[0\] to global scope' "$(ld node-subset-promote-duckdb)"
	grep -qE -- '--dlopen [^ ]*/duckdb\.node:global' "$RW/node-subset-promote-duckdb/dlopen-args"
	if grep -qE 'to global scope' "$(ld node-subset)"; then fail "the unpromoted run added something to the global scope"; fi
	grep -qE -- '--dlopen [^ ]*/duckdb\.node:local' "$RW/node-subset/dlopen-args"
}

@test "realworld: each crossed COLLISION name: the loader bound classic-level.node's reference to duckdb.node, and both export it (readelf)" {
	needs_cell node-subset-promote-duckdb
	local n cl dd k=0
	cl=$(mapped node-subset-promote-duckdb 'classic-level\.node') dd=$(mapped node-subset-promote-duckdb 'duckdb\.node')
	while read -r kind n; do
		[ "$kind" = COLLISION ] || continue
		binds node-subset-promote-duckdb classic-level.node "$n" duckdb.node || fail "$n: no such binding in the record"
		defines_sym "$cl" "$n" || fail "$n: classic-level.node does not define it"
		defines_sym "$dd" "$n" || fail "$n: duckdb.node does not define it"
		k=$((k + 1))
	done < "$RW/node-subset-promote-duckdb/truth-names"
	[ "$k" -gt 0 ] || fail "no COLLISION name derived"
}

@test "realworld: unpromoted, the same names stay apart: classic-level.node's references bind its own copy, and the truth says LATENT" {
	needs_cell node-subset
	binds node-subset classic-level.node _ZTV10OpenWorker classic-level.node
	if binds node-subset classic-level.node _ZTV10OpenWorker duckdb.node; then fail "classic-level.node bound its OpenWorker to duckdb.node unpromoted"; fi
	grep -qE '^LATENT namesakes: duckdb\.node classic-level\.node: .* 0 of 2 in the global scope' "$RW/node-subset/truth"
	[ ! -s "$RW/node-subset/truth-names" ]
}

@test "realworld: numpy's LATENT copies: two extension modules export npy_atan2 (readelf), neither is in the global scope" {
	needs_cell numpy
	local line a b d
	line=$(grep -m1 -E '^LATENT copies: .* e\.g\. npy_atan2$' "$RW/numpy/truth") || fail "no npy_atan2 partition in the truth"
	read -r _ _ a b _ <<< "$line"; b=${b%:}
	d=$(dirname "$(grep -o "/[^ ]*/$a" "$(ld numpy)" | head -n 1)")
	defines_sym "$d/$a" npy_atan2 && defines_sym "$d/$b" npy_atan2
	if grep -qE "add [^ ]*/($a|$b) \[0\] to global scope" "$(ld numpy)"; then fail "a module holding npy_atan2 joined the global scope"; fi
}

@test "realworld: the truth follows the record: a doctored binding of classic-level's OpenWorker to duckdb.node is a COLLISION" {
	local t="$BATS_TEST_TMPDIR/doctored" f dd
	cp -r "$RW/node-subset" "$t"
	f=$t/ld.$(cat "$t/pid")
	dd=$(mapped node-subset 'duckdb\.node')
	grep -q "classic-level.node \[0\]: normal symbol \`_ZTV10OpenWorker'" "$f"
	sed -i -E "s|(binding file [^ ]*/classic-level\\.node \\[0\\] to )[^ ]*/classic-level\\.node( \\[0\\]: normal symbol \`_ZTV10OpenWorker')|\\1$dd\\2|" "$f"
	if grep -q "classic-level.node \\[0\\]: normal symbol \`_ZTV10OpenWorker'" "$f"; then fail "the doctoring left the binding as it was"; fi
	run "$TOP/realworld/truth" "$t"
	assert_success
	assert_line 'verdict: COLLISION'
	assert_line --regexp '^COLLISION classic-level\.node -> duckdb\.node: 1 reference\(s\) crossed'
}

@test "realworld: a version's own node is no shared name: libc and libcrypt both export GLIBC_2.2.5 (an absolute symbol, readelf), the truth counts it for neither" {
	local c=/lib/x86_64-linux-gnu/libc.so.6 x=/lib/x86_64-linux-gnu/libcrypt.so.1
	[ -e "$x" ] || skip "no libcrypt.so.1"
	defines_sym "$c" GLIBC_2.2.5 && defines_sym "$x" GLIBC_2.2.5
	run /usr/bin/python3 -c 'import importlib.machinery, sys
t = importlib.machinery.SourceFileLoader("truth", sys.argv[1]).load_module()
o = t.Objects(sys.argv[2:])
print(" ".join(str("GLIBC_2.2.5" in o.defs[p]) for p in sys.argv[2:]), "crypt" in o.defs[sys.argv[3]])' "$TOP/realworld/truth" "$c" "$x"
	assert_success
	assert_output "False False True"
}

@test "realworld: agreement says disagree when a symsplit row claims a SPLIT on a name that did not cross" {
	local t="$BATS_TEST_TMPDIR/fake"
	cp -r "$RW/node-subset" "$t"
	printf '%s\n' '{"findings":[{"verdict":"SPLIT","symbol":"made_up_name","sev":"high"}]}' > "$t/sym-files.json"
	echo 1 > "$t/sym-files.status"
	run "$TOP/realworld/agreement" --cells "$t"
	assert_success
	assert_line "cell fake files disagree SPLIT"
	run "$TOP/realworld/agreement" "$t"
	assert_line --partial "SPLIT on names that did not cross: made_up_name"
}

# subset_case_ending RE: the first subset case whose expect cell (verdict
# and outcome) matches RE, read through the table readers
subset_case_ending() {
	local c
	for c in $(subset_cases); do [[ $(table_cell realworld "$c" expect) =~ $1 ]] && { echo "$c"; return; }; done; true
}

# fake_cell CASE MODE STATUS JSON: a copy of a subset case whose MODE run
# symsplit answered with STATUS and JSON (the truth stays the run's)
fake_cell() {
	local t="$BATS_TEST_TMPDIR/$1-$2"
	cp -r "$RW/$1" "$t"
	printf '%s\n' "$4" > "$t/sym-$2.json"
	echo "$3" > "$t/sym-$2.status"
	FAKE=$t
}

@test "realworld: agreement reads the exit status and the severity as a user does: a process that ran agrees only with exit 0 and no high row" {
	local c
	c=$(subset_case_ending ' ok$')
	[ -n "$c" ] || skip "no subset case whose process runs"
	fake_cell "$c" files 0 "{\"findings\":[{\"verdict\":\"$(grep -o 'verdict: [A-Z]*' "$RW/$c/truth" | cut -d' ' -f2 | sed 's/none/INFO/')\",\"symbol\":\"x\",\"sev\":\"high\"}]}"
	run "$TOP/realworld/agreement" "$FAKE"
	assert_line --partial "the process ran, symsplit exit 0 with a high row"
	fake_cell "$c" files 1 '{"findings":[]}'
	run "$TOP/realworld/agreement" "$FAKE"
	assert_line --partial "the process ran, symsplit exit 1"
}

@test "realworld: agreement: a process that died agrees only with exit 1, whatever the class" {
	local c
	c=$(subset_case_ending ' (crash|exit)$')
	[ -n "$c" ] || skip "no subset case whose process dies"
	fake_cell "$c" files 0 '{"findings":[{"verdict":"COLLISION","symbol":"x","sev":"med"}]}'
	run "$TOP/realworld/agreement" --cells "$FAKE"
	assert_line "cell $(basename "$FAKE") files disagree COLLISION"
	run "$TOP/realworld/agreement" "$FAKE"
	assert_line --partial "the process died, symsplit exit 0"
}

# maps_cell_unknown FLAG...: a copy of a dying subset case whose --maps run
# answered nothing and said the maps file holds no dlopen flags, the process
# having made one dlopen with each FLAG (local, global); its cells in $output
maps_cell_unknown() {
	local c f n=0
	c=$(subset_case_ending ' (crash|exit)$')
	[ -n "$c" ] || skip "no subset case whose process dies"
	fake_cell "$c" maps 0 '{"findings":[]}'
	echo "symsplit: note: maps holds no dlopen flags: $# dlopened module(s) of unknown flags modelled RTLD_LOCAL" > "$FAKE/sym-maps.err"
	for f in "$@"; do n=$((n + 1)); printf -- '--dlopen /x/%d.so:%s\n' "$n" "$f"; done > "$FAKE/dlopen-args"
	run "$TOP/realworld/agreement" --cells "$FAKE"
}

@test "realworld: agreement: a --maps cell where symsplit said the maps file holds no dlopen flags and the process made an RTLD_GLOBAL one is counted apart, never as agreeing" {
	maps_cell_unknown local global
	assert_line "cell $(basename "$FAKE") maps cannot none"
	run "$TOP/realworld/agreement" "$FAKE"
	assert_line --partial "the mode cannot know, said so"
}

@test "realworld: agreement: a --maps cell without dlopen flags is graded as any other when every dlopen the process made was RTLD_LOCAL (the mode's model is the process's)" {
	maps_cell_unknown local local
	assert_line --regexp "^cell $(basename "$FAKE") maps disagree "
}

@test "realworld: agreement: a cell of a mode given no options, on a process that looked up by name a name symsplit says the allocator replacement lacks, is counted apart (only --dlsym tells), never as agreeing" {
	local c
	c=$(subset_case_ending ' (crash|exit)$')
	[ -n "$c" ] || skip "no subset case whose process dies"
	fake_cell "$c" pid 0 '{"findings":[{"verdict":"COLLISION","symbol":"x","sev":"med","lacks":["pvalloc"]}]}'
	echo '--dlsym pvalloc' > "$FAKE/dlsym-args"
	run "$TOP/realworld/agreement" --cells "$FAKE"
	assert_line "cell $(basename "$FAKE") pid cannot COLLISION"
	# a name it did not look up: graded as any other
	echo '--dlsym PyInit__ctypes' > "$FAKE/dlsym-args"
	run "$TOP/realworld/agreement" --cells "$FAKE"
	assert_line "cell $(basename "$FAKE") pid disagree COLLISION"
	# a mode that was given the --dlsym options: graded as any other
	fake_cell "$c" files 0 '{"findings":[{"verdict":"COLLISION","symbol":"x","sev":"med","lacks":["pvalloc"]}]}'
	echo '--dlsym pvalloc' > "$FAKE/dlsym-args"
	run "$TOP/realworld/agreement" --cells "$FAKE"
	assert_line "cell $(basename "$FAKE") files disagree COLLISION"
}

@test "realworld: agreement prints one cell per case and mode" {
	local c
	run "$TOP/realworld/agreement" --cells $(for c in $(subset_cases); do echo "$RW/$c"; done)
	assert_success
	[ "${#lines[@]}" -eq $(( $(subset_cases | wc -l) * 6 )) ]
}

@test "realworld: nothing was left outside the build directory" {
	local c
	for c in $(subset_cases); do
		grep -qxE 'none|not checked.*' "$RW/$c.leftovers" || fail "$c left: $(cat "$RW/$c.leftovers")"
	done
}


# The preloaded allocator (jemalloc-pvalloc: python3 under LD_PRELOAD of
# jemalloc, then pvalloc, which only glibc defines, and free).
# (python3 takes malloc's and free's addresses: libc's references to those
# two bind python3's canonical PLT entries, whose own slots bind jemalloc.)
@test "realworld: a preloaded replacement is in the record: libc's own calloc and realloc (those the run called), and python3's malloc and free, bind libjemalloc.so.2" {
	needs_cell jemalloc-pvalloc
	local n seen=0
	# Bound lazily: the record holds a reference of libc's only if libc
	# called it before the crash (on a fresh Debian 12 root it never
	# called realloc). Each one there binds jemalloc; at least one is.
	for n in calloc realloc; do
		grep -qE "binding file [^ ]*/libc\.so\.6 \[0\] to [^ ]* \[[0-9]+\]: normal symbol \`$n'" "$(ld jemalloc-pvalloc)" || continue
		seen=$((seen + 1))
		binds jemalloc-pvalloc libc.so.6 "$n" libjemalloc.so.2 || fail "libc's $n reference did not bind jemalloc"
	done
	[ "$seen" -gt 0 ] || fail "the record binds neither libc's calloc nor its realloc"
	for n in malloc free; do
		binds jemalloc-pvalloc python3 "$n" libjemalloc.so.2 || fail "python3's $n reference did not bind jemalloc"
	done
}

@test "realworld: the name only the replaced runtime defines: libc exports pvalloc, libjemalloc.so.2 does not (readelf), and the process died by a signal" {
	needs_cell jemalloc-pvalloc
	local c j s
	c=$(mapped jemalloc-pvalloc 'libc\.so\.6') j=$(mapped jemalloc-pvalloc 'libjemalloc\.so\.2')
	defines_sym "$c" pvalloc || fail "libc does not define pvalloc"
	if defines_sym "$j" pvalloc; then fail "jemalloc defines pvalloc: the case no longer has a name only glibc defines"; fi
	s=$(cat "$RW/jemalloc-pvalloc/status")
	[ "$s" -ge 128 ] || fail "exit $s"
	grep -q "^outcome: crash .*(exit $s)" "$RW/jemalloc-pvalloc/truth"
}

@test "realworld: the lookup by name is in the record: python3 (ctypes' handle of dlopen(NULL)) binds pvalloc to libc.so.6, no relocation of python3 names it (readelf), and run-case gives the modes that take options --dlsym pvalloc" {
	needs_cell jemalloc-pvalloc
	local exe
	binds jemalloc-pvalloc 'python3[.0-9]*' pvalloc libc.so.6 || fail "the record has no lookup of pvalloc bound to libc"
	exe=$(readlink -f /usr/bin/python3)
	if readelf -rW "$exe" | grep -qw pvalloc; then fail "$exe has a relocation naming pvalloc: no lookup by name"; fi
	grep -qx -- '--dlsym pvalloc' "$RW/jemalloc-pvalloc/dlsym-args" || fail "dlsym-args does not hold --dlsym pvalloc"
}

@test "realworld: run-case tells the modes that model the process of its LD_PRELOAD: the files and --trace runs name libjemalloc.so.2" {
	local m
	for m in files trace; do
		grep -q 'libjemalloc\.so\.2' "$RW/jemalloc-pvalloc/sym-$m.txt" || fail "symsplit's $m run does not name the preloaded library"
	done
	grep -q 'LD_PRELOAD=libjemalloc\.so\.2$' "$RW/jemalloc-pvalloc.cmd" || fail "the case's command line does not hold its preload"
}

@test "realworld: run-case refuses --preload without a library, in one line" {
	run "$TOP/realworld/run-case" --symsplit /bin/true --host - --exe /bin/true --preload -- "$BATS_TEST_TMPDIR/run" -- /bin/true
	[ ! -e "$BATS_TEST_TMPDIR/run" ] || fail "run-case made the run directory"
	[ "$status" -eq 2 ]
	assert_output --partial 'usage: run-case'
	[ "${#lines[@]}" -eq 1 ]
}

@test "realworld: a Ctrl-C to run-case's process group stops the symsplit it waits for at once, not after its timeout" {
	# stand-ins: a driver that pauses and says which process group it is in,
	# a symsplit that marks its start and sleeps
	d=$BATS_TEST_TMPDIR
	printf '#!/bin/sh\nread -r _ _ _ _ g _ < /proc/$$/stat\necho "$g" > %s/pgrp\necho "paused $$"\nread -r go < "$2"\n' "$d" > "$d/driver"
	printf '#!/bin/sh\n: > %s/sym-started\nexec sleep 30\n' "$d" > "$d/sym"
	chmod +x "$d/driver" "$d/sym"
	# a group of its own, with SIGINT as a terminal gives it (a job started
	# with & by a shell without job control has it ignored)
	setsid env --default-signal=INT "$TOP/realworld/run-case" --symsplit "$d/sym" --host - --exe "$d/driver" "$d/run" -- "$d/driver" > /dev/null 2>&1 &
	for _ in $(seq 200); do [ -e "$d/sym-started" ] && break; sleep 0.1; done
	[ -e "$d/sym-started" ] || fail "the stand-in symsplit never started"
	read -r g < "$d/pgrp"
	kill -INT -- "-$g"
	for _ in $(seq 100); do pgrep -g "$g" > /dev/null || break; sleep 0.1; done
	left=$(pgrep -g "$g" -a) || true
	[ -z "$left" ] || { pkill -KILL -g "$g"; fail "still running 10 s after the Ctrl-C: $left"; }
}
