#!/usr/bin/env bash
# Regenerates the Python messages, gRPC stubs and typed stubs (the import package `aiws`)
# from proto/ into clients/python/gen, a package root of its own that this script deletes
# and rewrites whole (clients/python/pyproject.toml ships gen/aiws as the top-level `aiws`).
# Uses the pinned grpcio-tools and mypy-protobuf of the project's virtualenv.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
out=clients/python/gen
rm -rf "$out"
mkdir -p "$out"
protos=$(cd proto && find aiws -name '*.proto' | LC_ALL=C sort)
PATH="$PWD/$VENV/bin:$PATH" "$VENV/bin/python" -m grpc_tools.protoc -Iproto \
  --python_out="$out" --pyi_out="$out" --grpc_python_out="$out" --mypy_grpc_out="$out" \
  $protos >/dev/null 2>&1
# The contract with its comments, for server reflection (praxis/rpc/reflection.py).
"$VENV/bin/python" -m grpc_tools.protoc -Iproto --include_source_info \
  -o "$out/aiws/engine/v1/contract.binpb" $protos
# Regular packages (not namespace packages) so that mypy and packaging see them plainly.
find "$out/aiws" -type d -exec sh -c 'touch "$1/__init__.py"' _ {} \;
# PEP 561: the generated package ships its .pyi stubs (praxis-engine-client is typed).
touch "$out/aiws/py.typed"
