#!/usr/bin/env bash
# Runs the whole test suite under ThreadSanitizer and AddressSanitizer (the plugin
# and host binaries the tests spawn are built with the same sanitizer), each in its
# own scratch directory. See docs/reliability.md for the last recorded run.
#
# usage: scripts/sanitizers.sh [thread|address]... [--time-limit SECONDS] [-- swift test flags...]
#   default: thread then address, no time limit
#   --time-limit: stop each test run (not the build) after SECONDS, print the processes
#                 it still had, and fail, so a hang is reported as one, not as CI's timeout
# Exit status: 0 all clean; 1 a run failed, ran out of time or a sanitizer reported;
# 64 usage error.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

sanitizers=()
extra=()
limit=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        thread | address) sanitizers+=("$1"); shift ;;
        --time-limit)
            [[ $# -ge 2 && $2 =~ ^[1-9][0-9]*$ ]] || {
                echo "sanitizers.sh: --time-limit needs a whole number of seconds, not \"${2:-}\"" >&2
                exit 64
            }
            limit=$2; shift 2 ;;
        --) shift; extra=("$@"); break ;;
        -h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "sanitizers.sh: unknown argument \"$1\" (thread, address, --time-limit SECONDS, or -- swift test flags)" >&2; exit 64 ;;
    esac
done
[[ ${#sanitizers[@]} -gt 0 ]] || sanitizers=(thread address)

# Reports must fail the run, not scroll by; Swift's backtracer would only add noise.
# Every instrumented process (the test runner and the plugins and hosts it spawns,
# whose stderr many tests discard) writes its reports to files under
# $scratch/sanitizer-reports/, which are counted with the test log.
export SWIFT_BACKTRACE=enable=no
tsan_options="${TSAN_OPTIONS:+$TSAN_OPTIONS:}halt_on_error=1:second_deadlock_stack=1"
asan_options="${ASAN_OPTIONS:+$ASAN_OPTIONS:}halt_on_error=1:detect_leaks=0"

# Runs the built tests; with a limit, in a session of their own that is ended (TERM,
# then KILL 30 s later) when the limit passes first. Exit status 124: out of time.
run_tests() {
    local s=$1 scratch=$2 preload=$3 log=$4
    local run=(swift test --skip-build --sanitize="$s" --scratch-path "$scratch" "${extra[@]}")
    if [[ $limit -eq 0 ]]; then
        LD_PRELOAD="$preload" "${run[@]}" >>"$log" 2>&1
        return
    fi
    LD_PRELOAD="$preload" setsid "${run[@]}" >>"$log" 2>&1 </dev/null &
    local tests=$!
    sleep "$limit" </dev/null >/dev/null 2>&1 &
    local timer=$!
    # The tests are in a session of their own: should this script be stopped or end,
    # what is left of them goes too, and the timer.
    trap 'pkill -KILL -s '"$tests"' 2>/dev/null; kill '"$timer"' 2>/dev/null || true' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    local code=0
    wait -n "$tests" "$timer" || code=$?
    if kill -0 "$timer" 2>/dev/null; then  # the tests ended first: code is theirs
        kill "$timer" 2>/dev/null || true
        wait "$timer" 2>/dev/null || true
        pkill -KILL -s "$tests" 2>/dev/null || true
        trap - EXIT INT TERM
        return $code
    fi
    echo "$s: the tests ran out of their ${limit}s; the processes they still had:" | tee -a "$log"
    ps -o pid,etime,time,args -s "$tests" | cut -c1-220 | tee -a "$log"
    # swift test runs the tests in a process group of their own, so the whole session
    # is ended (a process a test moved to a session of its own is not in it).
    pkill -TERM -s "$tests" 2>/dev/null || true
    sleep 30
    pkill -KILL -s "$tests" 2>/dev/null || true
    wait "$tests" 2>/dev/null || true
    trap - EXIT INT TERM
    return 124
}

failed=0
for s in "${sanitizers[@]}"; do
    scratch=".build-$s"
    log="$scratch/sanitizer-test.log"
    reports="$root/$scratch/sanitizer-reports"
    rm -rf "$reports"
    mkdir -p "$scratch" "$reports"
    export TSAN_OPTIONS="$tsan_options:log_path=$reports/report"
    export ASAN_OPTIONS="$asan_options:log_path=$reports/report"
    echo "== swift test --sanitize=$s (scratch $scratch, log $log)"
    start=$(date +%s)
    status=0
    preload=""
    if [[ $s == thread ]]; then
        # Swift's Mutex hands contended locks over in the kernel, where TSan cannot see
        # them: without these annotations every contended withLock is a false race.
        # (A real race outside a lock is still reported: docs/reliability.md.)
        preload="$root/$scratch/libmutex-annotations.so"
        clang -shared -fPIC -O2 -o "$preload" "$root/scripts/tsan/mutex-annotations.c" -ldl
    fi
    if swift build --build-tests --sanitize="$s" --scratch-path "$scratch" >"$log" 2>&1; then
        run_tests "$s" "$scratch" "$preload" "$log" || status=$?
    else
        status=$?
        tail -n 30 "$log"
    fi
    seconds=$(($(date +%s) - start))
    pattern="WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer"
    in_log=$(grep -cE "$pattern" "$log" || true)
    in_files=$( (grep -lE "$pattern" "$reports"/report.* 2>/dev/null || true) | wc -l | tr -d ' ')
    count=$((in_log + in_files))
    summary=$(grep -E "Test run with|Executed [0-9]+ tests" "$log" | tail -n 2 | tr '\n' ' ' || true)
    echo "$s: exit $status in ${seconds}s; sanitizer reports: $count (processes reporting: $in_files, in $reports); $summary"
    if [[ $status -ne 0 || $count -ne 0 ]]; then
        grep -h -E -A 30 "$pattern" "$log" "$reports"/report.* 2>/dev/null | head -n 80 || true
        grep -E "✘|error:" "$log" | head -n 30 || true
        failed=1
    fi
done
exit $failed
