#!/bin/sh
# Evidence for each row: how ld.so bound the rxe provider's imports
# (LD_DEBUG=bindings), how libibverbs found the provider (LD_DEBUG=libs),
# and the ELF facts behind both (readelf/nm).
# usage: evidence.sh <rxe build dir> <N> row...
here=$(dirname "$0")
b=$1 n=$2
shift 2
sym=verbs_register_driver_$n
base() { sed 's|/[^ ]*/||g'; }
for row in "$@"; do
	d=$b/$row
	echo "== $row"
	echo "-- LD_DEBUG=bindings, the provider's registration import and one public import:"
	LD_DEBUG=bindings,libs sh "$here/emulated.sh" "$b" "$row" 2>&1 >/dev/null |
		grep -E "binding file [^ ]*librxe[^ ]* .*\`($sym|ibv_query_gid)'|find library=librxe|trying file=[^ ]*librxe|calling init: [^ ]*/(librxe|libibverbs)[^/]*$" |
		sed 's/^ *[0-9]*:[[:space:]]*/   /' | base | sort -u
	echo "-- provider's relocation for $sym (readelf -r):"
	prov=$(LD_DEBUG=libs sh "$here/emulated.sh" "$b" "$row" 2>&1 >/dev/null | sed -n 's/.*calling init: \([^ ]*librxe[^ ]*\).*/\1/p' | head -n 1)
	[ -n "$prov" ] && readelf -rW "$prov" | grep "$sym" | sed 's/^/   /'
	if [ -e "$d/libinhouse.so" ]; then
		echo "-- in-house DSO: NEEDED / RUNPATH (readelf -d):"
		readelf -d "$d/libinhouse.so" | grep -E 'NEEDED|RUNPATH' | sed 's/^ */   /'
		for l in "$d"/libibverbs*.so.1; do
			[ -e "$l" ] && echo "   $(basename "$l"): $(readelf -d "$l" | grep SONAME | sed 's/.*Library soname: //')"
		done
	else
		echo "-- static copy in the app (nm / readelf --dyn-syms):"
		nm "$d/rxe-lab" | grep "verbs_register_driver_$n" | sed 's/^/   symtab: /'
		echo "   exported from the app: $(readelf --dyn-syms -W "$d/rxe-lab" | grep -c ' ibv_') ibv_* symbol(s), $(readelf --dyn-syms -W "$d/rxe-lab" | grep -c "verbs_register_driver_$n") $sym-like symbol(s)"
	fi
done
