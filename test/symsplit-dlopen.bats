#!/usr/bin/env bats
# symsplit: the dlopen timeline, a dlopen made by a library, copies hidden by --exclude-libs.
# Ground truth comes from running the fixtures and the labs (scripts/verdict
# --facts), never from a copied list; every program a test starts runs under
# timeout (a hang is a failure, 124). Shared setup: symsplit-setup.bash.
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

# ---- the dlopen timeline (ground truth: dlorder opens as told) ----
# timeline ARGS...: dlorder's exit (0 one registration seen, 1 split) must
# equal symsplit's for the same opens in the same order
timeline() {
    local t=$FX/timeline a args=()
    for a in "$@"; do args+=(--dlopen "$t/$a"); done
    run timeout -k 2 10 "$t/app" "${@/#/$t/}"
    want=$status
    [ "$want" -le 1 ] || { echo "dlorder: $output"; false; }
    run ss --dlsym user_count "${args[@]}" "$t/app"
    [ "$status" -eq "$want" ] || { echo "dlorder $want, symsplit $status: $output"; false; }
}

@test "symsplit: a module bound RTLD_NOW is not rebound by a later RTLD_GLOBAL open" {
    timeline plugin.so libC.so:global
    assert_success
}
@test "symsplit: an RTLD_GLOBAL module opened first captures a later module's references" {
    timeline libC.so:global plugin.so
    assert_failure 1
    assert_line --regexp "^SPLIT .* reg_count .*plugin.so depends on libB.so but its reference resolves to libC.so's copy"
}
@test "symsplit: a lazy slot binds after the last open: a later RTLD_GLOBAL module captures it" {
    timeline plugin.so:lazy libC.so:global
    assert_failure 1
}
@test "symsplit: an RTLD_GLOBAL module's constructor that calls into a lazy module binds its slot before the newcomer joins the global scope" {
    # the loader's record: plugin.so's reg_count bound while libnew.so's constructor runs, to libB.so
    run env LD_DEBUG=bindings,files timeout -k 2 10 "$FX/timeline/app" "$FX/timeline/plugin.so:lazy" "$FX/timeline/libnew.so:global"
    assert_success
    order=$("$TOP/scripts/ld-debug" --names <<<"$output" | grep -E "^calling init: libnew.so|^binding file plugin.so .* \`reg_count'" | tr '\n' '|')
    [[ $order == "calling init: libnew.so|binding file plugin.so [0] to libB.so [0]: normal symbol \`reg_count'|" ]] || { echo "$order"; false; }
    timeline plugin.so:lazy libnew.so:global
    assert_success
    timeline plugin.so libnew.so:global     # bound at open (RTLD_NOW): unchanged by the newcomer
    assert_success
}

# ---- the two false SPLITs of the held-out corpus ----
@test "symsplit: an archive copy the executable hides with --exclude-libs, its .so needed only by a library: no split, as running it shows" {
    run truth ok-exclude-libs
    assert_success
    [ "$(nm "$FX/ok-exclude-libs/app" | grep -c ' t reg_count$')" -eq 1 ]     # the copy is there, local
    run ss --info "$FX/ok-exclude-libs/app"
    assert_success
    refute_line --regexp '^(SPLIT|MAYBE) '
}

@test "symsplit: the executable's hidden archive copy beside the .so it links, as bfd, gold and lld localise it: split, as running it shows" {
    local n=0 ld k
    for ld in bfd gold lld; do
        for k in exclude-libs local-script; do
            [ -d "$FX/split-$k-$ld" ] || continue   # that linker is not installed
            n=$((n + 1))
            run truth split-$k-$ld
            assert_failure 1
            [ "$(nm "$FX/split-$k-$ld/app" | grep -c ' t reg_count$')" -eq 1 ]     # the copy is there, local
            run ss "$FX/split-$k-$ld/app"
            assert_failure 1
            assert_line --regexp "^SPLIT .* reg_(count|add) .*app depends on libreg.so but its own code calls its own hidden copy of reg_(count|add)"
        done
    done
    [ "$n" -ge 2 ]   # bfd's at least: a check that checked nothing fails
}

@test "symsplit: an unversioned reference bound to a vendored copy under another version node: split, as running it shows" {
    run truth split-version-nodes
    assert_failure 1
    # the two copies sit under two version nodes; the executable asks for neither
    [ "$(readelf -W --dyn-syms "$FX/split-version-nodes/libvendor.so" | grep -c ' reg_count@@VENDOR_1$')" -eq 1 ]
    [ "$(readelf -W --dyn-syms "$FX/split-version-nodes/app" | grep -c ' UND reg_count$')" -eq 1 ]
    run ss "$FX/split-version-nodes/app"
    assert_failure 1
    assert_line --regexp "^SPLIT .* reg_count .*app depends on libreg.so but its reference resolves to libvendor.so's copy.*libuser.so's reference resolves to libreg.so's copy"
}

@test "symsplit: an unversioned reference binds the oldest node's definition, hidden or not, and skips a hidden one further on, as running it shows and --bindings agrees" {
    local s
    [ "$(readelf -W --dyn-syms "$FX/version-oldest/libvendor.so" | grep -Ec ' reg_count@(VENDOR_1|@VENDOR_2)$')" -eq 2 ]
    [ "$(readelf -W --dyn-syms "$FX/version-hidden/libvendor.so" | grep -Ec ' reg_count@VENDOR_2$')" -eq 1 ]
    for s in version-oldest version-hidden; do
        run env LD_DEBUG=bindings timeout -k 2 10 "$FX/$s/app"
        want=$status
        run "$TOP/scripts/ld-debug" --names --bindings reg_count <<<"$output"
        case $s in
        version-oldest) [ "$want" -eq 1 ] && assert_line "binding file app [0] to libvendor.so [0]: normal symbol \`reg_count'" ;;
        version-hidden) [ "$want" -eq 0 ] && assert_line "binding file app [0] to libreg.so [0]: normal symbol \`reg_count'" ;;
        esac
        run ss "$FX/$s/app"
        [ "$status" -eq "$want" ] || { echo "$s: running it $want, symsplit $status: $output"; false; }
    done
    run timeout -k 2 240 "$TOP/tools/symsplit/dev/check-bindings" "$SYMSPLIT" "$BATS_TEST_TMPDIR/out" "$FX/version-oldest" "$FX/version-hidden" "$FX/split-version-nodes"
    assert_success
    assert_line --regexp '^bindings: ([1-9][0-9]*)/\1 agree \(100.00%\)$'
}

@test "symsplit: dlsym takes the default version, never a hidden one an unversioned reference would bind: split, as running it shows" {
    d=$FX/dlsym-newest
    [ "$(readelf -W --dyn-syms "$d/plugin.so" | grep -c ' reg_count@VENDOR_1$')" -eq 1 ]     # hidden, no default
    [ "$(readelf -W -V "$d/plugin.so" | grep -c 'Index: 2 .*Name: VENDOR_1$')" -eq 1 ]       # the oldest node
    run env LD_DEBUG=bindings timeout -k 2 10 "$d/app" "$d/plugin.so" reg_count user_count
    assert_failure 1                                     # the two names read two registries
    run "$TOP/scripts/ld-debug" --names --bindings reg_count <<<"$output"
    assert_line "binding file plugin.so [0] to libreg.so [0]: normal symbol \`reg_count'"   # the dlsym
    assert_line "binding file plugin.so [0] to libA.so [0]: normal symbol \`reg_count'"     # user_count's call
    run ss --dlsym reg_count --dlsym user_count --dlopen "$d/plugin.so" "$d/app"
    assert_failure 1
    assert_line --regexp "^SPLIT .* reg_count .*plugin.so depends on libreg.so but its reference resolves to libA.so's copy.*dlsym on the --dlopen handle of plugin.so finds libreg.so's copy"
}

@test "symsplit: a host running a library's code keeps the library's copy of a captured function in use only through a cell they share (stripped: .eh_frame bounds the helper), as running it shows" {
    d=$FX/handle-cells
    [ "$(readelf -S "$d/libcells.so" | grep -c symtab)" -eq 0 ]          # stripped: bump() has no symbol
    run env LD_DEBUG=bindings timeout -k 2 10 "$d/app" "$d/libcells.so" open_dev open_dev
    assert_success                                       # open_dev reads one path: the program's
    run "$TOP/scripts/ld-debug" --names --bindings get_path <<<"$output"
    assert_line "binding file libcells.so [0] to app [0]: normal symbol \`get_path'"   # the capture
    run ss --dlsym open_dev --dlopen "$d/libcells.so" "$d/app"
    assert_success                                       # open_dev reaches opened, never path
    refute_line --regexp "^SPLIT"
    run timeout -k 2 10 "$d/app" "$d/libcells.so" set_path open_dev
    assert_failure 1                                     # set_path writes the library's path, open_dev reads the program's
    run ss --dlsym set_path --dlsym open_dev --dlopen "$d/libcells.so" "$d/app"
    assert_failure 1
    assert_line --regexp "^SPLIT .* get_path .*libcells.so's own interposable reference to get_path .*resolves to app's copy.*libcells.so's copy of set_path"
}

@test "symsplit: a captured reference read only in an old-version entry point nothing binds is no split; in a default-version export it is, as running it shows" {
    d=$FX/compat-old
    run env LD_DEBUG=bindings timeout -k 2 10 "$d/app" "$d/libcompat.so" reg_add list_count
    assert_success                                       # the host's calls agree: one registry
    run "$TOP/scripts/ld-debug" --names --bindings list_count <<<"$output"
    assert_line "binding file libcompat.so [0] to app [0]: normal symbol \`list_count' [COMPAT_1]"   # the capture
    run readelf --dyn-syms -W "$d/libcompat.so"
    assert_line --regexp " count_all@COMPAT_0$"           # the call's only home: an old version node
    run ss --dlsym reg_add --dlsym list_count --dlopen "$d/libcompat.so" "$d/app"
    assert_success
    refute_line --regexp "^SPLIT"
    run ss --info --dlsym reg_add --dlsym list_count --dlopen "$d/libcompat.so" "$d/app"
    assert_line --regexp "^MAYBE .* list_count .*libcompat.so reads its slot for list_count only in code nothing in this image enters \(such as count_all@COMPAT_0\)"
    d=$FX/compat-default
    run timeout -k 2 10 "$d/app" "$d/libcompat.so" reg_add count_all
    assert_failure 1                                     # count_all reads the program's registry, reg_add wrote the library's
    run ss --dlsym reg_add --dlsym list_count --dlopen "$d/libcompat.so" "$d/app"
    assert_failure 1                                     # count_all@@COMPAT_1: anyone may call it
    assert_line --regexp "^SPLIT .* list_count .*libcompat.so's own interposable reference to list_count .*resolves to app's copy"
}

@test "symsplit: a lone hidden namesake (.symtab only) is no copy in play: no split, as running it shows" {
    run truth ok-hidden-namesake
    assert_success
    [ "$(nm "$FX/ok-hidden-namesake/libhelp.so" | grep -c ' t reg_count$')" -eq 1 ]
    run ss --info "$FX/ok-hidden-namesake/app"
    assert_success
    refute_line --regexp '^(SPLIT|MAYBE) '
}

# ---- a dlopen made by a library, searched as glibc searches it ----
# dlsearch/{a,b,c}/app ask libopener.so to dlopen a plugin; exit 0 if it loaded
@test "symsplit: --dlopen :by=MODULE searches with the caller's DT_RPATH chain, which a DT_RUNPATH on the caller switches off, as running it shows" {
    bats_require_minimum_version 1.5.0
    d=$FX/dlsearch
    run timeout -k 2 10 "$d/a/app"                   # the executable's DT_RPATH, through the caller's chain
    assert_success
    run ss --dlopen libtarget.so:by=libopener.so "$d/a/app"
    assert_success
    run timeout -k 2 10 "$d/b/app"                   # the caller's DT_RUNPATH (a missing directory): every DT_RPATH is off
    assert_failure
    run --separate-stderr ss --dlopen libtarget.so:by=libopener.so "$d/b/app"
    assert_failure 2
    [[ $stderr == "symsplit: libtarget.so: cannot find the --dlopen module in the library search path of libopener.so" ]] || { echo "$stderr"; false; }
    run ss --dlopen libtarget.so "$d/b/app"          # without by=: the executable's search, as documented
    assert_success
}

@test "symsplit: --dlopen :by=MODULE finds what only the caller's DT_RPATH reaches; the module's own NEEDED is not searched there, as running it shows" {
    bats_require_minimum_version 1.5.0
    d=$FX/dlsearch/c
    run timeout -k 2 10 "$d/app" libtarget.so
    assert_success
    run ss --dlopen libtarget.so:by=libopener.so "$d/app"
    assert_success
    run --separate-stderr ss --dlopen libtarget.so "$d/app"    # the executable's DT_RUNPATH does not reach it
    assert_failure 2
    run --separate-stderr timeout -k 2 10 "$d/app" libneeds.so
    assert_failure
    [[ $stderr == *"libdep.so: cannot open shared object file"* ]]
    run ss --dlopen libneeds.so:by=libopener.so "$d/app"
    [ "$status" -eq 3 ] || { echo "status $status: $output"; false; }
    assert_line --regexp '^NOLOAD +high +libdep.so +.*libneeds.so needs libdep.so, which no search rule finds'
    run --separate-stderr ss --dlopen libtarget.so:by=libnothere.so "$d/app"
    assert_failure 2
    [[ $stderr == *"by=libnothere.so: no such module loaded before this dlopen"* ]]
}

@test "symsplit: several executables in one run, each in its own image" {
    run ss "$FX/ok-interpose/app" "$FX/split-protected/app" "$FX/ok-copyreloc/app"
    assert_failure 1
    assert_line --partial '# symsplit: 3 image(s), 2 split(s)'
    refute_line --partial 'in '"$FX"'/ok-'
}

@test "symsplit: --json carries the same counts" {
    run ss --json "$FX/split-protected/app"
    assert_failure 1
    assert_output --partial '"splits":2'
    assert_output --partial '"symbol":"reg_count"'
    run /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["findings"]))' <<<"$output"
    assert_output 2
}

@test "symsplit: the allowlist suppresses by symbol and module and says how many" {
    printf '# intentional\nreg_* libreg.so\n' > "$BATS_TEST_TMPDIR/allow"
    run ss --allow "$BATS_TEST_TMPDIR/allow" "$FX/split-protected/app"
    assert_success
    assert_line --partial '0 split(s), 0 maybe, 0 info (rows with --info), 2 suppressed by allowlist'
    printf 'reg_* libother.so\n' > "$BATS_TEST_TMPDIR/allow2"
    run ss --allow "$BATS_TEST_TMPDIR/allow2" "$FX/split-protected/app"
    assert_failure 1
}

@test "dlmopen: --dlopen PATH:newns opens PATH in a namespace of its own, whose global scope is PATH and its dependencies: plugin.so binds its own libB.so, as the loader does" {
    # the loader's record of dlmopen(LM_ID_NEWLM, plugin.so) (fixture deepbind)
    run bash -c 'LD_DEBUG=bindings timeout -k 2 10 "$1/app" "$1/plugin.so:newlm" 2>&1 > /dev/null | "$2" --names --bindings "reg_count'\''"' _ "$FX/deepbind" "$TOP/scripts/ld-debug"
    assert_output "binding file plugin.so [1] to libB.so [1]: normal symbol \`reg_count'"
    run ss --bindings --dlopen "$FX/deepbind/plugin.so:newns" "$FX/deepbind/app"
    assert_success
    assert_line --regexp "^binding	[^	]*/plugin.so	[^	]*/libB.so	reg_count	-	normal	modelled$"
    # a plain dlopen: the executable's libA.so answers first, from the global scope
    run ss --bindings --dlopen "$FX/deepbind/plugin.so" "$FX/deepbind/app"
    assert_line --regexp "^binding	[^	]*/plugin.so	[^	]*/libA.so	reg_count	-	normal	modelled$"
}
