#!/usr/bin/env bash
# The four other clients' tests and package checks, one lane per language run at the same
# time (scripts/lanes.sh): each lane's steps share its build folders (clients/<lang>), so
# they run in order inside it; the lanes share none. Every lane's output is printed whole
# when all have ended; any failure fails the whole.
#
#   scripts/test_clients.sh                    # typescript go java rust
#   CLIENT_LANES="go typescript" scripts/test_clients.sh
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A steps=(
  [typescript]="./scripts/test_ts.sh && ./scripts/check_ts_package.sh"
  [go]="./scripts/test_go.sh && ./scripts/check_go_module.sh"
  [java]="./scripts/test_java.sh && ./scripts/check_package_java.sh"
  [rust]="./scripts/test_rust.sh && ./scripts/check_package_rust.sh"
)
lanes=()
for lang in ${CLIENT_LANES:-typescript go java rust}; do
  [ -n "${steps[$lang]:-}" ] || { echo "test_clients: no lane $lang" >&2; exit 2; }
  lanes+=("$lang" "${steps[$lang]}")
done
exec ./scripts/lanes.sh "${lanes[@]}"
