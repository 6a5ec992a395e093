#!/bin/sh
# Evidence for each row, printed as "  | " lines under the row's own output
# (scripts/verdict keeps them under the verdict): how ld.so bound the rxe
# provider's imports (LD_DEBUG=bindings), which providers libibverbs loaded
# (LD_DEBUG=libs), and the ELF facts behind both (readelf/nm).
# Runs in the emulated tier, where the provider really loads.
# usage: evidence.sh <rxe build dir> <N> row...
here=$(dirname "$0")
b=$1 n=$2
shift 2
sym=verbs_register_driver_$n
say() { printf '  | %s\n' "$*"; }
for row in "$@"; do
	d=$b/$row
	dbg=$b/evidence-$row.ld-debug
	# One run: the row's output on stdout, the loader's account on stderr.
	LD_DEBUG=bindings,libs sh "$here/emulated.sh" "$b" "$row" 2>"$dbg"
	"$here/../scripts/ld-debug" --names "$dbg" | grep -E "^binding file librxe[^ ]* .*\`($sym|ibv_query_gid)'|^calling init: (librxe|libibverbs)[^ ]*$" |
		sort -u | while IFS= read -r l; do say "LD_DEBUG: $l"; done
	say "provider search: libibverbs loaded $(grep -cE 'calling init: [^ ]*-rdmav[0-9]+\.so$' "$dbg") provider(s) listed in its .driver files: $(sed -nE 's#.*calling init: [^ ]*/lib([^/ ]*)-rdmav[0-9]+\.so$#\1#p' "$dbg" | sort -u | tr '\n' ' ')"
	prov=$(sed -n 's/.*calling init: \([^ ]*librxe[^ ]*\).*/\1/p' "$dbg" | head -n 1)
	rm -f "$dbg"
	# The relocation type by its suffix (JUMP_SLOT, GLOB_DAT): the fact is
	# the same on every architecture, its R_<arch>_ prefix is not.
	[ -n "$prov" ] && say "$(basename "$prov"): $(readelf -rW "$prov" | grep "$sym" |
		awk '{ t = $3; if (match(t, /_(JUMP_SLOT|GLOB_DAT|COPY)$/)) t = substr(t, RSTART + 1); print t, $5 }')"
	if [ -e "$d/libinhouse.so" ]; then
		say "libinhouse.so: NEEDED=[$(readelf -d "$d/libinhouse.so" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ' | sed 's/ $//')] $(readelf -d "$d/libinhouse.so" | sed -n 's/.*(\(RPATH\|RUNPATH\)).*\[\(.*\)\]/\1=\2/p')"
		for l in "$d"/libibverbs*.so.1; do
			[ -e "$l" ] && say "$(basename "$l") (copy A): SONAME=$(readelf -d "$l" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')"
		done
	else
		say "rxe-lab symtab: $(nm "$d/rxe-lab" | grep " T .*$sym\$" | awk '{ print $3 }')"
		say "rxe-lab .dynsym: $(readelf --dyn-syms -W "$d/rxe-lab" | grep -c ' ibv_') ibv_* export(s), $(readelf --dyn-syms -W "$d/rxe-lab" | grep -c " $sym\$") $sym, $(readelf --dyn-syms -W "$d/rxe-lab" | grep -c "_$sym\$") renamed copy of it"
	fi
done
