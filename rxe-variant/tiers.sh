#!/bin/sh
# Runs the selected rows in each selected tier that can run here, saying which
# tier ran and why a tier was skipped. Status lines go to stderr: they are
# not part of any row. A skipped tier still prints each of its rows, each
# "[skipped: <why>]".
# usage: tiers.sh <rxe build dir> <tiers: all|emulated|kernel|vm> row...
here=$(dirname "$0")
b=$1 sel=$2
shift 2
case $sel in all) sel="emulated kernel vm" ;; esac
status=0
for t in $sel; do
	err=$b/tier-$t.err
	echo "tier: $t" >&2
	sh "$here/$t.sh" "$b" "$@" 2>"$err"
	rc=$?
	if [ $rc = 77 ]; then
		why=$(tail -n 1 "$err"); why=${why:-the $t tier cannot run here and gave no reason}
		echo "tier: $t skipped: $why" >&2
		# Each row is still there, skipped with the tier's reason: a row
		# that cannot run is a line saying why, never a missing one.
		RXE_SKIP=$why sh "$here/run-rows.sh" "$t" "$here/rows" "$b" "$@"
	elif [ $rc != 0 ]; then
		echo "tier: $t FAILED: $(tail -n 1 "$err")" >&2
		status=1
	else
		cat "$err" >&2
	fi
done
exit $status
