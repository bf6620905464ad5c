#!/usr/bin/env bash
# Builds one libFuzzer target of FuzzTargets/ with -sanitize=fuzzer,address and runs
# it for a given time on a corpus directory. Used by fuzz-decoder.sh and
# fuzz-orderings.sh; see docs/reliability.md.
#
# usage: scripts/fuzz-run.sh TARGET [SECONDS] [CORPUS_DIR] [options] [-- libFuzzer flags...]
#   TARGET        decoder | orderings
#   SECONDS       how long to fuzz (default 60); also --time S
#   CORPUS_DIR    the working corpus: new inputs are written here (default
#                 FuzzTargets/.build-fuzz/fuzz-corpus/TARGET); also --corpus DIR.
#                 The committed seeds (FuzzTargets/Seeds/TARGET) are always read too.
#   --jobs N      run N fuzzer processes in parallel (libFuzzer -fork=N; default 1)
#   --no-build    use the binary already built
#   --replay      run every file of the corpus and the seeds once, no fuzzing
#                 (a regression check of what was found before)
#
# Exit status: 0 nothing found; 1 the target found a crash, a sanitizer report, a
# leak, a timeout or an oracle failure (the input is kept under
# FuzzTargets/.build-fuzz/fuzz-artifacts/TARGET/); 64 usage error; 2 build failure.
set -euo pipefail

# usage [STATUS]: the header above; on stderr with 64 for a usage error, on stdout with 0 for --help.
usage() {
    local status="${1:-64}"
    if [[ $status -eq 0 ]]; then
        sed -n '5,19p' "$0" | sed 's/^# \{0,1\}//'
    else
        sed -n '5,19p' "$0" | sed 's/^# \{0,1\}//' >&2
    fi
    exit "$status"
}

root="$(cd "$(dirname "$0")/.." && pwd)"
pkg="$root/FuzzTargets"
scratch="$pkg/.build-fuzz"

[[ $# -ge 1 ]] || usage
target="$1"
shift
case "$target" in
    decoder) product=DecoderFuzzer; max_len=12000 ;;
    orderings) product=OrderingsFuzzer; max_len=4096 ;;
    -h | --help) usage 0 ;;
    *) echo "fuzz-run.sh: unknown target \"$target\" (decoder or orderings)" >&2; usage ;;
esac

seconds=60
corpus=""
jobs=1
build=1
replay=0
extra=()
positional=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --time) seconds="${2:?--time needs a value}"; shift 2 ;;
        --corpus) corpus="${2:?--corpus needs a value}"; shift 2 ;;
        --jobs) jobs="${2:?--jobs needs a value}"; shift 2 ;;
        --no-build) build=0; shift ;;
        --replay) replay=1; shift ;;
        -h | --help) usage 0 ;;
        --) shift; extra=("$@"); break ;;
        -*) echo "fuzz-run.sh: unknown option \"$1\"" >&2; usage ;;
        *)
            case $positional in
                0) seconds="$1" ;;
                1) corpus="$1" ;;
                *) echo "fuzz-run.sh: unexpected argument \"$1\"" >&2; usage ;;
            esac
            positional=$((positional + 1))
            shift
            ;;
    esac
done
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -gt 0 ]] || { echo "fuzz-run.sh: SECONDS must be a positive integer, not \"$seconds\"" >&2; exit 64; }
[[ "$jobs" =~ ^[0-9]+$ && "$jobs" -gt 0 ]] || { echo "fuzz-run.sh: --jobs must be a positive integer, not \"$jobs\"" >&2; exit 64; }

corpus="${corpus:-$scratch/fuzz-corpus/$target}"
seeds="$pkg/Seeds/$target"
artifacts="$scratch/fuzz-artifacts/$target"
binary="$scratch/release/$product"

mkdir -p "$scratch"
if [[ $build -eq 1 ]]; then
    echo "== building $product with -sanitize=fuzzer,address (FuzzTargets/, release)" >&2
    # SwiftPM keeps the plan of a path dependency's sources from the last build:
    # drop it, so that files added to the main package are seen.
    rm -f "$scratch/release/description.json" "$scratch/release.yaml"
    if ! swift build -c release --package-path "$pkg" --scratch-path "$scratch" --product "$product" \
        -Xswiftc -sanitize=fuzzer,address >"$scratch/build-$target.log" 2>&1; then
        tail -n 40 "$scratch/build-$target.log" >&2
        echo "fuzz-run.sh: building $product failed (log: $scratch/build-$target.log)" >&2
        exit 2
    fi
fi
mkdir -p "$corpus" "$artifacts"
[[ -x "$binary" ]] || { echo "fuzz-run.sh: no binary at $binary (run without --no-build)" >&2; exit 2; }

# libFuzzer reports crashes itself: Swift's backtracer would only hold the process.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}malloc_context_size=8:quarantine_size_mb=64:detect_leaks=1"
log="$scratch/fuzz-$target.log"

if [[ $replay -eq 1 ]]; then
    files=()
    while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$corpus" "$seeds" -type f -print0)
    echo "== replaying ${#files[@]} inputs of $corpus and $seeds" >&2
    if "$binary" -runs=1 "${extra[@]}" "${files[@]}" >"$log" 2>&1; then
        echo "$target: replayed ${#files[@]} inputs, no failure"
        exit 0
    fi
    (grep -E "FUZZ ORACLE FAILED|ERROR: |Running:" "$log" || true) | tail -n 20 >&2
    echo "$target: an input failed on replay (log: $log)" >&2
    exit 1
fi

flags=(
    "-max_total_time=$seconds" "-max_len=$max_len" "-timeout=10" "-rss_limit_mb=2048"
    "-print_final_stats=1" "-artifact_prefix=$artifacts/" "-close_fd_mask=1"
)
[[ $jobs -gt 1 ]] && flags+=("-fork=$jobs" "-ignore_crashes=0")
echo "== fuzzing $target for ${seconds}s: corpus $corpus, seeds $seeds, $jobs job(s); log $log" >&2
status=0
"$binary" "${flags[@]}" "${extra[@]}" "$corpus" "$seeds" >"$log" 2>&1 || status=$?

# Executions: the final stats of a single process; the last status line with -fork.
execs="$( (grep -E '^stat::number_of_executed_units:' "$log" || true) | awk '{s += $2} END {print s + 0}')"
if [[ "$execs" == 0 ]]; then
    execs="$( (grep -oE '^#[0-9]+' "$log" || true) | tail -n 1 | tr -d '#')"
fi
units="$(find "$corpus" -type f | wc -l | tr -d ' ')"
rate="$( (grep -E '^stat::average_exec_per_sec:' "$log" || true) | awk '{s += $2} END {print s + 0}')"
cov="$( (grep -oE 'cov: [0-9]+' "$log" || true) | tail -n 1 | awk '{print $2}')"
echo "$target: ${execs:-0} executions in ${seconds}s (${rate:-?}/s), coverage ${cov:-?} edges, corpus $units inputs"

if [[ $status -ne 0 ]]; then
    grep -E "FUZZ ORACLE FAILED|ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|SUMMARY" "$log" | head -n 5 >&2 || true
    sed -n '/FUZZ ORACLE FAILED/,/^==[0-9]*==/p' "$log" | head -n 60 >&2 || true
    found="$( (grep -oE "Test unit written to [^ ]+" "$log" || true) | tail -n 1 | sed 's/Test unit written to //')"
    echo "$target: FOUND A FAILURE (libFuzzer exit $status); input: ${found:-see $log}" >&2
    echo "  reproduce: SWIFT_BACKTRACE=enable=no $binary ${found:-<input>}" >&2
    exit 1
fi
