#!/usr/bin/env bats
# The shared frame: a row's expectation lives in its table alone; make check,
# make bless and make compare read it; the build directory and the make
# variables are checked before anything runs. Each test works on a private
# copy of the source tree, so nothing it edits reaches the real one.
load helpers

setup_file() {
	load helpers
	COPY="$BATS_FILE_TMPDIR/tree"
	mkdir -p "$COPY"
	# The tree as it is now (tracked and new files), as a git repository of
	# its own, so a test can ask which files a change touched.
	(cd "$TOP" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$COPY")
	git -C "$COPY" init -q && git -C "$COPY" add -A &&
		git -C "$COPY" -c user.name=t -c user.email=t@t commit -qm base
	export COPY
}

# Whatever a test edited in the copy is put back, pass or fail.
teardown() { git -C "$COPY" checkout -q -- . 2>/dev/null || true; }

# cmake ARGS...: make in the copy, with its own build directory.
cmake() { make -s -C "$COPY" --no-print-directory B="$COPY/build" "$@"; }

@test "adding a row is a table line plus make bless: check and the lab's tests pass, no other file touched" {
	r=$(table_rows matrix | awk '{ print $1 }')
	printf '%s\n' "$r-again | $(grep "^$r " "$COPY/matrix/rows" | cut -d'|' -f2- )" | sed "s/| [^|]*\$/| row $r once more (added by a test)/" >> "$COPY/matrix/rows"
	run cmake bless LAB=matrix
	assert_success
	assert_line "bless: expected/matrix.txt written (say why in the commit message)"
	run cmake check LAB=matrix
	assert_success
	assert_line --regexp "^matrix:$r-again +\\| .*\\| ok "
	run env B="$COPY/build" bats "$COPY/test/matrix.bats"
	assert_success
	run git -C "$COPY" status --porcelain --untracked-files=no
	assert_output "$(printf ' M %s\n' expected/matrix.txt matrix/rows)"
}

@test "a wrong expect cell fails make check naming the row, and make bless refuses to write the golden" {
	r=$(rows_expecting matrix SPLIT | head -n 1)
	sed -i "s/^\\($r *|[^|]*| *\\)SPLIT /\\1no-split /" "$COPY/matrix/rows"
	[ "$(cd "$COPY" && TOP=$COPY table_cell matrix "$r" expect | cut -d' ' -f1)" = no-split ] || fail "the edit did not take"
	run cmake check LAB=matrix
	assert_failure
	assert_line --regexp "^check: row matrix:$r broke its expectation: expected no-split .*, observed SPLIT "
	cp "$COPY/expected/matrix.txt" "$BATS_TEST_TMPDIR/before"
	run cmake bless LAB=matrix
	assert_failure
	assert_line --regexp "^bless: refused: row matrix:$r broke its expectation"
	cmp -s "$COPY/expected/matrix.txt" "$BATS_TEST_TMPDIR/before" || fail "bless wrote the golden"
}

@test "an expect cell with words after its verdict and counts fails make check, naming the row" {
	r=$(rows_expecting matrix SPLIT | head -n 1)
	cell=$(cd "$COPY" && TOP=$COPY table_cell matrix "$r" expect)
	sed -i "s/^\\($r *|[^|]*| *\\)$cell /\\1$cell and-more /" "$COPY/matrix/rows"
	[ "$(cd "$COPY" && TOP=$COPY table_cell matrix "$r" expect)" = "$cell and-more" ] || fail "the edit did not take"
	run cmake check LAB=matrix ROW="$r"
	assert_failure
	assert_line "check: row matrix:$r broke its expectation: its expect cell has words after the verdict and counts (\"$cell and-more\"): a cell is \"<verdict> [<who>:<n>,...]\""
}

# Here, before the next test: the tests above edited the table and put it
# back, so the lab runs again once, in this test's first make, and the next
# test's first make finds it current (placed after the header edit below,
# this test compiled and ran the whole lab again: about 450 processes).
@test "a second make of a lab rewrites no cells file and runs nothing again" {
	cmake matrix EVIDENCE=1 > /dev/null    # its captured run made
	touch "$BATS_TEST_TMPDIR/before"; sleep 1
	cmake matrix > /dev/null
	# every lab's cells are read by every make: none of them is written
	# again (nor the captured run that depends on them) when no table changed
	made=$(find "$COPY/build/cells" "$COPY/build/runs" -type f -newer "$BATS_TEST_TMPDIR/before")
	[ -z "$made" ] || fail "a second make wrote: $made"
}

@test "an edited expect cell builds nothing again; an edited build cell builds and runs the lab again" {
	r=$(rows_expecting matrix SPLIT | head -n 1)
	cmake matrix EVIDENCE=1 > /dev/null
	touch "$BATS_TEST_TMPDIR/before"; sleep 1
	sed -i "s/^\\($r *|[^|]*| *\\)SPLIT /\\1no-split /" "$COPY/matrix/rows"
	[ "$(cd "$COPY" && TOP=$COPY table_cell matrix "$r" expect | cut -d' ' -f1)" = no-split ] || fail "the edit did not take"
	cmake matrix > /dev/null
	made=$(find "$COPY/build/matrix" -type f -newer "$BATS_TEST_TMPDIR/before" | head -n 3)
	[ -z "$made" ] || fail "an expect cell's edit made: $made"
	# a cell the build reads: the row's .so compiled with one more flag
	sed -i "s/^\\($r *| *\\)/\\1so-cflags=-DEDITED_BY_A_TEST; /" "$COPY/matrix/rows"
	[ "$(cd "$COPY" && TOP=$COPY table_cell matrix "$r" so-cflags)" = -DEDITED_BY_A_TEST ] || fail "the edit did not take"
	cmake matrix > /dev/null
	for f in "$r/so/verbs_copy.o" "$r/libverbs_shared.so"; do
		[ "$COPY/build/matrix/$f" -nt "$BATS_TEST_TMPDIR/before" ] || fail "a build cell's edit did not make $f again"
	done
	[ "$COPY/build/runs/matrix.out" -nt "$BATS_TEST_TMPDIR/before" ] || fail "a build cell's edit did not run the lab again"
}

@test "a header included from another directory reaches the toolchain check (ccache)" {
	command -v ccache >/dev/null || skip "ccache is not installed (make test installs it)"
	run cmake baseline LAB=fixes TOOLCHAINS=gcc:lld OUT="$BATS_TEST_TMPDIR/base"
	assert_success
	# fixes/plugin.c reaches matrix/verbs.h through -Imatrix: every
	# consumer's call, the plugin's included, now reports 0 (the copies'
	# own definitions are compiled with VX_COPY and keep theirs).
	sed -i '$ s/^#endif$/#ifndef VX_COPY\n#define vx_get_device_list() (0 * vx_get_device_list())\n#endif\n&/' "$COPY/matrix/verbs.h"
	grep -q '0 \* vx_get_device_list' "$COPY/matrix/verbs.h" || fail "the edit did not take"
	run cmake compare LAB=fixes BASELINE="$BATS_TEST_TMPDIR/base"
	assert_failure
	assert_line --regexp '^changed: gcc:lld fixes:fix-exclude-libs verdict$'
	assert_line --regexp '^    now: +verdict=[^ ]+ consumers=plugin:0,collective:0,app:0$'
}

# logging_path DIR LOG: DIR holds a stand-in for each program a recipe
# would start (the real one, if any, after a line in LOG; a compiler only
# logs a compile or a link, -c or -o, not the questions make asks it while it
# reads the Makefiles); prints a PATH with DIR first.
logging_path() {
	local t real
	mkdir -p "$1"
	for t in gcc cc clang ccache ar objcopy patchelf ldconfig mmdebstrap apt-get dpkg-deb npm node bats \
		qemu-system-x86_64 unshare chroot flock perl mkdir touch cp mv ln rm tee dot git tar timeout setpriv; do
		real=$(command -v "$t" || echo false)
		case $t in
		gcc|cc|clang) printf '#!/bin/sh\nfor a; do case $a in -c|-o) echo "%s $*" >> %s ;; esac; done\nexec %s "$@"\n' "$t" "$2" "$real" ;;
		*) printf '#!/bin/sh\necho "%s $*" >> %s\nexec %s "$@"\n' "$t" "$2" "$real" ;;
		esac > "$1/$t"
		chmod +x "$1/$t"
	done
	echo "$1:$PATH"
}

@test "make -n runs nothing and writes nothing, for every target make help names" {
	targets=$(env -u B make -s -C "$COPY" --no-print-directory help | grep -oE '(make|/) [a-z][a-z0-9-]*' | awk '{ print $2 }' | sort -u)
	targets="$targets $(env -u B make -s -C "$COPY" --no-print-directory labs | sed 's/^/evidence-/')"
	[ "$(echo $targets | wc -w)" -gt 20 ] || fail "make help names too few targets: $targets"
	r=$(table_rows matrix | awk '{ print $1 }')
	cmake matrix ROW="$r" > /dev/null
	home="$BATS_TEST_TMPDIR/home"; mkdir -p "$home"
	log="$BATS_TEST_TMPDIR/started"; : > "$log"
	path=$(logging_path "$BATS_TEST_TMPDIR/bin" "$log")
	touch "$BATS_TEST_TMPDIR/before"; sleep 1
	# The toolchain read once under make -n with these stand-ins, by the
	# checks below like every make here, and handed down to the makes of the
	# loop (80 of them)
	toolchain_read "$COPY" PATH="$path" HOME="$home" B="$COPY/build" || fail "make -n read no toolchain"
	for t in $targets; do
		for b in "$BATS_TEST_TMPDIR/nb" "$COPY/build"; do
			env -u SPLIT_STATE_LAB_TC_LINES PATH="$path" HOME="$home" SPLIT_STATE_LAB_TC="$tc_key" SPLIT_STATE_LAB_TC_WORDS="$tc_words" \
				make -n -C "$COPY" B="$b" "$t" > "$BATS_TEST_TMPDIR/n.out" 2>&1 ||
				grep -q '\*\*\*' "$BATS_TEST_TMPDIR/n.out" || fail "make -n $t failed: $(tail -n 3 "$BATS_TEST_TMPDIR/n.out")"
		done
	done
	[ ! -s "$log" ] || fail "make -n started: $(sort -u "$log" | cut -c1-160 | head -n 5)"
	[ ! -e "$BATS_TEST_TMPDIR/nb" ] || fail "make -n created the build directory"
	written=$(find "$COPY" "$home" -newer "$BATS_TEST_TMPDIR/before" | head -n 5)
	[ -z "$written" ] || fail "make -n wrote: $written"
	run git -C "$COPY" status --porcelain
	assert_output ''
}

@test "a build directory that is empty, has a space, is /, \$HOME or the source tree is refused in one line" {
	for b in '' 'a b' / "$HOME" . "$COPY" "$COPY/.." ..; do
		run make -s -C "$COPY" --no-print-directory matrix B="$b"
		assert_equal "$status" 2
		assert_equal "${#lines[@]}" 1
		assert_output --regexp 'B is empty|B=.* (has white space|is /|is the source tree|is \$HOME)'
	done
	run git -C "$COPY" status --porcelain
	assert_output ''
}

# Build directories the suite once took and must refuse: each one line,
# exit 2, nothing deleted or written (the source tree, a scratch HOME).
@test "B is resolved before it is guarded: a link to the tree, /proc/self/cwd, ~, \$HOME, a lab's directory are refused" {
	home="$BATS_TEST_TMPDIR/home"; mkdir -p "$home/check" && echo mine > "$home/check/file"
	ln -s . "$COPY/selflink"
	for args in "clean B=selflink" "clean B=/proc/self/cwd" "matrix B=~" "clean B=~" "clean B=~/check" \
		"matrix B=matrix" "clean B=matrix" "clean B=$home" "matrix B=$home/.." "clean B=selflink/build/.."; do
		run env HOME="$home" make -s -C "$COPY" --no-print-directory $args
		assert_equal "$status" 2
		assert_equal "${#lines[@]}" 1
		assert_output --regexp "^mk/build-dir.mk:[0-9]+: \*\*\* B='[^']*'"
	done
	rm "$COPY/selflink"
	assert_equal "$(cat "$home/check/file")" mine
	[ ! -e "$COPY/~" ] || fail "a directory named ~ was made in the tree"
	run git -C "$COPY" status --porcelain
	assert_output ''
}

@test "a source tree whose path has a space is refused in one line" {
	mkdir -p "$BATS_TEST_TMPDIR/a b"
	cp -r "$COPY/Makefile" "$COPY/scripts" "$BATS_TEST_TMPDIR/a b/"
	run make -s -C "$BATS_TEST_TMPDIR/a b" --no-print-directory help
	assert_equal "$status" 2
	assert_equal "${#lines[@]}" 1
	assert_output --partial "the source tree's path has white space"
}

@test "a directory holding files the suite did not make is refused, and touched by neither a build nor clean" {
	b="$BATS_TEST_TMPDIR/cb"
	mkdir -p "$b" && echo mine > "$b/keep.txt"
	for goal in matrix clean distclean; do
		run cmake B="$b" "$goal"
		assert_equal "$status" 2
		assert_equal "${#lines[@]}" 1
		assert_output --partial "holds files the suite did not make"
	done
	assert_equal "$(ls -A "$b")" keep.txt
	assert_equal "$(cat "$b/keep.txt")" mine
}

@test "make clean removes all the suite made but its download caches; make distclean those too, saying so" {
	b="$BATS_TEST_TMPDIR/cb"
	run cmake B="$b" matrix ROW="$(table_rows matrix | awk '{ print $1 }')"
	assert_success
	[ -d "$b/matrix" ] || fail "nothing was built"
	# what other labs leave (the rxe lab's directory is rxe-variant), and a cache
	mkdir -p "$b/rxe-variant/capture" "$b/tools/symsplit" "$b/survey/run-node" "$b/rxe-variant/vm-cache"
	touch "$b/rxe-variant/capture/rxe-lab" "$b/tools/symsplit/symsplit" "$b/rxe-variant/vm-cache/linux.deb"
	run make -s -C "$COPY" B="$b" clean
	assert_success
	assert_equal "$(cd "$b" && find . ! -type d | sort | tr '\n' ' ')" "./.lock ./.split-state-lab-build ./rxe-variant/vm-cache/linux.deb "
	run make -s -C "$COPY" B="$b" distclean
	assert_success
	assert_line --partial "removing the download cache $b/rxe-variant/vm-cache"
	[ ! -e "$b" ] || fail "distclean left $(find "$b")"
	run make -s -C "$COPY" B="$b" clean
	assert_success
	[ ! -e "$b" ] || fail "clean of a missing build directory made it"
}

@test "one run per build directory: a second one is one line naming the first, exit 2" {
	b="$BATS_TEST_TMPDIR/lb"
	r=$(table_rows matrix | awk '{ print $1 }')
	# the first run's program takes 5 s to start
	printf '#!/bin/sh\nsleep 5\nexec "$@"\n' > "$BATS_TEST_TMPDIR/slow"; chmod +x "$BATS_TEST_TMPDIR/slow"
	unset SPLIT_STATE_LAB_LOCK
	make -s -C "$COPY" --no-print-directory B="$b" matrix ROW="$r" RUN="$BATS_TEST_TMPDIR/slow" > "$BATS_TEST_TMPDIR/first" 2>&1 3>&- &
	first=$!
	for i in $(seq 50); do grep -qs '^pid' "$b/.lock" && break; sleep 0.1; done
	# (the races seen: two check-toolchains, two make test; a clean under a build)
	for goal in "matrix ROW=$r" check-toolchains test clean; do
		run make -s -C "$COPY" --no-print-directory B="$b" $goal
		assert_equal "$status" 2
		assert_equal "${#lines[@]}" 1
		assert_output --regexp "is in use by another run \(pid $first, make matrix, since [0-9:]+\)"
	done
	[ -d "$b/matrix" ] || fail "the build directory was cleaned under the first run"
	wait "$first" || fail "the first run failed: $(cat "$BATS_TEST_TMPDIR/first")"
	grep -q '^verdict:' "$BATS_TEST_TMPDIR/first" || fail "the first run did not run: $(cat "$BATS_TEST_TMPDIR/first")"
	# and once it has ended, the build directory is free again
	run make -s -C "$COPY" --no-print-directory B="$b" matrix ROW="$r"
	assert_success
}

@test "a link cut off mid-write, make killed with it, leaves no file the next run takes as up to date" {
	b="$BATS_TEST_TMPDIR/kb"; t="$BATS_TEST_TMPDIR"
	r=$(table_rows matrix | awk '{ print $1 }')
	# a compiler whose first link of app is cut off: half the file written,
	# then make and all it started killed at once (a power cut, SIGKILL)
	cat > "$t/cc" <<-EOF
	#!/bin/sh
	prev=; out=
	for a; do [ "\$prev" = -o ] && out=\$a; prev=\$a; done
	case \$out in */app|*/app.tmp.*) [ -e "$t/cut" ] || { touch "$t/cut"; printf 'half an ELF' > "\$out"; kill -KILL 0; } ;; esac
	exec gcc "\$@"
	EOF
	chmod +x "$t/cc"
	run setsid -w make -s -C "$COPY" --no-print-directory B="$b" CC="$t/cc" matrix ROW="$r"
	assert_failure
	[ -e "$t/cut" ] || fail "the link was not cut off: $output"
	run make -s -C "$COPY" --no-print-directory B="$b" CC="$t/cc" matrix ROW="$r"
	assert_success
	refute_output --partial "run failed"
	assert_line --regexp '^verdict: '
	# (the killed link's temporary file stays, under a name nothing reads, until make clean)
	[ "$(head -c 4 "$b/matrix/$r/app" | od -An -c | tr -d ' ')" = 177ELF ] || fail "app is not a whole program"
}

@test "JOBS that is not a whole number from 1 up is one line, exit 2" {
	for j in 0 -3 abc; do
		run env -u B make -s -C "$COPY" --no-print-directory help JOBS="$j"
		assert_equal "$status" 2
		assert_equal "${#lines[@]}" 1
		assert_output --partial "JOBS='$j'"
	done
}

@test "a compiler that does not exist is one line before any job starts" {
	for goal in matrix symsplit check; do
		run cmake "$goal" CC=nonexistent-cc
		assert_equal "$status" 2
		assert_equal "${#lines[@]}" 1
		assert_output --partial "compiler 'nonexistent-cc' not found"
	done
	# nor is a build directory made for it
	run make -s -C "$COPY" --no-print-directory B="$BATS_TEST_TMPDIR/nb" matrix CC=nonexistent-cc
	assert_equal "$status" 2
	[ ! -e "$BATS_TEST_TMPDIR/nb" ] || fail "a refused run made its build directory"
}

@test "a table make cannot read stops make before anything runs, naming the table and its line" {
	echo 'extra | a | b | c | d | e | f | g | h | i | j | k | l | m | n | o' >> "$COPY/matrix/rows"
	run cmake matrix
	assert_equal "$status" 2
	assert_line --regexp '^rows2mk: matrix/rows:[0-9]+: row has 16 cells, the header names [0-9]+$'
	assert_line --partial 'matrix/rows: the table cannot be read'
}

# The makes of one run read the toolchain and resolve the build directory
# once: a make it starts with the same CC, LD, PATH and B takes them as read
# (the Makefile's SPLIT_STATE_LAB_TC and SPLIT_STATE_LAB_B); one with another
# CC reads its own.
# log_calls DIR LOG NAME...: in DIR, a stand-in for each NAME (a program
# in PATH) that writes "NAME ARGS" to LOG, then runs it; the copy's
# mk/build-dir made one too (teardown puts it back).
log_calls() {
	local bin=$1 log=$2 t
	shift 2
	mkdir -p "$bin"; : > "$log"
	for t; do
		printf '#!/bin/sh\necho "%s $*" >> %s\nexec %s "$@"\n' "$t" "$log" "$(command -v "$t")" > "$bin/$t"
		chmod +x "$bin/$t"
	done
	cp "$COPY/mk/build-dir" "$bin/build-dir"
	printf '#!/bin/sh\necho "build-dir $*" >> %s\nexec %s "$@"\n' "$log" "$bin/build-dir" > "$COPY/mk/build-dir"
}

@test "a make's sub-makes take its toolchain and build directory as read, and read another CC's" {
	bin="$BATS_TEST_TMPDIR/bin"; log="$BATS_TEST_TMPDIR/asked"
	log_calls "$bin" "$log" gcc clang
	inner='inner: ; @echo "words: $(tc_words) B: $(B_ABS)"'
	run env -u SPLIT_STATE_LAB_TC -u SPLIT_STATE_LAB_B PATH="$bin:$PATH" \
		make -s -C "$COPY" --no-print-directory B="$BATS_TEST_TMPDIR/b" \
		--eval 'outer: ; +@$(MAKE) -s --no-print-directory inner && $(MAKE) -s --no-print-directory inner CC=clang' --eval "$inner" outer
	assert_success
	assert_equal "$(grep -c '^words: tc.run:= ' <<< "$output")" 2
	assert_equal "$(grep -c "B: $BATS_TEST_TMPDIR/b\$" <<< "$output")" 2
	# gcc asked by the first make alone, clang by its own make; the build
	# directory resolved once
	assert_equal "$(grep -c '^gcc .*-dumpmachine' "$log")" 1
	assert_equal "$(grep -c '^clang .*-dumpmachine' "$log")" 1
	assert_equal "$(grep -c "^build-dir resolve $BATS_TEST_TMPDIR/b " "$log")" 1
}

@test "python started by make (a recipe, or a test make test runs) writes no bytecode beside the modules it imports" {
	d="$BATS_TEST_TMPDIR/py"; mkdir -p "$d" && echo 'x = 1' > "$d/m.py"
	run env -u PYTHONDONTWRITEBYTECODE make -s -C "$COPY" --no-print-directory B="$BATS_TEST_TMPDIR/b" \
		--eval "imports: ; @cd '$d' && python3 -c 'import m; print(m.x)'" imports
	assert_success
	assert_output 1
	run ls -A "$d"
	assert_output m.py
}

@test "a build directory handed down outside the run that locked it is resolved and guarded again" {
	tree=$(cd "$COPY" && pwd -P); b="$BATS_TEST_TMPDIR/x"
	run env -u SPLIT_STATE_LAB_LOCK SPLIT_STATE_LAB_B_FROM="$tree|$HOME|$b" SPLIT_STATE_LAB_B="$tree|$HOME|/" \
		make -s -C "$COPY" --no-print-directory B="$b" --eval 'where: ; @echo "B: $(B_ABS)"' where
	assert_success
	assert_output "B: $b"
}

# stop_run_bats SIG JOBS WHOM [QUIET]: stop_session on run-bats running two
# slow test files, JOBS at a time, once a test has started; prints how many
# ms it took to end. QUIET, its RUN_BATS_QUIET (default 15 s): 1 makes the
# quiet spell end while the stop is under way.
stop_run_bats() {
	local t="$BATS_TEST_TMPDIR/tmp"
	mkdir -p "$t" "$BATS_TEST_TMPDIR/slow"
	printf '@test "slow" { touch "%s"; sleep 60; }\n' "$BATS_TEST_TMPDIR/started" > "$BATS_TEST_TMPDIR/slow/slow.bats"
	printf '@test "slow too" { touch "%s"; sleep 60; }\n' "$BATS_TEST_TMPDIR/started" > "$BATS_TEST_TMPDIR/slow/slow2.bats"
	# started as a bats would start it, its own run directory where run-bats' are
	mkdir -p "$t/bats-run-outer"
	TMPDIR="$t" BATS_RUN_TMPDIR="$t/bats-run-outer" BATS_JOBS=$2 RUN_BATS_QUIET=${4:-15} \
		stop_session "$BATS_TEST_TMPDIR/started" "$1" "$3" "$TOP/scripts/run-bats" "$BATS_TEST_TMPDIR/slow"
}

@test "run-bats, stopped by SIGINT (Ctrl-C) or SIGTERM, serial or parallel, stops at once with its tests and leaves no temporary file" {
	# INT:2:pid:1: a stop that outlasts the quiet spell (bash's read -t
	# ran the trap and, at its timeout, dropped it half done: the run went
	# on to its end, 60 s, exit 0)
	for run in INT:1:group TERM:1:pid INT:2:group INT:2:pid TERM:2:pid:1; do
		IFS=: read -r sig jobs whom quiet <<< "$run"
		ms=$(stop_run_bats "$sig" "$jobs" "$whom" "$quiet")
		sleep 0.2
		run pgrep -f "$BATS_TEST_TMPDIR/slow"
		pkill -f "$BATS_TEST_TMPDIR/slow" || true
		assert_failure                         # no test process outlived it
		# The tests sleep 60 s: a run-bats that waited for them takes that
		# long. Stopping is a walk over the run's processes, a TERM, half a
		# second, a KILL: 5.3 and 7.1 s at a load of 20 on 2 cores.
		[ "$ms" -lt 20000 ] || fail "run-bats took $ms ms to stop after SIG$sig to its $whom${quiet:+ (quiet spell $quiet s)}"
		# nothing in TMPDIR but the caller's run directory: neither run-bats'
		# directory nor a bats-run-* of the bats it ran
		run find "$BATS_TEST_TMPDIR/tmp" -mindepth 1 -maxdepth 1
		assert_output "$BATS_TEST_TMPDIR/tmp/bats-run-outer"
	done
}

# A make's start, as it reads the Makefiles: the build directory resolved by
# the shell alone, and its lock taken by the call that resolved it once it
# is the suite's; a new one made by the lock's call, not by a mkdir.
@test "a make's start in a build directory of its own is one build-dir call; in a new one two, and no realpath or mkdir" {
	bin="$BATS_TEST_TMPDIR/bin"; log="$BATS_TEST_TMPDIR/started"
	log_calls "$bin" "$log" realpath mkdir
	b="$BATS_TEST_TMPDIR/sb"
	# (a HOME and a B that are not there yet: realpath's case before the shell resolved them)
	start() { env -u SPLIT_STATE_LAB_LOCK PATH="$bin:$PATH" HOME="$BATS_TEST_TMPDIR/no-home" \
		make -s -C "$COPY" --no-print-directory B="$b" --eval 'start: ; @:' start; }
	start || fail "the first make failed"
	assert_equal "$(cut -d' ' -f1-2 "$log")" "$(printf 'build-dir %s\n' resolve lock)"
	[ -f "$b/.split-state-lab-build" ] && [ -d "$b/cells/.new" ] || fail "the build directory was not made and marked: $(ls -A "$b")"
	first=$(cat "$b/.lock"); : > "$log"
	start || fail "the second make failed"
	assert_equal "$(cut -d' ' -f1-2 "$log")" "build-dir resolve"
	# the lock taken by the second make too: its line names that make
	grep -q '^pid [0-9]*, make start, since ' "$b/.lock" || fail "the lock names no holder: $(cat "$b/.lock")"
	[ "$(cat "$b/.lock")" != "$first" ] || fail "the second make did not take the lock"
}
