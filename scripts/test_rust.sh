#!/usr/bin/env bash
# Builds and tests the Rust client (clients/rust) from its committed sources, generated
# code included: no protoc needed. Cargo fetches the versions pinned in Cargo.lock from
# crates.io on the first run and then reuses ~/.cargo; set CARGO_NET_OFFLINE=true to stay
# offline. Builds without features (what a consumer without OpenTelemetry gets), then runs
# the unit tests, the loopback server tests and the doc examples with the `otel` feature
# (the handler inside the attempt's trace: tests/worker.rs, mod otel).
set -euo pipefail
cd "$(dirname "$0")/../clients/rust"
cargo build --locked --quiet
cargo test --locked --quiet --features otel
