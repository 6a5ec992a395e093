#!/usr/bin/env bats
# scope-capture/: each test states one fact about one variant, read from the
# run-time output, from the loader's own account (LD_DEBUG) or from the
# binaries. Verdicts come from scripts/verdict only (through `fact`).
LAB=scope-capture
load helpers

setup_file() {
	load helpers
	lab_setup_file
}

S=$RUN_OUT E=$EVIDENCE_OUT

# bindings ROW: the loader's register_driver binding lines for one variant.
bindings() {
	"$TOP/scripts/row-env" LD_DEBUG=bindings "$(rowdir "$1")/app" 2>&1 >/dev/null |
		"$TOP/scripts/ld-debug" --bindings "register_driver'"
}
# registry_addr FILE ROW A|B: the run-time addresses registry A or B printed.
registry_addr() { row "$1" "$2" | grep -oE "registry $3 @0x[0-9a-fA-F]+" | sed 's/.*@//' | sort -u; }


@test "golden: normalised make scope-capture equals expected/scope-capture.txt" {
	run golden_diff "$S" "$TOP/expected/scope-capture.txt"
	assert_success
}


@test "golden: each row run alone (ROW=<id>, or VARIANT=, its older name) equals its part of the golden" {
	for r in $(table_rows scope-capture); do
		run diff -u <(row "$TOP/expected/scope-capture.txt" "$r") \
			<(make -s -C "$TOP" --no-print-directory scope-capture VARIANT="$r" | "$TOP/scripts/normalise")
		assert_success
	done
}

@test "every row of scope-capture/rows is run, in table order" {
	run grep -oE '^== [^:]+' "$S"
	assert_output "$(printf '== %s\n' $(table_rows scope-capture))"
}

@test "capture: the system provider's register_driver binds to libbundle.so" {
	d=$(rowdir capture)
	run bindings capture
	assert_line --partial "binding file $d/libproviderB.so [0] to $d/libbundle.so [0]: normal symbol \`register_driver' [VERB_1.0]"
}

@test "fixed: the system provider's register_driver binds to libregistryB.so.1" {
	d=$(rowdir fixed)
	run bindings fixed
	assert_line --partial "binding file $d/libproviderB.so [0] to $d/libregistryB.so.1 [0]: normal symbol \`register_driver' [VERB_1.0]"
	refute_line --partial "to $d/libbundle.so [0]"
}

@test "deepbind: the provider's own group is searched first, its import reaches copy B" {
	d=$(rowdir deepbind)
	run bindings deepbind
	assert_line --partial "binding file $d/libproviderB.so [0] to $d/libregistryB.so.1 [0]"
	run row "$E" deepbind
	assert_line --regexp '^  \| LD_DEBUG=scopes: libproviderB.so looks up in scope 0: libproviderB.so libregistryB.so.1 '
}

@test "capture: the global scope (app first) precedes the provider's own group" {
	run row "$E" capture
	assert_line --regexp '^  \| LD_DEBUG=scopes: libproviderB.so looks up in scope 0: app libbundle.so '
	assert_line --regexp '^  \| LD_DEBUG=scopes: libproviderB.so looks up in scope 1: libproviderB.so libregistryB.so.1 '
}

@test "SPLIT rows: registry A and registry B are two different addresses, the split is derived" {
	rows=$(rows_expecting scope-capture SPLIT)
	[ -n "$rows" ] || fail "scope-capture/rows expects no SPLIT row"
	for r in $rows; do
		a=$(registry_addr "$S" "$r" A); b=$(registry_addr "$S" "$r" B)
		[ "$(wc -l <<< "$a")" -eq 1 ] && [ -n "$a" ] || fail "$r: expected one registry A address, got '$a'"
		[ "$(wc -l <<< "$b")" -eq 1 ] && [ -n "$b" ] || fail "$r: expected one registry B address, got '$b'"
		[ "$a" != "$b" ] || fail "$r: registry A and B at the same address $a"
		assert_equal "$(written_addrs "$S" "$r")" "@$a"
		assert_equal "$(fact "$S" "$r" verdict)" SPLIT
	done
}

@test "every consumer's count is the number of registrations into the registry it reads" {
	rows=$(table_rows scope-capture)
	[ -n "$rows" ] || fail "no row in the scope-capture table"
	for r in $rows; do
		# as many consumer lines as the row's expect cell names consumers
		want=$(expect_consumers scope-capture "$r" | tr ',' '\n' | grep -c .)
		run awk -v want="$want" '
			/^\[.* -> .*@0x/ { match($0, /@0x[0-9a-fA-F]+/); w[substr($0, RSTART, RLENGTH)]++ }
			/^\[.* <- .*@0x/ { match($0, /@0x[0-9a-fA-F]+/); last = substr($0, RSTART, RLENGTH) }
			/ sees [0-9]+ device\(s\)/ { n = $0; sub(/.* sees /, "", n); sub(/ .*/, "", n); seen++
				if (n + 0 != w[last] + 0) { print FILENAME ": consumer says " n ", registry " last " received " w[last] + 0; bad = 1 } }
			END { if (seen != want) { print "expected " want " consumer lines, saw " seen; bad = 1 }; exit bad }' <(row "$S" "$r")
		assert_success
	done
}

@test "capture: the NCCL consumer reads copy B, which holds nothing" {
	row "$S" capture | grep -q '^\[registryB / copy B\] get_device_list <- registry B @0x[0-9a-f]* holds 0 device' || fail "copy B was not read empty"
	want=$(expect_consumers scope-capture capture | tr ',' '\n' | sed -n 's/^NCCL-consumer://p')
	[ -n "$want" ] || fail "the capture row's expect cell names no NCCL-consumer count"
	assert_equal "$(count "$S" capture 'NCCL consumer')" "$want"
}

@test "no-split rows with two registries (omnibus, deepbind, fixed): each consumer reads one that was written" {
	checked=0
	for r in $(rows_expecting scope-capture no-split); do
		# one registry (one address for A and B) is the same-soname kind: not this test's
		[ "$(registry_addr "$S" "$r" A)" != "$(registry_addr "$S" "$r" B)" ] || continue
		[ -z "$(comm -13 <(written_addrs "$S" "$r") <(read_addrs "$S" "$r"))" ] || fail "$r: a read of an unwritten registry"
		checked=$((checked + 1))
	done
	[ "$checked" -gt 0 ] || fail "no no-split row has two registries"
}

@test "fixed: copy A keeps get_device_list in .dynsym but not register_driver" {
	run elf_facts "$(rowdir fixed)/libbundle.so"
	assert_line --regexp '^sym get_device_list @@VERB_1.0 '
	refute_line --regexp '^(sym|rel [A-Z_]+) register_driver( |@|$)'
	run elf_facts "$(rowdir capture)/libbundle.so"
	assert_line --regexp '^sym register_driver @@VERB_1.0 '
}

@test "same-soname: one instance, the dlopen answered by the bundled file, no second mapping" {
	d=$(rowdir same-soname)
	[ -e "$d/libregistryB.so.1" ] || fail "the system copy B file is not on disk: the test would prove nothing"
	run registry_addr "$S" same-soname B
	assert_output ''
	run "$TOP/scripts/row-env" LD_DEBUG=files "$d/app"
	assert_equal "$(grep -c 'file=libregistryB.so.1 \[0\];  generating link map' <<< "$output")" 1
	assert_line --regexp "opening file=$d/bundled/libregistryB.so.1 \[0\]; direct_opencount="
	refute_line --partial "calling init: $d/libregistryB.so.1"
}

@test "make scope-capture ROW=nope: unknown row, one line, exit 2" {
	run make -s -C "$TOP" scope-capture ROW=nope
	assert_equal "$status" 2
	assert_equal "${#lines[@]}" 1
	assert_output --partial "unknown row 'nope' (known: $(table_rows scope-capture))"
}


@test "preload rows: LD_PRELOAD puts copy B right after the executable, ahead of copy A" {
	rows=$(rows_with scope-capture preload .)
	[ -n "$rows" ] || skip "scope-capture/rows has no preload row"
	for r in $rows; do
		run row "$E" "$r"
		assert_line --regexp "^  \| LD_DEBUG=scopes: libproviderB.so looks up in scope 0: app $(table_cell scope-capture "$r" preload) libbundle.so "
	done
}

@test "RTLD_GLOBAL rows: the registry is appended to the global scope, after copy A" {
	rows=$(rows_with scope-capture nccl-cflags REGISTRY_GLOBAL)
	[ -n "$rows" ] || skip "scope-capture/rows has no RTLD_GLOBAL row"
	for r in $rows; do
		run row "$E" "$r"
		assert_line --regexp '^  \| LD_DEBUG=scopes: libproviderB.so looks up in scope 0: app libbundle.so .* libregistryB.so.1$'
		assert_line --partial '[nccl-like] dlopen(libregistryB.so.1, RTLD_NOW|RTLD_GLOBAL)'
	done
}
