# Live processes for symsplit --pid, shared by test/symsplit-live.bats and
# test/symsplit-cost.bats: a fixture paused on a FIFO (FIXTURE_PAUSE,
# tools/symsplit/dev/fixtures/pause.h) while symsplit reads it, released
# after; teardown kills what is still running.

# live_start [--fifo IN-PROCESS-PATH] CMD...: CMD paused after its bindings;
# LIVE_PID is the paused process (it prints "paused PID"), waited for
# LIVE_WAIT times 0.05 s (default 200: 10 s).
live_start() {
    local inside
    LIVE_FIFO=$BATS_TEST_TMPDIR/pause LIVE_OUT=$BATS_TEST_TMPDIR/live.out
    [ "$1" = --fifo ] && { LIVE_FIFO=$2 inside=$3; shift 3; }
    mkfifo "$LIVE_FIFO"
    FIXTURE_PAUSE=${inside:-$LIVE_FIFO} "$@" > "$LIVE_OUT" 2>&1 3>&- &
    LIVE_JOB=$!
    for _ in $(seq "${LIVE_WAIT:-200}"); do grep -q '^paused ' "$LIVE_OUT" && break; sleep 0.05; done
    LIVE_PID=$(sed -n 's/^paused //p' "$LIVE_OUT")
    [ -n "$LIVE_PID" ] || { cat "$LIVE_OUT"; return 1; }
}
# live_end: release it; its exit status, the truth, in LIVE_STATUS
live_end() {
    timeout 5 sh -c 'echo > "$1"' _ "$LIVE_FIFO"
    LIVE_STATUS=0
    wait "$LIVE_JOB" || LIVE_STATUS=$?
    LIVE_JOB=
}
teardown() {
    [ -z "${LIVE_JOB:-}" ] && return 0
    kill "$LIVE_JOB" 2> /dev/null || true
    [ -n "${LIVE_PID:-}" ] && kill "$LIVE_PID" 2> /dev/null || true
    wait "$LIVE_JOB" 2> /dev/null || true
}
