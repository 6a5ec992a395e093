#!/usr/bin/env bats
# survey: the subset (survey/addons, column subset) installed from the npm
# registry, co-loaded in node, scanned and probed once; the tests read what
# the run wrote and the table, and check the scan against readelf.
load helpers

setup_file() {
	# The status is a test of its own, so that a failed expectation is
	# named by the test that reads it rather than by a failed setup.
	local rc=0
	written_outside_build > "$BATS_FILE_TMPDIR/outside.before"
	make -s -C "$TOP" --no-print-directory B="$BUILD" survey-subset > "$BATS_FILE_TMPDIR/subset.out" 2>&1 || rc=$?
	echo "$rc" > "$BATS_FILE_TMPDIR/subset.status"
	export RUN="$BUILD/survey/run-subset"
}

# subset_units: the node units whose subset cell is yes (make's table reader).
subset_units() {
	local u
	for u in $(table_rows survey); do
		[ "$(table_cell survey "$u" eco)" = node ] && [ "$(table_cell survey "$u" subset)" = yes ] && echo "$u"
	done
	true
}

@test "survey: make survey-subset installs, measures, prints the table and exits 0" {
	run cat "$BATS_FILE_TMPDIR/subset.out"
	assert_output --partial "| subset |"
	assert_equal "$(cat "$BATS_FILE_TMPDIR/subset.status")" 0
}

@test "survey: the lock files pin by version and integrity, with no registry URL" {
	run "$TOP/survey/lockcheck" "$TOP/survey/package-lock.json"
	assert_success
	run "$TOP/survey/lockcheck" "$TOP/survey/subset/package-lock.json"
	assert_success
}

@test "survey: the subset's pins are copied from the full set's" {
	run diff <("$TOP/survey/subset-pins" "$TOP/survey/addons" "$TOP/survey/package.json") "$TOP/survey/subset/package.json"
	assert_success
}

@test "survey: every subset unit loaded and did its work in one process" {
	list=$(subset_units)
	[ -n "$list" ] || fail "nothing to check: subset_units"
	for u in $list; do
		grep -q "^$u: " "$RUN/coload.out" || fail "no work line for $u"
	done
}

@test "survey: a hidden duplicate: a family with two copies, one of them not exported" {
	run awk '{ n[$1]++; if ($4 != "exported") hid[$1]++ } END { for (f in n) if (n[f] >= 2 && hid[f]) print f }' "$RUN/copies"
	assert_success
	refute_output ""
}

@test "survey: every module the fingerprint scan names is mapped in the process" {
	while read -r _ _ path _; do
		grep -qxF "$path" "$RUN/objects" || fail "$path is not in the maps"
	done < "$RUN/copies"
}

@test "survey: a collision is live: one vtable name bound in two modules whose readelf sizes differ" {
	run awk '$1 == "collision" && $2 ~ /^_ZTV/' "$RUN/bound"
	refute_output ""
	while read -r _ name n defs; do
		sizes=$(for d in $defs; do readelf --dyn-syms -W "$d" | awk -v s="$name" '$8 == s && $7 != "UND" { print $3 }'; done | sort -u | wc -l)
		[ "$sizes" -ge 2 ] || fail "$name: one size in $defs"
	done < <(awk '$1 == "collision" && $2 ~ /^_ZTV/' "$RUN/bound")
}

@test "survey: each promotion's outcome is the table's expect cell" {
	while read -r _ unit status rebound _; do
		s=${status#exit=} r=${rebound#rebound=}
		if [ "$s" -ge 128 ]; then got=crash; elif [ "$s" -ne 0 ]; then got=failed; elif [ "$r" -gt 0 ]; then got=rebind; else got=none; fi
		[ "$got" = "$(table_cell survey "$unit" expect)" ] || fail "$unit: $got (exit $s), table says $(table_cell survey "$unit" expect)"
	done < "$RUN/probe"
}

@test "survey: a promotion that crashes node rebinds a colliding name first" {
	for unit in $(awk '{ sub(/exit=/, "", $3); if ($3 >= 128) print $2 }' "$RUN/probe"); do
		run awk 'NR == FNR { if ($1 == "collision") c[$2] = 1; next } ($2 in c)' "$RUN/bound" "$RUN/promote-$unit.moved"
		refute_output ""
	done
}

@test "survey: the census reads DT_SYMBOLIC as readelf does" {
	while read -r path facts; do
		[ "$path" = census ] && continue
		want=$(readelf -dW "$path" | grep -c '(SYMBOLIC)' || true)
		[[ " $facts " == *" DT_SYMBOLIC=$want "* ]] || fail "$path: census says ${facts%% DF*}, readelf $want"
	done < "$RUN/census"
}

# ss_rows VERDICT: symsplit's rows of that verdict in the subset run, one a
# line: symbol, severity, the definition it binds, the copy left live, WHY.
ss_rows() {
	/usr/bin/python3 -c 'import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["verdict"] == sys.argv[2]:
        print(f["symbol"], f["sev"], f.get("binds", "-"), f.get("live_copy", "-"), f["why"].replace("\n", " "))' "$RUN/symsplit.json" "$1"
}

@test "survey: symsplit on the subset process's maps exits 0 with no SPLIT row" {
	assert_equal "$(cat "$RUN/symsplit.status")" 0
	run awk '$1 == "SPLIT"' "$RUN/symsplit"
	assert_output ""
	assert_equal "$(ss_rows SPLIT | wc -l)" 0
	grep -q '^# symsplit: 1 image(s), 0 split(s)' "$RUN/symsplit" || fail "summary: $(grep '^# symsplit' "$RUN/symsplit")"
}

@test "survey: symsplit calls the vtable collision LATENT med (the process ran), promoting one definer, the promotion the probe saw crash" {
	n=0
	while read -r _ name _ defs; do
		want=$(printf '%s\n' $defs | sort | tr '\n' ' ')
		while read -r sym sev binds live why; do
			[ "$sym" = "$name" ] && [ "$sev" = med ] || continue
			# the two definitions are the two modules the loader saw define it
			assert_equal "$(printf '%s\n' "$binds" "$live" | sort | tr '\n' ' ')" "$want"
			[[ "$why" == *"if "*" were opened RTLD_GLOBAL"* ]] || fail "no promotion named: $why"
			# promoting a unit rebinds the other definer's references, and node crashed
			awk -v m="in=.*$(basename "$live")" '{ sub(/exit=/, "", $3) } $3 >= 128 && $0 ~ m { f = 1 } END { exit !f }' "$RUN/probe" ||
				fail "no crashing promotion rebinds $(basename "$live")"
			n=$((n + 1))
		done < <(ss_rows LATENT)
	done < <(awk '$1 == "collision" && $2 ~ /^_ZTV/' "$RUN/bound")
	[ "$n" -ge 1 ] || fail "no LATENT med row for a colliding vtable"
}

@test "survey: the scan-against-symsplit facts count what the scan and symsplit wrote" {
	run "$TOP/survey/report" --facts "$TOP/survey/addons" "$TOP/survey/symsplit-families" subset="$RUN"
	assert_success
	lines_of=$(printf '%s\n' "${lines[@]}" | awk '$2 == "scan-vs-symsplit" && $3 != "families"')
	[ -n "$lines_of" ] || fail "no family compared"
	copy_rows=$(ss_rows COPY)
	while read -r _ _ fam word _ nscan _ nss _; do
		group=$(awk -F' *[|] *' -v f="$fam" '!/^#/ && $1 == f { print $2 }' "$TOP/survey/symsplit-families")
		assert_equal "$nscan" "$(awk -v f="$fam" '$1 == f' "$RUN/copies" | wc -l)"
		got=$(awk -v g="$group" '{ i = index($0, " " g " in "); s = substr($0, i + length(g) + 5) }
			i && s ~ /^[0-9]+ copies:/ { print s + 0; exit }' <<< "$copy_rows")
		[ "$group" = - ] && got=- || got=${got:-<2}
		assert_equal "$nss" "$got"
		[ "$word" = agree ] || continue
		# agree: the same modules, by the name symsplit prints (SONAME, else the file name)
		scan_mods=$(awk -v f="$fam" '$1 == f { print $3 }' "$RUN/copies" | while read -r p; do
			n=$(readelf -dW "$p" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'); echo "${n:-$(basename "$p")}"; done | sort | tr '\n' ' ')
		ss_mods=$(awk -v g="$group" 'index($0, " " g " in ") { sub(/.* in [0-9]+ copies: /, ""); sub(/; each copy.*/, ""); print; exit }' <<< "$copy_rows" |
			grep -oE '(^|, )[^ ,]+ \(' | sed -E 's/^, //; s/ \($//' | sort | tr '\n' ' ')
		assert_equal "$ss_mods" "$scan_mods"
	done <<< "$lines_of"
	# every family the scan counts twice is compared
	for fam in $(awk '{ n[$1]++ } END { for (f in n) if (n[f] >= 2) print f }' "$RUN/copies"); do
		grep -q " scan-vs-symsplit $fam " <<< "$lines_of" || fail "$fam: in the scan twice, not compared"
	done
}

@test "survey: the family mapping names every family of the scan and every group of symsplit" {
	map=$TOP/survey/symsplit-families
	for f in $(grep -v '^#' "$TOP/survey/fingerprints" | cut -d'|' -f1 | tr -d ' ' | sort -u); do
		awk -F' *[|] *' -v f="$f" '!/^#/ && $1 == f { ok = 1 } END { exit !ok }' "$map" || fail "scan family $f not mapped"
	done
	while read -r g; do
		awk -F' *[|] *' -v g="$g" '!/^#/ && $2 == g { ok = 1 } END { exit !ok }' "$map" || fail "symsplit group '$g' not mapped"
	done < <(sed -n 's/^    { "\([^"]*\)", ".*/\1/p' "$TOP/tools/symsplit/analyse/copies.c" | sort -u)
}

@test "survey: nothing was written outside the build directory" {
	for f in "$BUILD/survey/subset/leftovers" "$RUN/leftovers"; do
		grep -q '^not checked' "$f" && skip "$(cat "$f")"
		assert_equal "$(cat "$f")" none
	done
}

@test "survey: an unknown addon is one line and exit 2" {
	run node "$TOP/survey/coload.js" --prefix "$BUILD/survey/subset" --maps /dev/null no-such-addon
	assert_equal "$status" 2
	assert_equal "${#lines[@]}" 1
	assert_output --partial "unknown addon 'no-such-addon'"
}

# Last: it checks what every test above left.
@test "survey: the run and the tests above wrote nothing into the source tree or /tmp" {
	# What is new and still there 2 s later: the other test files running
	# beside this one come and go in /tmp (symsplit's --trace directories).
	local b=$BATS_FILE_TMPDIR/outside
	sort "$b.before" > "$b.sorted"
	written_outside_build | sort | comm -13 "$b.sorted" - > "$b.new1"
	[ -s "$b.new1" ] && sleep 2
	run comm -12 "$b.new1" <(written_outside_build | sort)
	assert_output ''
}
