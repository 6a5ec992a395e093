#!/usr/bin/env bats
# symsplit: two majors of one library that probe for each other, and a
# process's end as a fact (--trace).  The truth is each run of the rivals
# fixture (dlcheck: exit 0, or SIGABRT when librival.so.2's init finds
# librival.so.1's own name in the global scope, as GTK 4 finds GTK 3's).
# Shared setup: symsplit-setup.bash.
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

# rivals ARG...: the fixture's run (status in $truth), then symsplit on
# the files with the same opens (status and output as bats' run leaves them)
rivals() {
    local d=$FX/rivals a dl=()
    for a in "$@"; do dl+=(--dlopen "$d/$a"); done
    run timeout -k 2 10 "$d/app" "${@/#/$d/}"
    truth=$status
    run ss "${dl[@]}" "$d/app"
}

@test "symsplit: two majors, one in the global scope, in either load order: the process aborts and symsplit exits 1 (COLLISION high by scope), from the files alone" {
    for order in "librival.so.1:global librival.so.2" "librival.so.2 librival.so.1:global"; do
        rivals $order
        [ "$truth" -eq 134 ] || { echo "$order: the fixture exited $truth, not SIGABRT"; false; }
        assert_failure 1
        assert_line --regexp "^COLLISION +high +librival.so.[12]\\+librival.so.[12] +.*two versions of one library, and the global scope holds librival.so.1"
    done
}

@test "symsplit: two majors, both RTLD_LOCAL: the process runs and symsplit exits 0, no high row: the LATENT one a promotion makes is med" {
    rivals librival.so.1 librival.so.2
    [ "$truth" -eq 0 ]
    assert_success
    refute_line --regexp '^(COLLISION|SPLIT) '
    assert_line --regexp "^LATENT +med +librival.so.1\\+librival.so.2 +.*if librival.so.1 were opened RTLD_GLOBAL.*promoted, librival.so.1's unversioned names would be in the global scope"
    refute_line --regexp '^[A-Z]+ +high '
}

# registry ARG...: the registry fixture's run (two majors that both need
# libgobject-2.0.so.0 and register one type name) and symsplit on the files
registry() {
    local d=$FX/registry a dl=()
    [ -x "$d/app" ] || skip "no libgobject-2.0.so.0 (libglib2.0-0): the registry fixture is not built"
    for a in "$@"; do dl+=(--dlopen "$d/$a"); done
    run --separate-stderr timeout -k 2 10 "$d/app" "${@/#/$d/}"
    truth=$status terr=$stderr
    run ss "${dl[@]}" "$d/app"
}

@test "symsplit: two majors that register one type name in GObject's registry, both RTLD_LOCAL: the process fails and symsplit exits 1 (COLLISION high by registry), in either order" {
    for order in "libtypereg.so.1 libtypereg.so.2" "libtypereg.so.2 libtypereg.so.1"; do
        registry $order
        [ "$truth" -eq 1 ] || { echo "$order: the fixture exited $truth, not 1"; false; }
        [[ $terr == *"cannot register existing type 'TyperegThing'"* ]] || { echo "$terr"; false; }
        assert_failure 1
        assert_line --regexp "^COLLISION +high +libtypereg.so.[12]\\+libtypereg.so.[12] +.*neither is in the global scope.*both need libgobject-2.0.so.0, GObject's type registry.*typereg_thing_get_type"
    done
}

@test "symsplit: one major of the registry fixture alone runs, and symsplit has no row" {
    registry libtypereg.so.2
    [ "$truth" -eq 0 ]
    assert_success
    refute_line --regexp '^(COLLISION|SPLIT|LATENT) '
}

@test "symsplit --trace: the registry fixture's failed run exits 1, its row harmful" {
    d=$FX/registry
    [ -x "$d/app" ] || skip "no libgobject-2.0.so.0 (libglib2.0-0): the registry fixture is not built"
    run --separate-stderr timeout -k 2 60 "$SYMSPLIT" --trace -- "$d/app" "$d/libtypereg.so.1" "$d/libtypereg.so.2"
    assert_failure 1
    assert_line --regexp "^COLLISION +high +libtypereg.so.1\\+libtypereg.so.2 "
}

@test "symsplit --trace: a process that died with two majors loaded exits 1, the row naming how it ended and the library whose text its last line is" {
    d=$FX/rivals
    run --separate-stderr timeout -k 2 60 "$SYMSPLIT" --json --trace -- "$d/app" "$d/librival.so.1:global" "$d/librival.so.2"
    assert_failure 1
    [[ $stderr == *"rival-2: rival 1 symbols detected"* ]]      # what the process printed still reaches the user
    run /usr/bin/python3 -c 'import json, sys
d = json.load(sys.stdin)
r = [f for f in d["findings"] if f["verdict"] == "COLLISION"][0]
print(r["sev"], r["harm"], r["harmful"], r["died"]["signal"], r["died"]["printed_by"])' <<< "$output"
    assert_output "high died True 6 librival.so.2"
}

@test "symsplit --trace: a dlopen whose constructor aborted is a module the loader mapped, not a dlopen that loaded nothing" {
    d=$FX/rivals
    run --separate-stderr timeout -k 2 60 "$SYMSPLIT" --trace -- "$d/app" "$d/ctorabort.so:global"
    [[ $stderr == *"killed by signal 6; 1 module(s) it dlopened, in that order: $d/ctorabort.so:local"* ]] || { echo "$stderr"; false; }
    [[ $stderr != *"loaded nothing"* ]]
    # nothing loaded shares its names: the death is told, and tied to no finding
    [[ $stderr == *"no finding ties its end to one"* ]]
    assert_success
}

@test "symsplit: a part one major needs (libwdk.so.1) beside the other major, which holds the same code (libwid.so.2): its reference crossed, the process fails; COLLISION high naming them parts of two versions of one library, never SPLIT, exit 1" {
    rivals libwid.so.2:global libwid.so.1
    [ "$truth" -eq 1 ] || { echo "the fixture exited $truth, not 1"; false; }
    d=$FX/rivals
    env LD_BIND_NOW=1 LD_DEBUG=bindings timeout -k 2 10 "$d/app" "$d/libwid.so.2:global" "$d/libwid.so.1" 2>&1 |
        grep -q "binding file $d/libwid.so.1 \[0\] to $d/libwid.so.2 \[0\]: normal symbol \`wdk_add'"
    assert_failure 1
    refute_line --regexp '^SPLIT '
    assert_line --regexp '^COLLISION +high +wdk_[a-z]+ +.*libwid.so.2 and libwdk.so.1 are different libraries \(parts of two versions of one library\).*libwid.so.1 depends on libwdk.so.1 but its reference resolves to libwid.so.2.s copy.*harmful'
}
