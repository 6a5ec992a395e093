#!/usr/bin/env bats
# symsplit against what it reads and runs turning hostile: a traced program
# that swaps symsplit's temporary directory or its loader record, descendants
# that keep forking, an input cut short while it is mapped.  Each case is one
# clear line and a non-zero exit, or nothing left behind; never a hang, a
# crash or another file touched.  Every program runs under timeout (a hang
# is 124, a failure).  Shared setup: symsplit-setup.bash.
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

@test "symsplit --trace: its temporary directory swapped for a link to another directory: that directory is left untouched" {
    bats_require_minimum_version 1.5.0
    export TMPDIR=$BATS_TEST_TMPDIR/tmp
    v=$BATS_TEST_TMPDIR/victim
    mkdir "$TMPDIR" "$v"
    echo precious > "$v/file"
    run --separate-stderr ss --trace -- /bin/sh -c 'd=${LD_DEBUG_OUTPUT%/*}; mv "$d" "$d.x" && ln -s "$0" "$d"' "$v"
    assert_success
    [ "$(cat "$v/file")" = precious ]
    [[ $stderr == *"was moved or replaced while the program ran: emptied, its name left as found"* ]]
    # the directory symsplit made is emptied where it went; the link is not followed
    [ -z "$(ls -A "$TMPDIR"/symsplit-trace.*.x)" ]
}

# record CMD: the program's own loader record (ld.PID, $$ of sh -c) replaced by CMD
record() { run --separate-stderr ss --trace -- /bin/sh -c 'f=$LD_DEBUG_OUTPUT.$$; rm -f "$f"; '"$1"; }

@test "symsplit --trace: a FIFO in place of the loader's record is one line, exit 2 (no hang)" {
    bats_require_minimum_version 1.5.0
    export TMPDIR=$BATS_TEST_TMPDIR
    record 'mkfifo "$f"'
    assert_failure 2
    [[ $stderr =~ symsplit:\ --trace:\ the\ loader\'s\ record\ ld\.[0-9]+:\ is\ a\ FIFO,\ not\ a\ regular\ file$ ]]
    [ -z "$(ls -A "$TMPDIR" | grep symsplit-trace)" ]
}

@test "symsplit --trace: a record linked to /dev/urandom or /dev/zero is one line, exit 2 (not read forever, no memory exhausted)" {
    bats_require_minimum_version 1.5.0
    export TMPDIR=$BATS_TEST_TMPDIR
    for dev in /dev/urandom /dev/zero; do
        # today's reader fills memory on /dev/zero: a limit makes that an end, not the machine's
        run --separate-stderr bash -c 'ulimit -v 2000000; exec timeout -k 2 20 "$0" --trace -- /bin/sh -c "f=\$LD_DEBUG_OUTPUT.\$\$; rm -f \"\$f\"; ln -s $1 \"\$f\""' "$SYMSPLIT" "$dev"
        assert_failure 2
        [[ $stderr =~ symsplit:\ --trace:\ the\ loader\'s\ record\ ld\.[0-9]+:\ is\ a\ symbolic\ link,\ not\ a\ regular\ file$ ]]
    done
}

@test "symsplit --trace: descendants that ignore SIGTERM and keep forking are all stopped before symsplit ends" {
    bats_require_minimum_version 1.5.0
    export TMPDIR=$BATS_TEST_TMPDIR
    p=$BATS_TEST_TMPDIR/pids
    # a background loop, TERM ignored, starting a sleep (TERM ignored too) every 50 ms
    run --separate-stderr ss --trace -- /bin/sh -c 'trap "" TERM; (while :; do sleep 60 & echo $! >> "$0"; sleep 0.05; done) > /dev/null 2>&1 &' "$p"
    assert_success
    [ -s "$p" ]
    left=0
    while read -r pid; do
        if [ "$(cat "/proc/$pid/comm" 2> /dev/null)" = sleep ]; then left=$((left + 1)); kill -KILL "$pid"; fi
    done < "$p"
    [ "$left" -eq 0 ] || { echo "$left of $(wc -l < "$p") sleeps outlived symsplit"; false; }
}

@test "symsplit: an input cut short while symsplit has it mapped is one line naming it, exit 2 (no SIGBUS)" {
    bats_require_minimum_version 1.5.0
    t=$BATS_TEST_TMPDIR
    # stands for another process truncating the file: mmap, then the file named by CUT_AFTER_MAP cut to 64 bytes
    cat > "$t/cut.c" <<'EOF'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
void *mmap(void *a, size_t l, int p, int f, int fd, off_t o)
{
    void *r = (void *)syscall(SYS_mmap, a, l, p, f, fd, o);
    const char *cut = getenv("CUT_AFTER_MAP");
    char self[64], path[4096];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    ssize_t k = fd >= 0 && cut ? readlink(self, path, sizeof path - 1) : -1;
    if (k > 0 && (path[k] = 0, !strcmp(path, cut)) && truncate(path, 64)) abort();
    return r;
}
EOF
    ${CC:-gcc} -shared -fPIC -o "$t/cut.so" "$t/cut.c"
    f=$t/libreg.so
    cp "$FX/split-protected/libreg.so" "$f"
    [ "$(stat -c %s "$f")" -gt 8192 ]                         # a page beyond the one the header is in
    run --separate-stderr env CUT_AFTER_MAP="$(readlink -f "$f")" LD_PRELOAD="$t/cut.so" timeout -k 2 20 "$SYMSPLIT" "$f"
    [ "$(stat -c %s "$f")" -eq 64 ]                           # it was cut while mapped
    assert_failure 2
    assert_equal "$stderr" "symsplit: $f: changed while read (cut short after symsplit mapped it)"
}
