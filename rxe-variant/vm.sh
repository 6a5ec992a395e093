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
# RXE_VM_TIMEOUT: the longest the console may stay silent (boot to the first
# line included); RXE_VM_TIMEOUT_MAX: the whole run, however busy the guest.
quiet=${RXE_VM_TIMEOUT:-60}
cap=${RXE_VM_TIMEOUT_MAX:-600}
for v in "RXE_VM_TIMEOUT=$quiet" "RXE_VM_TIMEOUT_MAX=$cap"; do
	case ${v#*=} in '' | *[!0-9]* | 0) fail "${v%%=*} must be a whole number of seconds, not '${v#*=}'" ;; esac
done
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
qpid= wpid=
trap 'rm -f "$console" "$console.txt" "$console.why"' EXIT
# boot <accel> <quiet s> <cap s> <kernel args>: -nodefaults/-display none: no
# VGA, no NIC, nothing to emulate but the serial console; -no-reboot turns
# the guest's power-off (or a panic, panic=-1) into QEMU exiting; timeout -k
# guarantees no QEMU outlives the run. timeout moves itself into its own
# process group, where a Ctrl-C to make does not reach it: it runs in the
# background and a signal to this script is passed on (timeout hands it to
# QEMU, and kills it 2 s later if it is still there).
# no_timer_check: at boot the kernel checks that the IO-APIC delivers the
# 8254 timer by counting ticks inside a busy-wait calibrated moments before.
# A TCG guest on a loaded host is descheduled in between, sees too few ticks,
# and either hangs after "MP-BIOS bug: 8254 timer not connected to IO-APIC"
# or panics ("IO-APIC + timer doesn't work!"). QEMU's timer is wired; the
# check only measures the host's load (Debian 12's 6.1 and 13's 6.12 both
# failed it on a loaded 2-core host, every boot).
# No "quiet": the kernel's boot messages are the guest's sign of progress
# (a loaded host stretched a silent boot past a minute); /init turns the
# console's log level down before the rows, whose lines must not interleave.
boot() {
	: > "$console"
	rm -f "$console.why"
	timeout -k 2 "$3" qemu-system-x86_64 -accel "$1" -cpu "$([ "$1" = kvm ] && echo host || echo max)" \
		-m 256 -smp 1 -nodefaults -no-user-config -display none -no-reboot \
		-serial "file:$console" -kernel "$kdir/vmlinux" -initrd "$cpio" \
		-append "console=ttyS0 panic=-1 no_timer_check $4" </dev/null >/dev/null 2>&1 &
	qpid=$!
	watch "$qpid" "$2" &
	wpid=$!
	wait "$qpid"
	set -- $?
	qpid=
	kill "$wpid" 2>/dev/null
	wait "$wpid"
	wpid=
	return "$1"
}
# watch <pid> <quiet s>, run in the background: a slow guest is let run
# while its console grows; one silent for <quiet> s is stopped, through its
# timeout, and the reason left in $console.why. The cap stays timeout's.
# Braces, not a subshell: the background job itself is the one to stop.
watch() {
	s=
	trap 'kill $s 2>/dev/null; exit 0' TERM
	size=0 idle=0
	while [ $idle -lt "$2" ]; do
		sleep 1 &
		s=$!
		wait $s
		now=$(wc -c < "$console")
		if [ "$now" = "$size" ]; then idle=$((idle + 1)); else size=$now idle=0; fi
	done
	echo quiet > "$console.why"
	# SIGALRM is timeout's own deadline: it stops QEMU as at the cap (TERM,
	# KILL 2 s later) and exits 124; a TERM would kill timeout itself, and
	# the shell print "Terminated".
	kill -ALRM "$1" 2>/dev/null
}
stop() { # <exit status>: stop QEMU (through its timeout) and leave
	trap - INT TERM HUP
	[ -z "$wpid" ] || kill "$wpid" 2>/dev/null
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
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] && boot kvm 3 3 rxe.probe=1 &&
		grep -q '^vm: probe ok' "$console"; then
		accel=kvm
	fi
	echo "$accel" > "$accel_file"
fi
accel=$(cat "$accel_file")
flock -u 9
rows=$(echo "$@" | tr ' ' ,)
boot "$accel" "$quiet" "$cap" "rxe.rows=$rows"
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
last=$(tail -n 1 "$console.txt")
last=${last:+last console line: $last}
last=${last:-the console is empty}
panic=$(sed -n 's/^.*Kernel panic - not syncing: *//p' "$console.txt" | head -n 1)
[ -n "$panic" ] && fail "guest kernel panicked: $panic"
[ -s "$console.why" ] && fail "guest timed out after ${quiet}s without console output ($last)"
[ $rc = 124 ] && fail "guest timed out after ${cap}s in all (RXE_VM_TIMEOUT_MAX; $last)"
fail "guest stopped without rows (qemu exit $rc; $last)"
