#!/usr/bin/env bash
# The Rust scenario worker (conformance/workers/README.md): builds it (incrementally, into
# conformance/workers/rust/target) and execs it with the driver's arguments.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cargo build --release --quiet --locked --manifest-path "$here/Cargo.toml" >&2
exec "$here/target/release/praxis-scenario-worker" "$@"
