#!/bin/sh
# Builds the guest's initramfs (newc cpio, uncompressed: nothing to unpack
# at boot): busybox-static, the lab's row dirs with their library closure,
# the rxe provider and its .driver file, iproute2's rdma, the modules.
# usage: vm-initramfs.sh <rxe build dir> <kernel dir from vm-kernel.sh> <out.cpio> row...
set -eu
here=$(dirname "$0")
b=$1 kdir=$2 out=$3
shift 3
skip() { echo "$1" >&2; exit 77; }
bb=$(dpkg -L busybox-static 2>/dev/null | grep '/busybox$' | head -n 1)
[ -n "$bb" ] && [ -x "$bb" ] || skip "vm tier needs busybox-static (apt-get install busybox-static)"
rdma=$(command -v rdma) || skip "vm tier needs rdma (apt-get install iproute2)"
abi=$("$here/verbs-abi")
# The provider and its .driver file, where libibverbs looks for them: the
# package says where that is.
provider=$(dpkg -L ibverbs-providers | grep "/librxe-rdmav$abi\.so$" | head -n 1)
driver=$(dpkg -L ibverbs-providers | grep '/rxe\.driver$' | head -n 1)
[ -n "$provider" ] && [ -n "$driver" ] || skip "vm tier needs ibverbs-providers (rxe provider)"

root=$b/vm-root
rm -rf "$root"
mkdir -p "$root/usr/bin" "$root/usr/sbin" "$root/usr/lib" "$root/lab"
# Mirror the host's merged-/usr links, so one library has one path.
for d in bin sbin lib lib64; do
	if [ -L "/$d" ]; then
		ln -s "$(readlink "/$d")" "$root/$d" && mkdir -p "$root/$(readlink "/$d")"
	else
		mkdir -p "$root/$d"
	fi
done
mkdir -p "$root/lib/modules"
cp "$bb" "$root/bin/busybox"
cp "$here/vm-init.sh" "$root/init"
chmod +x "$root/init"
cp "$kdir"/modules/*.ko "$kdir/modules/load-order" "$root/lib/modules/"
cp "$here/run-rows.sh" "$here/rows" "$root/lab/"
for r in "$@"; do
	cp -a "$b/$r" "$root/lab/$r"
done
put() { # copy a host file to the same path in the guest
	mkdir -p "$root$(dirname "$1")"
	cp -L "$1" "$root$1"
}
put "$rdma"
put "$provider"
put "$driver"
put "$(pkg-config --variable=libdir libibverbs)/libibverbs.so.1"
# Library closure of every ELF file the guest runs or loads, as ld.so on this
# host resolves it (the guest has the same paths and no ld.so.cache).
elves=$(find "$root/lab" -type f -name 'rxe-lab' -o -type f -name '*.so*' | grep -v '\.driver$')
for e in $elves "$root$rdma" "$root$provider"; do
	ldd "$e" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (0x.*/\1/p'
done | sort -u | while read -r lib; do
	case $lib in "$root"/* | "$b"/*) continue ;; esac
	[ -e "$root$lib" ] || put "$lib"
done
(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null) > "$out"
