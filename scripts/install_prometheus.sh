#!/usr/bin/env bash
# Installs Debian's Prometheus server for the metrics test (tests/e2e/test_metrics_prometheus.py):
# the test starts it on loopback with its own config and storage. The Debian service the
# package installs is stopped and disabled: only the test's own instance runs. Idempotent.
set -euo pipefail
if [ -x /usr/bin/prometheus ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install_prometheus: not root; install the 'prometheus' package to run the metrics test" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# No service may start during the install (policy-rc.d 101), whatever the machine runs.
policy=/usr/sbin/policy-rc.d
created=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && created=1
fi
cleanup() { if [ -n "$created" ]; then rm -f "$policy"; fi; }
trap cleanup EXIT
apt-get install -y -q --no-install-recommends prometheus >/dev/null \
  || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends prometheus >/dev/null; }
test -x /usr/bin/prometheus
