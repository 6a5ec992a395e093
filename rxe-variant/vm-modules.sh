#!/bin/sh
# Copies the named modules and their dependencies out of a kernel's module
# tree and writes <dest>/load-order, dependencies first. The package has no
# modules.dep, so dependencies come from each module's own .modinfo
# (what modinfo -F depends prints; objcopy reads it where kmod is absent).
# Modules may be plain (.ko, Debian 12) or compressed (.ko.xz, Debian 13;
# .ko.zst elsewhere): each is stored uncompressed as <dest>/<name>.ko, so the
# guest's insmod needs no decompressor and the kernel none built in.
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
	local f d dash
	grep -qx "$1" "$dest/load-order" && return 0
	dash=$(echo "$1" | tr _ -)
	f=$(find "$tree" \( -name "$1.ko" -o -name "$1.ko.xz" -o -name "$1.ko.zst" \
		-o -name "$dash.ko" -o -name "$dash.ko.xz" -o -name "$dash.ko.zst" \) | head -n 1)
	[ -n "$f" ] || { echo "module $1 not in the kernel package (no $1.ko, .ko.xz or .ko.zst)" >&2; exit 1; }
	case $f in *.xz) need=xz pkg=xz-utils ;; *.zst) need=zstd pkg=zstd ;; *) need=cp pkg=coreutils ;; esac
	command -v $need >/dev/null || { echo "module $1 is $f: needs $need (apt-get install $pkg)" >&2; exit 1; }
	case $f in
	*.xz) xz -dc "$f" > "$dest/$1.ko" ;;
	*.zst) zstd -qdc "$f" > "$dest/$1.ko" ;;
	*) cp "$f" "$dest/$1.ko" ;;
	esac
	for d in $(depends "$dest/$1.ko" | tr , ' '); do
		visit "$d"
	done
	echo "$1" >> "$dest/load-order"
}
for m in "$@"; do
	visit "$m"
done
