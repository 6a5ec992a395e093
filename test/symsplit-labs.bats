#!/usr/bin/env bats
# symsplit: every lab row as symsplit sees it, against the derived verdict.
# Ground truth comes from running the fixtures and the labs (scripts/verdict
# --facts), never from a copied list; every program a test starts runs under
# timeout (a hang is a failure, 124). Shared setup: symsplit-setup.bash.
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

# symsplit_agrees LAB FACTS: for every loaded row, symsplit exits 1 exactly
# where scripts/verdict --facts says SPLIT; the rest of each line of FACTS
# after the row id is how to call symsplit for that row.
symsplit_agrees() {
    local lab=$1 facts=$2 row verdict v bad=0
    while read -r row verdict _; do
        v=${verdict#verdict=}
        [ "$v" = not-loaded ] && continue
        [ "$v" = link-error ] && continue          # the linker refused: no program to read
        [[ " ${UNSEEN:-} " == *" $row "* ]] && continue
        args=$(row_args "$lab" "$row")
        # shellcheck disable=SC2086
        run ss $args
        if [ "$v" = SPLIT ] && [ "$status" -ne 1 ]; then echo "$lab $row: verdict SPLIT, symsplit $status: $output"; bad=1; fi
        if [ "$v" != SPLIT ] && [ "$status" -ne 0 ]; then echo "$lab $row: verdict $v, symsplit $status: $output"; bad=1; fi
    done <<<"$facts"
    return $bad
}

# a row run with LD_PRELOAD (its preload cell) is given to symsplit the same way
row_preload() {
    local p
    p=$(table_cell "$1" "$2" preload 2>/dev/null) || true
    [ -n "$p" ] && [ "$p" != - ] && echo "--preload $BUILD/$1/$2/$p "
    return 0
}

row_args() {
    case $1 in
    matrix|fixes) echo "$(row_preload "$1" "$2")$BUILD/$1/$2/app" ;;
    scope-capture)   # the dlopen layout of nccl_like.c: registry local or global, provider local or deepbind
        local k=local r=local
        case $(table_cell scope-capture "$2" nccl-cflags) in *PROVIDER_DEEPBIND*) k=deepbind ;; esac
        case $(table_cell scope-capture "$2" nccl-cflags) in *REGISTRY_GLOBAL*) r=global ;; esac
        echo "$(row_preload "$1" "$2")--dlsym get_device_list@VERB_1.0 --dlopen $BUILD/scope-capture/$2/libregistryB.so.1:$r --dlopen $BUILD/scope-capture/$2/libproviderB.so:$k $BUILD/scope-capture/$2/app" ;;
    esac
}

@test "symsplit: matrix lab rows split exactly where scripts/verdict --facts says" {
    lab_output matrix matrix
    facts=$("$TOP/scripts/verdict" --facts < "$(out_file matrix)")
    [ "$(grep -c 'verdict=SPLIT' <<<"$facts")" -ge 1 ]
    symsplit_agrees matrix "$facts"
}

@test "symsplit --trace: matrix rows run under the loader agree with scripts/verdict --facts; splits the loader recorded are marked observed" {
    bats_require_minimum_version 1.5.0
    export TMPDIR=$BATS_TEST_TMPDIR
    lab_output matrix matrix
    facts=$("$TOP/scripts/verdict" --facts < "$(out_file matrix)")
    n=0 observed=0 bad=0
    while read -r row verdict _; do
        v=${verdict#verdict=}
        [ "$v" = not-loaded ] && continue
        [ "$v" = link-error ] && continue          # the linker refused: no program to run
        read -ra args <<< "$(row_args matrix "$row")"        # [--preload LIB] APP
        run --separate-stderr ss "${args[@]:0:${#args[@]}-1}" --trace -- "${args[-1]}"
        want=0; [ "$v" = SPLIT ] && want=1
        [ "$status" -eq "$want" ] || { echo "matrix $row: verdict $v, symsplit --trace $status: $output"; bad=1; }
        n=$((n + 1))
        observed=$((observed + $(grep -c '^SPLIT .*\[observed: the loader made this binding\]' <<< "$output" || true)))
    done <<<"$facts"
    [ "$n" -ge 1 ] && [ "$bad" -eq 0 ]
    [ "$observed" -ge 1 ]                                 # a crossing reference read from the record
}

@test "symsplit: fixes lab rows split exactly where scripts/verdict --facts says (the renamed copy excepted)" {
    lab_output fixes fixes
    facts=$("$TOP/scripts/verdict" --facts < "$(out_file fixes)")
    [ "$(grep -c 'verdict=SPLIT' <<<"$facts")" -ge 1 ]
    # fix-prefix-rename renames the executable's copy (vxstatic_vx_*): no name
    # is shared, so a model of binding by name cannot see it (docs/symsplit-reference.md, Limits)
    UNSEEN=fix-prefix-rename symsplit_agrees fixes "$facts"
}

@test "symsplit: scope-capture with its dlopen layout flags capture/order, clears omnibus, same-soname, deepbind, fixed" {
    lab_output scope scope-capture
    facts=$("$TOP/scripts/verdict" --facts < "$(out_file scope)")
    [ "$(grep -c 'verdict=SPLIT' <<<"$facts")" -ge 1 ]
    symsplit_agrees scope-capture "$facts"
}

# ---- route-b, each row's steps as symsplit's --dlopen timeline ----
# The translation of a row's steps (route-b/host.c), in order:
#   NAME[=FLAGS]   --dlopen ROW/NAME/plugin.so:local|global[:lazy][:deepbind]
#   NAME.write/.read/.work   --dlsym plugin_write/_read/_work (the host's dlsym on
#                  the handle); a lazy module called before a later open has
#                  bound its slots then: given as :now
#   host.write, NAME.slot, maps, libc   observations: nothing to the loader
#   env:VAR=VALUE  setenv after start: ld.so read its variables already: nothing
#   file:PATH      --dlopen ROW/PATH:local (a library opened by its path)
# Outside the model, each with its reason (rb_outside):
#   a newlm or lm: step   dlmopen: --dlopen has no namespace (--trace, --pid read them)
#   refused        the runtime's own guard stops the process: not a binding
#   a file: step   two files of one SONAME: symsplit reports the one nothing
#                  binds as LATENT, the lab sees one copy in use (a limit)
# The mapping (docs/symsplit-reference.md, "Route B"): lab SPLIT or PARTITION
# = a SPLIT (capture) or a partition (COPY/LATENT) row of a name the row's
# modules define, so --strict exits 1; no-split = --strict exits 0; COLLISION = a
# COLLISION high row, different entities, a reference crossed (exit 1);
# no-collision = --strict exits 0, or 1 for LATENT rows only (two namesakes in
# local scopes: the promotion that would cross, which the -global row makes).
rb_outside() {   # ROW VERDICT: the reason the row is outside the model, or nothing
    [ "$2" = refused ] && { echo "the runtime's guard stops the process (no binding verdict)"; return; }
    [[ " $(table_cell route-b "$1" steps) " == *=*newlm* || " $(table_cell route-b "$1" steps) " == *=*lm:* ]] && echo "dlmopen (LM_ID_NEWLM): --dlopen has no namespace (--trace and --pid read them)"
    [[ " $(table_cell route-b "$1" steps) " == *\ file:* ]] && echo "a library opened by path beside another file of its SONAME: symsplit names both librt.so.1 and reports the unused one LATENT (a limit, measured on path-same-soname)"
    return 0
}
rb_args() {   # ROW: symsplit's arguments, one a line
    local d=$BUILD/route-b/$1 s n f x i
    local -a out=() pending=() fl
    local -A at=() lazy=()
    for s in $(table_cell route-b "$1" steps); do
        case $s in
        env:*|maps|libc|host.*|*.slot) ;;
        file:*) out+=(--dlopen "$d/${s#file:}:local") ;;
        *.write|*.read|*.work)
            out+=(--dlsym "plugin_${s#*.}")
            [ -n "${lazy[${s%%.*}]:-}" ] && pending+=("${s%%.*}") ;;
        *)  for n in "${pending[@]}"; do out[at[$n]]=${out[at[$n]]/:lazy/:now}; unset "lazy[$n]"; done
            pending=() n=${s%%=*} f=local x=
            if [[ $s == *=* ]]; then
                IFS=+ read -ra fl <<<"${s#*=}"
                for i in "${fl[@]}"; do case $i in global) f=global ;; lazy) x+=:lazy lazy[$n]=1 ;; deepbind) x+=:deepbind ;; esac; done
            fi
            at[$n]=$(( ${#out[@]} + 1 ))
            out+=(--dlopen "$d/$n/plugin.so:$f$x") ;;
        esac
    done
    printf '%s\n' "${out[@]}"
}

@test "symsplit: route-b rows, with the host's dlopen order, agree with the lab under the documented mapping" {
    lab_output rb route-b
    facts=$("$TOP/scripts/verdict" --facts < "$(out_file rb)")
    bad=0 outside=0
    while read -r row verdict _; do
        v=${verdict#verdict=} why=$(rb_outside "$row" "$v")
        [ -n "$why" ] && { echo "outside the model: $row: $why"; outside=$((outside + 1)); continue; }
        d=$BUILD/route-b/$row
        mapfile -t a < <(rb_args "$row")
        run ss --strict "${a[@]}" "$d/app"
        names=$(find "$d" -mindepth 2 -name '*.so*' -type f -exec nm -D --defined-only {} + 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u)
        rows=$(grep -E '^(SPLIT|LATENT|COPY) ' <<<"$output" | awk '{ print $3 }' | grep -Fxf <(printf '%s\n' "$names") || true)
        case $v in
        SPLIT|PARTITION) [ "$status" -eq 1 ] && [ -n "$rows" ] || { echo "$row: $v, symsplit $status, rows: $rows: $output"; bad=1; } ;;
        COLLISION)
            [ "$status" -eq 1 ] && grep -Eq '^COLLISION +high .*different entities.*a reference crossed' <<<"$output" || { echo "$row: $v, symsplit $status: $output"; bad=1; } ;;
        no-collision)   # two namesakes in local scopes: at most the LATENT row of the promotion that would cross
            { [ "$status" -eq 0 ] || { [ "$status" -eq 1 ] && ! grep -Eq '^(SPLIT|COLLISION|COPY|NOLOAD) ' <<<"$output"; }; } || { echo "$row: $v, symsplit $status: $output"; bad=1; } ;;
        *) [ "$status" -eq 0 ] || { echo "$row: $v, symsplit $status: $output"; bad=1; } ;;
        esac
    done <<<"$facts"
    [ "$bad" -eq 0 ]
    # every row is accounted for: run, or listed outside with its reason
    [ "$(wc -l <<<"$facts")" -eq "$(table_rows route-b | wc -w)" ]
}

# ---- loader-errors, each run word as symsplit's environment ----
# here[:PROG], elsewhere: the same directory and program path; preload:FILE
# as --preload (LD_PRELOAD in symsplit's own environment would load the shim
# into symsplit); libpath:DIR as LD_LIBRARY_PATH; ldconf:CONF as
# SYMSPLIT_LDCACHE, a cache ldconfig builds from CONF in a private mount
# namespace (its aux-cache on a tmpfs, as the lab's run does). A row whose
# image dlopens by name from a library has a file "dlopens" (lab.mk): its
# content is given as --dlopen. setuid+WORD (secure mode) is not modelled:
# skipped, as are setgid+WORD and setcap+WORD; nobody+WORD (the same without
# the bit) is WORD.
le_ss() {   # ROW WORD: run symsplit as the run WORD starts the row's app
    local r=$BUILD/loader-errors/$1 w=${2#trace+} dir prog=./app
    local -a env=(env -u LD_LIBRARY_PATH -u LD_PRELOAD) opt=()
    dir=$r
    w=${w#nobody+}
    case $w in
    setuid+*|setgid+*|setcap+*) status=125 output="symsplit does not model secure mode (a set-ID or file-capability run)"; return ;;
    here:*) prog=./${w#here:} ;;
    elsewhere) dir=$r/elsewhere prog=../app ;;
    preload:*) opt=(--preload "./${w#preload:}") ;;
    libpath:*) env+=(LD_LIBRARY_PATH="$r/${w#libpath:}") ;;
    ldconf:*)
        local c=$BATS_TEST_TMPDIR/$1.cache
        private_mounts || { status=125 output="needs a private mount namespace: $private_mounts_why"; return; }
        (cd "$r" && unshare --mount --propagation private sh -c \
            'aux=/var/cache/ldconfig; [ -d $aux ] || aux=/var/cache; mount -t tmpfs le-ldconfig $aux && ldconfig -X -f "$1" -C "$2"' _ "${w#ldconf:}" "$c") 2>/dev/null ||
            { status=125 output="ldconfig in a private mount namespace failed"; return; }
        env+=(SYMSPLIT_LDCACHE="$c") ;;
    esac
    [ -f "$r/dlopens" ] && opt+=(--dlopen "$(cat "$r/dlopens")")      # a dlopen the image makes at run time
    run bash -c 'cd "$1" && shift && "$@"' _ "$dir" "${env[@]}" timeout -k 2 20 "$SYMSPLIT" "${opt[@]}" "$prog"
}

@test "symsplit: loader-errors rows: NOLOAD (exit 3) naming the cause where the loader refused, silent where every run starts" {
    lab_output le loader-errors
    facts=$("$TOP/scripts/verdict" --facts < "$(out_file le)")
    bad=0
    while read -r row verdict _; do
        v=${verdict#verdict=} refused=0 ran=0
        for w in $(table_cell loader-errors "$row" run); do
            le_ss "$row" "$w"
            [ "$status" -eq 125 ] && { echo "$row $w: skipped: $output"; continue; }
            ran=1
            case $status in
            3) grep -qE '^NOLOAD +high ' <<<"$output" && refused=1 ;;
            # the image starts; a library's dlopen (the row's dlopens file) is what fails:
            # symsplit searches it from its caller and finds nothing (an error, exit 2)
            2) if [ -f "$BUILD/loader-errors/$row/dlopens" ] && grep -q 'cannot find the --dlopen module in the library search path of' <<<"$output"
               then refused=1; else echo "$row $w: symsplit 2: $output"; bad=1; fi ;;
            0) grep -q '^NOLOAD' <<<"$output" && { echo "$row $w: NOLOAD with exit 0: $output"; bad=1; } ;;
            *) echo "$row $w: symsplit $status: $output"; bad=1 ;;
            esac
            [ "$v" = runs ] && [ "$status" -ne 0 ] && { echo "$row $w: runs, symsplit $status: $output"; bad=1; }
        done
        case $v in
        loader-error|not-loaded) [ "$ran" -eq 0 ] || [ "$refused" -eq 1 ] || { echo "$row: $v, no NOLOAD high from symsplit"; bad=1; } ;;
        esac
    done <<<"$facts"
    [ "$bad" -eq 0 ]
}

# ---- archive-order: a link-time choice, not a binding ----
@test "symsplit: archive-order is outside a run-time model: a misdirected row's app holds one definition, exit 0 (documented limit)" {
    row=$(rows_expecting archive-order misdirected | head -n 1)
    [ -n "$row" ]
    make -s -C "$TOP" --no-print-directory archive-order ROW="$row" > /dev/null
    app=$BUILD/archive-order/$row/app
    # the linker kept the first vx_open_device it met: one definition in the image
    [ "$(nm "$app" | grep -c ' [Tt] vx_open_device$')" -eq 1 ]
    run ss "$app"
    assert_success
    refute_line --regexp '^(SPLIT|NOLOAD) '
}
