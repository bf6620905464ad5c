#!/usr/bin/env bash
# Fuzzes the framing decoder and message parsing (FuzzTargets/Sources/DecoderFuzzer)
# with libFuzzer and AddressSanitizer.
#
# usage: scripts/fuzz-decoder.sh [SECONDS] [CORPUS_DIR] [--jobs N] [--no-build] [--replay] [-- libFuzzer flags...]
#   default: 60 seconds, corpus FuzzTargets/.build-fuzz/fuzz-corpus/decoder (seeds: FuzzTargets/Seeds/decoder)
# Prints the number of executions; exits 1 when anything was found. See docs/reliability.md.
set -euo pipefail
exec "$(dirname "$0")/fuzz-run.sh" decoder "$@"
