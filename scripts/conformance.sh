#!/usr/bin/env bash
# The conformance suite (conformance/README.md): one lane per language, all at the same
# time (scripts/lanes.sh). A lane builds its runner, starts a server of its own in
# test-clock mode (the test clock and the clock-uncertainty hold are server-wide, so two
# languages never share a server), runs the vectors against it, then the worker scenarios
# (conformance/workers/driver.py, which starts a test-clock server of its own). When every
# lane has ended, the parity matrices are written: conformance/results/matrix.{md,json} and
# workers-matrix.{md,json}. The runs wait on the servers and the scenarios' sleeps far more
# than they compute (about a third of a core per language), so five lanes take little more
# than the slowest one: 102 s, where one language after another on one server took 259 s
# (runners already built, load 1-4, on this 2-core machine).
#
#   scripts/conformance.sh                      # all five languages
#   CONFORMANCE_LANGUAGES="python go" scripts/conformance.sh
#   scripts/conformance.sh --lane go            # one language, in this shell (what a lane runs)
#
# Exits non-zero when a runner fails to build, any vector or scenario fails, or an expected
# failure passes. Raw per-vector results stay in conformance/results/runs/<language>.jsonl
# and workers-<language>.jsonl.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VENV=${VENV:-.venv}
PY=$ROOT/$VENV/bin/python
LANGUAGES=${CONFORMANCE_LANGUAGES:-"python typescript go java rust"}
T0=1800000000000
RUNS=$ROOT/conformance/results/runs

log() { echo "conformance: $*" >&2; }

if [ "${1:-}" != "--lane" ]; then
  lanes=()
  for lang in $LANGUAGES; do lanes+=("$lang" "./scripts/conformance.sh --lane $lang"); done
  ./scripts/lanes.sh "${lanes[@]}"
  status=$?
  # shellcheck disable=SC2086
  "$PY" conformance/tools/matrix.py "$RUNS" conformance/results $LANGUAGES || status=1
  log "matrix: conformance/results/matrix.md"
  "$PY" conformance/workers/driver.py --matrix-only || status=1
  log "worker matrix: conformance/results/workers-matrix.md"
  exit $status
fi

# --- one lane: build, vectors, worker scenarios -----------------------------------------
lang=${2:?usage: scripts/conformance.sh --lane LANGUAGE}
WORK=$(mktemp -d)
SERVER_PID=""
status=0

cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# --- build ------------------------------------------------------------------------------

build_python() { "$PY" -c "import praxis_client, google.protobuf" ; }

# Whether $1 is missing or older than any file under the other paths.
stale() { local built=$1; shift; [ ! -e "$built" ] || [ -n "$(find "$@" -newer "$built" -print -quit)" ]; }

# TypeScript compiles only what changed since its last build: the client's lane
# (scripts/test_ts.sh) has just built clients/typescript/dist.
build_typescript() {
  (cd clients/typescript && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; } \
    && if stale dist/index.js src tsconfig.json package.json; then npm run -s build; fi) \
  && (cd conformance/runners/typescript && { [ -e node_modules/@praxis-engine/client ] \
      || npm install --no-audit --no-fund --loglevel=error; } \
    && if stale dist/main.js src tsconfig.json ../../../clients/typescript/dist/index.js; then
      npm run -s build; fi)
}

build_go() { (cd conformance/runners/go && go build -o "$WORK/go-runner" .) ; }

JAVA_CP=""
build_java() {
  (cd clients/java && mvn -q -B ${MVN_FLAGS:-} compile dependency:build-classpath \
      -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime) || return 1
  JAVA_CP="$ROOT/clients/java/target/classes:$(cat clients/java/target/classpath.txt)"
  javac -d "$WORK/java" -cp "$JAVA_CP" \
    conformance/runners/java/src/main/java/dev/praxis/conformance/Runner.java
}

# The Rust runner (and the Rust scenario worker) build in debug into the Rust client's own
# target directory, with the dependency features of the client's tests: after
# `scripts/test_rust.sh` every dependency is already compiled there and only the runner
# and the client crate itself compile (a release build compiled the whole tree again).
RUST_TARGET=$ROOT/clients/rust/target
build_rust() { (cd conformance/runners/rust && cargo build --locked --quiet --target-dir "$RUST_TARGET") ; }

# --- run --------------------------------------------------------------------------------

run_language() {
  local address=$1 creds=$2 out=$RUNS/$lang.jsonl
  case $lang in
    python) "$PY" conformance/runners/python/praxis_conformance.py --address "$address" \
              --credentials "$creds" --results "$out" ;;
    typescript) node conformance/runners/typescript/dist/main.js --address "$address" \
              --credentials "$creds" --results "$out" ;;
    go) "$WORK/go-runner" -address "$address" -credentials "$creds" -results "$out" \
              -vectors conformance/vectors \
              -expected-failures conformance/expected_failures/go.txt ;;
    java) java -cp "$WORK/java:$JAVA_CP" -Dpraxis.conformance.root=conformance \
              dev.praxis.conformance.Runner --address "$address" --credentials "$creds" \
              --results "$out" ;;
    rust) "$RUST_TARGET/debug/praxis-conformance" --address "$address" \
              --credentials "$creds" --results "$out" ;;
    *) log "no runner for $lang"; return 1 ;;
  esac
}

mkdir -p "$RUNS"
rm -f "$RUNS/$lang.jsonl" "$RUNS/workers-$lang.jsonl"  # a lane that fails leaves no old results
started=$(date +%s)
log "building $lang"
if ! "build_$lang" >"$WORK/build.log" 2>&1; then
  log "$lang runner failed to build:"; tail -20 "$WORK/build.log" >&2; exit 1
fi
log "$lang built in $(( $(date +%s) - started ))s"

# The lane's server, test-clock mode, the conformance principals (tests/support/conformance.py:
# the test principals of tests/support/harness.py with the execution model's grants).
"$PY" - "$WORK" <<'PYEOF'
import json, sys
from pathlib import Path
sys.path.insert(0, ".")
from tests.support.conformance import RETENTION, credentials, principals_document
from tests.support.server_process import write_config
work = Path(sys.argv[1])
write_config(work / "server", retention=RETENTION)
(work / "server" / "principals.json").write_text(json.dumps(principals_document()), encoding="utf-8")
(work / "credentials.json").write_text(json.dumps(credentials(), indent=1), encoding="utf-8")
PYEOF
(cd "$WORK/server" && exec "$PY" -m praxis.serve.cli serve --config "$WORK/server/config.json" \
    --listen 127.0.0.1:0 --test-clock "$T0" --log-level WARNING \
    >"$WORK/server.out" 2>"$WORK/server.err") &
SERVER_PID=$!
address=""
for _ in $(seq 1 600); do
  address=$(sed -n 's/.*"listening": "\([^"]*\)".*/\1/p' "$WORK/server.out" 2>/dev/null | head -1)
  [ -n "$address" ] && break
  kill -0 "$SERVER_PID" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$address" ]; then
  log "server did not start:"; cat "$WORK/server.err" >&2; exit 1
fi
log "server on $address"

started=$(date +%s)
if ! run_language "$address" "$WORK/credentials.json"; then status=1; fi
log "$lang vectors took $(( $(date +%s) - started ))s"
kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; SERVER_PID=""

# Worker conformance (conformance/workers/README.md), when the language's scenario worker
# exists; the driver starts its own test-clock server and writes runs/workers-<lang>.jsonl
# (the matrix is written once every lane has ended).
if [ -f "conformance/workers/$lang/run.sh" ]; then
  started=$(date +%s)
  "$PY" conformance/workers/driver.py --languages "$lang" --no-matrix || status=1
  log "$lang worker scenarios took $(( $(date +%s) - started ))s"
fi
exit $status
