#!/usr/bin/env bats
# docs/: the glossary is linked where each README first uses a term, and the
# pictures committed under docs/ are what `make diagrams` draws today.
load helpers

# The glossary's anchors and, for each, what counts as a use of the term
# (lower-cased text, code spans and link texts removed).
terms() {
	cat <<'T'
copy	(^|[^a-z0-9_])cop(y|ies)([^a-z0-9_=-]|$)
global-scope	global scope
local-scope	local scope
interpose	interpos(e|es|ed|ing|ition)([^a-z]|$)
preemptible	preemptibl[ey]
jump-slot	jump_slot
own-exports	own exports?
self-binding	self-bind
copy-relocation	copy relocations?
capture	captur(e|es|ed|ing)
split	(^|[^a-z0-9_-])splits?([^a-z0-9_-]|$)
partition	partitions?
latent	latent
independent-instances	independent instances?
collision	collisions?
promotion	promot(e|es|ed|ing|ion)([^a-z]|$)
archive-member	archive members?
misdirected	misdirect(ed|ion|s)?([^a-z]|$)
version-need	version needs?([^a-z]|$)
runpath	(^|[^a-z_])(dt_)?r(un)?path([^a-z_]|$)
T
}
readmes() { ls "$TOP"/README.md "$TOP"/*/README.md "$TOP"/tools/*/README.md 2>/dev/null; }

# first_uses FILE < "ANCHOR<TAB>REGEX" lines: "ANCHOR line:linked" for each
# term, of the first line (outside code blocks and headings) that uses the
# term or links its glossary entry; nothing for a term the file never uses.
first_uses() {
	awk -F'\t' '
		NR == FNR { n++; an[n] = $1; re[n] = $2; next }
		/^```/ { fence = !fence; next }
		fence || /^#/ { next }
		{
			t0 = tolower($0); gsub(/`[^`]*`/, " ", t0); gsub(/!?\[[^]]*\]\([^)]*\)/, " ", t0); gsub(/<a [^>]*>/, " ", t0)
			for (i = 1; i <= n; i++) {
				if (i in done) continue
				linked = index($0, "glossary.md#" an[i] ")") > 0
				t = t0; if (re[i] ~ /^\(\^\|\[\^a-z0-9_\]\)cop/) gsub(/cop(y|ies) relocations?/, " ", t)
				if (linked || t ~ re[i]) { print an[i], FNR ":" linked; done[i] = 1 }
			}
		}' - "$1"
}
# first_use FILE ANCHOR REGEX: "line:linked" for one term.
first_use() { printf '%s\t%s\n' "$2" "$3" | first_uses "$1" | cut -d' ' -f2; }

@test "glossary: every term the tests know has an anchor in docs/glossary.md, and every anchor is a known term" {
	run bash -c "grep -oE '<a id=\"[a-z-]+\"></a>' '$TOP/docs/glossary.md' | sed -E 's/.*id=\"([a-z-]+)\".*/\\1/' | sort"
	assert_output "$(terms | cut -f1 | sort)"
}

@test "glossary: each README links a term to the glossary where it first uses it" {
	bad=
	for f in $(readmes); do
		while read -r anchor u; do
			[ "${u#*:}" = 1 ] || bad="$bad${f#$TOP/}:${u%%:*}: first use of '$anchor' is not linked to the glossary"$'\n'
		done < <(terms | first_uses "$f")
	done
	[ -z "$bad" ] || fail "$bad"
}

@test "glossary: the check catches an unlinked first use" {
	f="$BATS_TEST_TMPDIR/README.md"
	printf 'A partition is fine.\nA [partition](docs/glossary.md#partition) again.\n' > "$f"
	run first_use "$f" partition 'partitions?'
	assert_output '1:0'
}

@test "docs/lookup-order.svg is what make diagrams renders from docs/lookup-order.dot" {
	make -s -C "$TOP" --no-print-directory "$B/diagrams/lookup-order.svg" >/dev/null
	run cmp "$TOP/docs/lookup-order.svg" "$BUILD/diagrams/lookup-order.svg"
	assert_success
}

@test "docs/diagrams/<lab>/<row>.svg are what make diagrams draws from today's runs" {
	n=0
	for dir in "$TOP"/docs/diagrams/*/; do
		lab=$(basename "$dir"); rows=$(cd "$dir" && ls *.svg | sed 's/\.svg$//')
		make -s -C "$TOP" --no-print-directory diagrams LAB="$lab" ROW="$(echo $rows)" >/dev/null
		for r in $rows; do
			cmp "$dir/$r.svg" "$BUILD/diagrams/$lab/$r.svg" || fail "docs/diagrams/$lab/$r.svg is stale: copy $B/diagrams/$lab/$r.svg over it"
			n=$((n + 1))
		done
	done
	[ "$n" -gt 0 ] || fail "no committed diagram under docs/diagrams"
}

@test "diagram: a SPLIT row's picture shows a copy written never read and one read never written" {
	for r in $(rows_expecting matrix SPLIT | head -n 1); do
		make -s -C "$TOP" --no-print-directory diagrams LAB=matrix ROW="$r" >/dev/null
		run cat "$BUILD/diagrams/matrix/$r.dot"
		assert_output --partial 'WRITTEN, never read'
		assert_output --partial 'READ, never written'
		refute_output --regexp '0x[0-9a-f]'
	done
}

@test "diagram: every lab's first row is drawn, none skipped (labs with committed pictures are checked above)" {
	for lab in $(make -s -C "$TOP" --no-print-directory labs); do
		[ -d "$TOP/docs/diagrams/$lab" ] && continue
		r=$(table_rows "$lab" | awk '{ print $1 }')
		run make -s -C "$TOP" --no-print-directory diagrams LAB="$lab" ROW="$r"
		assert_success
		refute_output --partial 'skip'
		[ -s "$BUILD/diagrams/$lab/$r.svg" ] || fail "no $B/diagrams/$lab/$r.svg"
	done
}

@test "diagram: a COLLISION row draws a call into another copy's definition, a no-collision row none" {
	c=$(rows_expecting route-b COLLISION | head -n 1); n=$(rows_expecting route-b no-collision | head -n 1)
	make -s -C "$TOP" --no-print-directory diagrams LAB=route-b ROW="$c $n" >/dev/null
	for v in COLLISION no-collision; do
		r=$c; [ "$v" = COLLISION ] || r=$n
		run grep -c 'ran copy .*color=red' "$BUILD/diagrams/route-b/$r.dot"
		if [ "$v" = COLLISION ]; then assert_output 1; else assert_output 0; fi
	done
}

@test "diagram: a misdirected row sends the victim's call into the other stack's member, and shows the member never extracted" {
	r=$(rows_expecting archive-order misdirected | head -n 1)
	make -s -C "$TOP" --no-print-directory diagrams LAB=archive-order ROW="$r" >/dev/null
	run cat "$BUILD/diagrams/archive-order/$r.dot"
	assert_output --regexp 'w[0-9]+ -> f[0-9]+ \[label="called [^"]*", color=red'
	assert_output --partial 'never extracted'
	refute_output --partial 'address in no member of the map'
	refute_output --regexp '0x[0-9a-f]'
}

@test "diagram-link: a reached address that is no symbol of the map is drawn as such, not guessed" {
	d="$BATS_TEST_TMPDIR/row"; mkdir -p "$d"
	r=$(rows_expecting archive-order misdirected | head -n 1)
	cp "$BUILD/archive-order/$r/link.map" "$BUILD/archive-order/$r/link.log" "$BUILD/archive-order/$r"/*.a "$d/"
	# the row's paths, absolute or (B relative) relative to the top directory
	rel=$(realpath --relative-to="$TOP" "$BUILD/archive-order/$r")
	sed -i "s|$BUILD/archive-order/$r/|$d/|g; s|\([ (]\)$rel/|\1$d/|g; s|^$rel/|$d/|" "$d/link.map" "$d/link.log"
	printf '%s\n' '[c built against stack=x] expects d' '[c ran stack=x at f@0x7f0000000123] opened d' > "$d/out"
	run "$TOP/scripts/diagram-link" "$d" t "$d/out"
	assert_success
	assert_output --partial 'address in no member of the map'
	rm "$d/link.map"
	run "$TOP/scripts/diagram-link" "$d" t "$d/out"
	assert_failure 3
	assert_output 'diagram-link: no link.map and link.log in the row directory'
}

@test "diagram: a loader-error row ends a run on a red arrow, a row that runs has none" {
	e=$(rows_expecting loader-errors loader-error | head -n 1); ok=$(rows_expecting loader-errors runs | head -n 1)
	make -s -C "$TOP" --no-print-directory diagrams LAB=loader-errors ROW="$e $ok" >/dev/null
	for v in loader-error runs; do
		r=$e; [ "$v" = loader-error ] || r=$ok
		run grep -c '^  r[0-9]* -> .*color=red' "$BUILD/diagrams/loader-errors/$r.dot"
		if [ "$v" = loader-error ]; then refute_output 0; else assert_output 0; fi
	done
}

@test "diagram: a run with no address line is refused with one line, exit 3" {
	d="$BATS_TEST_TMPDIR/row"; mkdir -p "$d"
	echo 'hello' > "$d/out"; : > "$d/ld"
	run "$TOP/scripts/diagram" "$d" "t" "$d/out" "$d/ld"
	assert_failure 3
	assert_output 'diagram: no write, read or define line with an address in the run'
}

# The first two labs `make labs` lists: a Route A lab and one with its own
# verdict words (its expect cells may be one word, which the sheet's list of
# choices names).
exercise_labs() { make -s -C "$TOP" --no-print-directory labs | head -n 2; }

@test "exercises: the answer key is what an independent run of the lab derives, row by row" {
	for lab in $(exercise_labs); do
		make -s -C "$TOP" --no-print-directory exercises LAB="$lab" >/dev/null
		key="$BUILD/exercises/$lab-key.md"
		run bash -c "awk -F' [|] ' '/^[|] [^-]/ && !/^[|] row / { sub(/^[|] /, \"\", \$1); print \$1 \" verdict=\" \$2 \" consumers=\" (\$3 == \"-\" ? \"\" : \$3) }' '$key'"
		assert_success
		assert_output "$(make -s -C "$TOP" --no-print-directory "$lab" | "$TOP/scripts/verdict" --facts)"
		[ "$(grep -c '^## ' "$BUILD/exercises/$lab-sheet.md")" -eq "$(table_rows "$lab" | wc -w)" ] || fail "$lab: the sheet does not have one section per row"
	done
}

# row_sections SHEET: the sheet from its first row section on.
row_sections() { sed -n '/^## /,$p' "$1"; }

@test "exercises: the sheet's rows give no answer (no expect cell, no derived verdict); its list of choices is every verdict word of the table" {
	for lab in $(exercise_labs); do
		sheet="$BUILD/exercises/$lab-sheet.md"
		[ -e "$sheet" ] || make -s -C "$TOP" --no-print-directory exercises LAB="$lab" >/dev/null
		words=
		for r in $(table_rows "$lab"); do
			e=$(table_cell "$lab" "$r" expect)
			row_sections "$sheet" | grep -qF -- "$e" && fail "$lab: the sheet gives row $r's expect cell '$e'"
			words="$words ${e%% *}"
		done
		run grep -E 'expect=|verdict=|^verdict:' "$sheet"
		assert_failure
		run grep -c "^The verdicts this lab's rows use: $(printf '%s\n' $words | sort -u | paste -sd, - | sed 's/,/, /g') (" "$sheet"
		assert_output 1
	done
}

@test "exercises: the check catches an answer in a row's section" {
	printf '# x\n\nThe verdicts: runs.\n\n## r1: a\n\nverdict runs here\n' > "$BATS_TEST_TMPDIR/s.md"
	run bash -c "sed -n '/^## /,\$p' '$BATS_TEST_TMPDIR/s.md' | grep -cF runs"
	assert_output 1
}

@test "symsplit.1: man -l renders it without warnings, and it documents every option of main.c's usage line" {
	run bash -c "MANWIDTH=80 man --warnings -l '$TOP/docs/symsplit.1' 2>&1 >/dev/null"
	assert_output ''
	page=$(MANWIDTH=200 man -l "$TOP/docs/symsplit.1" 2>/dev/null)
	opts=$(grep -oE 'usage: symsplit .*' "$TOP/tools/symsplit/main.c" | grep -oE -- '--[a-z]+' | sort -u)
	[ -n "$opts" ] || fail "no option found in main.c's usage line"
	for o in $opts; do
		grep -qE -- "^ +$o( |$)" <<< "$page" || fail "option $o of main.c is not described in docs/symsplit.1"
	done
}
