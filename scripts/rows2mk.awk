# rows2mk.awk: the reader behind scripts/rows2mk (see it for the table's
# form and the output), as an awk program of its own so that make's
# read_table runs awk alone at every make's start, not a shell first.
# awk -F'|' -v lab=LAB -v words=0|1 -f rows2mk.awk TABLE
# awk -F'|' -v batch=1 -f rows2mk.awk TABLE...: every table in one run (make
# reads the tree's tables so, once at its start): the words of each, each
# word "TABLE\037.<id>.<key> := ..." (the lab's name is make's to put first).
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function die(m) { printf "rows2mk: %s:%d: %s\n", FILENAME, FNR, m > "/dev/stderr"; bad = 1; exit 2 }
# pairs(CELL, OUT): the "key=value; ..." pairs of a set cell into OUT[key].
function pairs(cell, out,   n, p, i, k) {
	n = split(cell, p, ";")
	for (i = 1; i <= n; i++) {
		p[i] = trim(p[i]); if (p[i] == "") continue
		k = index(p[i], "="); if (k < 2) die("set pair \"" p[i] "\" is not key=value")
		out[trim(substr(p[i], 1, k - 1))] = trim(substr(p[i], k + 1))
	}
}
function out(l) { if (words || batch) { gsub(/\$/, "$$", l); gsub(/#/, "\\#", l); gsub(/ /, "\037", l) } print (batch ? table "\037" : "") l }
# done(): the table read so far ends (its row ids); the next starts afresh.
function done() { out(lab ".rows :=" ids); ncol = 0; ids = ""; split("", seen); split("", dflt); split("", dset) }
FNR == 1 { if (NR > 1) done(); table = FILENAME }
function emit(id, k, v) { if (v == "-") v = ""; out(lab "." id "." k " := " v) }
/^# id/ { sub(/^# /, ""); for (i = 1; i <= NF; i++) col[i] = trim($i); ncol = NF; next }
/^#/ || /^[ \t]*$/ { next }
{
	if (!ncol) die("no \"# id | ...\" header line before the first row")
	if (NF > ncol) die("row has " NF " cells, the header names " ncol)
	id = trim($1)
	if (id == "") die("row without an id")
	if (id == "*") {
		for (i = 2; i <= ncol; i++) if (col[i] == "set") pairs($i, dset); else dflt[i] = trim($i)
		next
	}
	if (id in seen) die("row id \"" id "\" repeated")
	seen[id] = 1; ids = ids " " id
	split("", set)
	for (k in dset) set[k] = dset[k]
	for (i = 2; i <= ncol; i++) {
		if (col[i] == "set") { pairs($i, set); continue }
		v = trim($i)
		if (v == "" && (i in dflt)) v = dflt[i]
		emit(id, col[i], v)
	}
	for (k in set) emit(id, k, set[k])
}
END { if (!bad) done() }
