#!/usr/bin/env bash
# Installs the pinned Go code generators (protoc-gen-go, protoc-gen-go-grpc) into tools/bin,
# where buf.gen.yaml expects them. Idempotent: a generator already at its pinned version is
# left alone, so a second run costs only two `--version` calls.
set -euo pipefail
cd "$(dirname "$0")/.."

# protoc-gen-go must match google.golang.org/protobuf in clients/go/go.mod.
PROTOC_GEN_GO=google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
PROTOC_GEN_GO_GRPC=google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2

bin="$PWD/tools/bin"
install() { # install MODULE_PATH@VERSION unless tools/bin already has that version
  local pkg=${1%@*} version=${1##*@} name
  name=$(basename "$pkg")
  if [ -x "$bin/$name" ] && "$bin/$name" --version 2>/dev/null | grep -qw -- "${version#v}\|$version"; then
    return
  fi
  echo "installing $name $version into tools/bin" >&2
  GOBIN="$bin" GOFLAGS=-buildvcs=false go install "$1"
}
install "$PROTOC_GEN_GO"
install "$PROTOC_GEN_GO_GRPC"
