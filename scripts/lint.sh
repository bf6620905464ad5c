#!/usr/bin/env bash
# Checks the formatting: `swift format lint --strict` with the root .swift-format
# (the toolchain's defaults, 120 columns, 4 spaces) over every Swift source of the
# package and of FuzzTargets/, and no line longer than 120 columns (swift format
# cannot break a long string literal or comment, and does not report one).
#
# usage: scripts/lint.sh
# Exit status: 0 clean; 1 a lint finding or a long line (each listed on stderr).
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1-}" in
    "") ;;
    -h | --help) usage; exit 0 ;;
    *) echo "lint.sh: unknown argument \"$1\" (it takes none)" >&2; usage >&2; exit 64 ;;
esac

paths=(Package.swift Sources Tests FuzzTargets/Package.swift FuzzTargets/Sources)
failed=0
swift format lint --strict --recursive --parallel "${paths[@]}" || failed=1
# Characters, not bytes (mawk's length counts bytes): grep in a UTF-8 locale.
long=$(find "${paths[@]}" -name '*.swift' -print0 | LC_ALL=C.UTF-8 xargs -0 grep -nE '^.{121,}' | cut -d: -f1,2 || true)
if [[ -n "$long" ]]; then
    echo "lines over 120 columns:" >&2
    echo "$long" >&2
    failed=1
fi
files=$(find "${paths[@]}" -name '*.swift' | wc -l)
[[ $failed -eq 0 ]] && echo "lint: $files Swift files, swift format lint --strict clean, no line over 120 columns"
exit $failed
