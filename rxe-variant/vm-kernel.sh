#!/bin/sh
# Fetches Debian's current kernel into the build dir, never onto the host:
# the versioned package is whatever linux-image-amd64 depends on today.
# Leaves <cache>/<package>/{vmlinux,modules/*.ko} and prints that dir.
# A second run with the same package downloads and extracts nothing.
# usage: vm-kernel.sh <cache dir>      exit 77 = cannot be had (reason on stderr)
set -eu
cache=$1
skip() { echo "$1" >&2; exit 77; }
command -v apt-cache >/dev/null || skip "vm tier needs apt (Debian's kernel package)"
mkdir -p "$cache"
# One fetcher at a time: parallel runs (make -j, toolchain mode) share the cache.
exec 9>"$cache/.lock"
flock 9
# apt's binary cache, kept in the build dir: resolving takes 0.3 s instead of 1.5.
acache() { apt-cache -o Dir::Cache::pkgcache="$cache/pkgcache.bin" -o Dir::Cache::srcpkgcache="$cache/srcpkgcache.bin" "$@"; }
pkg=$(acache depends linux-image-amd64 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
[ -n "$pkg" ] || skip "cannot resolve linux-image-amd64's kernel package (apt-get update?)"
out=$cache/$pkg
if [ -s "$out/vmlinux" ] && [ -e "$out/modules/.complete" ]; then
	echo "$out"
	exit 0
fi
# The package's checksum in the archive's index, which apt has verified: a
# .deb is taken into the cache, or used from it, only if it matches. A
# download goes to a directory of its own, renamed into the cache once
# checked (apt-get download writes under the final name: a run cut off there
# left a truncated .deb that every later run failed on in dpkg-deb).
sum=$(acache show --no-all-versions "$pkg" 2>/dev/null | sed -n 's/^SHA256: *//p' | head -n 1)
[ -n "$sum" ] || skip "cannot read $pkg's checksum from apt's index (apt-get update?)"
sha() { sha256sum < "$1" | cut -d' ' -f1; }
deb=
for f in "$cache/${pkg}_"*.deb; do
	[ -f "$f" ] || continue
	if [ -z "$deb" ] && [ "$(sha "$f")" = "$sum" ]; then deb=$f; else rm -f "$f"; fi
done
if [ -z "$deb" ]; then
	# a partial download of an earlier run (the lock says none is running)
	rm -rf "$cache"/partial.*
	part=$cache/partial.$$
	trap 'rm -rf "$part"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
	mkdir "$part"
	(cd "$part" && apt-get download "$pkg" >/dev/null 2>&1) ||
		skip "cannot download $pkg (apt-get download failed)"
	f=$(ls "$part"/*.deb 2>/dev/null | head -n 1)
	[ -n "$f" ] && [ "$(sha "$f")" = "$sum" ] ||
		skip "the downloaded $pkg does not match the archive's checksum: not cached"
	mv "$f" "$cache/" && deb=$cache/${f##*/}
	rm -rf "$part"
fi
tree=$cache/$pkg.tree
rm -rf "$tree" "$out"
dpkg-deb -x "$deb" "$tree"
mkdir -p "$out/modules"

# PVH boot needs the uncompressed ELF vmlinux; the package ships a bzImage
# whose payload is one compressed stream: find its magic and unpack it.
vmlinuz=$(ls "$tree"/boot/vmlinuz-* | head -n 1)
# Debian 12's is xz, Debian 13's zstd.
lacking=
unpack() { # <magic as grep -P escapes> <decompressor> <its package>
	off=$(LC_ALL=C grep -aboP "$1" "$vmlinuz" | head -n 1 | cut -d: -f1)
	[ -n "$off" ] || return 1
	command -v "${2%% *}" >/dev/null || { lacking="$lacking $3"; return 1; }
	tail -c +$((off + 1)) "$vmlinuz" | $2 > "$out/vmlinux" 2>/dev/null || true
	readelf -h "$out/vmlinux" >/dev/null 2>&1
}
unpack '\xFD7zXZ\x00' 'xz -dc' xz-utils || unpack '\x28\xB5\x2F\xFD' 'zstd -dc' zstd ||
	unpack '\x1F\x8B\x08' 'gzip -dc' gzip ||
	skip "cannot unpack vmlinux from $(basename "$vmlinuz")${lacking:+ (apt-get install$lacking)}"
# The Xen PVH entry note is what lets qemu -kernel boot the ELF directly.
readelf -n "$out/vmlinux" 2>/dev/null | grep -q 'Xen' ||
	skip "$(basename "$vmlinuz") has no PVH entry note"

# Modules rdma_rxe needs, in load order; crc32_generic is needed but
# undeclared (without it rdma link add fails with ENOENT); dummy gives the
# netdev rxe0 sits on.
# The tree is under lib/modules (Debian 12) or usr/lib/modules (Debian 13).
mods=$(ls -d "$tree"/lib/modules/* "$tree"/usr/lib/modules/* 2>/dev/null | head -n 1)
[ -n "$mods" ] || skip "$pkg has no lib/modules or usr/lib/modules tree"
sh "$(dirname "$0")/vm-modules.sh" "$mods" "$out/modules" \
	crc32_generic dummy rdma_rxe
touch "$out/modules/.complete"
rm -rf "$tree"
echo "$out"
