#!/bin/sh
# Copies the named modules and their dependencies out of a kernel's module
# tree and writes <dest>/load-order, dependencies first. The package has no
# modules.dep, so dependencies come from each module's own .modinfo
# (what modinfo -F depends prints; objcopy reads it where kmod is absent).
# usage: vm-modules.sh <lib/modules/VERSION dir> <dest> module...
set -eu
tree=$1 dest=$2
shift 2
: > "$dest/load-order"
depends() {
	if command -v modinfo >/dev/null; then
		modinfo -F depends "$1"
	else
		objcopy -O binary --only-section=.modinfo "$1" /dev/stdout |
			tr '\0' '\n' | sed -n 's/^depends=//p'
	fi
}
visit() {
	local f d
	grep -qx "$1" "$dest/load-order" && return 0
	f=$(find "$tree" -name "$1.ko" -o -name "$(echo "$1" | tr _ -).ko" | head -n 1)
	[ -n "$f" ] || { echo "module $1 not in the kernel package" >&2; exit 1; }
	for d in $(depends "$f" | tr , ' '); do
		visit "$d"
	done
	cp "$f" "$dest/$1.ko"
	echo "$1" >> "$dest/load-order"
}
for m in "$@"; do
	visit "$m"
done
