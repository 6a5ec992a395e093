#!/usr/bin/env bats
# symsplit: a copy is the same code.  A runtime that implements another's
# interface on purpose (libnew.so.1 over libold.so.1: other SONAME, other
# code, every name of libold.so.1's interface) is a different library, told
# by the definitions (their sizes), not by how many names the two share.
# The truth is each run of the fixture (exit status, and the loader's own
# record: LD_DEBUG=bindings with LD_BIND_NOW=1): preloaded or linked first,
# libnew.so.1 takes every reference (an override, exit 0); with one name
# only libold.so.1 defines, that one call binds libold.so.1 while eight bind
# libnew.so.1, and the program's assertion fails (SIGABRT).
# Shared setup: symsplit-setup.bash.
load helpers
load symsplit-setup
load symsplit-pause
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

# run_app KIND APP: the fixture run (status), libnew.so.1 preloaded for app
run_app() {
    local d=$FX/replace-$1 pre=()
    [ "$2" = app ] && pre=(LD_PRELOAD="$d/libnew.so.1")
    run env "${pre[@]}" timeout -k 2 10 "$d/$2"
}

# binds KIND APP LIB: the executable's references the loader bound to LIB, one name a line
binds() {
    local d=$FX/replace-$1 pre=()
    [ "$2" = app ] && pre=(LD_PRELOAD="$d/libnew.so.1")
    env "${pre[@]}" LD_BIND_NOW=1 LD_DEBUG=bindings timeout -k 2 10 "$d/$2" 2>&1 >/dev/null |
        sed -n "s|.*binding file [^ ]*/$2 \[0\] to $d/$3 \[0\]: normal symbol \`\([^']*\)'.*|\1|p" | sort
}

# sym KIND APP [MODE]: symsplit on the same process, from the files, by
# running it (trace), or reading it paused after its calls (pid)
sym() {
    local d=$FX/replace-$1 pre=()
    [ "$2" = app ] && pre=(--preload "$d/libnew.so.1")
    case ${3:-} in
    trace) run --separate-stderr ss "${pre[@]}" --trace -- "$d/$2" ;;
    pid)   # a paused process after another: the last one's FIFO goes
        rm -f "$BATS_TEST_TMPDIR/pause"
        if [ "$2" = app ]; then live_start env LD_PRELOAD="$d/libnew.so.1" "$d/$2"; else live_start "$d/$2"; fi
        run --separate-stderr ss --pid "$LIVE_PID"
        live_end ;;
    *) run ss "${pre[@]}" "$d/$2" ;;
    esac
}

# kept_one KIND APP STATUS NAME: the fixture run exits STATUS, with the
# program's NAME bound to libold.so.1 and eight names to libnew.so.1
kept_one() {
    run_app "$1" "$2"
    [ "$status" -eq "$3" ] || { echo "$2: the fixture exited $status, not $3"; false; }
    assert_equal "$(binds "$1" "$2" libold.so.1)" "$4"
    [ "$(binds "$1" "$2" libnew.so.1 | wc -l)" -eq 8 ]
}

# the override row: libnew.so.1 takes every reference that matters
OVERRIDE_ROW='^COLLISION +med +libnew.so.1\+libold.so.1 .*-> an override: libnew.so.1 implements libold.so.1.s interface and takes the references to it; no reference of another module binds libold.so.1 code that works on the state .*\(not harmful\)'

@test "replace: the two runtimes share libold.so.1's whole interface, and most of the shared definitions differ in size" {
    d=$FX/replace-override
    shared=$(join <(nm -D -S --defined-only "$d/libold.so.1" | awk '$3 == "T" { print $4, $2 }' | sort) \
                  <(nm -D -S --defined-only "$d/libnew.so.1" | awk '$3 == "T" { print $4, $2 }' | sort))
    [ "$(wc -l <<<"$shared")" -eq "$(nm -D --defined-only "$d/libold.so.1" | awk '$2 == "T"' | wc -l)" ]
    [ "$(awk '$2 != $3' <<<"$shared" | wc -l)" -gt "$(awk '$2 == $3' <<<"$shared" | wc -l)" ]
}

@test "symsplit: an interface-compatible runtime preloaded or linked first, every reference bound to it: an override, no SPLIT, exit 0, from the files, under --trace and --pid" {
    for app in app app-linked; do
        run_app override $app
        [ "$status" -eq 0 ] || { echo "$app: the fixture exited $status"; false; }
        [ -z "$(binds override $app libold.so.1)" ] && [ -n "$(binds override $app libnew.so.1)" ]
        for mode in files trace pid; do
            sym override $app $mode
            assert_success
            refute_line --regexp '^SPLIT '
            assert_line --regexp "$OVERRIDE_ROW"
            assert_line --regexp '^COLLISION +med .*other code behind the names in common'
        done
    done
}

@test "symsplit: the same runtimes with a name only the replaced one defines: one call binds it, eight the replacement, the process aborts; COLLISION high naming both sides (other code: no SPLIT), exit 1, from the files, under --trace and --pid" {
    for app in app app-linked; do
        kept_one divided $app 134 rt_total
        for mode in files trace pid; do
            sym divided $app $mode
            assert_failure 1
            refute_line --regexp '^SPLIT '
            assert_line --regexp "^COLLISION +high +rt_[a-z]+ .*8 reference\(s\) crossed.*1 reference\(s\) of other modules still bind libold.so.1, the first: $app's rt_total -> a collision that divides libold.so.1's state: libnew.so.1 implements its interface, the references divide between the two \($app's rt_[a-z]+ binds libnew.so.1\)"
        done
    done
}

@test "symsplit: a name only the replaced runtime defines whose code takes only the lock the interface takes too (each side writes it, as libunwind's init state beside glibc's backtrace): one call binds it, eight the replacement, the process runs; an override, COLLISION med, exit 0, from the files, under --trace and --pid" {
    for app in app app-linked; do
        kept_one lock $app 0 rt_busy
        for mode in files trace pid; do
            sym lock $app $mode
            assert_success
            refute_line --regexp '^(SPLIT|COLLISION +high) '
            assert_line --regexp "$OVERRIDE_ROW"
        done
    done
}

# sym_bump DIR APP MODE [OPTION...]: symsplit on DIR/APP with DIR's
# libbump.so.1 preloaded, from the files, running it (trace), or reading it
# paused (pid)
sym_bump() {
    local d=$1 app=$2 mode=$3; shift 3
    case $mode in
    files) run --separate-stderr ss "$@" --preload "$d/libbump.so.1" "$d/$app" ;;
    trace) run --separate-stderr ss "$@" --preload "$d/libbump.so.1" --trace -- "$d/$app" ;;
    pid)   rm -f "$BATS_TEST_TMPDIR/pause"
           live_start env LD_PRELOAD="$d/libbump.so.1" "$d/$app"
           run --separate-stderr ss "$@" --pid "$LIVE_PID"
           live_end ;;
    esac
}

@test "symsplit: a replacement allocator preloaded that defines glibc's internal aliases (__libc_malloc, as mimalloc and tcmalloc do) is another library: libc's references bind it by design, COLLISION med, exit 0, from the files, under --trace and --pid" {
    d=$FX/allocator
    run env LD_PRELOAD="$d/libbump.so.1" timeout -k 2 10 "$d/app"
    assert_success
    # it lacks names of glibc's interface (pvalloc) that nothing here binds: they change nothing
    ! nm -D --defined-only "$d/libbump.so.1" | grep -qw pvalloc
    bound=$(env LD_PRELOAD="$d/libbump.so.1" LD_BIND_NOW=1 LD_DEBUG=bindings timeout -k 2 10 "$d/app" 2>&1 >/dev/null |
        grep -c "binding file [^ ]*/libc.so.6 \[0\] to $d/libbump.so.1 \[0\]: normal symbol \`malloc'")
    [ "$bound" -ge 1 ]
    for mode in files trace pid; do
        sym_bump "$d" app $mode
        assert_success
        refute_line --regexp '^SPLIT '
        assert_line --regexp '^COLLISION +med +libbump.so.1\+libc.so.6 .*different libraries.*an override by design: libbump.so.1, which needs libc.so.6, takes these functions. references from it \(not harmful\); libbump.so.1 defines no [a-z_, ]*pvalloc[a-z_, ]* of libc.so.6.s allocation interface: nothing here binds them'
    done
    run ss --json --preload "$d/libbump.so.1" "$d/app"
    run collision_json '"pvalloc" in f.get("lacks", "")' <<<"$output"
    assert_output True
}

# collision_json EXPR: EXPR (Python, over a finding f; v(x) prints null for
# a missing value, as JSON does) for each COLLISION finding of the JSON on
# standard input, one line each, its values joined by spaces. Python reads
# the JSON here, as in the other test files: make deps installs no jq.
collision_json() {
    /usr/bin/python3 -c 'import json, sys
v = lambda x: "null" if x is None else str(x)
for f in json.load(sys.stdin)["findings"]:
    if f["verdict"] == "COLLISION":
        r = eval(sys.argv[1], {"v": v, "f": f})
        print(" ".join(r) if isinstance(r, tuple) else r)' "$1"
}

# heap DIR APP: the bindings of APP's pvalloc and free, libbump.so.1
# preloaded, as "NAME FILE" lines, FILE's base name (the loader's record)
heap() {
    env LD_PRELOAD="$1/libbump.so.1" LD_BIND_NOW=1 LD_DEBUG=bindings timeout -k 2 10 "$1/$2" 2>&1 >/dev/null |
        sed -n "s#.*binding file [^ ]*/$2 \[0\] to [^ ]*/\([^ /]*\) \[0\]: normal symbol \`\(pvalloc\|free\)'.*#\2 \1#p" | sort -u
}

@test "allocator-divided: a replacement that lacks pvalloc, which the program calls (by a relocation, or by dlsym on its own handle): pvalloc binds libc.so.6's, free libbump.so.1's, and the process aborts on the foreign block" {
    d=$FX/allocator-divided
    ! nm -D --defined-only "$d/libbump.so.1" | grep -qw pvalloc
    for app in app app-dlsym; do
        run timeout -k 2 10 "$d/$app"
        assert_success
        run env LD_PRELOAD="$d/libbump.so.1" timeout -k 2 10 "$d/$app"
        [ "$status" -eq 134 ] || { echo "$app: exit $status, not SIGABRT"; false; }
        assert_equal "$(heap "$d" $app)" "free libbump.so.1
pvalloc libc.so.6"
    done
    # app-dlsym: no relocation names pvalloc (only the dlsym finds it)
    ! readelf -rW "$d/app-dlsym" | grep -qw pvalloc
    readelf -rW "$d/app" | grep -qw pvalloc
}

@test "symsplit: a replacement allocator lacking a name a relocation binds in the replaced one (pvalloc): COLLISION high naming both references, harm divided, exit 1, from the files, under --trace and --pid" {
    d=$FX/allocator-divided
    for mode in files trace pid; do
        sym_bump "$d" app $mode
        assert_failure 1
        refute_line --regexp '^SPLIT '
        assert_line --regexp "^COLLISION +high +.*libbump.so.1 and libc.so.6 are different libraries.*libbump.so.1 defines no pvalloc, and app's reference to it binds libc.so.6's, while app's free binds libbump.so.1's -> a collision that divides the heap"
    done
    run ss --json --preload "$d/libbump.so.1" "$d/app"
    assert_failure 1
    run collision_json '(v(f["harm"]), *(v(f["heap"].get(k)) for k in ("name", "binder", "binds", "other", "other_binder")))' <<<"$output"
    assert_output 'divided pvalloc app libc.so.6 free app'
}

@test "symsplit: the same name reached only by dlsym on the program's own handle: unseen without --dlsym (an override by design, exit 0); with --dlsym pvalloc, COLLISION high, harm divided, exit 1, from the files and --pid" {
    d=$FX/allocator-divided
    run --separate-stderr ss --preload "$d/libbump.so.1" "$d/app-dlsym"
    assert_success
    assert_line --regexp '^COLLISION +med +libbump.so.1\+libc.so.6 .*an override by design'
    for mode in files pid; do
        sym_bump "$d" app-dlsym $mode --dlsym pvalloc
        assert_failure 1
        assert_line --regexp "^COLLISION +high +pvalloc .*libbump.so.1 defines no pvalloc, and a dlsym of it \(--dlsym\) finds libc.so.6's in the global scope, while app-dlsym's free binds libbump.so.1's -> a collision that divides the heap"
    done
    run ss --json --preload "$d/libbump.so.1" --dlsym pvalloc "$d/app-dlsym"
    run collision_json 'v(f["harm"]), v(f["heap"].get("binder"))' <<<"$output"
    assert_output 'divided null'
}
