#!/usr/bin/env bash
# Packages the client-only Python distribution (clients/python, `praxis-engine-client`)
# and checks it as a consumer would: `python -m build` (sdist + wheel), `twine check
# --strict`, the wheel's contents (aiws/ and praxis_client/ with py.typed, nothing of the
# server), an install into a fresh virtualenv that imports it, and the server wheel
# (which must depend on the client rather than ship its modules again).
#
#   scripts/package_python.sh            # prints the cold install time of the consumer
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
PY=$PWD/$VENV/bin/python
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
log() { echo "package-python: $*" >&2; }

# --no-isolation: hatchling is a pinned dev dependency, so no build environment is made
"$PY" -m build --no-isolation --sdist --wheel --outdir "$OUT/dist" clients/python >"$OUT/build.log" 2>&1 \
  || { cat "$OUT/build.log" >&2; exit 1; }
"$PY" -m twine check --strict "$OUT"/dist/*
wheel=$(ls "$OUT"/dist/praxis_engine_client-*.whl)

"$PY" - "$wheel" <<'PYEOF'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
assert tops == {"aiws", "praxis_client"}, f"unexpected top-level entries: {sorted(tops)}"
for marker in ("praxis_client/py.typed", "aiws/py.typed", "praxis_client/worker.py"):
    assert marker in names, f"{marker} missing from the wheel"
meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
text = zipfile.ZipFile(sys.argv[1]).read(meta).decode()
requires = [l for l in text.splitlines() if l.startswith("Requires-Dist:")]
assert requires and all(">=" in l and "<" in l for l in requires), f"not ranges: {requires}"
assert "License-Expression: Apache-2.0" in text, "license expression missing"
print(f"package-python: wheel ok ({len(names)} files): " + "; ".join(r[15:] for r in requires))
PYEOF

# A consumer project: a fresh virtualenv that installs only the wheel (dependencies from
# the index), imports the public surface and type-checks against py.typed.
started=$(date +%s%N)
python3 -m venv "$OUT/consumer"
"$OUT/consumer/bin/pip" install -q "$wheel"
elapsed_ms=$(( ($(date +%s%N) - started) / 1000000 ))
"$OUT/consumer/bin/python" - <<'PYEOF'
import importlib.util
from praxis_client import SERVICE_NAMES, Worker, connect, run_and_wait, Applied, NotApplied
from aiws.engine.v1 import task_pb2
client = connect("127.0.0.1:1", "token")
assert all(hasattr(client, name) for name in SERVICE_NAMES)
assert importlib.util.find_spec("praxis") is None, "the server came with the client"
print("package-python: consumer imports ok")
PYEOF
log "consumer venv + wheel install took ${elapsed_ms} ms"

# The server's wheel depends on the client and ships none of its modules.
"$PY" -m build --no-isolation --wheel --outdir "$OUT/server" . >"$OUT/build-server.log" 2>&1 \
  || { cat "$OUT/build-server.log" >&2; exit 1; }
"$PY" - "$OUT"/server/praxis_engine-*.whl <<'PYEOF'
import sys, zipfile
archive = zipfile.ZipFile(sys.argv[1])
names = archive.namelist()
assert not [n for n in names if n.startswith(("aiws/", "praxis_client/"))], "client modules duplicated"
meta = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
assert "Requires-Dist: praxis-engine-client==" in meta, "the server does not depend on the client"
print("package-python: server wheel depends on praxis-engine-client and duplicates nothing")
PYEOF
