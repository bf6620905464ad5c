#!/usr/bin/env bash
# The README's test command: the whole test suite (Swift Testing), quietly.
#
#   scripts/test.sh [swift test flags...]      e.g. scripts/test.sh --filter PeerBounds
#
# `swift test` alone works too, but prints a line per test (about 2,600) and then two
# "Executed 0 tests" from XCTest's runner, which this package does not use. Here the
# build and the tests print only what failed, then Swift Testing's one-line summary
# and the time taken. About 3 to 5 minutes on 2 cores from a clean clone (the build is
# 1 to 2 of them); under a minute and a half once built.
set -euo pipefail
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi
cd "$(dirname "$0")/.."
start=$(date +%s)
status=0
swift test --disable-xctest --quiet "$@" || status=$?
echo "scripts/test.sh: $(($(date +%s) - start)) s, exit $status"
exit $status
