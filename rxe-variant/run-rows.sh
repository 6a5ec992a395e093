#!/bin/sh
# Prints each row's header and runs the row's app. Used by every tier: on the
# host (inside the emulated sandbox, or in the kernel tier's netns) and in the
# VM guest, where the row table and apps sit in the same layout.
# usage: [RXE_SKIP=<why>] run-rows.sh <tier> <rows-file> <dir holding <row>/rxe-lab> row...
set -u
tier=$1 rows=$2 dir=$3
shift 3
# The "what" cells, found by the header's column name (the guest has no
# make), read by one awk for all the rows ("<id><tab><what>" lines), each
# row's then found by the shell: no process a row.
nl='
' tab='	'
whats=$nl$(awk -F' *[|] *' '/^# id/ { for (i = 1; i <= NF; i++) if ($i == "what") c = i } c && $1 !~ /^#/ && NF > 1 { print $1 "\t" $c }' "$rows")$nl
for row in "$@"; do
	what=
	case $whats in *"$nl$row$tab"*) what=${whats#*"$nl$row$tab"}; what=${what%%"$nl"*} ;; esac
	echo "== $row: [$tier tier] $what"
	# RXE_SKIP=<why>: the tier cannot run here; each row says so, with why.
	if [ -n "${RXE_SKIP-}" ]; then echo "[skipped: $RXE_SKIP]"; continue; fi
	# RXE_LD_DEBUG=<what> (evidence.sh): the row's program alone under
	# LD_DEBUG=<what>, its record in $RXE_LD_DEBUG_OUTPUT.<row>.<pid>
	if [ -n "${RXE_LD_DEBUG-}" ]; then
		LD_DEBUG=$RXE_LD_DEBUG LD_DEBUG_OUTPUT=$RXE_LD_DEBUG_OUTPUT.$row "$dir/$row/rxe-lab" || echo "$row: rxe-lab exited with status $?"
	else
		"$dir/$row/rxe-lab" || echo "$row: rxe-lab exited with status $?"
	fi
done
