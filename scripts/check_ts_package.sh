#!/usr/bin/env bash
# Checks the TypeScript client as npm consumers get it: `npm pack` (whose `prepare`
# script builds dist/, as an install from git does), then a scratch project installs the
# tarball, type-checks an import of the package (types from dist/) and runs it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
client="$root/clients/typescript"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$client"
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
tarball="$(npm pack --silent --pack-destination "$work" | tail -1)"
tar -tzf "$work/$tarball" > "$work/contents"
for f in package/dist/index.js package/dist/index.d.ts package/dist/worker.d.ts package/README.md; do
  grep -qx "$f" "$work/contents" || { echo "$tarball lacks $f" >&2; exit 1; }
done
mkdir "$work/consumer" && cd "$work/consumer"
start=$(date +%s%N)
cat > package.json <<JSON
{ "name": "consumer", "version": "1.0.0", "private": true, "type": "module",
  "dependencies": { "@praxis-engine/client": "file:$work/$tarball" } }
JSON
npm install --no-audit --no-fund --loglevel=error
# @opentelemetry/api is an optional peer: npm must not install it; the worker runs without it.
[ ! -e node_modules/@opentelemetry/api ] || { echo "npm installed the optional peer @opentelemetry/api" >&2; exit 1; }
cat > index.ts <<'TS'
import { Applied, Worker, connect, toJson, type TaskContext } from "@praxis-engine/client";
import { TestClockService } from "@praxis-engine/client/testing";

const client = connect("127.0.0.1:1");
const handle = async (ctx: TaskContext) => new Applied({ node: ctx.nodeUid }, { cost: "1.5" });
const worker = new Worker(client, { models: ["echo"] }, handle);
console.log(worker.workerId.startsWith("worker-"), toJson({ b: 1, a: 2 }), TestClockService.typeName);
client.close();
TS
cat > tsconfig.json <<JSON
{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
  "strict": true, "outDir": "out", "typeRoots": ["$client/node_modules/@types"], "types": ["node"] },
  "files": ["index.ts"] }
JSON
"$client/node_modules/.bin/tsc" -p tsconfig.json
out="$(node out/index.js)"
[ "$out" = 'true {"a":2,"b":1} aiws.engine.testing.v1.TestClockService' ] || { echo "consumer printed: $out" >&2; exit 1; }
seconds=$(( ($(date +%s%N) - start) / 1000000000 ))
echo "check_ts_package: $tarball installs, type-checks and runs in a scratch project" \
  "(consumer install+build+run ${seconds}s)"
