#!/usr/bin/env bash
# Builds and tests the TypeScript client from its own files: npm ci from
# clients/typescript/package-lock.json (skipping the `prepare` build, done next anyway),
# tsc build to dist/ (with type declarations), then the unit tests (compiled to
# build-test/, including the README's worker) under node's built-in test runner.
set -euo pipefail
cd "$(dirname "$0")/../clients/typescript"
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error  # npm test builds dist/ itself
rm -rf dist build-test
npm test
