#!/usr/bin/env bats
# archive-order/: each test states one fact, read from the run-time output,
# from the linker's own record (--trace-symbol lines, its error message) or
# from the archives. Expectations come from archive-order/rows only; verdicts
# from scripts/verdict only (through `fact`).
load helpers

setup_file() {
	load helpers
	lab_outputs ao archive-order
	# Read once per file, the table and the derived facts are asked often.
	"$TOP/scripts/verdict" --facts < "$(out_file ao)" > "$BATS_FILE_TMPDIR/facts"
	for v in misdirected no-split link-error; do rows_expecting archive-order "$v" > "$BATS_FILE_TMPDIR/rows.$v"; done
}

# The run, the run with its evidence, the rows' build directories (variables:
# a function's $(...) is a process, and tests ask them in loops).
O=$BATS_FILE_TMPDIR/ao.out E=$BATS_FILE_TMPDIR/ao-evidence.out D=$BUILD/archive-order
clash() { "$TOP/archive-order/archive-clash" "$@"; }
# ran_addrs ROW: the run-time address of the vx_open_device each collective called, one a line.
ran_addrs() {
	local l s ran='^\[[^ ]+ ran stack=' at='@0x[0-9a-fA-F]+'
	_row_lines "$O" "$1" || { row "$O" "$1" | grep -E "$ran" | grep -oE "$at"; return; }
	for l in "${_rl[@]}"; do
		[[ $l =~ $ran ]] || continue
		s=$l; while [[ $s =~ $at ]]; do printf '%s\n' "${BASH_REMATCH[0]}"; s=${s#*"${BASH_REMATCH[0]}"}; done
	done
}
# evidence ROW PREFIX: the row's evidence lines holding PREFIX, "  | " cut;
# _evidence puts them in the array _ev, with no process.
_evidence() {
	local l
	_ev=()
	_row_lines "$E" "$1" || { mapfile -t _ev < <(evidence_lines "$E" "$1" | grep -F -- "$2"); return 0; }
	for l in "${_rl[@]}"; do [[ $l != '  | '*"$2"* ]] || _ev+=("${l#'  | '}"); done
}
evidence() { _evidence "$@"; [ ${#_ev[@]} -eq 0 ] || printf '%s\n' "${_ev[@]}"; }
# expecting VERDICT: the rows whose expect cell names VERDICT (rows_expecting, cached).
expecting() { local r; while IFS= read -r r; do printf '%s\n' "$r"; done < "$BATS_FILE_TMPDIR/rows.$1"; }
# derived ROW KEY: a field of the row's `scripts/verdict --facts` line (cached).
derived() { facts_field "$BATS_FILE_TMPDIR/facts" "$1" "$2"; }
# victims ROW: the collectives the verdict found misdirected.
victims() { local c v; v=$(derived "$1" consumers); local IFS=,; for c in $v; do [ -z "${c%%:*}" ] || printf '%s\n' "${c%%:*}"; done; }

@test "golden: normalised make archive-order equals expected/archive-order.txt" {
	run golden_diff "$O" "$TOP/expected/archive-order.txt"
	assert_success
}

@test "every row of the table is there, in order" {
	run grep -oE '^== [^:]+' "$O"
	assert_output "$(printf '== %s\n' $(table_rows archive-order))"
}

@test "every row's derived verdict and victims are its expect cell" {
	# the expect cells, read through the table reader make uses (helpers' table_cell)
	expected=$(for r in $(table_rows archive-order); do echo "$r $(table_cell archive-order "$r" expect)"; done | awk '{ print $1, $2, $3 }')
	[ "$(echo "$expected" | wc -l)" -eq "$(table_rows archive-order | wc -w)" ]
	assert_equal "$(awk '{ sub(/^verdict=/, "", $2); sub(/^consumers=/, "", $3); print $1, $2, $3 }' "$BATS_FILE_TMPDIR/facts")" "$expected"
}

@test "misdirected rows: both collectives called one vx_open_device, at one run-time address" {
	rows=$(expecting misdirected); [ -n "$rows" ]
	for r in $rows; do
		run ran_addrs "$r"
		assert_equal "$r $(echo "$output" | wc -l) $(echo "$output" | sort -u | wc -l)" "$r 2 1"
	done
}

@test "no-split rows: two live copies, each collective called its own stack's function at its own address" {
	rows=$(expecting no-split); [ -n "$rows" ]
	for r in $rows; do
		run ran_addrs "$r"
		assert_equal "$r $(echo "$output" | sort -u | wc -l)" "$r 2"
	done
}

@test "misdirected rows: the linker's trace names one definition of vx_open_device, or two of which one is weak; and the victim's reference" {
	list=$(expecting misdirected)
	[ -n "$list" ] || fail "nothing to check: expecting misdirected"
	for r in $list; do
		defs=$(evidence "$r" 'trace ' | sed -n 's/^trace \(.*\): vx_open_device=definition$/\1/p')
		if [ "$(wc -l <<< "$defs")" -ne 1 ]; then
			# two in a link that succeeded: not both strong (nm W/V is weak)
			assert_equal "$r $(wc -l <<< "$defs")" "$r 2"
			weak=; for d in $defs; do evidence "$r" "nm $d: vx_open_device=" | grep -qE '=[WV]$' && weak=1; done
			[ -n "${weak-}" ] || fail "$r: two strong definitions traced in a link that succeeded"
		fi
		for v in $(victims "$r"); do
			evidence "$r" "trace lib$v.a($v.o): vx_open_device=reference" | grep -q . || fail "$r: no trace of $v's reference"
		done
	done
}

@test "link-error rows: the linker's own message is the result; no program, and make went on" {
	rows=$(expecting link-error); [ -n "$rows" ]
	for r in $rows; do
		row "$O" "$r" | grep -qE "^\[ld\] .*(multiple definition of|undefined reference to) .vx_[a-z_]+'" || fail "$r: no linker message"
		[ ! -e "$D/$r/app" ] || fail "$r: an app was linked"
		grep -qx '\[link exit [1-9][0-9]*\]' "$D/$r/link.log" || fail "$r: link.log records no failure"
	done
}

@test "explicit-error: collective_b's ABI check pulled the bundled member, vx_open_device came with it" {
	run evidence explicit-error 'libverbs_bundled.a('
	assert_line --regexp '^trace libverbs_bundled\.a\([^)]*\): vx_abi_bundled=definition$'
	assert_line --regexp '^nm libverbs_bundled\.a\(([^)]*)\): vx_open_device=T$'
	m1=$(echo "$output" | sed -n 's/^trace libverbs_bundled\.a(\([^)]*\)): vx_abi_bundled=definition$/\1/p')
	m2=$(echo "$output" | sed -n 's/^nm libverbs_bundled\.a(\([^)]*\)): vx_open_device=T$/\1/p')
	assert_equal "$m1" "$m2"
}

@test "collision: the bundled member that defines vx_open_device is never pulled, its ABI member is" {
	run evidence collision 'libverbs_bundled.a('
	assert_line --regexp '^trace libverbs_bundled\.a\([^)]*\): vx_abi_bundled=definition$'
	assert_line --regexp '^nm libverbs_bundled\.a\([^)]*\): vx_open_device=T$'
	refute_line --regexp '^trace .*: vx_open_device=definition$'
}

@test "nofix-visibility: the stacks' vx_open_device is HIDDEN in the archive, and still misdirected" {
	run readelf -sW "$D/nofix-visibility/libverbs_bundled.a"
	assert_output --regexp 'GLOBAL +HIDDEN +[0-9]+ vx_open_device'
	assert_equal "$(derived nofix-visibility verdict)" "$(expect_verdict archive-order nofix-visibility)"
}

@test "nofix-localize: the never-pulled member's vx_open_device is local (t)" {
	run evidence nofix-localize 'nm libverbs_bundled.a('
	assert_line --regexp ': vx_open_device=t$'
}

@test "fix-redefine: collective_b references bundled_vx_open_device, the bundled member defines it" {
	run evidence fix-redefine 'trace '
	assert_line 'trace libcollective_b.a(collective_b.o): bundled_vx_open_device=reference'
	assert_line --regexp '^trace libverbs_bundled\.a\([^)]*\): bundled_vx_open_device=definition$'
}

@test "vendored fixes: no archive defines vx_open_device globally any more" {
	list=$(expecting no-split)
	[ -n "$list" ] || fail "nothing to check: expecting no-split"
	for r in $list; do
		[ "$(table_cell archive-order "$r" layout)" = vendored ] || continue
		run evidence "$r" 'nm '
		refute_line --regexp ': vx_open_device=T$'
		assert_line --regexp ': vx_open_device=t$'
		checked=$((${checked:-0} + 1))
	done
	[ "${checked:-0}" -gt 0 ] || fail "no vendored no-split row to check"
}

@test "archive-clash flags every reference the run found misdirected, naming the victim" {
	list=$(expecting misdirected)
	[ -n "$list" ] || fail "nothing to check: expecting misdirected"
	for r in $list; do
		for v in $(victims "$r"); do
			evidence "$r" 'archive-clash ' | grep -qE "^archive-clash vx_open_device: (captured|unknown)=lib$v\.a\($v\.o\) bound to " ||
				fail "$r: archive-clash does not name $v"
		done
	done
	# where no objcopy made the other definition local, flagged outright (not
	# "unknown"): collision and link-order among them
	list=$(expecting misdirected)
	[ -n "$list" ] || fail "nothing to check: expecting misdirected"
	for r in $list; do
		[ -z "$(table_cell archive-order "$r" objcopy)" ] || continue
		evidence "$r" 'archive-clash ' | grep -q ': captured=' || fail "$r not flagged"
		evidence "$r" 'archive-clash ' | grep -qE ': (shadowed|overridden|ignored)=' || fail "$r: no shadowed, overridden or ignored member listed"
		flagged=$((${flagged:-0} + 1))
	done
	[ "${flagged:-0}" -gt 0 ] || fail "no misdirected row without objcopy to check"
}

@test "archive-clash is silent on the fixed rows, and flags nothing where the link failed" {
	list=$(expecting no-split)
	[ -n "$list" ] || fail "nothing to check: expecting no-split"
	for r in $list; do
		assert_equal "$r: $(evidence "$r" 'archive-clash ')" "$r: "
	done
	list=$(expecting link-error)
	[ -n "$list" ] || fail "nothing to check: expecting link-error"
	for r in $list; do
		evidence "$r" 'archive-clash ' | grep -q ': captured=' && fail "$r: flagged"
		# a duplicate the linker itself refuses is reported as loud
		if row "$O" "$r" | grep -q '^\[ld\] .*multiple definition of'; then
			evidence "$r" 'archive-clash ' | grep -q ': loud=' || fail "$r: not reported loud"
		fi
	done
}

# extracted ROW: the archive members the row's link extracted, as
# "lib<x>.a(<member>)" (scripts/link-map on the row's linker map, link.map).
extracted() { "$TOP/scripts/link-map" "$D/$1/link.map" | sed 's|^[^\t]*\t\([^\t]*\).*|\1|; s|.*/||'; }
# strength ROW MEMBER: nm's type of vx_open_device in that member (T strong, W/V weak), from the evidence.
strength() { local l; _evidence "$1" "nm $2: vx_open_device="; for l in "${_ev[@]}"; do printf '%s\n' "${l##*=}"; done; }

@test "two extracted members define vx_open_device: both strong is refused; otherwise the first strong one, else the first extracted, is what the collectives ran" {
	for r in $(table_rows archive-order); do
		[ -f "$D/$r/link.map" ] || continue
		defs=() kinds=()
		for m in $(extracted "$r"); do
			k=$(strength "$r" "$m"); case $k in T|W|V) defs+=("$m") kinds+=("$k") ;; esac
		done
		[ "${#defs[@]}" -ge 2 ] || continue
		assert_equal "$r: ${#defs[@]} extracted definitions" "$r: 2 extracted definitions"
		if [ "${kinds[*]}" = "T T" ]; then
			assert_equal "$r $(derived "$r" verdict)" "$r link-error"
		else
			if [ "${kinds[0]}" != T ] && [ "${kinds[1]}" = T ]; then inforce=${defs[1]}; else inforce=${defs[0]}; fi
			stack=$(sed -n 's/^libverbs_\([a-z]*\)\.a(.*/\1/p' <<< "$inforce")
			[ -n "$stack" ] || fail "$r: cannot tell which stack $inforce is"
			assert_equal "$r: $(row "$O" "$r" | sed -n 's/^\[[^ ]* ran stack=\([^ ]*\) .*/\1/p' | sort -u)" "$r: $stack"
			weak=$((${weak:-0} + 1))
			[ "${kinds[1]}" = T ] || later=$((${later:-0} + 1))
		fi
		checked=$((${checked:-0} + 1))
	done
	[ "${checked:-0}" -gt 0 ] || fail "no row extracted two definitions"
	[ "${weak:-0}" -gt 0 ] || fail "no row with a weak definition among two extracted"
	[ "${later:-0}" -gt 0 ] || fail "no row where the later extracted definition is the weak one"
}

@test "archive-clash: shadowed members are the ones the linker map shows never extracted; the ones it says in force, overridden or ignored were extracted" {
	for r in $(table_rows archive-order); do
		grep -qx '\[link exit 0\]' "$D/$r/link.log" || continue
		ext=$(extracted "$r")
		while read -r fact m; do
			case $fact in
			shadowed) grep -qxF "$m" <<< "$ext" && fail "$r: archive-clash says $m was never pulled; the linker map shows it extracted" ;;
			*) grep -qxF "$m" <<< "$ext" || fail "$r: archive-clash says $m is $fact; the linker map shows it never extracted" ;;
			esac
			n=$((${n:-0} + 1)); [ "$fact" = ignored ] && ign=$((${ign:-0} + 1))
		done < <(evidence "$r" 'archive-clash ' | sed -nE 's/^archive-clash [^:]+: (shadowed|won|overridden|ignored)=([^ []+).*/\1 \2/p')
	done
	[ "${n:-0}" -gt 0 ] || fail "archive-clash named no member in any row"
	[ "${ign:-0}" -gt 0 ] || fail "no row where archive-clash names an extracted definition ignored"
}

@test "bundled-first: GNU ld has passed libverbs_bundled.a when collective_b needs it; undefined reference" {
	run row "$O" bundled-first
	assert_line --regexp "^\[ld\] .*undefined reference to .vx_abi_bundled'"
	run evidence bundled-first 'trace libverbs_bundled.a('
	assert_output ''
}

@test "archive-clash: two archives define the name but each reference gets the first after it: listed, not flagged" {
	d=$D/collision
	printf 'void collective_a_run(void);\nint main(void) { collective_a_run(); return 0; }\n' > "$BATS_TEST_TMPDIR/a_only.c"
	gcc -c "$BATS_TEST_TMPDIR/a_only.c" -o "$BATS_TEST_TMPDIR/a_only.o"
	run clash gcc -o "$BATS_TEST_TMPDIR/x" "$BATS_TEST_TMPDIR/a_only.o" -L"$d" -lcollective_a -lverbs_vendor -lverbs_bundled
	assert_success
	assert_line --partial 'vx_open_device: won=libverbs_vendor.a('
	assert_line --partial 'vx_open_device: shadowed=libverbs_bundled.a('
	refute_output --partial 'captured='
	refute_output --partial 'warning:'
}

@test "archive-clash: the collision's own link line exits 1 with one warning line" {
	d=$D/collision
	run clash gcc -o "$BATS_TEST_TMPDIR/x" "$d/app.o" -L"$d" -lcollective_a -lverbs_vendor -lcollective_b -lverbs_bundled
	assert_failure 1
	assert_line 'warning: 1 reference(s) captured across archives; the linker reported none'
}

@test "archive-clash --log: the row's link record answers, the same facts, with no second link" {
	d=$D/collision
	line=(-o "$BATS_TEST_TMPDIR/x" "$d/app.o" -L"$d" -lcollective_a -lverbs_vendor -lcollective_b -lverbs_bundled)
	run clash gcc "${line[@]}"
	want=$output
	# a driver that fails: a second link would say the link failed
	printf '#!/bin/sh\nexit 1\n' > "$BATS_TEST_TMPDIR/nolink"; chmod +x "$BATS_TEST_TMPDIR/nolink"
	run clash --log "$d/link.log" 'vx_open_device bundled_vx_open_device vx_abi_vendor vx_abi_bundled' --map "$d/link.map" "$BATS_TEST_TMPDIR/nolink" "${line[@]}"
	assert_failure 1
	assert_equal "$output" "$want"
	# a record that did not trace the name: linked again (and here it fails)
	run clash --log "$d/link.log" 'vx_abi_vendor' --map "$d/link.map" "$BATS_TEST_TMPDIR/nolink" "${line[@]}"
	assert_line --partial 'vx_open_device: unknown=the link failed for another reason (exit 1)'
	# a record of a link that succeeded, without its map (the members it extracted): linked again
	run clash --log "$d/link.log" 'vx_open_device bundled_vx_open_device vx_abi_vendor vx_abi_bundled' --map "$BATS_TEST_TMPDIR/no-map" "$BATS_TEST_TMPDIR/nolink" "${line[@]}"
	assert_line --partial 'vx_open_device: unknown=the link failed for another reason (exit 1)'
}

@test "archive-clash: bad input is one line and exit 2" {
	run clash gcc
	assert_failure 2
	assert_output --partial 'usage: archive-clash'
	run clash gcc -o x "$BATS_TEST_TMPDIR/no-such.a"
	assert_failure 2
	assert_output "archive-clash: no such archive: $BATS_TEST_TMPDIR/no-such.a"
}

@test "a table token lab.mk does not know stops the row with one line naming row, token and the known ones" {
	t="$BATS_TEST_TMPDIR/rows"
	{ grep '^# id' "$TOP/archive-order/rows"; grep '^collision ' "$TOP/archive-order/rows" | sed 's/| ab  /| zz  /'; } > "$t"
	run make -s -C "$TOP" --no-print-directory archive-order AO_TABLE="$t" B="$BATS_TEST_TMPDIR/b"
	assert_failure
	assert_output --regexp "/rows: row collision: unknown order 'zz' \(known: ab ab-group "
}

@test "make archive-order ROW=collision runs one row; ROW=nope is one line, exit 2" {
	run make -s -C "$TOP" --no-print-directory B="$BUILD" archive-order ROW=collision
	assert_success
	assert_equal "$(echo "$output" | grep -c '^== ')" 1
	run make -s -C "$TOP" --no-print-directory B="$BUILD" archive-order ROW=nope
	assert_failure 2
	assert_output --partial "unknown row 'nope'"
}
