#!/usr/bin/env bash
# The hostile-peer suite in full: every plugin-host subcommand against every mode of
# hostile-plugin (Tests/HostilePlugin), 120 runs, then their table (subcommand, mode,
# exit status, seconds, peak resident MiB of the host or a process it waited for, and
# what the host said) as Markdown. CI runs five modes of it within `swift test`.
#
#   scripts/hostile-peers.sh [TABLE_FILE]     (default .build/hostile-peers.md)
#
# About 2 minutes on 2 cores once built (a debug build). Exit 1 when any run ended
# otherwise than docs/reliability.md says.
set -euo pipefail
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi
cd "$(dirname "$0")/.."
table="${1:-.build/hostile-peers.md}"
mkdir -p "$(dirname "$table")"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
swift build --build-tests --quiet
status=0
HOSTILE_FULL=1 HOSTILE_TABLE="$rows" swift test --skip-build --disable-xctest --quiet --filter HostilePeerTests \
    || status=$?
{
    echo "| subcommand | mode | exit | s | peak MiB | what the host said |"
    echo "| --- | --- | --- | --- | --- | --- |"
    cat "$rows"
} >"$table"
echo "hostile-peers.sh: $(wc -l <"$rows") runs, table in $table, exit $status"
exit $status
