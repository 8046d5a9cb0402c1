#!/usr/bin/env bash
# The Rust scenario worker (conformance/workers/README.md): builds it (incrementally, in
# debug, into the Rust client's target directory: its dependencies are the ones the
# client's tests compiled, see scripts/conformance.sh) and execs it with the driver's
# arguments.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
target="$here/../../../clients/rust/target"
cargo build --quiet --locked --manifest-path "$here/Cargo.toml" --target-dir "$target" >&2
exec "$target/debug/praxis-scenario-worker" "$@"
