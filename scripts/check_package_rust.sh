#!/usr/bin/env bash
# Checks the Rust crate is publishable: `cargo publish --dry-run` packages clients/rust as
# crates.io would receive it and builds it from the packaged sources alone (no path
# dependencies, no files outside the package). Run on a clean checkout (as CI does after
# checkgenerate); with uncommitted changes under clients/rust cargo refuses, and
# ALLOW_DIRTY=1 passes --allow-dirty for a local run.
set -euo pipefail
cd "$(dirname "$0")/../clients/rust"
start=$(date +%s)
extra=()
if [ "${ALLOW_DIRTY:-}" = 1 ]; then extra+=(--allow-dirty); fi
cargo publish --dry-run --locked --quiet "${extra[@]}"
files=$(cargo package --list --locked --quiet "${extra[@]}" | wc -l)
echo "rust package: cargo publish --dry-run passed ($files files) in $(( $(date +%s) - start ))s"
