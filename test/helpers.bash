# Shared by every bats file: bats-support/bats-assert from Debian's packages,
# the project root, and small readers of a lab's raw output. These readers
# only pick lines and addresses out; verdicts come from scripts/verdict.
# bats sources this file again for every test, and each library's load.bash
# runs `dirname` once for each of its files: 15 processes, about 40 ms of
# CPU per test, 12 s over make test. The same files are sourced here, found
# where bats_load_library finds them (BATS_LIB_PATH), with no process; a
# library laid out otherwise is left to bats_load_library.
load_bats_library() {
	local d f dirs
	IFS=: read -ra dirs <<< "${BATS_LIB_PATH-/usr/lib/bats}"
	for d in "${dirs[@]}"; do
		[ -f "$d/$1/load.bash" ] && [ -d "$d/$1/src" ] || continue
		for f in "$d/$1"/src/*.bash; do source "$f" || return 1; done
		return 0
	done
	bats_load_library "$1"
}
load_bats_library bats-support
load_bats_library bats-assert

# bats gives the test file as an absolute, normalised path: its directory's
# parent is the tree, with no process (this file is sourced for every test).
TOP=${BATS_TEST_DIRNAME%/*}
export TOP
# The build directory make uses: B from the environment (make test exports
# it, absolute), as make itself reads it; build/ otherwise.
B=${B:-build}
case $B in /*) BUILD=$B ;; *) BUILD=$TOP/$B ;; esac
export B BUILD

# lab_output NAME MAKE-ARGS...: run `make -s MAKE-ARGS` once per bats file and
# keep its stdout in $BATS_FILE_TMPDIR/NAME.out (use from setup_file).
lab_output() {
	local name=$1; shift
	[ ! -d "$BATS_FILE_TMPDIR/$name.rows" ] || rm -rf "$BATS_FILE_TMPDIR/$name.rows"
	make -s -C "$TOP" --no-print-directory "$@" > "$BATS_FILE_TMPDIR/$name.out"
}
out_file() { echo "$BATS_FILE_TMPDIR/$1.out"; }
# lab_outputs NAME TARGET: the lab's plain run (NAME) and its run with the
# evidence under each row (NAME-evidence): make shows both from the one run
# it keeps per build directory ($(B)/runs/<lab>.out).
lab_outputs() { lab_output "$1" "$2"; lab_output "$1-evidence" "$2" EVIDENCE=1; }

# The setup every lab's bats file shares: the file sets LAB=<lab> before
# `load helpers` and calls lab_setup_file from its setup_file; run_out and
# evidence_out are then the lab's run and its run with the evidence, and
# rowdir ROW the row's build directory.
lab_setup_file() { lab_outputs "${LAB:?set LAB=<lab> before load helpers}" "$LAB"; }
run_out() { out_file "$LAB"; }
evidence_out() { out_file "$LAB-evidence"; }
# The same as variables, RUN_OUT and EVIDENCE_OUT: tests ask them in loops,
# and each $(run_out) is a process.
[ -z "${LAB-}" ] || { RUN_OUT=${BATS_FILE_TMPDIR-}/$LAB.out EVIDENCE_OUT=${BATS_FILE_TMPDIR-}/$LAB-evidence.out; }
rowdir() { echo "$BUILD/${LAB:?}/$1"; }

# row FILE ID: the lines of one row, header included.
row() {
	_row "$1" "$2" || return
	[ ${#_rl[@]} -eq 0 ] || printf '%s\n' "${_rl[@]}"
}
# _row FILE ID: the row's lines into the array _rl, the one reader of a row
# that row, evidence_lines and count share: from the split below for a file
# of this bats file's own, else by one awk over FILE.
_row() {
	_row_lines "$1" "$2" && return 0
	[ -f "$1" ] && [ -r "$1" ] || { echo "row: no file $1" >&2; return 1; }
	mapfile -t _rl < <(awk -v id="$2" '/^== / { on = ($2 == id ":") } on' "$1")
}
# _row_lines FILE ID: the row's lines into the array _rl, with no process,
# for a file of this bats file's own ($BATS_FILE_TMPDIR/*.out: the lab's
# runs, written once in setup_file); false for any other file. Tests ask
# for rows hundreds of times, in loops over a table: such a file is split
# into one file a row the first time (one awk, ROWS/.done last), and again
# only when FILE is newer; lab_output, which writes it anew, drops ROWS.
_row_lines() {
	local d=${1%.out}.rows
	[[ $1 == "${BATS_FILE_TMPDIR:-/nonexistent}"/*.out && $2 =~ ^[A-Za-z0-9][A-Za-z0-9._+-]*$ && -f $1 ]] || return 1
	if [ ! -f "$d/.done" ] || [ "$1" -nt "$d/.done" ]; then
		[ -d "$d" ] || mkdir "$d" || return 1
		awk -v d="$d" '/^== / { f = ""; id = $2; if (id ~ /^[A-Za-z0-9][A-Za-z0-9._+-]*:$/) f = d "/" substr(id, 1, length(id) - 1) }
			f != "" { print > f }
			END { print "" > (d "/.done") }' "$1" || return 1
	fi
	_rl=()
	[ ! -f "$d/$2" ] || mapfile -t _rl < "$d/$2"
}
# evidence_lines FILE ID: one row's evidence lines (EVIDENCE=1), without
# their "  | " prefix.
evidence_lines() {
	local l
	_row "$1" "$2" || return
	for l in "${_rl[@]}"; do [[ $l != '  | '* ]] || printf '%s\n' "${l#'  | '}"; done
}

# Raw run-time addresses of a row's write (" -> ") and read (" <- ") events:
# the row's event lines and their addresses picked by one awk (was the row's
# awk and two greps: tests call these once per row).
written_addrs() { row_addrs "$1" "$2" ' -> '; }
read_addrs()    { row_addrs "$1" "$2" ' <- '; }
row_addrs() {
	awk -v id="$2" -v ev="$3" '/^== / { on = ($2 == id ":") }
		on && /^\[/ && index($0, ev) { s = $0; while (match(s, /@0x[0-9a-fA-F]+/)) { print substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH) } }' "$1" | sort -u
}

# count FILE ID WHO: the device count a consumer line reports.
count() {
	local l re="^ *$3(:| sees)( discovered)? ([0-9]+) device\\(s\\)"
	_row "$1" "$2" || return
	for l in "${_rl[@]}"; do [[ $l =~ $re ]] && { printf '%s\n' "${BASH_REMATCH[-1]}"; return 0; }; done
	return 0
}

# fact FILE ID KEY: a field of `scripts/verdict --facts` for one row. The
# facts of FILE are derived once per bats file (tests ask them row by row,
# in loops over a table) and again only when FILE is newer; a field is read
# by the shell.
fact() {
	local f=${BATS_FILE_TMPDIR:-${BATS_TEST_TMPDIR:?}}/facts-${1//[\/ ]/_}
	[ -s "$f" ] && [ "$f" -nt "$1" ] || "$TOP/scripts/verdict" --facts < "$1" > "$f"
	facts_field "$f" "$2" "$3"
}
# facts_field FACTS ID KEY: a field of a row's line in FACTS, a file of
# `scripts/verdict --facts` lines, read by the shell.
facts_field() {
	local w x
	while read -ra w; do
		[ "${w[0]-}" = "$2" ] || continue
		for x in "${w[@]:1}"; do [[ $x != "$3="* ]] || printf '%s\n' "${x#"$3="}"; done
	done < "$1"
}

# elf_facts FILE...: what the loader reads from FILEs, through the suite's one
# reader (scripts/dynamic, relocations included), without the file column,
# blank-separated: "dyn NEEDED libc.so.6", "sym NAME VER TYPE BIND VIS NDX
# SIZE", "rel COPY vx_table" (a relocation type without its R_<arch>_ prefix).
elf_facts() { "$TOP/scripts/dynamic" --relocs "$@" | sed 's/^[^\t]*\t//; y/\t/ /'; }

# defines_node FILE NODE / needs_node FILE NODE: FILE defines (.gnu.version_d)
# or needs (.gnu.version_r) the version NODE, read by the same reader.
defines_node() { "$TOP/scripts/dynamic" --versions-only "$1" | awk -F'\t' -v n="$2" '$2 == "vdef" && $3 == n { f = 1 } END { exit !f }'; }
needs_node()   { "$TOP/scripts/dynamic" --versions-only "$1" | awk -F'\t' -v n="$2" '$2 == "vneed" && $4 == n { f = 1 } END { exit !f }'; }
# defines_sym FILE NAME: FILE's .dynsym defines NAME (any version).
defines_sym()  { "$TOP/scripts/dynamic" "$1" | awk -F'\t' -v n="$2" '$2 == "sym" && $3 == n && $8 != "UND" { f = 1 } END { exit !f }'; }

# golden_diff FILE GOLDEN: normalised output against a golden; prints the
# diff and fails on any difference.
golden_diff() {
	diff -u "$2" <("$TOP/scripts/normalise" < "$1")
}

# labs: the labs `make labs` lists, one a line. make is asked once per bats
# file (a make reads the Makefiles: about 20 processes), the list kept in
# its directory.
labs() {
	local f=${BATS_FILE_TMPDIR:-${BATS_TEST_TMPDIR:?}}/labs l
	[ -s "$f" ] || make -s -C "$TOP" --no-print-directory labs > "$f" || { rm -f "$f"; return 2; }
	while IFS= read -r l; do printf '%s\n' "$l"; done < "$f"
}

# The row tables, read through the same reader as make (scripts/rows2mk), so
# a test never names a row or a count that a table states.
# table_file LAB: the lab's table (the rxe lab lives in rxe-variant/, the
# survey's units in survey/addons, the realworld corpus in realworld/cases).
table_file() { _table_file "$1"; echo "$_tf"; }
_table_file() {
	case $1 in rxe) _tf=$TOP/rxe-variant/rows ;; survey) _tf=$TOP/survey/addons ;; realworld) _tf=$TOP/realworld/cases ;; *) _tf=$TOP/$1/rows ;; esac
}
# table_mk LAB: the file holding rows2mk's reading of the lab's table, read
# once per bats file and again only when the table is newer (a test may edit
# a copy of the tree). _table_mk sets _mk to it without a subshell: these
# helpers run once per row in loops over every table, so each process they
# save is saved hundreds of times.
table_mk() { _table_mk "$1" && echo "$_mk"; }
_table_mk() {
	local t
	_table_file "$1"; t=${_tf//[\/ ]/_}
	_mk="${BATS_FILE_TMPDIR:-${BATS_TEST_TMPDIR:?}}/table-$t.mk"
	[ -s "$_mk" ] && [ "$_mk" -nt "$_tf" ] || "$TOP/scripts/rows2mk" "$1" "$_tf" > "$_mk" || { rm -f "$_mk"; return 2; }
}
# table_rows LAB: the row ids, in table order. table_rows and table_cell
# read the file by the shell: a loop asks them once a row.
table_rows() {
	local l
	_table_mk "$1" || return
	while IFS= read -r l; do [[ $l != "$1.rows :="* ]] || { l=${l#"$1.rows :="}; printf '%s\n' "${l#"${l%%[! ]*}"}"; }; done < "$_mk"
}
# table_cell LAB ROW COLUMN: one cell ("-" cells read as empty).
table_cell() {
	local k="$1.$2.$3 := " l found=
	_table_mk "$1" || return 2
	while IFS= read -r l; do [[ $l != "$k"* ]] || { printf '%s\n' "${l:${#k}}"; found=1; }; done < "$_mk"
	[ -n "$found" ]
}
# table_column LAB COLUMN: one "ROW<tab>CELL" line per row, in table order
# (an empty CELL where the row has none): a loop over every row reads the
# table once, not once per row.
table_column() {
	_table_mk "$1" || return 2
	awk -v rows="$1.rows := " -v pre="$1." -v col=".$2" '
		index($0, rows) == 1 { n = split(substr($0, length(rows) + 1), r, " ") }
		{ i = index($0, " := "); if (i) cell[substr($0, 1, i - 1)] = substr($0, i + 4) }
		END { for (k = 1; k <= n; k++) print r[k] "\t" cell[pre r[k] col] }' "$_mk"
}
# rows_with LAB KEY REGEX: the rows whose KEY cell matches REGEX (an
# extended regular expression, as grep -E reads it).
rows_with() {
	local r v
	while IFS=$'\t' read -r r v; do [ -n "$v" ] && [[ $v =~ $3 ]] && echo "$r"; done < <(table_column "$1" "$2"); true
}
# expect_verdict LAB ROW / expect_consumers LAB ROW: the two words of an
# expect cell ("<verdict> [<who>:<n>,...]").
expect_verdict()   { local v w; v=$(table_cell "$1" "$2" expect) || return 0; read -r w _ <<< "$v"; [ -z "$w" ] || echo "$w"; }
expect_consumers() { local v w; v=$(table_cell "$1" "$2" expect) || return 0; read -r _ w _ <<< "$v"; echo "$w"; }
# rows_expecting LAB VERDICT: the ids whose expect cell names that verdict.
rows_expecting() {
	local r v w
	while IFS=$'\t' read -r r v; do read -r w _ <<< "$v"; [ "$w" = "$2" ] && echo "$r"; done < <(table_column "$1" expect); true
}

# toolchain_read DIR ENV...: the toolchain as a make in the tree DIR reads
# it under `env ENV...` (make -n: nothing built, nothing written), into
# tc_key and tc_words; false if it read none. Handed down as make test hands
# its own (SPLIT_STATE_LAB_TC, SPLIT_STATE_LAB_TC_WORDS), a loop's makes
# with the same CC, LD and PATH take it as read: each would ask the compiler
# and the linker again (about 14 processes a make).
toolchain_read() {
	local dir=$1 out; shift
	out=$(env "$@" make -n -s -C "$dir" \
		--eval 'tc-words: ; +@printf "%s\n%s\n" "$$SPLIT_STATE_LAB_TC" "$$SPLIT_STATE_LAB_TC_WORDS"' tc-words | tail -n 2)
	{ IFS= read -r tc_key; IFS= read -r tc_words; } <<< "$out"
	[ -n "$tc_key" ] && [ -n "$tc_words" ]
}

# run_unprivileged CMD ARGS...: `run` CMD as a user without privileges. A
# user's run runs it as is. Root runs it as nobody (setpriv), who cannot
# enter a tree under a 0700 directory (/root/src, a mktemp -d): a command
# under $TOP/scripts runs from a copy of scripts/ in a directory of its
# own that nobody can read, removed when it returns; the command starts
# there, so no working directory it cannot reach is inherited.
run_unprivileged() {
	if [ "$(id -u)" != 0 ]; then run "$@"; return; fi
	local d a args=()
	d=$(mktemp -d "${TMPDIR:-/tmp}/split-state-lab-unprivileged.XXXXXX") || return 2
	chmod 755 "$d" && cp -R "$TOP/scripts" "$d/" || { rm -rf "$d"; return 2; }
	for a in "$@"; do
		case $a in "$TOP/scripts/"*) args+=("$d/scripts/${a#"$TOP/scripts/"}") ;; *) args+=("$a") ;; esac
	done
	run env -C "$d" setpriv --reuid=nobody --regid=nogroup --clear-groups "${args[@]}"
	rm -rf "$d"
}

# written_outside_build: what is in the source tree that git does not hold
# (git status --porcelain --ignored: new, changed or ignored files) besides
# the build directory, one a line, and the entries of /tmp named as the
# survey's tools would name them (node, npm, v8, Python's bytecode,
# symsplit, the suite's own words): compared before and after a run, a
# regression writing a __pycache__ into the tree or a cache into /tmp shows
# as a new line. /tmp is not compared whole: other test files (and, on a
# shared machine, other people) make and remove files there meanwhile.
# Names with a random part made by another tool (mktemp's tmp.XXXXXXXXXX,
# bats' own bats-run-XXXXXX, removed as its file ends) are left out before
# the words are matched: a random "av8" once read as v8.
written_outside_build() {
	local rel=${BUILD#"$TOP"/}
	if git -C "$TOP" rev-parse --git-dir > /dev/null 2>&1; then
		git -C "$TOP" status --porcelain --ignored | awk -v b="$rel/" 'substr($0, 4) != b && index(substr($0, 4), b) != 1 { print "tree: " $0 }'
	else
		echo "tree: not a git checkout, not checked"
	fi
	ls -A "${TMPDIR:-/tmp}" | grep -vE '^(tmp\.[[:alnum:]]{10}|bats-run-[[:alnum:]]{6})$' | grep -iE 'node|npm|v8|pycache|\.pyc$|python|symsplit|survey|coload|split-state' | sed 's/^/tmp: /'
}

# private_mounts: whether this process can make a private mount namespace
# (scripts/private-mounts: not in a plain chroot, a container without
# CAP_SYS_ADMIN, nor as a user), asked once per bats run; when it cannot,
# private_mounts_why holds the reason. need_private_mounts: skip the test by
# that reason where it cannot.
private_mounts() {
	local f=${BATS_RUN_TMPDIR:?}/private-mounts
	[ -f "$f" ] || { "$TOP/scripts/private-mounts" > "$f.$$"; mv -f "$f.$$" "$f"; }
	private_mounts_why=
	read -r private_mounts_why < "$f"
	[ -z "$private_mounts_why" ]
}
need_private_mounts() { private_mounts || skip "needs a private mount namespace: $private_mounts_why"; }
# unshare_fails DIR: an unshare in DIR that fails as it does in a plain chroot
# (/ not a mount point): DIR first in PATH stands for such a machine.
unshare_fails() {
	mkdir -p "$1" && printf '#!/bin/sh\necho "unshare: cannot change root filesystem propagation: Invalid argument" >&2\nexit 1\n' > "$1/unshare" && chmod +x "$1/unshare"
}

# stop_session MARK SIG WHOM CMD...: CMD started in a session of its own (as
# a terminal starts a job; env --default-signal: a job started with & has
# SIGINT ignored), its output in $BATS_TEST_TMPDIR/stopped.out; once CMD
# has made the file MARK (the moment to stop at, not a fixed time: on a
# loaded machine a second was not always enough to reach it), SIG is sent
# to CMD alone (WHOM pid, as kill or timeout would) or to its process group
# (group, as a terminal's Ctrl-C does). Waits for CMD; prints the ms it took
# to end and sets stopped_sid (CMD's pid, its session's id) when not in a
# subshell. Fails, saying so, when MARK never appears (60 s).
stop_session() {
	local mark=$1 sig=$2 whom=$3 pid t0; shift 3
	rm -f "$mark"
	setsid env --default-signal=INT "$@" > "$BATS_TEST_TMPDIR/stopped.out" 2>&1 &
	pid=$! stopped_sid=$!
	for _ in $(seq 600); do [ -e "$mark" ] && break; sleep 0.1; done
	[ -e "$mark" ] || { kill -KILL -- "-$pid"; wait "$pid"; echo "$mark never appeared: $(tail -n 3 "$BATS_TEST_TMPDIR/stopped.out")"; return 1; }
	sleep 0.3
	t0=$(date +%s%N)
	if [ "$whom" = group ]; then kill "-$sig" -- "-$pid"; else kill "-$sig" "$pid"; fi
	wait "$pid" || true
	echo $(( ($(date +%s%N) - t0) / 1000000 ))
}
# session_left SID: the processes of session SID still there after 5 s at
# most (zombies, not yet reaped, left out), printed and then killed: none
# when all it started ended.
session_left() {
	local left
	for _ in $(seq 50); do
		left=$(ps -o stat=,pid=,args= -s "$1" | grep -v '^ *Z')
		[ -z "$left" ] && return
		sleep 0.1
	done
	printf '%s\n' "$left"
	pkill -KILL -s "$1"
}
