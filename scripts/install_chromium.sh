#!/usr/bin/env bash
# Installs Debian's Chromium for the console's browser tests (driven by Playwright for
# Python with executable_path=/usr/bin/chromium; Playwright's own browser downloads are
# never used). Idempotent.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install_chromium: not root; install the 'chromium' package to run the console browser tests" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends chromium >/dev/null \
  || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends chromium >/dev/null; }
test -x /usr/bin/chromium
