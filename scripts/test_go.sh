#!/usr/bin/env bash
# Builds and tests the Go client from its own files: the modules pinned in
# clients/go/go.sum, then gofmt, go vet (which also compiles the README example) and
# go test. Works on a fresh machine with Go and the Go module proxy.
set -euo pipefail
cd "$(dirname "$0")/../clients/go"
go mod download
go mod verify >/dev/null
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  echo "gofmt needed on: $unformatted" >&2
  exit 1
fi
go mod tidy -diff
go vet ./...
go test -count=1 ./...
