#!/usr/bin/env bash
# The Python scenario worker (conformance/workers/README.md). Nothing to build: it runs on
# the project's virtualenv (PRAXIS_PYTHON, set by the driver, or ROOT/.venv/bin/python).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="${PRAXIS_ROOT:-$(cd "$here/../../.." && pwd)}"
python="${PRAXIS_PYTHON:-$root/.venv/bin/python}"
export PYTHONPATH="$root/clients/python:$root/clients/python/gen${PYTHONPATH:+:$PYTHONPATH}"
exec "$python" -u "$here/scenario_worker.py" "$@"
