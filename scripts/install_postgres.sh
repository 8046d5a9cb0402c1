#!/usr/bin/env bash
# Installs Debian's PostgreSQL server binaries (used by the tests that run on both
# databases; each test session starts its own throwaway cluster). Idempotent.
set -euo pipefail
if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install_postgres: not root; install the 'postgresql' package to run the PostgreSQL tests" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q postgresql >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q postgresql >/dev/null; }
# Debian starts a default cluster; the tests do not use it.
(command -v pg_ctlcluster >/dev/null && pg_lsclusters -h 2>/dev/null | while read -r version name _; do pg_ctlcluster "$version" "$name" stop || true; done) || true
