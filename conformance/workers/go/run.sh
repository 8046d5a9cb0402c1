#!/usr/bin/env bash
# The Go scenario worker (conformance/workers/README.md): builds it (incrementally, with
# the Go build cache) against clients/go through a replace directive, then execs it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$here/.bin"
(cd "$here" && go build -o .bin/scenario-worker .) >&2
exec "$here/.bin/scenario-worker" "$@"
