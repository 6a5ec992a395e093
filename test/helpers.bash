# Shared by every bats file: bats-support/bats-assert from Debian's packages,
# the project root, and small readers of a lab's raw output. These readers
# only pick lines and addresses out; verdicts come from scripts/verdict.
bats_load_library bats-support
bats_load_library bats-assert

TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
export TOP

# lab_output NAME MAKE-ARGS...: run `make -s MAKE-ARGS` once per bats file and
# keep its stdout in $BATS_FILE_TMPDIR/NAME.out (use from setup_file).
lab_output() {
	local name=$1; shift
	make -s -C "$TOP" --no-print-directory "$@" > "$BATS_FILE_TMPDIR/$name.out"
}
out_file() { echo "$BATS_FILE_TMPDIR/$1.out"; }
# lab_outputs NAME TARGET: the lab's plain run (NAME) and its run with the
# evidence under each row (NAME-evidence).
lab_outputs() { lab_output "$1" "$2"; lab_output "$1-evidence" "$2" EVIDENCE=1; }

# row FILE ID: the lines of one row, header included.
row() { awk -v id="$2" '/^== / { on = ($2 == id ":") } on' "$1"; }

# Raw run-time addresses of a row's write (" -> ") and read (" <- ") events.
written_addrs() { row "$1" "$2" | grep -E '^\[.* -> ' | grep -oE '@0x[0-9a-fA-F]+' | sort -u; }
read_addrs()    { row "$1" "$2" | grep -E '^\[.* <- ' | grep -oE '@0x[0-9a-fA-F]+' | sort -u; }

# count FILE ID WHO: the device count a consumer line reports.
count() { row "$1" "$2" | sed -nE "s/^ *$3(:| sees)( discovered)? ([0-9]+) device\\(s\\).*/\\3/p" | head -n 1; }

# fact FILE ID KEY: a field of `scripts/verdict --facts` for one row.
fact() { "$TOP/scripts/verdict" --facts < "$1" | awk -v id="$2" -v k="$3=" '$1 == id { for (i = 2; i <= NF; i++) if (index($i, k) == 1) print substr($i, length(k) + 1) }'; }

# golden_diff FILE GOLDEN: normalised output against a golden; prints the
# diff and fails on any difference.
golden_diff() {
	diff -u "$2" <("$TOP/scripts/normalise" < "$1")
}
