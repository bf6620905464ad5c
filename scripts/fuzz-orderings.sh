#!/usr/bin/env bash
# Fuzzes invoke and OS-event orderings in-process against the plugin's state machine,
# checked against PluginFuzzing's reference model and the ledger invariants
# (FuzzTargets/Sources/OrderingsFuzzer), with libFuzzer and AddressSanitizer.
#
# usage: scripts/fuzz-orderings.sh [SECONDS] [CORPUS_DIR] [--jobs N] [--no-build] [--replay] [-- libFuzzer flags...]
#   default: 60 seconds, corpus FuzzTargets/.build-fuzz/fuzz-corpus/orderings (seeds: FuzzTargets/Seeds/orderings)
# Prints the number of executions; exits 1 when anything was found. See docs/reliability.md.
set -euo pipefail
exec "$(dirname "$0")/fuzz-run.sh" orderings "$@"
