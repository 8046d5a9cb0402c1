"""StartRun throughput over loopback gRPC, against a no-op baseline in the same run.

A ``praxis serve`` subprocess (SQLite, ``synchronous=FULL``) is driven by 8 concurrent
clients, each starting ad hoc runs of a one-node definition (a durable command: the run,
its node, its ready row, its event and its command log). In the same run, the same
clients call the gRPC health check (a no-op): the ratio of the two rates is the figure
(issue 8's target: StartRun calls/s >= 0.3 of no-op calls/s), because absolute rates on
these shared machines swing by 2x from day to day. The server's CPU time per call is
read from /proc, with the bench's own (client) CPU: the ratio both rates would have if
they were bound by CPU alone (``cpu_bound_ratio``) shows how much of the gap to the target
is the cost of a call and how much is waiting. Results go to stdout and
``benchmarks/results/startrun.json``.

    .venv/bin/python benchmarks/startrun_bench.py [--seconds 8] [--clients 8]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiws.engine.v1 import run_pb2
from benchmarks.registry_bench import (
    OWN_CONNECTION,
    CpuMeter,
    bench_noop,
    cpu_bound_ratio,
    percentile,
    run_threads,
)
from praxis.serve.processes import default_processes
from praxis_client import connect
from tests.support.harness import token_of
from tests.support.server_process import ServerProcess, free_port, write_config

RESULTS = Path(__file__).parent / "results" / "startrun.json"
DEFINITION = json.dumps(
    {
        "version": 1,
        "nodes": {"a": {"agent": {"model": "echo"}, "input": {"from": "run_input"}}},
        "output": {"from": "node:a"},
    }
)


ROUNDS = 4
"""No-op and StartRun windows alternate this many times, so that a change of the
machine's load during the run weighs on both rates alike."""
_IDS = itertools.count()


def bench_start(address: str, clients: int, seconds: float) -> dict[str, Any]:
    stubs = [connect(address, token_of("agent"), options=OWN_CONNECTION) for _ in range(clients)]
    latencies: list[list[float]] = [[] for _ in range(clients)]
    ids = _IDS  # request ids unique across windows: a repeated one would be a replay

    def step(i: int) -> Callable[[], None]:
        def call() -> None:
            request = run_pb2.StartRunRequest(
                request_id=f"bench-{next(ids)}", definition_json=DEFINITION, input_json="{}"
            )
            start = time.perf_counter()
            stubs[i].runs.StartRun(request)
            latencies[i].append(time.perf_counter() - start)

        return call

    elapsed = run_threads(clients, seconds, step)
    flat = [x for per in latencies for x in per]
    for stub in stubs:
        stub.close()
    return {"clients": clients, "calls": len(flat), "seconds": elapsed, "latencies": flat}


def merged(windows: list[dict[str, Any]]) -> dict[str, Any]:
    """One rate over alternating windows: calls over the time they took."""
    calls = sum(window["calls"] for window in windows)
    seconds = sum(window["seconds"] for window in windows)
    found: dict[str, Any] = {"clients": windows[0]["clients"], "calls": calls}
    found["calls_per_s"] = calls / seconds
    latencies = [x for window in windows for x in window.get("latencies", [])]
    if latencies:
        found["p50_ms"] = percentile(latencies, 0.50) * 1000
        found["p99_ms"] = percentile(latencies, 0.99) * 1000
    else:  # the no-op windows report their own percentiles
        found["p50_ms"] = statistics.median(window["p50_ms"] for window in windows)
    return found


def bench_pair(
    address: str, clients: int, seconds: float, pid: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """No-op calls and StartRun calls from ``clients`` clients in alternating windows
    (``seconds / 2`` of no-op and ``seconds`` of StartRun in all): both rates, with the
    CPU per call of server ``pid`` and of the clients."""
    noops: list[dict[str, Any]] = []
    starts: list[dict[str, Any]] = []
    noop_cpu, start_cpu = CpuMeter(pid), CpuMeter(pid)
    for _ in range(ROUNDS):
        window = noop_cpu.measure(lambda: bench_noop(address, clients, seconds / 2 / ROUNDS))
        window["seconds"] = window["calls"] / window["calls_per_s"]
        noops.append(window)
        starts.append(start_cpu.measure(lambda: bench_start(address, clients, seconds / ROUNDS)))
    noop = {**merged(noops), **noop_cpu.report()}
    started = {**merged(starts), **start_cpu.report()}
    started["cpu_bound_ratio"] = cpu_bound_ratio(noop_cpu, start_cpu)
    return noop, started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument(
        "--processes",
        type=int,
        default=default_processes(),
        help="server processes (default: as `praxis serve`, one per core)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="praxis-bench-") as tmp:
        server = ServerProcess(
            write_config(Path(tmp), synchronous="FULL"),
            free_port(),
            "--processes",
            str(args.processes),
        )
        server.start(timeout_s=90)
        try:
            noop, started = bench_pair(
                server.address, args.clients, args.seconds, server.process.pid
            )
        finally:
            server.terminate()
    ratio = started["calls_per_s"] / noop["calls_per_s"]
    results = {
        "command": "python benchmarks/startrun_bench.py",
        "server_processes": args.processes,
        "load_average": os.getloadavg(),
        "synchronous": "FULL",
        "seconds": args.seconds,
        "noop": noop,
        "start_run": started,
        "ratio_to_noop": ratio,
        "targets": {"ratio_to_noop >= 0.3": ratio >= 0.3},
    }
    print(
        f"noop {noop['calls_per_s']:.0f}/s  StartRun {started['calls_per_s']:.0f}/s "
        f"(p50 {started['p50_ms']:.2f} ms, p99 {started['p99_ms']:.2f} ms, "
        f"server CPU {started['server_cpu_ms_per_call']:.2f} ms/call)  ratio {ratio:.2f}\n"
        f"CPU per call (server + client): no-op {noop['server_cpu_ms_per_call']:.2f} + "
        f"{noop['client_cpu_ms_per_call']:.2f} ms, StartRun "
        f"{started['server_cpu_ms_per_call']:.2f} + {started['client_cpu_ms_per_call']:.2f} ms; "
        f"cores busy {noop['cores_busy']:.2f} / {started['cores_busy']:.2f}; "
        f"ratio if both were CPU-bound {started['cpu_bound_ratio']:.2f}"
    )
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
