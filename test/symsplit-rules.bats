#!/usr/bin/env bats
# symsplit: loader rules beyond plain scope order: filters (DT_FILTER,
# DT_AUXILIARY), IFUNC entry points, thread-local variables in each TLS
# model. Each fixture is run: its verdict comes from what the running
# process shows (a count, or tv's address as each module sees it), and the
# loader's own record (LD_DEBUG=bindings) is set beside symsplit --bindings.
# Shared setup: symsplit-setup.bash.
load helpers
load symsplit-setup
load symsplit-pause
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

# The file the loader bound FROM's reference to SYMBOL to, in DIR/app's run
loader_bound() {   # DIR FROM SYMBOL
    { LD_DEBUG=bindings timeout -k 2 10 "$1/app" 2>&1 > /dev/null || true; } |
        "$TOP/scripts/ld-debug" --names --bindings "$3'" | sed -n "s/^binding file $2 \[0\] to \([^ ]*\) \[0\]: .*/\1/p"
}
# The file and kind symsplit --bindings binds FROM's reference to SYMBOL to
model_bound() {   # DIR FROM SYMBOL
    ss --bindings "$1/app" | awk -F '\t' -v f="$2" -v s="$3" \
        '$1 == "binding" && $4 == s && (f == $2 || substr($2, length($2) - length(f)) == "/" f) { n = $3; sub(/.*\//, "", n); print n, $6 }'
}
# How many different addresses of tv the modules of DIR/app see
tv_addresses() { timeout -k 2 10 "$1/app" | sed -n 's/^tv@\(0x[0-9a-f]*\) .*/\1/p' | sort -u | wc -l; }

@test "filters: a DT_FILTER stub before a self-binding filtee: the filtee answers (kind filter), no SPLIT, as running it shows" {
    run truth ok-filter
    assert_success
    run loader_bound "$FX/ok-filter" libuser.so reg_count
    assert_output libimpl.so
    run model_bound "$FX/ok-filter" libuser.so reg_count
    assert_output "libimpl.so filter"
    run ss "$FX/ok-filter/app"
    assert_success
    refute_line --partial SPLIT
}

@test "filters: a self-binding DT_AUXILIARY filter whose filtee loads: its dependents bind the filtee, SPLIT, as running it shows" {
    run truth split-auxiliary
    assert_failure 1
    run loader_bound "$FX/split-auxiliary" libuser.so reg_count
    assert_output libimpl.so
    run model_bound "$FX/split-auxiliary" libuser.so reg_count
    assert_output "libimpl.so filter"
    run ss "$FX/split-auxiliary/app"
    assert_failure 1
    assert_line --regexp "^SPLIT .* reg_count .*libuser.so depends on libaux.so but its reference resolves to libimpl.so's copy \\(global scope\\), libimpl.so being libaux.so's filtee, searched before it.*libaux.so defines reg_count protected"
}

@test "filters: a DT_AUXILIARY filter whose filtee is missing answers itself: it loads, no SPLIT, as running it shows" {
    local d=$BATS_TEST_TMPDIR/aux
    cp -r "$FX/split-auxiliary" "$d"
    rm "$d/libimpl.so"
    run timeout -k 2 10 "$d/app"
    assert_success
    run loader_bound "$d" libuser.so reg_count
    assert_output libaux.so
    run model_bound "$d" libuser.so reg_count
    assert_output "libaux.so normal"
    run ss "$d/app"
    assert_success
    refute_line --partial SPLIT
}

@test "IFUNC: protected IFUNC entry points whose implementations touch state, a second copy in the executable: SPLIT, as running it shows" {
    run truth split-ifunc
    assert_failure 1
    run loader_bound "$FX/split-ifunc" libuser.so reg_count
    assert_output app
    run ss "$FX/split-ifunc/app"
    assert_failure 1
    assert_line --regexp "^SPLIT .* reg_count .*libreg.so defines reg_count protected.*function with private state behind it"
}

@test "IFUNC: -Bsymbolic-functions leaves an IFUNC interposable (its JUMP_SLOT names it): one live copy, no SPLIT, as running it shows" {
    run truth ok-ifunc-bsymfunc
    assert_success
    run loader_bound "$FX/ok-ifunc-bsymfunc" libreg.so reg_add
    assert_output app
    run model_bound "$FX/ok-ifunc-bsymfunc" libreg.so reg_add
    assert_output "app normal"
    run ss "$FX/ok-ifunc-bsymfunc/app"
    assert_success
    refute_line --partial SPLIT
}

@test "IFUNC: a stateless IFUNC (constant implementations) captured is INFO, judged on its implementations" {
    run truth ok-stateless-ifunc
    assert_success
    run ss --info "$FX/ok-stateless-ifunc/app"
    assert_success
    assert_line --regexp "^INFO .* reg_api .*reaches no private state \\(per disassembly of the implementations the IFUNC's resolver returns, and their callees\\)"
}

@test "TLS: in each model, SPLIT exactly where the running fixture shows two addresses of tv; the loader's lookups of tv are the model's" {
    local s n seen=0
    for s in split-tls-local-dynamic ok-tls-global-dynamic ok-tls-initial-exec ok-tls-local-dynamic-alone; do
        n=$(tv_addresses "$FX/$s")
        [ "$n" -ge 1 ] || fail "$s: no address of tv printed"
        run ss "$FX/$s/app"
        if [ "$n" -gt 1 ]; then
            seen=$((seen + 1))
            assert_failure 1
            assert_line --regexp "^SPLIT .* tv .*libtls.so reaches its thread-local tv by its own module id"
        else
            assert_success
        fi
        # every lookup of tv the loader made (local-dynamic: none from
        # libtls.so), as the model makes it
        for from in app libtls.so libpeer.so; do
            run loader_bound "$FX/$s" "$from" tv
            local l=$output
            run model_bound "$FX/$s" "$from" tv
            [ "$l" = "${output% TLS}" ] || fail "$s: $from's tv: loader '$l', model '$output'"
        done
    done
    [ "$seen" -eq 1 ]   # the local-dynamic fixture splits, as its addresses show
}

@test "IFUNC --pid: the implementation the process's IRELATIVE slot holds is the code judged" {
    bats_require_minimum_version 1.5.0
    live_start "$FX/ok-stateless-ifunc/app"
    run --separate-stderr ss --info --pid "$LIVE_PID"
    live_end
    [ "$LIVE_STATUS" -eq 0 ]
    assert_success
    assert_line --regexp "^INFO .* reg_api .*reaches no private state \\(per disassembly of the IFUNC's implementation the process's slot holds, and its callees\\)"
}

@test "STB_GNU_UNIQUE: two RTLD_LOCAL copies of a unique object are one object, as the run shows: the second's reference binds the first's, no COPY row" {
    local d=$FX/unique-local
    run timeout -k 2 10 "$d/app" "$d/libu1.so" "$d/libu2.so"
    assert_success   # the truth: one address, from each module and from dlsym
    [ "$(grep -c '^uvar@' <<<"$output")" -eq 3 ]
    run bash -c 'LD_DEBUG=bindings timeout -k 2 10 "$1/app" "$1/libu1.so" "$1/libu2.so" 2>&1 >/dev/null | "$2/scripts/ld-debug" --names --bindings "uvar'"'"'"' _ "$d" "$TOP"
    assert_line --regexp "^binding file .*libu2.so \[0\] to .*libu1.so \[0\]: normal symbol \`uvar'"
    run ss --bindings --dlopen "$d/libu1.so" --dlopen "$d/libu2.so" "$d/app"
    assert_line --regexp "^binding	[^	]*/libu2.so	[^	]*/libu1.so	uvar	"
    run ss --info --dlopen "$d/libu1.so" --dlopen "$d/libu2.so" "$d/app"
    assert_success
    refute_line --regexp '^(COPY|SPLIT|MAYBE) .* uvar '
}

@test "STB_GNU_UNIQUE within one load: the first module relocated enters its definition, and a lookup that finds another unique uvar, under another version, gets it" {
    local d=$FX/unique-one-load
    run timeout -k 2 10 "$d/app"
    assert_success   # the truth: one address, from each library's own reference
    [ "$(sed -n 's/^uvar@\(0x[0-9a-f]*\) .*/\1/p' <<<"$output" | sort -u | wc -l)" -eq 1 ]
    run loader_bound "$d" liba.so uvar
    assert_output libb.so
    run model_bound "$d" liba.so uvar
    assert_output "libb.so normal"
    run ss --info "$d/app"
    assert_success
    refute_line --regexp '^(COPY|SPLIT|MAYBE) .* uvar '
}

# What the loader bound for its own references (FROM ld-linux*), "SYMBOL
# VERSION FILE" a line, from its record of STDIN; the same from symsplit --bindings
loader_own() { "$TOP/scripts/ld-debug" --names --bindings '.' | sed -n "s/^binding file ld-linux[^ ]* \[0\] to \([^ ]*\) \[0\]: [a-z]* symbol \`\([^']*\)' \[\([^]]*\)\]$/\2 \3 \1/p" | sort; }
model_own() { awk -F '\t' '$1 == "binding" && $2 ~ /\/ld-linux[^\/]*$/ { n = $3; sub(/.*\//, "", n); print $4, $5, n }' | sort; }

@test "the loader's own relocation: a process that runs has ld.so look up its own references last, in the main scope, where the executable's export captures one; --bindings=run says so, trace mode (ldd -r) makes none, as the loader's records show" {
    bats_require_minimum_version 1.5.0
    local d=$FX/loader-self
    run --separate-stderr timeout -k 2 10 env LD_DEBUG=bindings LD_DEBUG_OUTPUT="$BATS_TEST_TMPDIR/ld" "$d/app"
    assert_success
    assert_output ran
    local ran; ran=$(cat "$BATS_TEST_TMPDIR"/ld.* | loader_own)
    [ -n "$ran" ] || skip "this loader makes no lookup of its own (glibc 2.41 has no symbol relocation in ld.so)"
    [[ $ran == *"_dl_catch_error GLIBC_PRIVATE app"* ]] || fail "the loader bound its _dl_catch_error elsewhere: $ran"
    run --separate-stderr ss --bindings=run "$d/app"
    assert_success
    assert_equal "$(model_own <<< "$output")" "$ran"
    # trace mode: the loader relocates itself no second time, and the model makes no lookup for it
    run --separate-stderr timeout -k 2 10 env LD_TRACE_LOADED_OBJECTS=1 LD_WARN=yes LD_BIND_NOW=yes LD_DEBUG=bindings "$d/app"
    assert_equal "$(loader_own <<< "$stderr")" ""
    run --separate-stderr ss --bindings "$d/app"
    assert_success
    assert_equal "$(model_own <<< "$output")" ""
}

@test "a dlopen refused at relocation: an undefined data reference fails the open, RTLD_NOW or RTLD_LAZY, and its dependency goes with it, as the run shows; symsplit prints the failure and no binding of either" {
    bats_require_minimum_version 1.5.0
    local d=$FX/open-fails f
    for f in now lazy; do
        run timeout -k 2 10 "$d/app" "$f:$d/plugin.so" "loaded:$d/libdep.so"
        assert_success   # the truth: the loader's answer, and what is left loaded
        assert_line "open $d/plugin.so: failed"
        assert_line "loaded $d/libdep.so: no"
        run --separate-stderr ss --bindings --dlopen "$d/plugin.so:$f" "$d/app"
        assert_success
        assert_line --regexp "^fails	$d/plugin.so	[^	]*/plugin.so	nowhere_var	-	[^	]*/plugin.so	[^	]*/libdep.so$"
        refute_line --regexp "^binding	[^	]*/(plugin|libdep).so	"
        [[ $stderr == *"dlopen $d/plugin.so fails: "*" refers to nowhere_var, which nothing in its scope defines"* ]] || fail "no note: $stderr"
    done
}

@test "a dlopen of an undefined function: RTLD_LAZY opens, RTLD_NOW and LD_BIND_NOW refuse it, as the run shows; the findings keep the lazy open, --bindings (as LD_BIND_NOW) refuses it" {
    bats_require_minimum_version 1.5.0
    local d=$FX/open-fails
    run timeout -k 2 10 "$d/app" "lazy:$d/pluginf.so"
    assert_line "open $d/pluginf.so: ok"
    run timeout -k 2 10 "$d/app" "now:$d/pluginf.so"
    assert_line "open $d/pluginf.so: failed"
    run timeout -k 2 10 env LD_BIND_NOW=1 "$d/app" "lazy:$d/pluginf.so"
    assert_line "open $d/pluginf.so: failed"
    run --separate-stderr ss --info --dlopen "$d/pluginf.so:lazy" "$d/app"
    [[ $stderr != *" fails: "* ]] || fail "a lazy open refused: $stderr"
    run --separate-stderr ss --bindings --dlopen "$d/pluginf.so:lazy" "$d/app"
    assert_line --regexp "^fails	$d/pluginf.so	[^	]*/pluginf.so	nowhere_fn	"
}

@test "initial-exec TLS into the block of a module opened before: the open succeeds or fails by what ran before, as two runs show; symsplit marks each binding of that open and says so" {
    bats_require_minimum_version 1.5.0
    local d=$FX/tls-ie-opened
    run timeout -k 2 10 "$d/app" "lazyg:$d/libtls.so" "nowg:$d/libie.so"
    assert_line "open $d/libie.so: ok"   # the block still unused: a static offset from the surplus
    run timeout -k 2 10 "$d/app" "lazyg:$d/libtls.so" touch:tv "nowg:$d/libie.so"
    assert_line "touch tv: ok"
    assert_line "open $d/libie.so: failed"   # used dynamically first: no static offset any more
    run --separate-stderr ss --bindings --dlopen "$d/libtls.so:lazy:global" --dlopen "$d/libie.so:now:global" "$d/app"
    assert_success
    assert_line --regexp "^binding	[^	]*/libie.so	[^	]*/libtls.so	tv	-	TLS	modelled	the open may fail, depending on the run: initial-exec TLS tv "
    [ "$(grep -c '^binding	[^	]*/libie.so	' <<<"$output")" -eq "$(grep -c '^binding	[^	]*/libie.so	.*	the open may fail' <<<"$output")" ]
    refute_line --regexp "^binding	[^	]*/libtls.so	.*	the open may fail"
    [[ $stderr == *"libie.so: the open may fail, depending on the run"* ]] || fail "no note: $stderr"
}

@test "initial-exec TLS into a block its own open loads: 16 bytes fit the surplus static TLS, 4096 do not unless the run's tunables make room, as three runs show; symsplit marks every binding of the 4096-byte open, not of the 16-byte one" {
    bats_require_minimum_version 1.5.0
    local d=$FX/tls-ie-size
    run timeout -k 2 10 "$d/app" "now:$d/libie16.so"
    assert_line "open $d/libie16.so: ok"
    run timeout -k 2 10 "$d/app" "now:$d/libie4096.so"
    assert_line "open $d/libie4096.so: failed"   # "cannot allocate memory in static TLS block"
    run timeout -k 2 10 env GLIBC_TUNABLES=glibc.rtld.optional_static_tls=8192 "$d/app" "now:$d/libie4096.so"
    assert_line "open $d/libie4096.so: ok"       # the run's environment decides, not the files
    run --separate-stderr ss --bindings --dlopen "$d/libie16.so:now" "$d/app"
    assert_success
    assert_line --regexp "^binding	[^	]*/libie16.so	[^	]*/libpad16.so	tv	-	TLS	modelled$"
    refute_line --partial "the open may fail"
    run --separate-stderr ss --bindings --dlopen "$d/libie4096.so:now" "$d/app"
    assert_success
    assert_line --regexp "^binding	[^	]*/libie4096.so	[^	]*/libpad4096.so	tv	-	TLS	modelled	the open may fail, depending on the run: its initial-exec TLS places the block of [^	]*/libpad4096.so at a static offset, "
    local opened; opened=$(grep -c '^binding	[^	]*/lib\(ie\|pad\)4096.so	' <<<"$output")
    [ "$opened" -gt 1 ] && [ "$opened" -eq "$(grep -c '^binding	[^	]*/lib\(ie\|pad\)4096.so	.*	the open may fail' <<<"$output")" ] || fail "not every binding of the open marked: $output"
    [[ $stderr == *"libie4096.so: the open may fail, depending on the run"* ]] || fail "no note: $stderr"
}
