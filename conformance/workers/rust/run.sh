#!/usr/bin/env bash
# The Rust scenario worker (conformance/workers/README.md): builds it (incrementally, into
# conformance/rust-target, shared with the Rust conformance runner) and execs it with the
# driver's arguments.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cargo build --release --quiet --locked --manifest-path "$here/Cargo.toml" \
  --target-dir "$here/../../rust-target" >&2
exec "$here/../../rust-target/release/praxis-scenario-worker" "$@"
