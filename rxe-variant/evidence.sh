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
dynamic=$here/../scripts/dynamic
say() { printf '  | %s\n' "$*"; }
for row in "$@"; do
	d=$b/$row
	dbg=$b/evidence-$row.ld-debug
	# One run: the row's output on stdout, the loader's account on stderr.
	LD_DEBUG=bindings,libs sh "$here/emulated.sh" "$b" "$row" 2>"$dbg"
	if [ $? = 77 ]; then
		# The tier cannot run here (no private mount namespace, no unshare):
		# the row is still there, skipped with the sandbox's reason, the last
		# line of its stderr that is not the loader's trace.
		RXE_SKIP=$("$here/../scripts/ld-debug" --other "$dbg" | tail -n 1) \
			sh "$here/run-rows.sh" emulated "$here/rows" "$b" "$row"
		rm -f "$dbg"; continue
	fi
	# grep keeps the few lines wanted before ld-debug shortens their paths:
	# the trace holds every binding of the process (awk over it all: 0.2 s
	# of CPU a row; the lines kept are the same).
	grep -E "binding file [^ ]*librxe|calling init: " "$dbg" | "$here/../scripts/ld-debug" --names |
		grep -E "^binding file librxe[^ ]* .*\`($sym|ibv_query_gid)'|^calling init: (librxe|libibverbs)[^ ]*$" |
		sort -u | while IFS= read -r l; do say "LD_DEBUG: $l"; done
	say "provider search: libibverbs loaded $(grep -cE 'calling init: [^ ]*-rdmav[0-9]+\.so$' "$dbg") provider(s) listed in its .driver files: $(sed -nE 's#.*calling init: [^ ]*/lib([^/ ]*)-rdmav[0-9]+\.so$#\1#p' "$dbg" | sort -u | tr '\n' ' ')"
	prov=$(sed -n 's/.*calling init: \([^ ]*librxe[^ ]*\).*/\1/p' "$dbg" | head -n 1)
	rm -f "$dbg"
	# The relocation type by its suffix (JUMP_SLOT, GLOB_DAT; scripts/dynamic):
	# the fact is the same on every architecture, its R_<arch>_ prefix is not.
	[ -n "$prov" ] && say "$(basename "$prov"): $("$dynamic" --relocs "$prov" | awk -F '\t' -v s="$sym" '$2 == "rel" && index($4, s) { print $3, $4 }')"
	if [ -e "$d/libinhouse.so" ]; then
		say "libinhouse.so: $("$dynamic" "$d/libinhouse.so" | awk -F '\t' '$2 == "dyn" && $3 == "NEEDED" { n = n (n == "" ? "" : " ") $4 }
			$2 == "dyn" && ($3 == "RPATH" || $3 == "RUNPATH") { p = p " " $3 "=" $4 } END { print "NEEDED=[" n "]" p }')"
		for l in "$d"/libibverbs*.so.1; do
			[ -e "$l" ] && say "$(basename "$l") (copy A): SONAME=$("$dynamic" "$l" | awk -F '\t' '$2 == "dyn" && $3 == "SONAME" { print $4 }')"
		done
	else
		say "rxe-lab symtab: $(${LAB_NM:-nm} "$d/rxe-lab" | grep " T .*$sym\$" | awk '{ print $3 }')"
		say "rxe-lab .dynsym: $("$dynamic" "$d/rxe-lab" | awk -F '\t' -v s="$sym" '$2 == "sym" { i += ($3 ~ /^ibv_/); e += ($3 == s && $4 == "-"); r += ($4 == "-" && length($3) > length(s) && substr($3, length($3) - length(s)) == "_" s) }
			END { printf "%d ibv_* export(s), %d %s, %d renamed copy of it\n", i, e, s, r }')"
	fi
done
