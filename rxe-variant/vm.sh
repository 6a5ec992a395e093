#!/bin/sh
# VM tier: boots Debian's own kernel under QEMU with an initramfs holding the
# lab, so rdma_rxe gives a real soft-RoCE rxe0 even where the host kernel has
# none; prints the rows' output taken from the guest's serial console.
# usage: vm.sh <rxe build dir> row...     exit 77 = tier cannot run here
set -u
here=$(dirname "$0")
b=$1
shift
skip() { echo "$1" >&2; exit 77; }
fail() { echo "vm tier: $1" >&2; exit 1; }
command -v qemu-system-x86_64 >/dev/null ||
	skip "vm tier needs qemu-system-x86 (apt-get install qemu-system-x86)"

# The kernel cache may be shared between build dirs (RXE_VM_CACHE).
cache=${RXE_VM_CACHE:-$b/vm-cache}
kdir=$(sh "$here/vm-kernel.sh" "$cache") || exit $?
cpio=$b/vm-initramfs.cpio
all_rows=$(awk '!/^#/ && NF { print $1 }' "$here/rows")
# Rebuild the initramfs only when the kernel, a row or a guest script changed.
if [ ! -s "$cpio" ] || [ -n "$(find "$kdir/modules" "$here" $(for r in $all_rows; do echo "$b/$r"; done) \
	-newer "$cpio" 2>/dev/null | head -n 1)" ]; then
	sh "$here/vm-initramfs.sh" "$b" "$kdir" "$cpio" $all_rows || exit $?
fi

# One console file per run: a run never reads what another (or an
# interrupted one) wrote. Removed on exit; a failed run leaves its console
# as vm-console.log, for the reader only.
console=$(mktemp "$b/vm-console.XXXXXX") || fail "cannot create a console file in $b"
qpid=
trap 'rm -f "$console" "$console.txt"' EXIT
# boot <accel> <timeout s> <kernel args>: -nodefaults/-display none: no VGA,
# no NIC, nothing to emulate but the serial console; -no-reboot turns the
# guest's power-off (or a panic, panic=-1) into QEMU exiting; timeout -k
# guarantees no QEMU outlives the run. timeout moves itself into its own
# process group, where a Ctrl-C to make does not reach it: it runs in the
# background and a signal to this script is passed on (timeout hands it to
# QEMU, and kills it 2 s later if it is still there).
boot() {
	timeout -k 2 "$2" qemu-system-x86_64 -accel "$1" -cpu "$([ "$1" = kvm ] && echo host || echo max)" \
		-m 256 -smp 1 -nodefaults -no-user-config -display none -no-reboot \
		-serial "file:$console" -kernel "$kdir/vmlinux" -initrd "$cpio" \
		-append "console=ttyS0 quiet panic=-1 $3" </dev/null >/dev/null 2>&1 &
	qpid=$!
	wait "$qpid"
	set -- $?
	qpid=
	return "$1"
}
stop() { # <exit status>: stop QEMU (through its timeout) and leave
	trap - INT TERM HUP
	if [ -n "$qpid" ]; then
		kill -TERM "$qpid" 2>/dev/null
		wait "$qpid" 2>/dev/null
	fi
	exit "$1"
}
trap 'stop 130' INT
trap 'stop 143' TERM
trap 'stop 129' HUP

# KVM when it works: /dev/kvm may exist and still not run this kernel (it
# hangs here), so probe once with a short timeout and remember the answer.
accel_file=$kdir/accel
exec 9>"$cache/.lock"
flock 9
if [ ! -s "$accel_file" ]; then
	accel=tcg
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] && boot kvm 3 rxe.probe=1 &&
		grep -q '^vm: probe ok' "$console"; then
		accel=kvm
	fi
	echo "$accel" > "$accel_file"
fi
accel=$(cat "$accel_file")
flock -u 9
limit=${RXE_VM_TIMEOUT:-60}
rows=$(echo "$@" | tr ' ' ,)
boot "$accel" "$limit" "rxe.rows=$rows"
rc=$?
tr -d '\r' < "$console" > "$console.txt"
if grep -q '^vm: rows end' "$console.txt"; then
	sed -n '/^vm: rows begin/,/^vm: rows end/p' "$console.txt" | sed '1d;$d'
	echo "vm tier: $accel, kernel $(basename "$kdir")" >&2
	exit 0
fi
cp "$console.txt" "$b/vm-console.log"
why=$(grep '^vm: ' "$console.txt" | grep -v 'rows begin' | tail -n 1)
[ -n "$why" ] && fail "guest: ${why#vm: }"
[ $rc = 124 ] && fail "guest timed out after ${limit}s (last console line: $(tail -n 1 "$console.txt"))"
fail "guest stopped without rows (qemu exit $rc; last console line: $(tail -n 1 "$console.txt"))"
