# Entry points. Every target sets itself up on a fresh machine (virtualenv, npm tools).
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
# The Python suite's workers (pytest-xdist): one per core; PYTEST_WORKERS=0 runs in one process.
PYTEST_WORKERS ?= auto
BUF := tools/node_modules/.bin/buf
# The suite starts hundreds of Python processes (xdist workers, servers, the CLI) and
# imports every test module in each worker: with bytecode caching off in the environment
# (PYTHONDONTWRITEBYTECODE) each of them compiled the same sources again.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(VENV)/bin/pytest

.PHONY: diagram setup tools generate checkgenerate lint breaking test test-python test-python-parallel test-python-serial test-fast test-clients package-go-ts conformance bench ci ci-clients serve example example-runtime package-python

$(VENV)/.installed: pyproject.toml clients/python/pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e ./clients/python -e '.[dev,postgres]'
	touch $@

setup: $(VENV)/.installed

tools/node_modules/.installed: tools/package.json tools/package-lock.json
	cd tools && npm ci --no-audit --no-fund --loglevel=error
	touch $@

tools: tools/node_modules/.installed

## generate: regenerate every client's code from proto/ (Python, TypeScript, Go, Java, Rust)
## and docs/definitions.md from docs/definition.schema.json
generate: setup tools
	./scripts/generate_python.sh
	./scripts/generate_ts_go.sh
	./scripts/generate_java_rust.sh
	$(PY) scripts/definitions_doc.py

## checkgenerate: regenerate and fail on any difference from what is committed
GENERATED := clients/python/gen clients/typescript/src/gen clients/go/aiws \
	clients/java/src/gen clients/rust/src/gen docs/definitions.md
checkgenerate: generate
	@changes=$$(git status --porcelain -- $(GENERATED)); \
	if [ -n "$$changes" ]; then echo "$$changes"; \
	echo "generated code is stale: run 'make generate' and commit"; exit 1; fi

## lint: buf lint and format, ruff, mypy, the import contracts (layers, no circles)
lint: setup tools
	$(BUF) lint
	$(BUF) format --diff --exit-code
	$(VENV)/bin/ruff check server tests benchmarks examples conformance clients/python/praxis_client scripts/definitions_doc.py
	$(VENV)/bin/ruff format --check server tests benchmarks examples conformance clients/python/praxis_client scripts/definitions_doc.py
	$(VENV)/bin/mypy server/praxis server/praxis_cli server/praxis_console server/praxis_mcp clients/python/praxis_client
	$(VENV)/bin/lint-imports --no-cache

## breaking: compare the contract against the last release tag (none yet: skipped with a note)
breaking: tools
	@tag=$$(git describe --tags --abbrev=0 --match 'v*' 2>/dev/null || true); \
	if [ -z "$$tag" ]; then echo "breaking: no release tag yet; the contract may still change"; \
	else $(BUF) breaking --against ".git#tag=$$tag"; fi

## test: every test: Python (unit, store, rpc, e2e), the four other clients, conformance
test: test-python test-clients conformance

## test-python: the Python suite in two passes. First every test not marked `serial`,
## spread over the cores by pytest-xdist (each worker is a session of its own: its own
## PostgreSQL cluster, tmp_path, console and server ports); then the `serial` tests
## (timing, SIGKILL crash loops, benchmark-like loads, Prometheus) one at a time with the
## machine to themselves. A pass that collects no test fails (pytest's exit 5).
test-python: test-python-parallel
	$(MAKE) --no-print-directory test-python-serial

test-python-parallel: setup
	$(PYTEST) -q -n $(PYTEST_WORKERS) --dist loadgroup -m "not serial"

test-python-serial: setup
	$(PYTEST) -q -p no:xdist -m serial

## test-fast: tests/unit and the SQLite half of tests/store (-m "not postgres") over the
## cores; under 30 s of wall time on an idle 2-core machine (706 tests: 24.9 s wall, 35 s
## user + 5 s sys, load 1.1, at 59f2bb3; 29 s with 43 s of CPU at 96c84bd)
test-fast: setup
	$(PYTEST) -q -n $(PYTEST_WORKERS) --dist loadgroup -m "not postgres" tests/unit tests/store

## test-clients: the TypeScript, Go, Java and Rust clients' tests and package checks, one
## lane per language at the same time (scripts/test_clients.sh; CLIENT_LANES picks some)
test-clients: tools
	./scripts/test_clients.sh

## package-go-ts: a Go consumer without replace (local module proxy); npm pack into a
## scratch project (also run by test-clients, in the Go and TypeScript lanes)
package-go-ts:
	./scripts/check_go_module.sh
	./scripts/check_ts_package.sh

## conformance: one lane per language at the same time, each building its runner and
## running the vectors and the worker scenarios against test-clock servers of its own;
## then the parity matrices (scripts/conformance.sh; CONFORMANCE_LANGUAGES picks some)
conformance: setup tools
	./scripts/conformance.sh

## package-python: build the client-only distribution, twine check it, install it in a
## fresh virtualenv (scripts/package_python.sh)
package-python: setup
	./scripts/package_python.sh

## ci: everything CI checks (the README's test command). The generated code first (it
## rewrites the clients' gen/ folders). Then at the same time (make -j, each target's
## output printed whole when it ends): lint, breaking, package-python and the clients'
## lanes followed by conformance (its runners build in the clients' build folders; then
## its five languages run side by side, a test-clock server each). Then the Python suite:
## its parallel pass over the cores, then its serial pass alone. The Python suite does not
## share the cores with the clients' builds: its in-process servers starved for CPU beside
## a Rust build and a Java build, and calls timed out. Measured by .ci/run on a clean clone
## with nothing else running: 12 min 59 s (lanes 129 s, conformance 102 s, Python parallel
## 3,803 tests in 404 s, serial 14 in 88 s); at most 15 minutes is the rule.
ci: checkgenerate
	$(MAKE) --no-print-directory -j4 --output-sync=target \
		lint breaking package-python ci-clients
	$(MAKE) --no-print-directory test-python

# ci-clients: the clients' lanes, then conformance.
ci-clients: setup test-clients
	$(MAKE) --no-print-directory conformance

## diagram: docs/system.svg from docs/system.dot (Debian's graphviz: apt-get install graphviz),
## and the layers diagrams of docs/architecture.md from the import contracts;
## the SVG is committed, so readers and CI need no graphviz
diagram:
	dot -Tsvg docs/system.dot -o docs/system.svg
	$(PY) scripts/layers_diagram.py

## serve: run the service on 127.0.0.1:50051 with an embedded SQLite file
serve: setup
	$(VENV)/bin/praxis serve

## example: the complete registry example
example: setup
	$(PY) examples/registry_example.py

## example-runtime: a fan-out and join workflow executed by two workers
example-runtime: setup
	$(PY) examples/runtime_example.py

## bench: benchmarks under benchmarks/ (results in benchmarks/results/)
bench: setup
	$(PY) benchmarks/registry_bench.py
	$(PY) benchmarks/runtime_bench.py
	$(PY) benchmarks/startrun_bench.py
	$(PY) benchmarks/serving_bench.py
	$(PY) benchmarks/fanout_bench.py
	$(PY) benchmarks/principal_lookup_bench.py
	$(PY) benchmarks/observability_bench.py
	$(PY) benchmarks/retention_bench.py
	$(PY) benchmarks/pg_replicas_bench.py  # prints a skip when PostgreSQL is not installed
	$(PY) benchmarks/write_path_bench.py  # issue 26's table from one run (~3 min)
	$(PY) benchmarks/engine_bench.py  # issue 40's table from one run (~4 min)
	$(PY) benchmarks/store_path_bench.py  # a completion without gRPC (in one process)
