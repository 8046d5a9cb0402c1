#!/usr/bin/env bash
# Installs what the README's quickstart uses beside Python (tests/e2e/test_runnable_docs.py
# runs it): Debian's jq. (Graphviz, for `make diagram`, is not needed: the SVG is
# committed.) Idempotent.
set -euo pipefail
if command -v jq >/dev/null; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install_docs_tools: not root; install the 'jq' package to run the README's quickstart" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends jq >/dev/null \
  || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends jq >/dev/null; }
command -v jq >/dev/null
