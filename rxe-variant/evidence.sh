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
IFS= read -r shq < "$here/../scripts/shq.awk" || exit 2
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
	# of CPU a row; the lines kept are the same). One awk then reads them,
	# shortened and as kept (the providers' paths), and the modules' facts
	# from one dynamic call (and nm's symtab of rxe-lab): a few processes a
	# row, not one a fact.
	grep -E "binding file [^ ]*librxe|calling init: " "$dbg" > "$dbg.kept"
	copies= inhouse=
	if [ -e "$d/libinhouse.so" ]; then
		inhouse=1
		for l in "$d"/libibverbs*.so.1; do [ -e "$l" ] && copies="$copies $l"; done
	fi
	"$here/../scripts/ld-debug" --names "$dbg.kept" | awk -v sym="$sym" -v kept="$dbg.kept" -v d="$d" -v copies="$copies" \
		-v inhouse="$inhouse" -v dynamic="$dynamic" -v nm="${LAB_NM:-nm}" "$shq"'
	function base(p) { sub(/.*\//, "", p); return p }
	function sort(v, n,   i, j, t) { for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t } }
	function add(s, l) { return s (s == "" ? "" : "\n") l }
	$0 ~ ("^binding file librxe[^ ]* .*`(" sym "|ibv_query_gid)\047") || /^calling init: (librxe|libibverbs)[^ ]*$/ { if (!($0 in seen)) { seen[$0] = 1; keep[++nk] = $0 } }
	END {
		sort(keep, nk); for (i = 1; i <= nk; i++) print "  | LD_DEBUG: " keep[i]
		while ((getline l < kept) > 0) {
			if (l ~ /calling init: [^ ]*-rdmav[0-9]+\.so$/) np++
			if (match(l, /calling init: [^ ]*\/lib[^\/ ]*-rdmav[0-9]+\.so$/)) {
				n = base(substr(l, RSTART + 14)); sub(/^lib/, "", n); sub(/-rdmav[0-9]+\.so$/, "", n)
				if (!(n in pseen)) { pseen[n] = 1; pn[++npn] = n }
			}
			if (prov == "" && match(l, /calling init: [^ ]*librxe[^ ]*/)) prov = substr(l, RSTART + 14, RLENGTH - 14)
		}
		sort(pn, npn); ps = ""; for (i = 1; i <= npn; i++) ps = ps pn[i] " "
		print "  | provider search: libibverbs loaded " np + 0 " provider(s) listed in its .driver files: " ps
		# The relocation type by its suffix (JUMP_SLOT, GLOB_DAT; scripts/dynamic):
		# the fact is the same on every architecture, its R_<arch>_ prefix is not.
		files = (prov != "" ? " " shq(prov) : "")
		nc = split(copies, cp, " ")
		if (inhouse) { files = files " " shq(d "/libinhouse.so"); for (i = 1; i <= nc; i++) files = files " " shq(cp[i]) }
		else files = files " " shq(d "/rxe-lab")
		FS = "\t"; cmd = "exec " shq(dynamic) " --relocs" files
		while ((cmd | getline l) > 0) {
			split(l, f, "\t")
			if (f[1] == prov && f[2] == "rel" && index(f[4], sym)) rel = add(rel, f[3] " " f[4])
			if (f[2] == "dyn" && f[3] == "NEEDED") need[f[1]] = need[f[1]] (need[f[1]] == "" ? "" : " ") f[4]
			if (f[2] == "dyn" && (f[3] == "RPATH" || f[3] == "RUNPATH")) path[f[1]] = path[f[1]] " " f[3] "=" f[4]
			if (f[2] == "dyn" && f[3] == "SONAME") soname[f[1]] = add(soname[f[1]], f[4])
			if (f[1] == d "/rxe-lab" && f[2] == "sym") {
				ni += (f[3] ~ /^ibv_/); ne += (f[3] == sym && f[4] == "-")
				nr += (f[4] == "-" && length(f[3]) > length(sym) && substr(f[3], length(f[3]) - length(sym)) == "_" sym)
			}
		}
		close(cmd)
		if (prov != "") print "  | " base(prov) ": " rel
		if (inhouse) {
			m = d "/libinhouse.so"; print "  | libinhouse.so: NEEDED=[" need[m] "]" path[m]
			for (i = 1; i <= nc; i++) print "  | " base(cp[i]) " (copy A): SONAME=" soname[cp[i]]
		} else {
			# LAB_NM: a command and its options, not one word
			cmd = "exec " nm " " shq(d "/rxe-lab"); t = ""
			while ((cmd | getline l) > 0) if (l ~ (" T .*" sym "$")) { split(l, w, " "); t = add(t, w[3]) }
			close(cmd)
			print "  | rxe-lab symtab: " t
			printf "  | rxe-lab .dynsym: %d ibv_* export(s), %d %s, %d renamed copy of it\n", ni, ne, sym, nr
		}
	}'
	rm -f "$dbg" "$dbg.kept"
done
