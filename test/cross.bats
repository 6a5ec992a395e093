#!/usr/bin/env bats
# Cross builds: RUN, the prefix of every program a lab starts; the target's
# binutils from the compiler; a cross compiler with nothing to run its
# programs; the labs a cross column leaves out. Cheap: one row per lab, fake
# compilers that wrap gcc, and one real aarch64 row where the cross tools are
# installed (make check-toolchains TOOLCHAINS="gcc:bfd aarch64-linux-gnu-gcc:bfd"
# is the full column).
load helpers

# The labs whose rows run programs under RUN (rxe is native-only, see below).
LABS_RUN="matrix fixes scope-capture route-b archive-order loader-errors"

# fake_cc NAME MACHINE: a compiler NAME in $BATS_TEST_TMPDIR/bin that is gcc,
# except that -dumpmachine says MACHINE and -print-prog-name=T says /fake/T.
fake_cc() {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cat > "$BATS_TEST_TMPDIR/bin/$1" <<-EOF
	#!/bin/sh
	case "\$1" in
	-dumpmachine) echo $2; exit 0 ;;
	-print-prog-name=*) echo "/fake/\${1#-print-prog-name=}"; exit 0 ;;
	esac
	exec gcc "\$@"
	EOF
	chmod +x "$BATS_TEST_TMPDIR/bin/$1"
}

# hand_down_toolchain ENV...: the toolchain read once (toolchain_read) under
# `env ENV...` and exported as make hands it down, so that the makes of a
# loop with that RUN take it rather than each asking the compiler and the
# linker again (a probe and a report, about 20 processes a make).
hand_down_toolchain() {
	toolchain_read "$TOP" "$@" || fail "make -n read no toolchain under $*"
	export SPLIT_STATE_LAB_TC=$tc_key SPLIT_STATE_LAB_TC_WORDS=$tc_words
}

# first_run_row LAB: the first row whose directory holds a program.
first_run_row() { local r; for r in $(table_rows "$1"); do [ -x "$BUILD/$1/$r/app" ] && { echo "$r"; return; }; done; }

@test "RUN: every lab's run and evidence start the row's programs through it, and only those" {
	log=$BATS_TEST_TMPDIR/ran
	printf '#!/bin/sh\nprintf "%%s\\n" "$(cd "$(dirname "$1")" && pwd)/${1##*/}" >> %s\nexec "$@"\n' "$log" > "$BATS_TEST_TMPDIR/runner"
	chmod +x "$BATS_TEST_TMPDIR/runner"
	hand_down_toolchain RUN="$BATS_TEST_TMPDIR/runner"
	for lab in $LABS_RUN; do
		r=$(first_run_row "$lab"); [ -n "$r" ] || fail "$lab: no row with a program in $BUILD/$lab (build the labs first)"
		: > "$log"
		make -s -C "$TOP" --no-print-directory "$lab" ROW="$r" EVIDENCE=1 RUN="$BATS_TEST_TMPDIR/runner" > "$BATS_TEST_TMPDIR/out"
		dir=$(cd "$BUILD/$lab/$r" && pwd)
		grep -qxF "$dir/app" "$log" || fail "$lab:$r: $dir/app was not started through RUN (ran: $(sort -u "$log" | tr '\n' ' '))"
		others=$(grep -vF "$dir/" "$log" | sort -u) || true
		[ -z "$others" ] || fail "$lab:$r: RUN started something outside the row: $others"
		# the runner is transparent: the row's verdict is its expect cell's
		assert_equal "$lab:$r $(fact "$BATS_TEST_TMPDIR/out" "$r" verdict)" "$lab:$r $(expect_verdict "$lab" "$r")"
	done
}

@test "RUN: a runner that runs nothing leaves no row its verdict (no program starts around it)" {
	hand_down_toolchain RUN=false
	for lab in $LABS_RUN; do
		r=$(first_run_row "$lab")
		# exit 1 where the row is "run failed" (no row ran: verdict --must-run), 0 where a verdict says how it failed
		make -s -C "$TOP" --no-print-directory "$lab" ROW="$r" RUN=false > "$BATS_TEST_TMPDIR/out" 2> /dev/null || true
		v=$(fact "$BATS_TEST_TMPDIR/out" "$r" verdict)
		[ "$v" != "$(expect_verdict "$lab" "$r")" ] || fail "$lab:$r: verdict $v although RUN=false ran nothing"
	done
}

@test "binutils: a cross compiler's AR, NM, OBJCOPY, OBJDUMP and READELF are its own (-print-prog-name), also for the scripts" {
	fake_cc fakecross sparc99-unknown-linux-gnu
	probe='probe-binutils: ; @echo $(AR) $(NM) $(OBJCOPY) $(OBJDUMP) $(READELF) "$$LAB_AR $$LAB_NM $$LAB_OBJDUMP $$LAB_READELF"'
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" RUN=true make -s -C "$TOP" --no-print-directory CC=fakecross --eval "$probe" probe-binutils
	assert_success
	assert_output '/fake/ar /fake/nm /fake/objcopy /fake/objdump /fake/readelf /fake/ar /fake/nm /fake/objdump /fake/readelf'
	# NM= on the command line wins
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" RUN=true make -s -C "$TOP" --no-print-directory CC=fakecross NM=mynm --eval 'probe-nm: ; @echo $(NM)' probe-nm
	assert_output mynm
	# natively the bare names, with no driver call asked (make asks at every
	# start: five calls of clang cost 0.2 s; Debian's gcc and clang answer
	# the bare name or /usr/bin/<tool>, the same programs); ar and nm told
	# the binutils' own object format (objdump -i's first), so that they do
	# not load every installed linker plugin to try it
	fake_cc fakecc "$(gcc -dumpmachine)"
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" make -s -C "$TOP" --no-print-directory CC=fakecc --eval "$probe" probe-binutils
	assert_success
	t=$(objdump -i | sed -n 2p)
	assert_output "ar --target=$t nm --target=$t objcopy objdump readelf ar --target=$t nm --target=$t objdump readelf"
}

@test "a cross compiler with no emulator: one line naming what is missing, before any job; check-toolchains lists it skipped" {
	fake_cc fakecross sparc99-unknown-linux-gnu
	export PATH="$BATS_TEST_TMPDIR/bin:$PATH"
	run "$TOP/scripts/toolchain" --check fakecross bfd
	assert_failure 3
	assert_output "toolchain: fakecross builds for sparc99, this machine is $(uname -m): its programs need qemu-sparc99-static (Debian: qemu-user-static) or RUN=<runner>"
	run make -s -C "$TOP" --no-print-directory matrix CC=fakecross
	assert_failure 2
	assert_line --index 0 --partial "its programs need qemu-sparc99-static"
	"$TOP/scripts/toolchain-facts" fakecross:bfd "$BATS_TEST_TMPDIR/tc/fakecross+bfd" "$BATS_TEST_TMPDIR/tc/build" matrix=matrix
	printf 'matrix:A\tno-split collective:2,app:2\tx\n' > "$BATS_TEST_TMPDIR/expect.tsv"
	run "$TOP/scripts/toolchain-table" "$BATS_TEST_TMPDIR/expect.tsv" "$BATS_TEST_TMPDIR/tc" fakecross:bfd
	assert_line "skipped: fakecross:bfd -- fakecross builds for sparc99, this machine is $(uname -m): its programs need qemu-sparc99-static (Debian: qemu-user-static) or RUN=<runner>"
	# RUN= names another runner: the toolchain can be used
	RUN=true run "$TOP/scripts/toolchain" --check fakecross bfd
	assert_success
}

@test "a cross column leaves a native-only lab out with its reason, and the table shows it so, not as a failure" {
	fake_cc fakecross sparc99-unknown-linux-gnu
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" RUN=true "$TOP/scripts/toolchain-facts" fakecross:bfd "$BATS_TEST_TMPDIR/tc/fakecross+bfd" \
		"$BATS_TEST_TMPDIR/tc/build" 'rxe=evidence-rxe|needs this machine||'
	run grep -v '^toolchain ' "$BATS_TEST_TMPDIR/tc/fakecross+bfd/facts"
	assert_output 'rxe:* skipped natively only (sparc99 is not this machine): needs this machine'
	# a lab with native-only rows: those rows are "-" with the reason, the others are checked
	mkdir -p "$BATS_TEST_TMPDIR/tc/gcc+bfd"
	printf '%s\n' 'toolchain cc: gcc 12' 'matrix:A verdict=no-split consumers=collective:2,app:2' 'matrix:B verdict=SPLIT' > "$BATS_TEST_TMPDIR/tc/gcc+bfd/facts"
	printf '%s\n' 'toolchain cc: x' 'matrix:A verdict=no-split consumers=collective:2,app:2' 'matrix:B skipped natively only (sparc99 is not this machine): why' \
		'rxe:* skipped natively only (sparc99 is not this machine): needs this machine' > "$BATS_TEST_TMPDIR/tc/fakecross+bfd/facts"
	printf 'matrix:A\tno-split\tx\nmatrix:B\tSPLIT\tx\n' > "$BATS_TEST_TMPDIR/expect.tsv"
	run "$TOP/scripts/toolchain-table" "$BATS_TEST_TMPDIR/expect.tsv" "$BATS_TEST_TMPDIR/tc" gcc:bfd fakecross:bfd
	assert_success
	assert_line --regexp '^matrix:B +SPLIT +SPLIT +- *$'
	assert_line 'skipped: fakecross:bfd matrix:B -- natively only (sparc99 is not this machine): why'
	assert_line 'skipped: fakecross:bfd rxe:* -- natively only (sparc99 is not this machine): needs this machine'
	# without the skip line the row is missing, and that fails
	sed -i '/^matrix:B skipped/d' "$BATS_TEST_TMPDIR/tc/fakecross+bfd/facts"
	run "$TOP/scripts/toolchain-table" "$BATS_TEST_TMPDIR/expect.tsv" "$BATS_TEST_TMPDIR/tc" gcc:bfd fakecross:bfd
	assert_failure 1
	assert_line 'unexpected: matrix:B under fakecross:bfd: missing, expected SPLIT'
}

@test "make deps-cross: a user gets the apt line for the cross tools to run as root; root installs them in one announced step" {
	bin=$BATS_TEST_TMPDIR/bin; mkdir -p "$bin"
	# stand-ins: no package installed; a user (uid 1000), then root with an apt-get that installs nothing
	printf '#!/bin/sh\necho "unknown ok not-installed"\n' > "$bin/dpkg-query"
	printf '#!/bin/sh\n[ "$1" = -u ] && echo 1000 || exec /usr/bin/id "$@"\n' > "$bin/id"
	printf '#!/bin/sh\necho "$*" >> %s/apt-args\n' "$BATS_TEST_TMPDIR" > "$bin/apt-get"
	chmod +x "$bin"/*
	run env PATH="$bin:$PATH" make -s -C "$TOP" --no-print-directory deps-cross
	assert_failure
	assert_output --regexp '^deps: missing Debian packages for the aarch64 column .*: .*gcc-aarch64-linux-gnu.* -- run as root: apt-get install -y --no-install-recommends .*qemu-user-static'
	refute_output --partial sudo
	[ ! -e "$BATS_TEST_TMPDIR/apt-args" ] || fail "a user's make deps-cross ran apt-get"
	printf '#!/bin/sh\n[ "$1" = -u ] && echo 0 || exec /usr/bin/id "$@"\n' > "$bin/id"
	run env PATH="$bin:$PATH" make -s -C "$TOP" --no-print-directory deps-cross
	assert_success
	assert_line --index 0 --regexp '^deps: installing .*gcc-aarch64-linux-gnu.* for the aarch64 column .* \(as root, with apt-get\)$'
	grep -q 'install -y --no-install-recommends .*libc6-dev-arm64-cross' "$BATS_TEST_TMPDIR/apt-args" || fail "apt-get was not asked for the cross C library"
}

@test "aarch64: a matrix row built by the cross compiler runs under qemu, and its evidence counts aarch64 relocations" {
	command -v aarch64-linux-gnu-gcc >/dev/null || skip "no aarch64-linux-gnu-gcc (Debian: gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
	command -v qemu-aarch64-static >/dev/null || skip "no qemu-aarch64-static (Debian: qemu-user-static)"
	run make -s -C "$TOP" --no-print-directory B="$BATS_FILE_TMPDIR/a64" CC=aarch64-linux-gnu-gcc matrix ROW=A EVIDENCE=1
	assert_success
	assert_line --regexp '^toolchain: target: aarch64-linux-gnu, programs run by: qemu-aarch64-static -L /'
	echo "$output" > "$BATS_TEST_TMPDIR/out"
	assert_equal "$(fact "$BATS_TEST_TMPDIR/out" A verdict)" "$(expect_verdict matrix A)"
	# R_AARCH64_JUMP_SLOT counted by its suffix: row A keeps the .so's calls to its own exports preemptible
	assert_line --regexp 'libverbs_shared.so: own-export relocations=JUMP_SLOT:[1-9]'
	run readelf -h "$BATS_FILE_TMPDIR/a64/matrix/A/app"
	assert_line --regexp 'Machine: +AArch64'
	# an empty RUN is no runner given, not "start the programs bare"
	RUN= run make -s -C "$TOP" --no-print-directory B="$BATS_FILE_TMPDIR/a64" CC=aarch64-linux-gnu-gcc matrix ROW=A
	assert_success
	assert_equal "$(fact <(echo "$output") A verdict)" "$(expect_verdict matrix A)"
}

@test "aarch64: the column beside gcc:bfd (matrix and archive-order, where the architectures differ): every cell as expected, every evidence difference recorded with its reason" {
	command -v aarch64-linux-gnu-gcc >/dev/null || skip "no aarch64-linux-gnu-gcc (Debian: gcc-aarch64-linux-gnu libc6-dev-arm64-cross; make deps-cross)"
	command -v qemu-aarch64-static >/dev/null || skip "no qemu-aarch64-static (Debian: qemu-user-static; make deps-cross)"
	# the columns in a directory of their own; gcc:bfd, where it is the
	# make's toolchain, is the labs' build and runs in $BUILD (make test's),
	# read again rather than built again
	run make -s -C "$TOP" --no-print-directory TOOLCHAINS_DIR="$BATS_FILE_TMPDIR/column" LAB="matrix archive-order" check-toolchains TOOLCHAINS="gcc:bfd aarch64-linux-gnu-gcc:bfd"
	assert_success
	assert_line --regexp '^check-toolchains: every cell as expected '
	refute_output --regexp ' \* '
	refute_output --partial 'UNEXPLAINED'
	# the differences it accepted are the ones the list gives a reason for
	grep -A1 '^  aarch64-linux-gnu-gcc:bfd ' <<< "$output" | grep -q '^      known: ' || fail "no aarch64 evidence difference shown with its reason"
}

@test "aarch64: make diagrams draws a loader row from the emulated interpreter's own ld.so --list" {
	command -v aarch64-linux-gnu-gcc >/dev/null || skip "no aarch64-linux-gnu-gcc (Debian: gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
	command -v qemu-aarch64-static >/dev/null || skip "no qemu-aarch64-static (Debian: qemu-user-static)"
	command -v dot >/dev/null || skip "no dot (Debian: graphviz)"
	run make -s -C "$TOP" --no-print-directory B="$BATS_FILE_TMPDIR/a64" CC=aarch64-linux-gnu-gcc diagrams LAB=loader-errors ROW=version-not-found
	assert_success
	# where libv.so.1 resolved is the loader's record, not "never looked up"
	run grep -c 'ld.so &#45;&#45;list: lib/libv.so.1' "$BATS_FILE_TMPDIR/a64/diagrams/loader-errors/version-not-found.svg"
	assert_output 1
}
