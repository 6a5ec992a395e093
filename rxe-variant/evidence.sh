#!/bin/sh
# Evidence for each row, printed as "  | " lines under the row's own output
# (scripts/verdict keeps them under the verdict): how ld.so bound the rxe
# provider's imports (LD_DEBUG=bindings), which providers libibverbs loaded
# (LD_DEBUG=libs), and the ELF facts behind both (readelf/nm).
# Runs in the emulated tier, where the provider really loads: one sandbox
# for all the rows, as the tier itself runs them (emulated.sh), each row's
# program under LD_DEBUG with a record of its own (run-rows.sh's
# RXE_LD_DEBUG), then the facts of every row in one pass (--facts), placed
# under each row by scripts/facts-under-rows.
# usage: evidence.sh <rxe build dir> <N> row...
# evidence.sh --facts <rxe build dir> <N> <record> row...: that pass, each
# fact after its row's id and a tab, from the records <record>.<row>.<pid>
# (none for a row that did not run: no facts); the records removed after.
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
if [ "${1-}" != --facts ]; then
	b=$1 n=$2
	shift 2
	rec=$b/evidence.ld-debug err=$b/evidence.err
	# what a stopped run left, removed first (the shell's own glob: no
	# process when there is none)
	for f in "$rec".*; do [ ! -e "$f" ] || rm -f -- "$rec".*; break; done
	{
		RXE_LD_DEBUG=bindings,libs RXE_LD_DEBUG_OUTPUT=$rec sh "$here/emulated.sh" "$b" "$@" 2>"$err"
		if [ $? = 77 ]; then
			# The tier cannot run here (no private mount namespace, no
			# unshare): the rows are still there, skipped with the sandbox's
			# reason, the last line of its stderr (read by the shell).
			why=; while IFS= read -r l || [ -n "$l" ]; do why=$l; done < "$err"
			RXE_SKIP=$why sh "$here/run-rows.sh" emulated "$here/rows" "$b" "$@"
		fi
	} | "$here/../scripts/facts-under-rows" sh "$here/evidence.sh" --facts "$b" "$n" "$rec" "$@"
	exit
fi
b=$2 n=$3 rec=$4
shift 4
sym=verbs_register_driver_$n
nl='
' rows= recs= copies= inhouse=
for row; do
	d=$b/$row
	rows=$rows$row$nl
	# RECORD.ROW.<pid>: only digits after the row
	for f in "$rec.$row".[0-9]*; do
		case ${f#"$rec.$row".} in *[!0-9]*) ;; *) [ -e "$f" ] && recs=$recs$row' '$f$nl ;; esac
	done
	# an in-house row: its copies of libibverbs (copy A)
	if [ -e "$d/libinhouse.so" ]; then
		inhouse=$inhouse$row$nl
		for l in "$d"/libibverbs*.so.1; do [ -e "$l" ] && copies=$copies$row' '$l$nl; done
	fi
done
IFS= read -r shq < "$here/../scripts/shq.awk" || exit 2
# grep keeps the few lines wanted before ld-debug shortens their paths (each
# record holds every binding of the process: awk over it all cost 0.2 s of
# CPU a row; the lines kept are the same), into <record>.<row>.kept. One awk
# then reads them, shortened and as kept (the providers' paths), and the
# modules' facts from one dynamic call and one nm (rxe-lab's symtab) for
# all the rows.
awk -v sym="$sym" -v b="$b" -v rows="$rows" -v recs="$recs" -v copies="$copies" -v inhouses="$inhouse" -v rec="$rec" \
	-v here="$here" -v nm="${LAB_NM:-nm}" "$shq"'
function base(p) { sub(/.*\//, "", p); return p }
function sort(v, n,   i, j, t) { for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t } }
function add(s, l) { return s (s == "" ? "" : "\n") l }
function say(r, s) { print r "\t  | " s }
BEGIN {
	nr = split(rows, row, "\n"); if (row[nr] == "") nr--
	n = split(recs, rl, "\n")
	for (i = 1; i <= n; i++) if (rl[i] != "") { k = index(rl[i], " "); r = substr(rl[i], 1, k - 1); f = substr(rl[i], k + 1); ran[r] = 1; rowof[f] = r; files = files " " shq(f) }
	if (files == "") exit
	# the kept lines: grep names each file, then a colon
	cmd = "exec grep -H -E " shq("binding file [^ ]*librxe|calling init: ") files
	while ((cmd | getline l) > 0) {
		r = ""; for (f in rowof) if (index(l, f ":") == 1) { r = rowof[f]; l = substr(l, length(f) + 2); break }
		if (r == "") continue
		kept[r] = add(kept[r], l); print l > (rec "." r ".kept")
	}
	close(cmd)
	for (i = 1; i <= nr; i++) { r = row[i]; if (r in kept) { close(rec "." r ".kept"); kfiles = kfiles " " shq(rec "." r ".kept") } }
	# shortened: each line after the kept file it was read from
	if (kfiles != "") {
		cmd = "exec " shq(here "/../scripts/ld-debug") " --names --source" kfiles
		while ((cmd | getline l) > 0) {
			k = index(l, "\t"); r = substr(l, 1, k - 1); sub(/\.kept$/, "", r); r = substr(r, length(rec) + 2); l = substr(l, k + 1)
			if (l ~ ("^binding file librxe[^ ]* .*`(" sym "|ibv_query_gid)\047") || l ~ /^calling init: (librxe|libibverbs)[^ ]*$/) if (!((r, l) in seen)) { seen[r, l] = 1; keep[r, ++nk[r]] = l }
		}
		close(cmd)
	}
	n = split(inhouses, il, "\n"); for (i = 1; i <= n; i++) if (il[i] != "") inhouse[il[i]] = 1
	nc = split(copies, cl, "\n")
	for (i = 1; i <= nc; i++) if (cl[i] != "") { k = index(cl[i], " "); r = substr(cl[i], 1, k - 1); cp[r, ++ncp[r]] = substr(cl[i], k + 1) }
	# per row: its provider, the files whose facts it reads
	for (i = 1; i <= nr; i++) {
		r = row[i]; if (!(r in ran)) continue
		m = split(kept[r], kl, "\n")
		for (j = 1; j <= m; j++) {
			l = kl[j]
			if (l ~ /calling init: [^ ]*-rdmav[0-9]+\.so$/) np[r]++
			if (match(l, /calling init: [^ ]*\/lib[^\/ ]*-rdmav[0-9]+\.so$/)) {
				p = base(substr(l, RSTART + 14)); sub(/^lib/, "", p); sub(/-rdmav[0-9]+\.so$/, "", p)
				if (!((r, p) in pseen)) { pseen[r, p] = 1; pn[r, ++npn[r]] = p }
			}
			if (prov[r] == "" && match(l, /calling init: [^ ]*librxe[^ ]*/)) prov[r] = substr(l, RSTART + 14, RLENGTH - 14)
		}
		d = b "/" r
		if (prov[r] != "") want(prov[r])
		if (inhouse[r]) { want(d "/libinhouse.so"); for (j = 1; j <= ncp[r]; j++) want(cp[r, j]) }
		else { want(d "/rxe-lab"); labs = labs " " shq(d "/rxe-lab"); lab1 = d "/rxe-lab"; islab[lab1 ":"] = 1; nlabs++ }
	}
	# The relocation type by its suffix (JUMP_SLOT, GLOB_DAT; scripts/dynamic):
	# the fact is the same on every architecture, its R_<arch>_ prefix is not.
	FS = "\t"; cmd = "exec " shq(here "/../scripts/dynamic") " --relocs" dfiles
	while ((cmd | getline l) > 0) {
		split(l, fl, "\t")
		if (fl[2] == "rel" && index(fl[4], sym)) rel[fl[1]] = add(rel[fl[1]], fl[3] " " fl[4])
		if (fl[2] == "dyn" && fl[3] == "NEEDED") need[fl[1]] = need[fl[1]] (need[fl[1]] == "" ? "" : " ") fl[4]
		if (fl[2] == "dyn" && (fl[3] == "RPATH" || fl[3] == "RUNPATH")) path[fl[1]] = path[fl[1]] " " fl[3] "=" fl[4]
		if (fl[2] == "dyn" && fl[3] == "SONAME") soname[fl[1]] = add(soname[fl[1]], fl[4])
		if (fl[2] == "sym" && base(fl[1]) == "rxe-lab") {
			ni[fl[1]] += (fl[3] ~ /^ibv_/); ne[fl[1]] += (fl[3] == sym && fl[4] == "-")
			nrn[fl[1]] += (fl[4] == "-" && length(fl[3]) > length(sym) && substr(fl[3], length(fl[3]) - length(sym)) == "_" sym)
		}
	}
	close(cmd)
	# rxe-lab symtab (LAB_NM: a command and its options, not one word); nm
	# heads each file of several with "FILE:"
	if (labs != "") {
		cmd = "exec " nm labs; f = (nlabs == 1 ? lab1 : "")
		while ((cmd | getline l) > 0) {
			if (l in islab) { f = substr(l, 1, length(l) - 1); continue }
			if (l ~ (" T .*" sym "$")) { split(l, w, " "); t[f] = add(t[f], w[3]) }
		}
		close(cmd)
	}
	for (i = 1; i <= nr; i++) {
		r = row[i]; if (!(r in ran)) continue
		delete ks; for (j = 1; j <= nk[r]; j++) ks[j] = keep[r, j]
		sort(ks, nk[r]); for (j = 1; j <= nk[r]; j++) say(r, "LD_DEBUG: " ks[j])
		delete ps; for (j = 1; j <= npn[r]; j++) ps[j] = pn[r, j]
		sort(ps, npn[r]); s = ""; for (j = 1; j <= npn[r]; j++) s = s ps[j] " "
		say(r, "provider search: libibverbs loaded " np[r] + 0 " provider(s) listed in its .driver files: " s)
		if (prov[r] != "") say(r, base(prov[r]) ": " rel[prov[r]])
		d = b "/" r
		if (inhouse[r]) {
			m = d "/libinhouse.so"; say(r, "libinhouse.so: NEEDED=[" need[m] "]" path[m])
			for (j = 1; j <= ncp[r]; j++) say(r, base(cp[r, j]) " (copy A): SONAME=" soname[cp[r, j]])
		} else {
			m = d "/rxe-lab"
			say(r, "rxe-lab symtab: " t[m])
			say(r, sprintf("rxe-lab .dynsym: %d ibv_* export(s), %d %s, %d renamed copy of it", ni[m], ne[m], sym, nrn[m]))
		}
	}
}
function want(f) { if (!(f in wanted)) { wanted[f] = 1; dfiles = dfiles " " shq(f) } }' || exit 2
exec rm -f -- "$rec".* "$b/evidence.err"
