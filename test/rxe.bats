#!/usr/bin/env bats
# rxe-variant/: the incident on Debian's real rdma-core. Each test states one
# fact, read from the run-time output, ld.so's own account, or the binaries.
load helpers

setup_file() {
	load helpers
	rc=0
	sh "$TOP/rxe-variant/emulated.sh" "$BUILD/rxe-variant" capture >/dev/null 2> "$BATS_FILE_TMPDIR/emu.err" || rc=$?
	echo $rc > "$BATS_FILE_TMPDIR/emu.rc"
	lab_output rxe rxe RXE_TIER=emulated
	lab_output rxe-evidence evidence-rxe ROW=capture
	# The kernel tier decides for itself whether it can run; 77 = skip.
	rc=0
	sh "$TOP/rxe-variant/kernel.sh" "$BUILD/rxe-variant" capture fix-drop-duplicate \
		> "$BATS_FILE_TMPDIR/kernel.out" 2> "$BATS_FILE_TMPDIR/kernel.err" || rc=$?
	echo $rc > "$BATS_FILE_TMPDIR/kernel.rc"
	# The VM tier: one boot runs every row (the suite's time budget).
	rc=0
	sh "$TOP/rxe-variant/vm.sh" "$BUILD/rxe-variant" $(table_rows rxe) \
		> "$BATS_FILE_TMPDIR/vm.raw" 2> "$BATS_FILE_TMPDIR/vm.err" || rc=$?
	echo $rc > "$BATS_FILE_TMPDIR/vm.rc"
	"$TOP/scripts/verdict" < "$BATS_FILE_TMPDIR/vm.raw" > "$(out_file rxe-vm)"
	# the ABI number, asked once: the installed libibverbs.so.1 does not change under a run
	"$TOP/rxe-variant/verbs-abi" > "$BATS_FILE_TMPDIR/abi"
}

# Tests of the emulated tier skip with its reason where it cannot run
# (neither root nor unprivileged user namespaces).
setup() {
	case $BATS_TEST_DESCRIPTION in vm:* | kernel* | no\ leftovers* | emulated\ tier\ cannot\ run:*) return ;; esac
	read -r rc < "$BATS_FILE_TMPDIR/emu.rc"
	[ "$rc" = 77 ] && skip "$(tail -n 1 "$BATS_FILE_TMPDIR/emu.err")"
	[ "$rc" = 0 ] || fail "emulated tier: $(tail -n 1 "$BATS_FILE_TMPDIR/emu.err")"
}

# the emulated tier's run and the VM tier's (variables: tests ask them in loops)
R=$BATS_FILE_TMPDIR/rxe.out V=$BATS_FILE_TMPDIR/rxe-vm.out
# The VM tier ran, or this test skips with its reason / fails with the guest's line.
vm_ran() {
	read -r rc < "$BATS_FILE_TMPDIR/vm.rc"
	[ "$rc" = 77 ] && skip "$(tail -n 1 "$BATS_FILE_TMPDIR/vm.err")"
	[ "$rc" = 0 ] || fail "$(tail -n 1 "$BATS_FILE_TMPDIR/vm.err")"
}
# qemu_running: whether a QEMU of this build runs; pgrep missing or failing
# is an error, not a "no" (a minimal Debian 13 root has no procps).
# Only a QEMU under this root counts: two fresh-root checks side by side
# (plain chroots, one PID namespace) have the same build path, and one
# saw the other's guest.
qemu_running() {
	local rc=0 pids p
	pids=$(pgrep -f "qemu-system-x86_64 .*$BUILD/rxe-variant/") || rc=$?
	[ $rc -le 1 ] || { echo "pgrep failed (exit $rc): apt-get install procps" >&2; return 2; }
	for p in $pids; do [ /proc/"$p"/root/ -ef / ] && return 0; done
	return 1
}
abi() { local n; read -r n < "$BATS_FILE_TMPDIR/abi"; echo "$n"; }
# row_match FILE ID REGEX: the first group of each of the row's lines REGEX
# matches (read by the shell where the row's lines are, else by sed).
row_match() {
	local l
	if _row_lines "$1" "$2"; then
		for l in "${_rl[@]}"; do [[ ! $l =~ $3 ]] || printf '%s\n' "${BASH_REMATCH[1]}"; done
		return 0
	fi
	row "$1" "$2" | sed -nE "s/$3/\\1/p"
}
# The module the provider's slot for verbs_register_driver_N points into.
got_module() { row_match "$1" "$2" '^\[rxe provider GOT .* -> ([^ ]*) @0x.*'; }
got_addr()   { row_match "$1" "$2" '^\[rxe provider GOT .* @(0x[0-9a-f]*)\]$'; }
read_of()    { row_match "$1" "$2" "^\\[$3 get_device_list <- .*@(0x[0-9a-f]*)\\]\$"; }

@test "golden: normalised emulated tier equals expected/rxe.txt" {
	run golden_diff "$R" "$TOP/expected/rxe.txt"
	assert_success
}

@test "the ABI number in the output is the one libibverbs.so.1 exports" {
	n=$(abi)
	[ -n "$n" ]
	run grep -c "verbs_register_driver_$n@" "$R"
	assert_success
	# every ABI number in the output is that one
	run sh -c "grep -oE 'verbs_register_driver_[0-9]+@' '$R' | sort -u"
	assert_output "verbs_register_driver_$n@"
}

@test "rdma-core's facts are asked once per build directory: a make after the build asks pkg-config nothing" {
	# pkg-config blinded: a make that asked would find no rdma-core
	run env PKG_CONFIG_LIBDIR="$BATS_TEST_TMPDIR/none" make -n -s -C "$TOP" --no-print-directory evidence-rxe RXE_TIER=emulated
	assert_success
	assert_line --regexp "^sh rxe-variant/evidence\.sh [^ ]+/rxe-variant $(abi) "
	refute_output --partial 'needs rdma-core'
}

@test "capture: in-house (copy A) sees rxe0" {
	n=$(expect_consumers rxe capture | tr ',' '\n' | sed -n 's/^in-house://p')
	[ "${n:-0}" -gt 0 ] || fail "the table expects no device for in-house in capture"
	run row "$R" capture
	assert_line "in-house sees $n device(s): rxe0   [OK -- reads the copy the registration landed in]"
}

@test "capture: the provider's registration slot points into the bundle copy" {
	assert_equal "$(got_module "$R" capture)" libibverbs-bundle.so.1
}

@test "capture: the slot holds copy A's entry point, not copy B's" {
	got=$(got_addr "$R" capture)
	[ -n "$got" ]
	assert_equal "$(read_of "$R" capture in-house)" "$got"
	[ "$(read_of "$R" capture NCCL-like)" != "$got" ]
}

# meets_table FILE: every row of rxe-variant/rows is in FILE, and its derived
# verdict and counts are the row's expect cell.
meets_table() {
	for r in $(table_rows rxe); do
		grep -q "^== $r: " "$1" || fail "row $r did not run"
		assert_equal "$(fact "$1" "$r" verdict) $(fact "$1" "$r" consumers)" "$(table_cell rxe "$r" expect)"
	done
}

@test "emulated tier: every row's derived verdict and counts are its expect cell" {
	meets_table "$R"
}

@test "capture: ld.so itself bound the provider's import to the bundle (LD_DEBUG=bindings)" {
	run grep -E "binding file librxe-rdmav[0-9]+\.so .* to libibverbs-bundle\.so\.1 .*verbs_register_driver_$(abi)'" "$(out_file rxe-evidence)"
	assert_success
}

@test "emulated tier: ibv_open_device fails and the lab says so" {
	run row "$R" capture
	assert_line --regexp '^in-house: ibv_open_device\(rxe0\) failed: .+'
}

@test "same-soname: one instance, both consumers read the address the provider wrote" {
	got=$(got_addr "$R" same-soname)
	assert_equal "$(read_of "$R" same-soname in-house)" "$got"
	assert_equal "$(read_of "$R" same-soname NCCL-like)" "$got"
}

@test "fix-static-canonical: the app exports no ibv_* symbol" {
	run elf_facts "$BUILD/rxe-variant/fix-static-canonical/rxe-lab"
	assert_success
	refute_line --regexp '^sym ibv_'
}

@test "static-exported: the app exports the static copy's ibv_* symbols" {
	run elf_facts "$BUILD/rxe-variant/static-exported/rxe-lab"
	assert_equal "$(grep -c '^sym ibv_get_device_list ' <<< "$output")" 1
}

@test "static-exported: the provider's public import (ibv_query_gid) is captured by the app" {
	run row "$R" static-exported
	assert_line "rxe provider's slot for ibv_query_gid binds to: rxe-lab"
	run row "$R" fix-static-canonical
	assert_line "rxe provider's slot for ibv_query_gid binds to: libibverbs.so.1"
}

@test "static-exported: registration is not captured, because libibverbs.a renames its private symbols" {
	run nm "$BUILD/rxe-variant/static-exported/rxe-lab"
	assert_output --regexp " T [a-z0-9_]+_verbs_register_driver_$(abi)"
	refute_output --regexp " T verbs_register_driver_$(abi)\$"
	assert_equal "$(got_module "$R" static-exported)" libibverbs.so.1
}

@test "kernel tier: runs where the kernel has rdma_rxe, otherwise skips with the reason" {
	rc=$(cat "$BATS_FILE_TMPDIR/kernel.rc")
	if [ "$rc" = 77 ]; then
		skip "$(tail -n 1 "$BATS_FILE_TMPDIR/kernel.err")"
	fi
	assert_equal "$rc" 0
	k="$BATS_FILE_TMPDIR/kernel.out"
	assert_equal "$(count "$k" capture in-house)" 1
	assert_equal "$(count "$k" capture NCCL-like)" 0
	run row "$k" capture
	assert_line "in-house: ibv_open_device(rxe0) ok"
	assert_line --regexp '^in-house: ibv_query_port\(1\) ok'
	assert_equal "$(count "$k" fix-drop-duplicate NCCL-like)" 1
}

@test "emulated tier: in a chroot whose / is not a mount point it skips with the reason" {
	[ "$(id -u)" = 0 ] || skip "needs root to chroot"
	need_private_mounts                      # to bind the host's programs into the root
	d="$BATS_TEST_TMPDIR/root"
	mkdir -p "$d/usr" "$d/top" "$d/build" "$d/dev" "$d/tmp"
	: > "$d/dev/null"
	for l in bin sbin lib lib64; do ln -s "usr/$l" "$d/$l"; done
	# The host's programs under a root that is a plain directory, the build
	# directory (B, wherever it is) at /build; the binds live in a private
	# mount namespace and end with it.
	run unshare --mount --propagation private sh -c "
		mount --bind /usr '$d/usr' && mount --bind '$TOP' '$d/top' && mount --bind '$BUILD' '$d/build' &&
		mount --bind /dev/null '$d/dev/null' &&
		chroot '$d' sh /top/rxe-variant/tiers.sh /build/rxe-variant emulated capture"
	assert_success
	assert_line --regexp '^tier: emulated skipped: emulated tier needs a private mount namespace: .*mount point'
	refute_output --partial FAILED
}

@test "emulated tier cannot run: where no private mount namespace can be made (unshare fails, as in a plain chroot), its evidence run still has every row, skipped with the reason" {
	unshare_fails "$BATS_TEST_TMPDIR/bin"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" sh "$TOP/rxe-variant/evidence.sh" "$BUILD/rxe-variant" "$(abi)" $(table_rows rxe) \
		> "$BATS_TEST_TMPDIR/out" 2> "$BATS_TEST_TMPDIR/err" || fail "evidence.sh failed: $(tail -n 1 "$BATS_TEST_TMPDIR/err")"
	for r in $(table_rows rxe); do
		run row "$BATS_TEST_TMPDIR/out" "$r"
		assert_line --regexp "^== $r: \[emulated tier\] "
		# root needs a private mount namespace, a user a user namespace: either way unshare
		assert_line --regexp '^\[skipped: emulated tier needs .*unshare.*\]$|^\[skipped: emulated tier needs root or unprivileged user namespaces'
		refute_line --regexp '^  \| '
	done
	run "$TOP/scripts/verdict" --facts < "$BATS_TEST_TMPDIR/out"
	assert_equal "$(grep -c ' verdict=skipped ' <<< "$output")" "$(table_rows rxe | wc -w)"
	# and in check-toolchains (a stand-in for gcc:bfd's column, one row run
	# anew): a line of the table, skipped with the reason, not missing
	r=$(table_rows rxe | awk '{ print $1 }')
	make -s -C "$TOP" --no-print-directory B="$BUILD" "$BUILD/toolchains/expect.tsv"
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$TOP/scripts/toolchain-facts" gcc:bfd "$BATS_TEST_TMPDIR/tc/gcc+bfd" "$BUILD" \
		"rxe=evidence-rxe RXE_TIER=emulated ROW=$r"
	assert_success
	run "$TOP/scripts/toolchain-table" "$BUILD/toolchains/expect.tsv" "$BATS_TEST_TMPDIR/tc" gcc:bfd
	assert_success
	assert_line --regexp "^rxe:$r +$(expect_verdict rxe "$r") +- *\$"
	assert_line --regexp "^skipped: gcc:bfd rxe:$r -- emulated tier needs "
}

@test "emulated tier cannot run: make rxe RXE_TIER=emulated still prints every row, skipped with the reason, and exits 0" {
	unshare_fails "$BATS_TEST_TMPDIR/bin"
	# what make rxe RXE_TIER=emulated runs (rxe-variant/tiers.mk), its kept
	# run aside: the tiers, then the verdicts of a lab's own run
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" sh "$TOP/rxe-variant/tiers.sh" "$BUILD/rxe-variant" emulated $(table_rows rxe) \
		> "$BATS_TEST_TMPDIR/raw" 2> "$BATS_TEST_TMPDIR/err" || fail "tiers.sh failed: $(tail -n 1 "$BATS_TEST_TMPDIR/err")"
	run grep '^tier: emulated skipped: emulated tier needs ' "$BATS_TEST_TMPDIR/err"
	assert_success
	run "$TOP/scripts/verdict" --must-run < "$BATS_TEST_TMPDIR/raw"
	assert_success
	for r in $(table_rows rxe); do
		assert_line --regexp "^== $r: \[emulated tier\] "
	done
	assert_equal "$(grep -c '^verdict: skipped (emulated tier needs ' <<< "$output")" "$(table_rows rxe | wc -w)"
	refute_line --partial '[run failed]'
}

@test "vm: golden: normalised guest rows equal expected/rxe-vm.txt" {
	vm_ran
	run golden_diff "$V" "$TOP/expected/rxe-vm.txt"
	assert_success
}

@test "vm: every row ran in the guest, and its derived verdict and counts are its expect cell" {
	vm_ran
	for r in $(table_rows rxe); do
		run grep -c "^== $r: \[vm tier\]" "$V"
		assert_output 1
	done
	meets_table "$V"
}

@test "vm: capture: in-house opens the real rxe0 and creates a QP" {
	vm_ran
	run row "$V" capture
	assert_line "in-house: ibv_open_device(rxe0) ok"
	assert_line --regexp '^in-house: ibv_query_device ok'
	assert_line --regexp '^in-house: ibv_query_port\(1\) ok'
	assert_line "in-house: PD ok, CQ ok, RC QP ok"
}

@test "vm: capture: the registration went to the bundle" {
	vm_ran
	assert_equal "$(got_module "$V" capture)" libibverbs-bundle.so.1
}

@test "vm: fixed rows: both consumers open rxe0 and create a QP" {
	vm_ran
	rows=$(rows_expecting rxe no-split | grep '^fix-')
	[ -n "$rows" ] || fail "no fix row expects no-split in the rxe table"
	for r in $rows; do
		run row "$V" "$r"
		for who in in-house NCCL-like; do
			n=$(expect_consumers rxe "$r" | tr ',' '\n' | sed -n "s/^$who://p")
			assert_line "$who sees $n device(s): rxe0   [OK -- reads the copy the registration landed in]"
			assert_line "$who: ibv_open_device(rxe0) ok"
			assert_line "$who: PD ok, CQ ok, RC QP ok"
		done
	done
}

@test "vm: no qemu process is left behind" {
	vm_ran
	run qemu_running
	assert_failure 1
}

@test "vm: a guest whose console stays silent is stopped, with a reason" {
	vm_ran
	# A guest that prints nothing: a stand-in QEMU that sleeps under the real
	# one's command line. A real guest prints its boot without a pause of a
	# second on an idle host, so it could not show the silence limit there.
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/bash\nexec -a "qemu-system-x86_64 $*" sleep 30\n' > "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	chmod +x "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" RXE_VM_TIMEOUT=1 run sh "$TOP/rxe-variant/vm.sh" "$BUILD/rxe-variant" capture
	assert_failure
	assert_output --regexp '^vm tier: guest timed out after 1s without console output'
	run qemu_running
	assert_failure 1
}

@test "vm: a guest that keeps printing is still stopped by the hard cap, with a reason" {
	vm_ran
	RXE_VM_TIMEOUT=60 RXE_VM_TIMEOUT_MAX=2 run sh "$TOP/rxe-variant/vm.sh" "$BUILD/rxe-variant" capture
	assert_failure
	assert_output --regexp '^vm tier: guest timed out after 2s in all \(RXE_VM_TIMEOUT_MAX; '
	run qemu_running
	assert_failure 1
}

@test "vm: a timeout that is not whole seconds is refused in one line" {
	RXE_VM_TIMEOUT_MAX=1m run sh "$TOP/rxe-variant/vm.sh" "$BUILD/rxe-variant" capture
	assert_failure 1
	assert_output "vm tier: RXE_VM_TIMEOUT_MAX must be a whole number of seconds, not '1m'"
}

@test "vm: a guest kernel panic is reported by its own message, not the trace's last line" {
	vm_ran
	# an initramfs that is no cpio, newer than every input so it is kept:
	# the kernel finds no /init and no root device, and panics
	b="$BATS_TEST_TMPDIR/b"
	mkdir "$b"
	head -c 4096 /dev/zero | tr '\0' x > "$b/vm-initramfs.cpio"
	RXE_VM_CACHE="${RXE_VM_CACHE:-$BUILD/rxe-variant/vm-cache}" run sh "$TOP/rxe-variant/vm.sh" "$b" capture
	assert_failure 1
	assert_output --regexp '^vm tier: guest kernel panicked: [^ ]'
	run qemu_running
	assert_failure 1
}

@test "vm: Ctrl-C to make stops QEMU at once and leaves no console file behind" {
	vm_ran
	b="$BUILD/rxe-variant"
	# `timeout -s INT N make rxe-vm` with N chosen for us: the signal is sent
	# once QEMU runs. timeout passes it to make's whole process group, as a
	# terminal's Ctrl-C does; the inner timeout around QEMU is not in it.
	# (Started by timeout, make has SIGINT at its default, although the
	# shell ignores it for background jobs.)
	timeout -s INT 120 make -s -C "$TOP" --no-print-directory B="$BUILD" rxe-vm >/dev/null 2>&1 &
	pid=$!
	# up to a minute: on a loaded machine (a fresh root's first make test
	# beside other runs) make's parse and the guest's start took over 20 s
	for _ in $(seq 600); do
		qemu_running && break
		sleep 0.1
	done
	run qemu_running
	assert_success "QEMU never started"
	t0=$(date +%s%N)
	kill -INT "$pid"
	wait "$pid" || true
	# make ends at once (it used to wait for the guest to finish its rows, with
	# QEMU running on in its own process group), and QEMU has ended with it.
	elapsed_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$elapsed_ms" -lt 3000 ] || fail "make took ${elapsed_ms} ms to stop after SIGINT"
	run qemu_running
	assert_failure 1
	run sh -c "ls '$b' | grep -E '^vm-console\\.' | grep -vx 'vm-console.log'"
	assert_output ''
}

@test "vm: modules are found compressed (.ko.xz, .ko.zst) under usr/lib/modules, and stored plain" {
	vm_ran
	kdir=$(sh "$TOP/rxe-variant/vm-kernel.sh" "${RXE_VM_CACHE:-$BUILD/rxe-variant/vm-cache}")
	t="$BATS_TEST_TMPDIR"
	mkdir -p "$t/usr/lib/modules/9.9/kernel/net" "$t/out"
	# Debian 13 packs its modules with xz; other kernels use zstd.
	xz -c "$kdir/modules/rdma_rxe.ko" > "$t/usr/lib/modules/9.9/kernel/net/rdma_rxe.ko.xz"
	for m in $(grep -vx rdma_rxe "$kdir/modules/load-order"); do
		zstd -qc "$kdir/modules/$m.ko" > "$t/usr/lib/modules/9.9/kernel/net/$m.ko.zst"
	done
	run sh "$TOP/rxe-variant/vm-modules.sh" "$t/usr/lib/modules/9.9" "$t/out" rdma_rxe
	assert_success
	assert_equal "$(cat "$t/out/load-order")" "$(grep -v -e crc32_generic -e '^dummy$' "$kdir/modules/load-order")"
	cmp "$t/out/rdma_rxe.ko" "$kdir/modules/rdma_rxe.ko"
}

# kernel_fetch MODE: vm-kernel.sh on an empty cache, with an apt-get that
# fails (fail), hands over a file that is no package (wrong), or writes half
# a package and hangs until it is stopped (hang); its calls in $t/apt.log.
kernel_fetch() {
	t="$BATS_TEST_TMPDIR"; cache="$t/cache"
	mkdir -p "$t/bin" "$cache"
	# apt's binary cache, as vm-kernel.sh keeps it in its cache: the vm
	# tier's copy when it ran (apt checks it against its lists and rebuilds
	# it if stale); otherwise built once here, for this lookup and the script's.
	seed=${RXE_VM_CACHE:-$BUILD/rxe-variant/vm-cache}
	for f in pkgcache.bin srcpkgcache.bin; do [ ! -f "$seed/$f" ] || cp "$seed/$f" "$cache/"; done
	pkg=$(apt-cache -o Dir::Cache::pkgcache="$cache/pkgcache.bin" -o Dir::Cache::srcpkgcache="$cache/srcpkgcache.bin" \
		depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
	[ -n "$pkg" ] || skip "apt's index has no linux-image-amd64 (apt-get update?)"
	cat > "$t/bin/apt-get" <<-EOF
	#!/bin/sh
	echo "\$*" >> "$t/apt.log"
	case $1 in
	wrong) echo "not a package" > "\${2}_1_amd64.deb" ;;
	hang) head -c 100000 /dev/zero > "\${2}_1_amd64.deb"; cut -d' ' -f5 /proc/\$\$/stat > "$t/pgid"; exec sleep 30 ;;
	*) exit 100 ;;
	esac
	EOF
	chmod +x "$t/bin/apt-get"
}

@test "vm: kernel cache: a truncated .deb left in the cache by an interrupted run is not used, but fetched again" {
	kernel_fetch fail
	head -c 4096 /dev/zero > "$cache/${pkg}_1_amd64.deb"
	PATH="$t/bin:$PATH" run sh "$TOP/rxe-variant/vm-kernel.sh" "$cache"
	assert_equal "$status" 77
	assert_output "cannot download $pkg (apt-get download failed)"
	assert_equal "$(cat "$t/apt.log")" "download $pkg"
	assert_equal "$(ls "$cache" | grep -c '\.deb$')" 0
}

@test "vm: kernel cache: a download that does not match the archive's checksum is not cached" {
	kernel_fetch wrong
	PATH="$t/bin:$PATH" run sh "$TOP/rxe-variant/vm-kernel.sh" "$cache"
	assert_equal "$status" 77
	assert_output "the downloaded $pkg does not match the archive's checksum: not cached"
	assert_equal "$(ls -A "$cache" | grep -E -c '\.deb$|^partial')" 0
}

@test "vm: kernel cache: Ctrl-C during the download leaves no .deb in the cache and no partial download" {
	kernel_fetch hang
	# in a process group of its own, which gets the SIGINT once half the
	# package is written, as a terminal's Ctrl-C reaches every process (a job
	# started with & has SIGINT ignored: env puts it back)
	PATH="$t/bin:$PATH" env --default-signal=INT setsid sh "$TOP/rxe-variant/vm-kernel.sh" "$cache" 2>/dev/null &
	pid=$!
	for _ in $(seq 300); do [ -s "$t/pgid" ] && break; sleep 0.1; done
	[ -s "$t/pgid" ] || { kill "$pid"; fail "the download never started"; }
	kill -INT -- "-$(cat "$t/pgid")"
	t0=$(date +%s)
	wait "$pid" || true
	[ $(( $(date +%s) - t0 )) -lt 10 ] || fail "the fetch did not stop at the signal"
	assert_equal "$(cat "$t/apt.log")" "download $pkg"
	assert_equal "$(ls -A "$cache" | grep -E -c '\.deb$|^partial')" 0
}

@test "no leftovers: no lab mount, no /dev/infiniband on the host" {
	run grep -E 'rxe-lab' /proc/mounts
	assert_failure
	# A host with real RDMA hardware has its own nodes; then there is nothing to check.
	[ -d /sys/class/infiniband ] || [ ! -e /dev/infiniband ]
	# the stage exists only where the emulated tier ran
	[ ! -e "$BUILD/rxe-variant/dev-stage" ] || { run ls "$BUILD/rxe-variant/dev-stage"; assert_output ""; }
}

@test "no leftovers: no lab network namespace, no rxe link" {
	run sh -c "ip netns list 2>/dev/null | grep rxe-lab"
	assert_failure
	if command -v rdma >/dev/null; then
		run sh -c "rdma link show 2>/dev/null | grep -E 'rxe-lab|netdev rxe-lab'"
		assert_failure
	fi
}
