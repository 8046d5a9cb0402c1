#!/usr/bin/env bash
# The TypeScript scenario worker (conformance/workers/README.md): builds the client
# (clients/typescript, npm ci on first use) and this program, incrementally, then execs it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
client="$here/../../../clients/typescript"
{
  (cd "$client" && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; } \
    && if [ ! -f dist/index.js ] || [ -n "$(find src -newer dist/index.js -print -quit)" ]; then npm run -s build; fi)
  cd "$here"
  [ -e node_modules/@praxis-engine/client ] && [ -e node_modules/@opentelemetry/context-async-hooks ] || npm install --no-audit --no-fund --loglevel=error
  if [ ! -f dist/main.js ] || [ -n "$(find src "$client/dist/index.js" -newer dist/main.js -print -quit)" ]; then
    npm run -s build
  fi
} >&2
exec node "$here/dist/main.js" "$@"
