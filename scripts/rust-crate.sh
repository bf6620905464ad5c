#!/usr/bin/env bash
# The Rust crate for Rust hosts (integrations/rust, issue 27): installs Debian's packaged
# crates if missing, builds the Swift binaries (background-service-plugin, plugin-host),
# runs the crate's tests offline (unit tests, and integration tests against the real
# plugin binary), plays the demo's day with examples/demo_day.rs and checks that its
# wire traffic equals `plugin-host demo --full`'s item for item. Fails loudly on any
# difference. Cargo's target dir stays in integrations/rust/target.
#
# usage: scripts/rust-crate.sh
# Exit status: 0 all passed and the traffic is equal; 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1-}" in
    "") ;;
    -h | --help) usage; exit 0 ;;
    *) echo "rust-crate.sh: unknown argument \"$1\" (it takes none)" >&2; usage >&2; exit 64 ;;
esac
root=$PWD

packages=(librust-serde-dev librust-serde-json-dev librust-serde-derive-dev librust-tokio-dev)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "rust-crate: installing ${missing[*]} (Debian's packaged crates, /usr/share/cargo/registry)"
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -q >/dev/null
    $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

export PATH="$HOME/.cargo/bin:$PATH"
command -v cargo >/dev/null || { echo "rust-crate: no cargo (a Rust toolchain 1.70 or later is needed; Debian's 1.63 is too old)" >&2; exit 1; }

swift build --product background-service-plugin 2>&1 | tail -n 1
swift build --product plugin-host 2>&1 | tail -n 1
bin=$(swift build --show-bin-path)
export BACKGROUND_SERVICE_PLUGIN="$bin/background-service-plugin" PLUGIN_HOST="$bin/plugin-host"

cd "$root/integrations/rust"
export CARGO_TARGET_DIR="$root/integrations/rust/target"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if ! cargo test --offline --features tokio > "$scratch/cargo-test.txt" 2>&1; then
    tail -n 80 "$scratch/cargo-test.txt" >&2
    echo "rust-crate: FAILED: cargo test (above)" >&2
    exit 1
fi
awk '/^test result:/ { p += $4; f += $6 } END { printf "cargo test --offline: %d passed, %d failed\n", p, f }' \
    "$scratch/cargo-test.txt"

"$PLUGIN_HOST" demo --full --plugin "$BACKGROUND_SERVICE_PLUGIN" > "$scratch/swift-demo.txt"
if ! cargo run --offline --quiet --example demo_day -- --plugin "$BACKGROUND_SERVICE_PLUGIN" \
    --compare "$scratch/swift-demo.txt" > "$scratch/rust-demo.txt"; then
    echo "rust-crate: FAILED: the Rust example's wire traffic differs from the Swift demo's (above)" >&2
    exit 1
fi
tail -n 3 "$scratch/rust-demo.txt"
