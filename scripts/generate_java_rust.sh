#!/usr/bin/env bash
# Regenerates the Java and Rust clients' code from proto/ with pinned generators:
#   Java: protoc + protoc-gen-grpc-java from tools/bin (scripts/install_tools_java_rust.sh)
#         -> clients/java/src/gen/java/dev/praxis/aiws/** (a source root of its own)
#   Rust: tonic-prost-build (pinned in clients/rust/codegen/Cargo.lock) driving the same
#         protoc -> clients/rust/src/gen/*.rs, plus a descriptor set for dynamic calls.
# The output is deterministic: the same protos and pins give byte-identical files.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install_tools_java_rust.sh
protoc="$PWD/tools/bin/protoc-4.33.5"
grpc_java="$PWD/tools/bin/protoc-gen-grpc-java-1.83.0"
protos=$(cd proto && find aiws -name '*.proto' | LC_ALL=C sort)

# Java: the generated packages (dev.praxis.aiws.*) have a source root of their own,
# clients/java/src/gen/java, added to the build by build-helper-maven-plugin (pom.xml).
# clients/java/src/gen belongs wholly to this script; the hand-written helper layer in
# src/main/java is never touched.
rm -rf clients/java/src/gen
java_out=clients/java/src/gen/java
mkdir -p "$java_out"
# shellcheck disable=SC2086
"$protoc" -Iproto --java_out="$java_out" \
  --plugin=protoc-gen-grpc-java="$grpc_java" --grpc-java_out="$java_out" $protos

# Rust
rust_out=clients/rust/src/gen
rm -rf "$rust_out"
mkdir -p "$rust_out"
# shellcheck disable=SC2086
PROTOC="$protoc" CARGO_TARGET_DIR=clients/rust/target/codegen \
  cargo run -q --locked --manifest-path clients/rust/codegen/Cargo.toml -- proto "$rust_out" $protos
# shellcheck disable=SC2086
"$protoc" -Iproto --include_imports -o "$rust_out/descriptor_set.bin" $protos
