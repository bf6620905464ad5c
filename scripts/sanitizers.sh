#!/usr/bin/env bash
# Runs the whole test suite under ThreadSanitizer and AddressSanitizer (the plugin
# and host binaries the tests spawn are built with the same sanitizer), each in its
# own scratch directory. See docs/reliability.md for the last recorded run.
#
# usage: scripts/sanitizers.sh [thread|address]... [-- swift test flags...]
#   default: thread then address
# Exit status: 0 all clean; 1 a run failed or a sanitizer reported; 64 usage error.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

sanitizers=()
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        thread | address) sanitizers+=("$1"); shift ;;
        --) shift; extra=("$@"); break ;;
        -h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "sanitizers.sh: unknown argument \"$1\" (thread, address, or -- swift test flags)" >&2; exit 64 ;;
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
        LD_PRELOAD="$preload" swift test --skip-build --sanitize="$s" --scratch-path "$scratch" "${extra[@]}" >>"$log" 2>&1 || status=$?
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
