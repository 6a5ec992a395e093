#!/usr/bin/env bats
# symsplit: name collisions and latent captures.
# Ground truth comes from running the fixtures and the labs (scripts/verdict
# --facts), never from a copied list; every program a test starts runs under
# timeout (a hang is a failure, 124). Shared setup: symsplit-setup.bash.
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

# ---- name collisions and latent captures ----
@test "symsplit: a captured name whose two definitions differ in size is COLLISION high, a reference crossed (exit 1), never SPLIT, as running it shows" {
    d=$FX/collision
    run timeout -k 2 10 "$d/app" "$d/colla.so:global" "$d/collb.so"
    assert_failure 1
    run ss --dlopen "$d/colla.so:global" --dlopen "$d/collb.so" "$d/app"
    assert_failure 1
    assert_line --regexp "^COLLISION +high +table .*collb.so's own interposable reference to table .*resolves to colla.so's copy.*different entities \\(collb.so: 32 bytes, colla.so: 16 bytes\\).*a reference crossed \\(harmful: a crash is likely\\) \\[confidence: certain\\]"
    refute_line --regexp '^SPLIT '
    assert_line --partial '0 split(s)'
    assert_line --partial '1 collisions (1 harmful)'
}

# crossing_shown DIR OWN CROSSED: DIR's program, given the modules OWN
# (words), runs the library's own definition (exit 0); given CROSSED, the
# other module's (exit 1): the crossing a row reports, seen by running it.
crossing_shown() {
    run timeout -k 2 10 "$1/app" $2
    assert_success
    run timeout -k 2 10 "$1/app" $3
    assert_failure 1
}
# one_harmless_collision: symsplit's output just read has one COLLISION, not
# harmful (exit 0), and no SPLIT.
one_harmless_collision() {
    assert_success
    assert_line --partial '1 collisions (0 harmful)'
    refute_line --regexp '^SPLIT '
}

@test "symsplit: a function a module takes from a library it needs (numpy's xerbla_ in place of BLAS's) is COLLISION med, an override by design, not harmful (exit 0), as running it shows the crossing" {
    d=$FX/collision
    # libhooks.so's call runs its own hook, and override.so's once override.so is first in its scope
    crossing_shown "$d" "$d/libhooks.so" "$d/override.so $d/hookuser.so"
    run ss --dlopen "$d/override.so" --dlopen "$d/hookuser.so" "$d/app"
    one_harmless_collision
    assert_line --regexp "^COLLISION +med +hook .*libhooks.so's own interposable reference to hook .*resolves to override.so's copy.*libhooks.so's calls run override.so's code.*crossed into override.so, which needs libhooks.so: an override by design"
}

@test "symsplit: a library that needs another and defines unversioned the names that one versions (weak ones too) is a different library, not a shim: COLLISION med, an override by design, not harmful (exit 0), as running it shows the crossing" {
    d=$FX/collision
    # libbase.so.1's PLT calls run its own allocator, and libalt.so.1's once it is first in the global scope
    crossing_shown "$d" "$d/libbase.so.1" "$d/libalt.so.1:global"
    [ "$(nm -D --defined-only "$d/libbase.so.1" | grep -c ' W base_\(search\|match\)@@BASE_1$')" -eq 2 ]   # weak there, as glibc's regex names
    run ss --dlopen "$d/libalt.so.1:global" "$d/app"
    one_harmless_collision
    assert_line --regexp "^COLLISION +med +libalt.so.1\+libbase.so.1 .*different libraries .*export 4 name\(s\) in common.*libbase.so.1's own interposable reference to base_[a-z]+ .*resolves to libalt.so.1's copy.*libbase.so.1's copy stays in use.*an override by design: libalt.so.1, which needs libbase.so.1, takes these functions' references from it \(not harmful\)"
}

@test "symsplit: two unrelated modules, each its own C++ class of one name (duckdb's and classic-level's OpenWorker), one promoted: COLLISION of the vtable, not SPLIT, as running it shows" {
    d=$FX/collision
    [ "$(nm -D --defined-only "$d/classa.so" | grep -c ' _ZTV6Worker$')" -eq 1 ]   # two strong definitions
    [ "$(nm -D --defined-only "$d/classb.so" | grep -c ' _ZTV6Worker$')" -eq 1 ]
    run timeout -k 2 10 "$d/app" "$d/classa.so:global" "$d/classb.so"
    assert_failure 1                                   # classb.so's Worker got classa.so's vtable
    run timeout -k 2 10 "$d/app" "$d/classa.so" "$d/classb.so"
    assert_success
    run ss --dlopen "$d/classa.so:global" --dlopen "$d/classb.so" "$d/app"
    assert_failure 1
    assert_line --regexp "^COLLISION +high +_ZTV6Worker +\\[C\\+\\+: vtable for Worker\\] .*classb.so's own interposable reference to _ZTV6Worker .*resolves to classa.so's copy .*different entities \\(classb.so: 32 bytes, classa.so: 24 bytes\\).*a reference crossed"
    refute_line --regexp '^SPLIT '
    run ss --json --dlopen "$d/classa.so:global" --dlopen "$d/classb.so" "$d/app"
    run /usr/bin/python3 -c 'import json, sys
d = json.load(sys.stdin)
print(d["splits"], d["collisions_harmful"], " ".join(f["symbol"] + ":" + str(f["harmful"]) for f in d["findings"] if f["verdict"] == "COLLISION"))' <<< "$output"
    assert_output '0 1 _ZTV6Worker:True'
    run ss --dlopen "$d/classa.so" --dlopen "$d/classb.so" "$d/app"
    assert_success
    assert_line --regexp "^LATENT +med +_ZTV6Worker .*if classa.so were opened RTLD_GLOBAL"
}

@test "symsplit: two plugins without a SONAME, each its own function init of another size, one promoted: COLLISION high (bcrypt's init, numpy's xerbla_), as running it shows" {
    d=$FX/collision
    [ "$(nm -D -S --defined-only "$d/inita.so" | awk '$4 == "init" { print $2 }')" != "$(nm -D -S --defined-only "$d/initb.so" | awk '$4 == "init" { print $2 }')" ]
    run timeout -k 2 10 "$d/app" "$d/inita.so:global" "$d/initb.so"
    assert_failure 1                                   # initb.so's call ran inita.so's init
    run ss --dlopen "$d/inita.so:global" --dlopen "$d/initb.so" "$d/app"
    assert_failure 1
    assert_line --regexp "^COLLISION +high +init +.*initb.so's own interposable reference to init .*resolves to inita.so's copy .*different entities \\(initb.so: [0-9]+ bytes, inita.so: [0-9]+ bytes\\).*a reference crossed"
    refute_line --regexp '^SPLIT '
    run timeout -k 2 10 "$d/app" "$d/inita.so" "$d/initb.so"
    assert_success
    run ss --dlopen "$d/inita.so" --dlopen "$d/initb.so" "$d/app"
    assert_success
    assert_line --regexp "^LATENT +med +init .*if inita.so were opened RTLD_GLOBAL"
}

@test "symsplit: the same two plugins with the SONAMEs node-gyp gives addons (inita.node, bindings.node: no .so, no library): COLLISION high init, as running it shows" {
    d=$FX/collision
    readelf -d "$d/initb.node" | grep -q 'Library soname: \[bindings.node\]'
    run timeout -k 2 10 "$d/app" "$d/inita.node:global" "$d/initb.node"
    assert_failure 1
    run ss --dlopen "$d/inita.node:global" --dlopen "$d/initb.node" "$d/app"
    assert_failure 1
    assert_line --regexp "^COLLISION +high +init +.*bindings.node's own interposable reference to init .*resolves to inita.node's copy .*different entities"
    refute_line --regexp '^SPLIT '
}

@test "symsplit: the same collision in two local scopes is LATENT med (one promotion away, not harm), naming the promotion; exit 0, as running it shows" {
    d=$FX/collision
    run timeout -k 2 10 "$d/app" "$d/colla.so" "$d/collb.so"
    assert_success
    run ss --dlopen "$d/colla.so" --dlopen "$d/collb.so" "$d/app"
    assert_success
    assert_line --regexp "^LATENT +med +table .*if colla.so were opened RTLD_GLOBAL"
    assert_line --partial "0 cannot load, 1 latent"
}

@test "symsplit: a library present in two modules is one COPY row listing both; exit 0, 1 with --strict" {
    d=$FX/copies
    run ss --dlopen "$d/plugz1.so" --dlopen "$d/plugz2.so" "$d/app"
    assert_success
    assert_line --regexp "^COPY +low +zlib +.*zlib in 2 copies: plugz1.so \\(exported\\), plugz2.so \\(exported\\)"
    run ss --strict --dlopen "$d/plugz1.so" --dlopen "$d/plugz2.so" "$d/app"
    assert_failure 1
    run ss "$FX/ok-interpose/app"       # no --dlopen, no --copies: not looked for
    refute_line --partial COPY
}

@test "symsplit: a copy of libc++ is named libc++ although it defines libstdc++'s __cxa_throw too (Chromium's std::Cr)" {
    d=$FX/copies
    run ss --dlopen "$d/crcxx1.so" --dlopen "$d/crcxx2.so" "$d/app"
    assert_success
    assert_line --regexp "^COPY +med +C\+\+ runtime +.*C\+\+ runtime in 2 copies: crcxx1.so \(hidden libc\+\+\), crcxx2.so \(hidden libc\+\+\)"
    refute_output --partial 'libstdc++)'
}

@test "symsplit: a stripped allocator known by its messages alone is a copy, not a user of libc's malloc" {
    d=$FX/copies
    run ss --dlopen "$d/mimark.so" "$d/app"
    assert_success
    assert_line --regexp "^COPY +med +allocator +.*allocator in 2 copies: libc.so.6 \(exported glibc malloc\), mimark.so \(embedded mimalloc\)"
    # a module with only zlib's strings that links an exported zlib is still
    # that zlib's user: two copies (plugz1.so, which zuser.so links, and
    # plugz2.so), zuser.so not among them
    run ss --dlopen "$d/zuser.so" --dlopen "$d/plugz2.so" "$d/app"
    assert_success
    assert_line --regexp "^COPY +low +zlib +.*zlib in 2 copies: plugz1.so \\(exported\\), plugz2.so \\(exported\\);"
}

@test "symsplit: --json-out FILE writes --json's object beside the table, from one analysis; an unwritable FILE is one line, exit 2" {
    d=$FX/copies
    run ss --dlopen "$d/crcxx1.so" --dlopen "$d/crcxx2.so" "$d/app"
    table=$output
    run ss --json --dlopen "$d/crcxx1.so" --dlopen "$d/crcxx2.so" "$d/app"
    json=$output
    run ss --json-out "$BATS_TEST_TMPDIR/out.json" --dlopen "$d/crcxx1.so" --dlopen "$d/crcxx2.so" "$d/app"
    assert_success
    assert_equal "$output" "$table"
    assert_equal "$(cat "$BATS_TEST_TMPDIR/out.json")" "$json"
    assert_output --partial 'COPY '                    # not an empty run
    run ss --json-out "$BATS_TEST_TMPDIR/no/such/dir/x.json" "$d/app"
    assert_failure 2
    assert_output "symsplit: --json-out $BATS_TEST_TMPDIR/no/such/dir/x.json: cannot write it: No such file or directory"
}
