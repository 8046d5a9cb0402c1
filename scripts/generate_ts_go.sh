#!/usr/bin/env bash
# Regenerates the TypeScript (clients/typescript/src/gen) and Go (clients/go/aiws) code
# from proto/, plus google.rpc.Status and its details for TypeScript from the vendored
# third_party/proto. Installs the pinned generators first when they are missing.
# Deterministic: a second run leaves the tree unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."

BUF=tools/node_modules/.bin/buf
if [ ! -x "$BUF" ] || [ ! -x tools/node_modules/.bin/protoc-gen-es ]; then
  (cd tools && npm ci --no-audit --no-fund --loglevel=error)
fi
./scripts/install_tools_go.sh

# Start from empty output directories so that code for a removed proto file disappears.
rm -rf clients/typescript/src/gen clients/go/aiws
"$BUF" generate
"$BUF" generate --template clients/typescript/buf.gen.googleapis.yaml
