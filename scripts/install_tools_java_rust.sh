#!/usr/bin/env bash
# Installs the pinned code generators used by scripts/generate_java_rust.sh into tools/bin:
#   protoc                 com.google.protobuf:protoc:${PROTOC_VERSION}:exe:linux-x86_64
#   protoc-gen-grpc-java   io.grpc:protoc-gen-grpc-java:${GRPC_JAVA_VERSION}:exe:linux-x86_64
# Both come from Maven Central through Maven itself and are checked against pinned SHA-256
# sums. Idempotent: a binary already in place with the right checksum is kept.
set -euo pipefail
cd "$(dirname "$0")/.."

PROTOC_VERSION=4.33.5
PROTOC_SHA256=e8d496f7dacade5bf42a11f4fbeb61e9bdfddd494fd292f5f1881ddc169e69cf
GRPC_JAVA_VERSION=1.83.0
GRPC_JAVA_SHA256=a19ae74aa4cb03e1d01269562ac6165ec32a848a7bebd032aea9a0b9569718ba
DEPENDENCY_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1

bin=tools/bin
mkdir -p "$bin"

# install_tool NAME GROUP:ARTIFACT:VERSION SHA256
install_tool() {
  local dest="$bin/$1" artifact=$2 sum=$3
  if [ -x "$dest" ] && echo "$sum  $dest" | sha256sum --check --status; then
    return 0
  fi
  local tmp
  tmp=$(mktemp -d)
  local log
  if ! log=$(mvn -q -B "$DEPENDENCY_PLUGIN:copy" \
    -Dartifact="$artifact:exe:linux-x86_64" -DoutputDirectory="$tmp" 2>&1); then
    echo "$log" >&2
    rm -rf "$tmp"
    exit 1
  fi
  local file
  file=$(find "$tmp" -type f | head -n 1)
  if ! echo "$sum  $file" | sha256sum --check --status; then
    echo "checksum mismatch for $artifact: got $(sha256sum "$file" | cut -d' ' -f1)" >&2
    rm -rf "$tmp"
    exit 1
  fi
  cp "$file" "$dest.tmp"
  chmod +x "$dest.tmp"
  mv "$dest.tmp" "$dest"
  rm -rf "$tmp"
}

install_tool "protoc-$PROTOC_VERSION" "com.google.protobuf:protoc:$PROTOC_VERSION" "$PROTOC_SHA256"
install_tool "protoc-gen-grpc-java-$GRPC_JAVA_VERSION" "io.grpc:protoc-gen-grpc-java:$GRPC_JAVA_VERSION" "$GRPC_JAVA_SHA256"
