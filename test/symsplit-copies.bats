#!/usr/bin/env bats
# symsplit: namesakes are not copies.
# Ground truth comes from running the fixtures and the labs (scripts/verdict
# --facts), never from a copied list; every program a test starts runs under
# timeout (a hang is a failure, 124). Shared setup: symsplit-setup.bash.
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

# ---- namesakes are not copies (dlcheck: each user asks whether its
# libfoo is the major it was built for; ?NAME prints where RTLD_DEFAULT finds NAME)
@test "symsplit: two majors of one library with a reference crossed while the other stays in use: one COLLISION high row for the pair, never SPLIT, as running it shows" {
    d=$FX/namesakes
    run timeout -k 2 10 "$d/app" "$d/libuse1.so:global" "$d/libuse2.so"
    assert_failure 1                                   # libuse2.so got libfoo.so.1's foo_size
    run ss --info --dlopen "$d/libuse1.so:global" --dlopen "$d/libuse2.so" "$d/app"
    assert_failure 1
    assert_line --regexp "^COLLISION +high +foo_size +.*libfoo.so.1 and libfoo.so.2 are different libraries \\(two versions of one name\\) that export 2 name\\(s\\) in common.*the global scope finds libfoo.so.1 first; 1 reference\\(s\\) crossed.*libuse2.so depends on libfoo.so.2 but its reference resolves to libfoo.so.1's copy.*libfoo.so.2 is linked -Bsymbolic.*a reference crossed: code built for one library runs on the other's"
    [ "$(grep -c '^COLLISION' <<<"$output")" -eq 1 ]    # one row for the pair, not one per name
    refute_line --regexp '^SPLIT '
    refute_output --partial 'live copies'
    refute_output --partial 'nothing diverges'
}

@test "symsplit: two majors whose unversioned names meet, one in the global scope, no reference crossed: COLLISION high by scope alone (exit 1), as a lookup by name there shows; never COPY or INFO; the promotion that would cross is LATENT" {
    d=$FX/namesakes
    run timeout -k 2 10 "$d/app" "$d/libuse2.so" "$d/libuse1.so:global" '?foo_size'
    assert_success                                     # each user bound the major it was built for ...
    assert_output libfoo.so.1                          # ... and a lookup by name finds libfoo.so.1's, whoever asks
    run ss --info --dlopen "$d/libuse2.so" --dlopen "$d/libuse1.so:global" "$d/app"
    assert_failure 1
    assert_line --regexp "^COLLISION +high +libfoo.so.2\\+libfoo.so.1 +.*different libraries.*the global scope finds libfoo.so.1 first; no reference crossed -> a collision: two versions of one library, and the global scope holds libfoo.so.1: a lookup by any of the 2 unversioned names"
    assert_line --regexp "^LATENT +med +foo_size +.*if libuse2.so were opened RTLD_GLOBAL.*libuse1.so depends on libfoo.so.1 but its reference resolves to libfoo.so.2's copy"
    refute_line --regexp '^(COPY|INFO|SPLIT) '
    assert_line --partial '1 latent, 0 library copies, 1 collisions (1 harmful)'
}

@test "symsplit: both majors RTLD_GLOBAL, -Bsymbolic, no user of either (GTK 4's 'GTK 2/3 symbols detected'): COLLISION high naming the one dlsym(RTLD_DEFAULT) finds" {
    d=$FX/namesakes
    run timeout -k 2 10 "$d/app" "$d/libfoo.so.2:global" "$d/libfoo.so.1:global" '?foo_size'
    assert_success
    first=$output
    [ "$first" = libfoo.so.2 ]                         # the one opened first
    run ss --dlopen "$d/libfoo.so.2:global" --dlopen "$d/libfoo.so.1:global" "$d/app"
    assert_failure 1
    assert_line --regexp "^COLLISION +high +libfoo.so.2\\+libfoo.so.1 +.*the global scope finds $first first; no reference crossed -> a collision: two versions of one library, and the global scope holds $first"
    run ss --json --dlopen "$d/libfoo.so.2:global" --dlopen "$d/libfoo.so.1:global" "$d/app"
    run /usr/bin/python3 -c 'import json, sys
d = json.load(sys.stdin)
r = [f for f in d["findings"] if f["verdict"] == "COLLISION"][0]
print(d["collisions"], " ".join(l["module"] for l in r["libraries"]), r["shared"], r["different"], r["first"], r["crossed"], r["unversioned"], r["harm"], r["harmful"])' <<< "$output"
    assert_output "1 libfoo.so.2 libfoo.so.1 2 version $first 0 2 scope True"
}

@test "symsplit: a library's data part (libicudata: its version string, no code) is no second copy of it" {
    d=$FX/copies
    [ "$(strings "$d/libicudt.so" | grep -c icudt72)" -ge 1 ]
    run ss --copies --dlopen "$d/libicuu.so" "$d/app"
    assert_success
    refute_line --regexp '^COPY .* ICU '
}

@test "symsplit: a library's parts that need one another (libicui18n needs libicuuc, both exporting ICU's names) are one copy of it; a plugin's bundled one is a second" {
    d=$FX/copies
    run ss --copies --dlopen "$d/libicui.so" "$d/app"
    assert_success
    refute_line --regexp '^COPY .* ICU '
    run ss --copies --dlopen "$d/libicui.so" --dlopen "$d/icucopy.so" "$d/app"
    assert_line --regexp '^COPY +med +ICU +.*ICU in 2 copies: libicui.so \(exported\), icucopy.so \(exported[^)]*\)'
    # parts are of one variant: a jemalloc that needs glibc's malloc is a second allocator
    run ss --copies --dlopen "$d/jemdup.so" "$d/app"
    assert_line --regexp '^COPY +med +allocator +.*allocator in 2 copies: .*jemdup.so \(exported jemalloc\)'
}

@test "symsplit: an embedded libjpeg is told by its own error message, not by a message of another module's that begins alike (php8.2's)" {
    d=$FX/copies
    run ss --copies --dlopen "$d/jpegexp.so" --dlopen "$d/jpegemb.so" --dlopen "$d/jpegmsg.so" "$d/app"
    assert_line --regexp '^COPY +low +libjpeg +.*libjpeg in 2 copies: jpegexp.so \(exported[^)]*\), jpegemb.so \(embedded[^)]*\);'
}
