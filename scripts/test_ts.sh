#!/usr/bin/env bash
# Builds and tests the TypeScript client from its own files: npm ci from
# clients/typescript/package-lock.json, tsc build to dist/ (with type declarations),
# then the unit tests (compiled to build-test/) under node's built-in test runner.
set -euo pipefail
cd "$(dirname "$0")/../clients/typescript"
npm ci --no-audit --no-fund --loglevel=error
rm -rf dist build-test
npm test
