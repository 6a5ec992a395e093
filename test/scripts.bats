#!/usr/bin/env bats
# The shared scripts on crafted input: the normaliser labels addresses by
# first appearance per row; the verdict is derived from written vs read.
load helpers

norm() { printf '%b' "$1" | "$TOP/scripts/normalise"; }
# verdict TEXT [ARGS...] / verdict_quiet TEXT [ARGS...]: scripts/verdict ARGS
# on TEXT, its output kept / dropped (its stderr kept): called by run, with
# no bash -c around them (a process each).
verdict()       { printf '%b' "$1" | "$TOP/scripts/verdict" "${@:2}"; }
verdict_quiet() { printf '%b' "$1" | "$TOP/scripts/verdict" "${@:2}" > /dev/null; }

@test "normalise: the same address gets the same label, a new one the next label" {
	run norm '== r: x\n[a -> t@0x7f00aa] x\n[b <- t@0x5500bb] y\n[c <- t@0x7f00aa] z\n'
	assert_output $'== r: x\n[a -> t@1] x\n[b <- t@2] y\n[c <- t@1] z'
}

@test "normalise: labels restart in every row" {
	run norm '== r1: x\n[a -> t@0xaaa]\n== r2: y\n[a -> t@0xbbb]\n[b <- t@0xaaa]\n'
	assert_output $'== r1: x\n[a -> t@1]\n== r2: y\n[a -> t@1]\n[b <- t@2]'
}

@test "normalise: case of hex digits does not make two labels; bare 0x values are labelled" {
	run norm '== r: x\n[a -> t@0xAbC] 0xabc\n'
	assert_output $'== r: x\n[a -> t@1] @1'
}

@test "normalise: toolchain lines are dropped, everything else kept" {
	run norm 'toolchain: cc: gcc 12\n== r: x\nplain line\n'
	assert_output $'== r: x\nplain line'
}

@test "verdict: a read of a table that got no write is SPLIT, and the consumer is annotated" {
	run verdict '== r: x\n[w -> t@0x1] n\n[rd <- t@0x2] n\nc: discovered 0 device(s)\n'
	assert_line --index 3 --partial 'DEVICE NOT FOUND -- devices were registered, into another copy'
	assert_line --index 4 'verdict: SPLIT (written t@0x1 != read t@0x2)'
}

@test "verdict: equal addresses are no-split" {
	run verdict '== r: x\n[w -> t@0x1] n\n[rd <- t@0x1] n\nc sees 2 device(s)\n'
	assert_line --index 3 --partial '[OK -- reads the copy the registration landed in]'
	assert_line --index 4 'verdict: no-split (written t@0x1 == read t@0x1)'
}

@test "verdict: no write line is not-loaded" {
	run verdict '== r: x\n[rd <- t@0x1] n\nc: discovered 0 device(s)\n'
	assert_line 'verdict: not-loaded (no register line: nothing registered a device)'
}

@test "verdict: a failed run has no verdict, not a made-up one" {
	run verdict '== r: x\n[run failed: exit 127]\n'
	assert_line 'verdict: run-failed (exit 127): no verdict'
}

@test "verdict: two registries each read after their own write are no-split" {
	run verdict '== r: x\n[a -> A @0x1] n\n[b -> B @0x2] n\n[ra <- A @0x1] n\n[rb <- B @0x2] n\n'
	assert_line 'verdict: no-split (every table read was written: @0x1, @0x2)'
}

@test "verdict: a read of an unwritten table through the copy its reader ships is PARTITION; through another copy, SPLIT" {
	run verdict '== r: x\n[w -> copy=A t@0x1] n\n[rd <- copy=B t@0x2] n\npB sees 0 device(s) (ships copy=B)\n'
	assert_line --index 3 --partial 'DEVICE NOT FOUND -- it read the copy it ships'
	assert_line --index 4 'verdict: PARTITION (written t@0x1 != read t@0x2, read through copy=B, the copy its reader ships)'
	run verdict '== r: x\n[w -> copy=A t@0x1] n\n[rd <- copy=B t@0x2] n\npB sees 0 device(s) (ships copy=A)\n'
	assert_line --index 4 'verdict: SPLIT (written t@0x1 != read t@0x2)'
}

@test "verdict: a read captured into another copy while the copy its reader ships is used by nobody is PARTITION; with that copy in use, SPLIT" {
	run verdict '== r: x\n[w -> copy=A t@0x1] n\n[rd <- copy=B t@0x2] n\npC sees 0 device(s) (ships copy=C)\n'
	assert_line --index 4 'verdict: PARTITION (written t@0x1 != read t@0x2, read through copy=B, captured: copy=C, the copy its reader ships, is used by nobody)'
	run verdict '== r: x\n[w -> copy=C t@0x1] n\n[rd <- copy=B t@0x2] n\npC sees 0 device(s) (ships copy=C)\n'
	assert_line --index 4 'verdict: SPLIT (written t@0x1 != read t@0x2)'
	run verdict '== r: x\n[w -> copy=A t@0x1] n\n[rd <- copy=C t@0x3] n\npD sees 0 device(s) (ships copy=C)\n[rd <- copy=B t@0x2] n\npC sees 0 device(s) (ships copy=C)\n'
	assert_line --index 6 'verdict: SPLIT (written t@0x1 != read t@0x2)'
}

@test "verdict: a program run that printed its proof line and exited 0 after a loader line runs, and quotes the loader; without the proof line it is a loader-error" {
	run verdict '== r: x\n$ ./app\n[app called f in libf.so] 1\n[loader: ERROR: ld.so: object x cannot be preloaded: ignored.]\n[exit 0]\n'
	assert_line --index 5 'verdict: runs (1 run(s) called into their library and exited 0; the loader warned: ERROR: ld.so: object x cannot be preloaded: ignored.)'
	run verdict '== r: x\n$ ./app\n[loader: ./app: error while loading shared libraries: libf.so: cannot open shared object file]\n[exit 127]\n'
	assert_line --index 4 --partial 'verdict: loader-error ('
}

@test "verdict --must-run: fails in one line only when every row that could run failed to run" {
	run verdict_quiet '== r1: x\n[run failed: exit 1]\n== r2: y\n[skipped: cannot run here]\n' --must-run
	assert_failure
	assert_output 'verdict: no row ran: all 1 row(s) that could run here failed to run (the [run failed] lines above)'
	run verdict_quiet '== r1: x\n[run failed: exit 1]\n== r2: y\n[w -> t@0x1]\n[rd <- t@0x1]\n' --must-run
	assert_success
	run verdict_quiet '== r1: x\n[skipped: cannot run here]\n' --must-run
	assert_success
	run verdict_quiet '== r1: x\n[run failed: exit 1]\n'
	assert_success                           # without --must-run: make check's checker judges
}

@test "verdict: a program that ends on the loader's line and a failed exit is loader-error, quoting the loader" {
	run verdict '== r: x\n[host] dlmopen(x)\n[loader: invalid mode: Invalid argument]\n[run failed: exit 1]\n'
	assert_line 'verdict: loader-error (the loader refused: invalid mode: Invalid argument; exit 1)'
	run verdict '== r: x\n[run failed: exit 1]\n'
	assert_line 'verdict: run-failed (exit 1): no verdict'
}

@test "verdict: a run that went on after a loader warning keeps its verdict and quotes the warning" {
	run verdict '== r: x\n[w -> t@0x1] n\n[rd <- t@0x2] n\nc: discovered 0 device(s)\n[loader: warning: copy relocation against non-copyable protected symbol `t'"'"' in `l.so'"'"']\n'
	assert_line 'verdict: SPLIT (written t@0x1 != read t@0x2; the loader warned: warning: copy relocation against non-copyable protected symbol `t'"'"' in `l.so'"'"')'
}

@test "dynamic: an import typed IFUNC in a file marked System V (readelf prints \"<OS specific>: 10\", as for mold's strrchr) is read as one IFUNC import" {
	f="$BATS_TEST_TMPDIR/readelf"
	printf '%s\n' '#!/bin/sh' "cat <<'E'" "Symbol table '.dynsym' contains 2 entries:" \
		'   Num:    Value          Size Type    Bind   Vis      Ndx Name' \
		'     1: 0000000000000000   129 <OS specific>: 10 GLOBAL DEFAULT  UND strrchr@GLIBC_2.2.5 (2)' \
		'     2: 0000000000000000   200 FUNC    GLOBAL DEFAULT  UND printf@GLIBC_2.2.5 (2)' E > "$f"
	chmod +x "$f"
	run env LAB_READELF="$f" "$TOP/scripts/dynamic" app
	assert_output "$(printf 'app\tsym\tstrrchr\t@GLIBC_2.2.5\tIFUNC\tGLOBAL\tDEFAULT\tUND\t129\napp\tsym\tprintf\t@GLIBC_2.2.5\tFUNC\tGLOBAL\tDEFAULT\tUND\t200')"
}

@test "verdict: a link refused for a COPY relocation of protected data is link-error in the linker's words (bfd, gold, lld, mold 1.10 and 2)" {
	for l in "ld.bfd: x.a(x.o): copy relocation against non-copyable protected symbol \`vx_table' in l.so" \
		"ld.gold: error: x.o: cannot make copy relocation for protected symbol 'vx_table', defined in l.so" \
		"mold: error: x.a(x.o):(.text): cannot make copy relocation for protected symbol 'vx_table', defined in l.so; recompile with -fPIC" \
		"mold: error: l.so: cannot create a copy relocation for protected symbol 'vx_table'; recompile with -fPIC" \
		"ld.lld: error: cannot preempt symbol: vx_table"; do
		run bash -c 'printf "== r: x\n[link failed: exit 1] the record:\n[ld] %s\n" "$1" | "$TOP/scripts/verdict" --facts' _ "$l"
		assert_output 'r verdict=link-error consumers='
	done
}

@test "verdict: a link refused under -z nocopyreloc is link-error naming the relocation (bfd x86-64 and aarch64, lld) or the copy (mold 2); gold's internal error names none: run-failed" {
	for l in "ld.bfd: x.a(x.o): relocation R_X86_64_PC32 against symbol \`vx_table' can not be used when making a PDE object; recompile with -fPIE" \
		"ld.bfd: x.a(x.o)(.text+0x8): unresolvable R_AARCH64_ADR_PREL_PG_HI21 relocation against symbol \`vx_table'" \
		"ld.lld: error: unresolvable relocation R_X86_64_PC32 against symbol 'vx_table'; recompile with -fPIC or remove '-z nocopyreloc'"; do
		run bash -c 'printf "== r: x\n[link failed: exit 1] the record:\n[ld] %s\n" "$1" | "$TOP/scripts/verdict"' _ "$l"
		assert_line --regexp "^verdict: link-error \(the linker refused the link: .*R_[A-Z0-9_]+.*vx_table"
	done
	# mold 2 (Debian 13) names the copy it will not make, not a relocation type
	run bash -c 'printf "== r: x\n[link failed: exit 1] the record:\n[ld] %s\n" "$1" | "$TOP/scripts/verdict"' _ "mold: error: -z nocopyreloc: l.so: cannot create a copy relocation for symbol 'vx_table'; recompile with -fPIC"
	assert_line --regexp "^verdict: link-error \(the linker refused the link: cannot create a copy relocation for symbol 'vx_table'"
	# bfd's warning before its refusal names no relocation type: not taken for the reason
	run verdict '== r: x\n[link failed: exit 1]\n[ld] ld.bfd: x.a(x.o): warning: relocation against `vx_table'"'"' in read-only section `.text'"'"'\n[ld] ld.gold: internal error in check_non_pic, at x86_64.cc:3062\n'
	assert_line 'verdict: run-failed (the link failed: exit 1, the linker names no symbol): no verdict'
}

@test "link-map: the members a static link extracted, from GNU ld's and gold's archive-member section (the name on its line or the next) and from lld's input sections" {
	m=$BATS_TEST_TMPDIR/map
	printf 'Archive member included to satisfy reference by file (symbol)\n\nd/liba.a(m.o)  app.o (foo)\nd/libbbbbbbbbbbbbbbbbbbbbbbbbbbbb.a(n.o)\n                              d/liba.a(m.o) (bar)\n\nAs-needed library included to satisfy reference by file (symbol)\n\nlibc.so.6  d/liba.a(m.o) (printf)\n' > "$m"
	run "$TOP/scripts/link-map" "$m"
	assert_success
	assert_output "$(printf 'member\td/liba.a(m.o)\tapp.o\tfoo\nmember\td/libbbbbbbbbbbbbbbbbbbbbbbbbbbbb.a(n.o)\td/liba.a(m.o)\tbar')"
	printf '             VMA              LMA     Size Align Out     In      Symbol\n            1a60             1a60       31     1         d/liba.a(m.o):(.text)\n            1a90             1a90        8     1         d/app.o:(.text)\n            2b20             2b20       10    16         d/liba.a(m.o):(.data)\n' > "$m"
	run "$TOP/scripts/link-map" "$m"
	assert_output "$(printf 'member\td/liba.a(m.o)\t-\t-')"
	run "$TOP/scripts/link-map" "$BATS_TEST_TMPDIR/no-map"
	assert_failure 2
	assert_output "link-map: cannot read $BATS_TEST_TMPDIR/no-map"
}

@test "verdict --facts: one line per row with consumers and their counts" {
	run verdict '== r1: x\n[w -> t@0x1]\n[rd <- t@0x2]\ncollective: discovered 0 device(s)\nNCCL consumer sees 0 device(s)\n== r2: y\n[w -> t@0x1]\n[rd <- t@0x1]\n' --facts
	assert_output $'r1 verdict=SPLIT consumers=collective:0,NCCL-consumer:0\nr2 verdict=no-split consumers='
}

@test "verdict: evidence lines stay under their row, after the verdict" {
	run verdict '== r: x\n[w -> t@0x1]\n  | fact\n[rd <- t@0x1]\n'
	assert_output $'== r: x\n[w -> t@0x1]\n[rd <- t@0x1]\nverdict: no-split (written t@0x1 == read t@0x1)\n  | fact'
}

@test "verdict: a call that ran another copy's same-named definition of another size is COLLISION" {
	run verdict '== r: x\n[define f copy=X fn@0x10 size=76]\n[define f copy=Y fn@0x20 size=133]\n[call f from copy=X ran copy=X fn@0x10]\n[call f from copy=Y ran copy=X fn@0x10]\n'
	assert_line 'verdict: COLLISION (copy=Y'"'"'s call to f ran copy=X'"'"'s definition fn@0x10 (76 bytes), its own is 133 bytes)'
}

@test "verdict: calls that each ran their caller's own definition are no-collision" {
	run verdict '== r: x\n[define f copy=X fn@0x10 size=76]\n[define f copy=Y fn@0x20 size=133]\n[call f from copy=X ran copy=X fn@0x10]\n[call f from copy=Y ran copy=Y fn@0x20]\n' --facts
	assert_output 'r verdict=no-collision consumers='
}

@test "verdict: a guard refusal is refused, not run-failed, and keeps the consumers seen before it" {
	run verdict '== r: x\n[register -> copy=A table@0x1]\n[get_list <- copy=A table@0x1]\npluginA sees 1 device(s)\n[guard copy=B] refusing: two copies\n[run failed: exit 134]\n' --facts
	assert_output 'r verdict=refused consumers=pluginA:1'
}

# archive-order's clause: expected device (compiled in) versus opened device
# (what the code reached at run time says), or the linker's captured refusal.
ao_built() { printf '[%s built against stack=%s] expects logical device 0 = %s\n' "$@"; }
ao_ran()   { printf '[%s ran stack=%s at vx_open_device@0x%s] opened logical device 0 = %s\n' "$@"; }

@test "verdict: a collective that opened another device than it expects is misdirected, named with the stack it ran" {
	run verdict "== r: x\n$(ao_built ca vendor 'nic0')\n$(ao_ran ca vendor 11 'nic0')\n$(ao_built cb bundled 'nic1')\n$(ao_ran cb vendor 11 'nic0')\n"
	assert_line --index 4 --partial '*** MISDIRECTED -- built against stack=bundled, ran stack=vendor'"'"'s code ***'
	assert_line --index 2 --partial '[OK -- opened the device it expects]'
	assert_line --index 5 'verdict: misdirected (cb expects nic1, opened nic0)'
	run bash -c "printf '%s\n' '== r: x' \"\$1\" \"\$2\" | '$TOP/scripts/verdict' --facts" _ "$(ao_built cb bundled nic1)" "$(ao_ran cb vendor 11 nic0)"
	assert_output 'r verdict=misdirected consumers=cb:vendor'
}

@test "verdict: every collective opening the device it expects is no-split, also re-derived from an annotated golden" {
	run bash -c "printf '%s\n' '== r: x' \"\$1\" \"\$2\" | '$TOP/scripts/verdict' | '$TOP/scripts/verdict' --facts" _ "$(ao_built ca vendor nic0)" "$(ao_ran ca vendor 11 nic0)"
	assert_output 'r verdict=no-split consumers='
}

@test "verdict: a failed link whose record names a multiple definition is link-error (bfd, gold, lld and mold wording)" {
	run verdict '== r: x\n[link failed: exit 1] the record:\n[ld] (.text+0x0): multiple definition of `vx_open_device'"'"'; a.o: first defined here\n'
	assert_line 'verdict: link-error (the linker refused the link: vx_open_device defined twice)'
	run verdict '== r: x\n[link failed: exit 1]\n[ld] ld.gold: error: b.a(m.o): multiple definition of '"'"'vx_open_device'"'"'\n'
	assert_line 'verdict: link-error (the linker refused the link: vx_open_device defined twice)'
	run verdict '== r: x\n[link failed: exit 1]\n[ld] ld.lld: error: duplicate symbol: vx_open_device\n'
	assert_line 'verdict: link-error (the linker refused the link: vx_open_device defined twice)'
	# mold names the two members before the symbol
	run verdict '== r: x\n[link failed: exit 1]\n[ld] mold: error: duplicate symbol: b.a(m.o): a.a(n.o): vx_open_device\n'
	assert_line 'verdict: link-error (the linker refused the link: vx_open_device defined twice)'
}

@test "verdict: a PIE link refused for a PC-relative reference to a library's data (-z nocopyreloc) is link-error in the linker's words (gold, lld, mold)" {
	for l in "ld.gold: error: x.o: requires dynamic R_X86_64_PC32 reloc against 'vx_table' which may overflow at runtime; recompile with -fPIC" \
		"ld.lld: error: unresolvable relocation R_X86_64_PC32 against symbol 'vx_table'; recompile with -fPIC or remove '-z nocopyreloc'" \
		"mold: error: x.a(x.o):(.text): R_X86_64_PC32 relocation at offset 0x6 against symbol \`vx_table' can not be used; recompile with -fPIC"; do
		run bash -c 'printf "== r: x\n[link failed: exit 1] the record:\n[ld] %s\n" "$1" | "$TOP/scripts/verdict" --facts' _ "$l"
		assert_output 'r verdict=link-error consumers='
	done
}

@test "verdict: a failed link on an undefined reference is link-error naming it (bfd and lld wording)" {
	run verdict '== r: x\n[link failed: exit 1]\n[ld] collective.c:(.text+0x2): undefined reference to `vx_abi_bundled'"'"'\n'
	assert_line 'verdict: link-error (the linker refused the link: vx_abi_bundled undefined)'
	run verdict '== r: x\n[link failed: exit 1]\n[ld] ld.lld: error: undefined symbol: vx_abi_bundled\n'
	assert_line 'verdict: link-error (the linker refused the link: vx_abi_bundled undefined)'
}

@test "verdict: a failed link whose record names no symbol is run-failed, not link-error" {
	run verdict '== r: x\n[link failed: exit 1]\n[ld] ld.bfd: cannot find -lnope\n'
	assert_line 'verdict: run-failed (the link failed: exit 1, the linker names no symbol): no verdict'
}

@test "verdict: a run the loader refused is loader-error, counted per run" {
	run verdict '== r: x\n$ ./app\napp: ok\n[exit 0]\n$ ../app\n[loader: ../app: error while loading shared libraries: ./lib.so: cannot open shared object file]\n[exit 127]\n'
	assert_line 'verdict: loader-error (the loader refused 1 of 2 run(s): 1 message line(s))'
}

@test "verdict: runs when every run exits 0 after its proof line; exit-nonzero when one fails without a loader line" {
	p='[app called f in libf.so] f() = 1\n'
	run bash -c "printf '== a: x\n$p[exit 0]\n$p[exit 0]\n== b: y\n$p[exit 0]\n[exit 3]\n== c: z\n[skipped: no namespace]\n' | '$TOP/scripts/verdict' --facts"
	assert_output $'a verdict=runs consumers=\nb verdict=exit-nonzero consumers=\nc verdict=skipped consumers='
}

@test "verdict: a run that exits 0 without its proof line, or whose call ran in the program itself, is unproven" {
	run verdict '== a: x\n[app called f in libf.so] 1\n[exit 0]\n[exit 0]\n== b: y\n[app called f in app] 1\n[exit 0]\n' --facts
	assert_output $'a verdict=unproven consumers=\nb verdict=unproven consumers='
	run verdict '== a: x\n[exit 0]\n'
	assert_line 'verdict: unproven (1 of 1 run(s) exited 0 with no line that the program called into a library)'
}

@test "verdict: a loader line counts for the run it precedes, not for the next one" {
	run verdict '== r: x\n[loader: v not found]\n[exit 1]\n[exit 0]\n'
	assert_line 'verdict: loader-error (the loader refused 1 of 2 run(s): 1 message line(s))'
	run verdict '== r: x\n[app called f in libf.so] 1\n[exit 0]\n' --facts
	assert_output 'r verdict=runs consumers='
}

# bt_class NAME SO...: survey/bound-twice's class of NAME, defined by each SO
bt_class() {
	python3 -B -c 'import importlib.machinery as m, sys
bt = m.SourceFileLoader("bt", sys.argv[1]).load_module()
print(bt.classify(sys.argv[2], sys.argv[3:], "", set()))' "$TOP/survey/bound-twice" "$@"
}

@test "bound-twice: two weak C definitions of other sizes are other code, not vague linkage; of one size, and C++ names, they are" {
	local d=$BATS_TEST_TMPDIR
	# a: the short default; b: another implementation (a loop: another size)
	printf '%s\n' '__attribute__((weak)) int fill(void **b, int n) { return n; }' \
		'__attribute__((weak)) int _Z4fillPPvi(void **b, int n) { return n; }' \
		'__attribute__((weak)) int same(int n) { return n + 1; }' > "$d/a.c"
	printf '%s\n' '__attribute__((weak)) int fill(void **b, int n) { int i; for (i = 0; i < n; i++) b[i] = b; return i; }' \
		'__attribute__((weak)) int _Z4fillPPvi(void **b, int n) { int i; for (i = 0; i < n; i++) b[i] = b; return i; }' \
		'__attribute__((weak)) int same(int n) { return n + 1; }' > "$d/b.c"
	local f
	for f in a b; do cc -O2 -shared -fPIC -o "$d/lib$f.so" "$d/$f.c" || fail "cc $f.c"; done
	run bt_class fill "$d/liba.so" "$d/libb.so"
	assert_output other
	run bt_class same "$d/liba.so" "$d/libb.so"
	assert_output inline
	run bt_class _Z4fillPPvi "$d/liba.so" "$d/libb.so"
	assert_output inline
}

@test "deps: nothing to do for installed packages" {
	run "$TOP/scripts/deps" coreutils
	assert_success
	assert_output ''
}

@test "deps: an alternative the archive does not have gives way to the next one" {
	run "$TOP/scripts/deps" 'no-such-package-xyz|coreutils'
	assert_success
	assert_output ''
}

@test "deps: of two alternatives neither of which exists, the first is named as missing" {
	run_unprivileged "$TOP/scripts/deps" 'no-such-package-xyz|no-such-package-abc' coreutils
	assert_failure 3
	assert_output --partial 'missing Debian packages: no-such-package-xyz -- run as root: apt-get install'
}

@test "deps: a package asked twice (an alternative resolving to one also named) is installed, or named, once" {
	run_unprivileged "$TOP/scripts/deps" 'no-such-package-xyz|no-such-package-abc' no-such-package-xyz
	assert_failure 3
	assert_output "deps: missing Debian packages: no-such-package-xyz -- run as root: apt-get install -y --no-install-recommends no-such-package-xyz"
}

@test "normalise: a library's release tag in a symbol name becomes a label, the ABI number stays" {
	run norm '== r: x\n[p -> rxe-lab rdmacore44_0_verbs_register_driver_34@0x1]\n  | rxe-lab symtab: rdmacore56_1_verbs_register_driver_34\n'
	assert_output $'== r: x\n[p -> rxe-lab rdmacore<ver>_verbs_register_driver_34@1]\n  | rxe-lab symtab: rdmacore<ver>_verbs_register_driver_34'
}

@test "normalise: a content-hashed SONAME loses its hash (another compiler, another hash), not its directory" {
	run norm '== r: x\n[maps] r-xp A/librt-476d4378.so.1\n[plt] points to @0x10 in B/librt-df8d6904.so.1\n[maps] r-xp libdeadbeef.so\n'
	assert_output $'== r: x\n[maps] r-xp A/librt-<hash>.so.1\n[plt] points to @1 in B/librt-<hash>.so.1\n[maps] r-xp libdeadbeef.so'
}

@test "evidence: relocation types are counted by suffix, whatever the architecture prefix" {
	# A readelf that lists every module as an aarch64 one would: the own-export
	# count must not depend on R_X86_64_ names. Like readelf, it heads each
	# file's lines with "File: NAME" when it is given more than one.
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cat > "$BATS_TEST_TMPDIR/bin/readelf" <<'EOS'
#!/bin/sh
n=0; for a; do case $a in -*) ;; *) n=$((n + 1)) ;; esac; done
for a; do
case $a in -*) continue ;; esac
[ $n -gt 1 ] && printf '\nFile: %s\n' "$a"
cat <<'EOT'
Relocation section '.rela.plt' at offset 0x500 contains 2 entries:
    Offset             Info             Type               Symbol's Value  Symbol's Name + Addend
000000011fe8  000300000402 R_AARCH64_JUMP_SLOT    0000000000000754 vx_get + 0
000000011ff0  000400000401 R_AARCH64_GLOB_DAT     0000000000000760 vx_table + 0
000000011ff8  000500000400 R_AARCH64_COPY         0000000000000770 vx_copy + 0

Symbol table '.dynsym' contains 3 entries:
   Num:    Value          Size Type    Bind   Vis      Ndx Name
     3: 0000000000000754     8 FUNC    GLOBAL DEFAULT   12 vx_get
     4: 0000000000000760     8 OBJECT  GLOBAL DEFAULT   13 vx_table
     5: 0000000000000770     8 OBJECT  GLOBAL DEFAULT   13 vx_copy
EOT
done
EOS
	chmod +x "$BATS_TEST_TMPDIR/bin/readelf"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" run "$TOP/scripts/evidence" vx_ /bin/true libfake.so
	assert_line '  | libfake.so: own-export relocations=JUMP_SLOT:1 GLOB_DAT:1'
	assert_line '  | libfake.so: COPY relocations=vx_copy'
}

@test "toolchain: a missing compiler is named in one line" {
	run make -s -C "$TOP" matrix CC=no-such-cc-xyz
	assert_equal "$status" 2
	assert_equal "${#lines[@]}" 1
	assert_output --partial "toolchain: compiler 'no-such-cc-xyz' not found (set CC=, e.g. CC=gcc or CC=clang)"
}

@test "toolchain: an unusable linker is named in one line" {
	run make -s -C "$TOP" matrix LD=no-such-ld
	assert_equal "$status" 2
	assert_equal "${#lines[@]}" 1
	assert_output --partial "toolchain: linker 'no-such-ld' cannot be used"
}

@test "verdict: a row that cannot run here is skipped, with no verdict" {
	run verdict '== r: x\n[skipped: cannot run here]\n'
	assert_line 'verdict: skipped (cannot run here): no verdict'
}

# table TEXT: a rows table in a file, for rows2mk.
table() { printf '%b' "$1" > "$BATS_TEST_TMPDIR/rows"; echo "$BATS_TEST_TMPDIR/rows"; }

@test "rows2mk: a '*' row gives defaults that blank cells and missing set keys take; '-' is empty" {
	run "$TOP/scripts/rows2mk" lab "$(table '# id | a | set | expect | what\n* | A0 | k=K0; j=J0 | |\nr1 | | k=K1 | no-split | one\nr2 | - | j=- | SPLIT x:0 | two\n')"
	assert_success
	assert_line 'lab.r1.a := A0'
	assert_line 'lab.r1.k := K1'
	assert_line 'lab.r1.j := J0'
	assert_line 'lab.r2.a := '
	assert_line 'lab.r2.j := '
	assert_line 'lab.r2.k := K0'
	assert_line 'lab.r2.expect := SPLIT x:0'
	assert_line 'lab.rows := r1 r2'
}

@test "rows2mk: a table make cannot read exactly is an error naming the line" {
	for t in '# id | a\nr1 | x | y\n' 'r1 | x\n' '# id | a\nr1 | x\nr1 | y\n' '# id | set\nr1 | novalue\n'; do
		run "$TOP/scripts/rows2mk" lab "$(table "$t")"
		assert_equal "$status" 2
		assert_output --regexp '^rows2mk: .*rows:[0-9]+: '
	done
}

@test "rows2mk --words: one assignment a word, make's special characters escaped" {
	run "$TOP/scripts/rows2mk" --words lab "$(table '# id | a | what\nr1 | $ORIGIN #x | w w\n')"
	assert_success
	assert_line "$(printf 'lab.r1.a\037:=\037$$ORIGIN\037\\#x')"
}

@test "rows2mk.awk batch: every table of the tree in one run reads as each does alone, its name first" {
	cd "$TOP"
	tables=$(ls -d */rows */addons */cases)
	[ "$(echo $tables | wc -w)" -ge 8 ] || fail "too few tables: $tables"
	awk -F'|' -v batch=1 -f scripts/rows2mk.awk $tables > "$BATS_TEST_TMPDIR/batch"
	for t in $tables; do
		scripts/rows2mk --words lab "$t" | sed 's/^lab//' > "$BATS_TEST_TMPDIR/alone"
		awk -v t="$t" -F'\037' '$1 == t { sub(/^[^\037]*\037/, ""); print }' "$BATS_TEST_TMPDIR/batch" > "$BATS_TEST_TMPDIR/from-batch"
		[ -s "$BATS_TEST_TMPDIR/alone" ] || fail "$t: nothing read"
		cmp -s "$BATS_TEST_TMPDIR/alone" "$BATS_TEST_TMPDIR/from-batch" || fail "$t reads differently in the batch"
	done
}

# check EXPECT: scripts/check on the facts in $facts against EXPECT lines.
check() { printf '%b' "$1" > "$BATS_TEST_TMPDIR/expect"; printf '%b' "$facts" | "$TOP/scripts/check" "$BATS_TEST_TMPDIR/expect"; }

@test "check: a row meeting its cell passes; a different count fails naming the row" {
	facts='l:r verdict=SPLIT consumers=a:0,b:2\n'
	run check 'l:r\tSPLIT a:0,b:2\twhat\n'
	assert_success
	assert_line 'check: 1 row(s) met their expectation'
	run check 'l:r\tSPLIT a:0,b:1\twhat\n'
	assert_failure
	assert_line 'check: row l:r broke its expectation: expected SPLIT a:0,b:1, observed SPLIT a:0,b:2'
}

@test "check: an empty expect cell, a missing row, or no row at all fails" {
	facts='l:r verdict=SPLIT consumers=a:0\n'
	run check 'l:r\t\twhat\n'
	assert_failure
	assert_line 'check: row l:r broke its expectation: its expect cell is empty'
	run check 'l:other\tno-split\twhat\n'
	assert_failure
	assert_line --partial 'check: row l:other broke its expectation: expected no-split, observed missing'
	facts=''
	run check ''
	assert_failure
	assert_line 'check: no row was checked'
}

@test "check: an expect cell cut down to its verdict fails a row whose run printed consumer counts" {
	# A row of a table whose cell states counts, and its run as the golden
	# keeps it: the full cell passes, the cell without its counts must not.
	for lab in $(labs); do
		[ -f "$TOP/expected/$lab.txt" ] || continue
		for r in $(table_rows "$lab"); do
			[ -n "$(expect_consumers "$lab" "$r")" ] || continue
			facts=$("$TOP/scripts/verdict" --facts < "$TOP/expected/$lab.txt" | awk -v id="$r" '$1 == id')
			[ -n "$facts" ] && break 2
		done
	done
	[ -n "$facts" ] || fail "nothing to check: no row with counts in its cell and in a golden"
	cell=$(table_cell "$lab" "$r" expect)
	run check "$r\t$cell\twhat\n"
	assert_success
	run check "$r\t$(expect_verdict "$lab" "$r")\twhat\n"
	assert_failure
	assert_line --partial "check: row $r broke its expectation: expected $(expect_verdict "$lab" "$r"), observed"
	assert_line --partial 'the run printed consumer counts: the cell must state them'
}

@test "check: a skipped row is named and not counted as met; all skipped fails" {
	facts='l:r verdict=skipped consumers=\nl:s verdict=no-split consumers=\n'
	run check 'l:r\tSPLIT\tw\nl:s\tno-split\tw\n'
	assert_success
	assert_line 'check: 1 row(s) could not run here: l:r'
	facts='l:r verdict=skipped consumers=\n'
	run check 'l:r\tSPLIT\tw\n'
	assert_failure
}

@test "helpers: the cached table reader reads every table as rows2mk does, and rereads an edited table" {
	# rows2mk's reading once a lab, each row's cell picked from it by sed
	for lab in $(labs) survey; do
		_table_file "$lab"
		"$TOP/scripts/rows2mk" "$lab" "$_tf" > "$BATS_TEST_TMPDIR/$lab.mk" || fail "rows2mk $lab failed"
		for r in $(sed -n "s/^$lab\\.rows := *//p" "$BATS_TEST_TMPDIR/$lab.mk"); do
			want=$(sed -n "s/^$lab\\.$r\\.expect := *//p" "$BATS_TEST_TMPDIR/$lab.mk")
			assert_equal "$lab $r $(table_cell "$lab" "$r" expect)" "$lab $r $want"
		done
	done
	mkdir -p "$BATS_TEST_TMPDIR/t/matrix" "$BATS_TEST_TMPDIR/t/scripts"
	cp "$TOP/matrix/rows" "$BATS_TEST_TMPDIR/t/matrix/rows"
	cp "$TOP/scripts/rows2mk" "$TOP/scripts/rows2mk.awk" "$BATS_TEST_TMPDIR/t/scripts/"
	r=$(TOP="$BATS_TEST_TMPDIR/t" table_rows matrix | awk '{ print $1 }')
	TOP="$BATS_TEST_TMPDIR/t" table_cell matrix "$r" expect > /dev/null
	sleep 0.01; sed -i "s/^$r  *|\\([^|]*\\)|[^|]*|/$r |\\1| SPLIT x:9 |/" "$BATS_TEST_TMPDIR/t/matrix/rows"
	assert_equal "$(TOP="$BATS_TEST_TMPDIR/t" table_cell matrix "$r" expect)" "SPLIT x:9"
}

@test "run_unprivileged: nobody runs a script of a tree that sits under a 0700 directory, and nothing of it stays" {
	[ "$(id -u)" = 0 ] || skip "needs root to run a command as nobody (setpriv)"
	local top=$TOP
	mkdir -m 700 "$BATS_TEST_TMPDIR/private"
	mkdir "$BATS_TEST_TMPDIR/private/src" && cp -R "$top/scripts" "$BATS_TEST_TMPDIR/private/src/"
	TOP=$BATS_TEST_TMPDIR/private/src
	# a TMPDIR of this test's own (nobody can enter bats' 0700 ones), so a
	# concurrent run's directory is not taken for one this run left
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/split-state-lab-test.XXXXXX") && chmod 755 "$tmp"
	TMPDIR=$tmp run_unprivileged "$TOP/scripts/deps" 'no-such-package-xyz|no-such-package-abc'
	TOP=$top
	left=$(ls -A "$tmp"); rm -rf "$tmp"
	assert_failure 3
	assert_output --partial 'deps: missing Debian packages: no-such-package-xyz -- run as root:'
	assert_equal "$left" ''
}

@test "heartbeat: the beat and its sleep end with the command: nothing it started outlives it" {
	# heartbeat leads a session of its own; the command notes the session's id
	setsid "$TOP/scripts/heartbeat" beat sh -c 'ps -o sid= -p $$ > "$1"' _ "$BATS_TEST_TMPDIR/sid" &
	wait $!
	sid=$(tr -d ' ' < "$BATS_TEST_TMPDIR/sid")
	[ -n "$sid" ] || fail "the command did not run"
	sleep 0.2
	# what is left of the session, but for processes that have ended (a
	# container's first process may not reap the ones it inherits)
	run sh -c 'ps -o stat=,args= -s "$1" | grep -v "^Z"' _ "$sid"
	assert_output ''
}

@test "build-dir resolve answers as realpath -m does: links, \"..\" after a link, components not there, /proc/self/cwd" {
	t=$BATS_TEST_TMPDIR
	mkdir -p "$t/tree" "$t/home" "$t/w/a/d" "$t/w/e" "$t/w/u"
	ln -s a/d "$t/w/link"; ln -s "$t/w/link" "$t/w/chain"; ln -s ../.. "$t/w/u/up"
	# (each B new, or an empty directory: resolve refuses one holding files)
	for b in "$t/w/new" "$t/w/new/../e/x" "$t/w/link/sub" "$t/w/link/../b2" "$t/w/chain/../../w/e" \
		"$t/w//./a/d/" new/x ../w/link/n /proc/self/cwd/n "$t/w/u/up/w/new/../../w/e" "$t/w/u/up/w/chain"; do
		want=$(cd "$t/w" && realpath -m -- "$b")
		run env -C "$t/w" HOME="$t/home" "$TOP/mk/build-dir" resolve "$b" "$t/tree"
		assert_success
		assert_output "$want"
	done
}
