"""Worker runtime throughput per language, as ratios to Python measured in the same run.

For each language, a fresh ``praxis serve`` subprocess (SQLite, loopback) and that
language's scenario worker (``conformance/workers/<lang>/run.sh``: the public worker
runtime with the scripted handler, which echoes any input without ``"do"``) with
``--concurrency 4``. The worker is started once to teach the engine its model and
stopped; then ``--runs`` single-node runs are started (no worker running); then a fresh
worker is started and timed from its ``ready`` line to the server's ``finished_at_ms`` of
the last run: node completions per second. Each language runs ``--repeat`` times; the
best is kept (the machine is shared). Python is always measured first, as the baseline.

    .venv/bin/python benchmarks/worker_bench.py                      # python only
    .venv/bin/python benchmarks/worker_bench.py --languages python,go,typescript
    .venv/bin/python benchmarks/worker_bench.py --root /work/wt/other --languages rust

Results go to stdout and ``benchmarks/results/workers.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "conformance" / "workers"))

from driver import WorkerProcess  # noqa: E402

from aiws.engine.v1 import run_pb2  # noqa: E402
from praxis_client import connect  # noqa: E402
from tests.support.conformance import credentials, principals_document  # noqa: E402
from tests.support.server_process import ServerProcess, free_port  # noqa: E402

CONCURRENCY = 4


def server_in(directory: Path) -> ServerProcess:
    directory.mkdir(parents=True)
    (directory / "principals.json").write_text(json.dumps(principals_document()), "utf-8")
    config = {"database_url": f"sqlite:///{directory / 'praxis.db'}",
              "principals_path": str(directory / "principals.json")}  # fmt: skip
    (directory / "config.json").write_text(json.dumps(config), "utf-8")
    server = ServerProcess(directory / "config.json", free_port())
    server.start(timeout_s=60)
    return server


def worker(run_sh: Path, address: str, model: str, log: Path, env: dict[str, str]) -> Any:
    args = ["--address", address, "--token", credentials()["agent"], "--model", model,
            "--worker-id", f"bench-{model}-{time.monotonic_ns()}",
            "--concurrency", str(CONCURRENCY), "--lease-ms", "30000"]  # fmt: skip
    process = WorkerProcess(run_sh, args, log, env)
    if process.wait_event("ready", 600) is None:
        process.kill()
        raise RuntimeError(f"{run_sh} never printed ready:\n{process.log_tail()}")
    return process


def completed(client: Any) -> list[run_pb2.Run]:
    runs, token = [], ""
    while True:
        reply = client.runs.ListRuns(
            run_pb2.ListRunsRequest(
                state=run_pb2.RUN_STATE_COMPLETED, page_size=1000, page_token=token
            ),
            timeout=30,
        )
        runs += list(reply.runs)
        token = reply.next_page_token
        if not token:
            return runs


def measure(language: str, run_sh: Path, runs: int, work: Path, env: dict[str, str]) -> float:
    """Node completions per second of one language's worker on a fresh server."""
    server = server_in(work / "server")
    try:
        client = connect(server.address, credentials()["alice"])
        model = f"bench-{language}"
        teacher = worker(run_sh, server.address, model, work / "teacher.err", env)
        teacher.terminate()
        teacher.kill()
        document = json.dumps(
            {
                "version": 1,
                "nodes": {
                    "a": {
                        "agent": {"model": model, "output": {"type": "json", "schema": {}}},
                        "input": {"from": "run_input"},
                    }
                },
                "output": {"from": "node:a"},
            }
        )
        for index in range(runs):
            client.runs.StartRun(
                run_pb2.StartRunRequest(
                    request_id=f"bench-{index}", definition_json=document, input_json=f'"{index}"'
                ),
                timeout=30,
            )
        timed = worker(run_sh, server.address, model, work / "worker.err", env)
        began_ms = time.time() * 1000
        try:
            deadline = time.monotonic() + 180
            while len(done := completed(client)) < runs:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"only {len(done)} of {runs} runs completed")
                time.sleep(0.2)
        finally:
            timed.terminate()
            timed.kill()
        last_ms = max(run.finished_at_ms for run in done)
        client.close()
        return runs / max((last_ms - began_ms) / 1000, 1e-3)
    finally:
        server.terminate()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--languages", default="python")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout whose run.sh to use")
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--results", type=Path, default=ROOT / "benchmarks/results/workers.json")
    args = parser.parse_args()
    languages = [x for x in args.languages.split(",") if x]
    if languages[0] != "python":
        languages = ["python", *[x for x in languages if x != "python"]]
    env = {**os.environ, "PRAXIS_ROOT": str(args.root.resolve()),
           "PRAXIS_PYTHON": sys.executable, "PYTHONUNBUFFERED": "1"}  # fmt: skip
    figures: dict[str, dict[str, Any]] = {}
    for language in languages:
        run_sh = args.root.resolve() / "conformance" / "workers" / language / "run.sh"
        samples = []
        for attempt in range(args.repeat):
            with tempfile.TemporaryDirectory(prefix="praxis-worker-bench-") as work:
                rate = measure(language, run_sh, args.runs, Path(work), env)
            samples.append(round(rate, 1))
            print(f"{language}: run {attempt + 1}: {rate:.1f} node completions/s", flush=True)
        figures[language] = {"completions_per_s": max(samples), "samples": samples}
    baseline = figures["python"]["completions_per_s"]
    for language, figure in figures.items():
        figure["ratio_to_python"] = round(figure["completions_per_s"] / baseline, 2)
        print(
            f"{language}: {figure['completions_per_s']} completions/s "
            f"({figure['ratio_to_python']}x python)",
            flush=True,
        )
    document = {
        "benchmark": "worker throughput: single-node runs, one worker, concurrency 4",
        "command": "benchmarks/worker_bench.py --languages " + ",".join(languages),
        "runs": args.runs,
        "concurrency": CONCURRENCY,
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg()[0],
        "languages": figures,
    }
    args.results.write_text(json.dumps(document, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
