# Shared by the test/symsplit-*.bats files: symsplit, its sanitizer and
# fuzz builds and the fixtures made up to date once per file, and the
# readers every file uses.
bats_require_minimum_version 1.5.0
setup_file() {
    local b=$BUILD                      # helpers.bash: TOP, B and BUILD
    export SYMSPLIT=$b/tools/symsplit/symsplit SAN=$b/tools/symsplit/symsplit-san
    export FUZZ=$b/tools/symsplit/symsplit-fuzz FX=$b/tools/symsplit/fixtures
    # up to date with the sources, whichever way the tests were started
    make -C "$TOP" -s B="$B" symsplit symsplit-san $(command -v clang > /dev/null && echo symsplit-fuzz)
    local d=$TOP/tools/symsplit/dev
    if [ ! -e "$FX/.done" ] || [ "$d/mkfixtures" -nt "$FX/.done" ] || [ "$d/mkcorrupt" -nt "$FX/.done" ]; then
        "$d/mkfixtures" "$FX" && touch "$FX/.done"
    fi
}

ss() { timeout -k 2 20 "$SYMSPLIT" "$@"; }

# the fixture's own run: 0 = every consumer saw the registration, 1 = split
truth() { timeout -k 2 10 "$FX/$1/app" > /dev/null 2>&1; }
