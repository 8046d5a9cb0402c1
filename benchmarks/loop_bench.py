"""Two server trees measured in the same run, alternating: issue 40's serving steps.

The machine (2 cores) is shared and noisy, so a step is judged by comparing it with the
tree before it in one run: each round measures both trees, the order alternating round by
round, and each figure is a ratio of the same window (a rate over the no-op rate measured
on the same server just before it) or a CPU cost per call. The trees are ``server/``
directories (``git archive <commit> server | tar -x -C DIR``) put first on the servers'
``PYTHONPATH``; the interpreter is this one (the virtualenv's dependencies).

Figures, for each tree (``--rows``, all by default), with ``--processes`` server
processes (1 by default: the hand-offs inside one process are what the steps change):

- ``startrun``: ``startrun_bench.bench_pair`` (8 clients, ``--seconds``): StartRun/s over
  no-op calls/s, and the server's CPU per StartRun and per no-op.
- ``registry``: ``registry_bench.bench_pair``: registry commands/s over no-op calls/s.
- ``completions``: ``runtime_bench``'s worker processes (settle and claim in one
  SettleTasks) and its workload of 100 runs (1,000 node completions): completions/s over
  the no-op calls/s measured on that server just before, and the server's CPU per
  completion and per no-op.
- ``chain``: ``serving_bench.idle_workers`` (50 idle workers, 30 chains): a 3-node
  chain's p50 in no-op round trips.

Results (every round's figures, the medians, the load average at the start and the end)
go to stdout and, with ``--output``, to a JSON file.

    .venv/bin/python benchmarks/loop_bench.py BEFORE/server AFTER/server [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import registry_bench
import runtime_bench
import serving_bench
import startrun_bench
from registry_bench import CpuMeter, bench_noop

from tests.support.server_process import ServerProcess, free_port, write_config

ENVIRONMENT = dict(os.environ)


def use(tree: str) -> None:
    """The next server (and its spawned workers) runs the code of ``tree``."""
    os.environ.clear()
    os.environ.update(ENVIRONMENT)
    os.environ["PYTHONPATH"] = tree


def server(tree: str, directory: str, processes: int) -> ServerProcess:
    use(tree)
    config = write_config(Path(directory), synchronous="FULL")
    started = ServerProcess(config, free_port(), "--processes", str(processes))
    started.start(timeout_s=90)
    return started


def startrun(tree: str, processes: int, seconds: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as directory:
        s = server(tree, directory, processes)
        try:
            assert s.process is not None
            noop, started = startrun_bench.bench_pair(s.address, 8, seconds, s.process.pid)
        finally:
            s.terminate()
    return {
        "ratio": started["calls_per_s"] / noop["calls_per_s"],
        "cpu_ms_per_startrun": started["server_cpu_ms_per_call"],
        "cpu_ms_per_noop": noop["server_cpu_ms_per_call"],
    }


def registry(tree: str, processes: int, seconds: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as directory:
        s = server(tree, directory, processes)
        try:
            assert s.process is not None
            noop, durable = registry_bench.bench_pair(s.address, 8, seconds, s.process.pid)
        finally:
            s.terminate()
    return {
        "ratio": durable["commands_per_s"] / noop["calls_per_s"],
        "cpu_ms_per_command": durable["server_cpu_ms_per_call"],
        "cpu_ms_per_noop": noop["server_cpu_ms_per_call"],
    }


def completions(tree: str, processes: int, seconds: float) -> dict[str, float]:
    use(tree)
    with (
        tempfile.TemporaryDirectory() as directory,
        runtime_bench.served(Path(directory), processes) as (s, client, _workers),
    ):
        assert s.process is not None
        noop_cpu, work_cpu = CpuMeter(s.process.pid), CpuMeter(s.process.pid)
        noop = noop_cpu.measure(lambda: bench_noop(s.address, 8, seconds / 2))
        done = work_cpu.measure(
            lambda: runtime_bench.praxis_throughput(client, 0, 100, 0),
            calls_key="node_completions",
        )
    per_completion = work_cpu.report()["server_cpu_ms_per_call"]
    per_noop = noop_cpu.report()["server_cpu_ms_per_call"]
    return {
        "ratio": done["completions_per_s"] / noop["calls_per_s"],
        "completions_per_s": done["completions_per_s"],
        "noop_per_s": noop["calls_per_s"],
        "cpu_ms_per_completion": per_completion,
        "cpu_ms_per_noop": per_noop,
        "cpu_per_completion_over_noop": per_completion / per_noop,
    }


def chain(tree: str, processes: int, _seconds: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as directory:
        s = server(tree, directory, processes)
        try:
            found = serving_bench.idle_workers(s, 50, 30)
        finally:
            s.terminate()
    return {"round_trips": found["round_trips"], "p50_ms": found["chain_p50_ms"]}


ROWS: dict[str, Callable[[str, int, float], dict[str, float]]] = {
    "startrun": startrun,
    "registry": registry,
    "completions": completions,
    "chain": chain,
}


def medians(rounds: list[dict[str, float]]) -> dict[str, float]:
    return {
        key: round(statistics.median(r[key] for r in rounds), 3)
        for key in rounds[0]
        if all(key in r for r in rounds)
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="the server/ directory of the tree before")
    parser.add_argument("after", help="the server/ directory of the tree after")
    parser.add_argument("--rows", default=",".join(ROWS))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--output", type=Path)
    args = parser.parse_args()
    trees = {"before": args.before, "after": args.after}
    rows = [row for row in args.rows.split(",") if row]
    report: dict[str, Any] = {
        "command": "python benchmarks/loop_bench.py " + " ".join(sys.argv[1:]),
        "trees": trees,
        "processes": args.processes,
        "load_average_start": os.getloadavg(),
        "rounds": {row: {"before": [], "after": []} for row in rows},
    }
    for index in range(args.rounds):
        order = ["before", "after"] if index % 2 == 0 else ["after", "before"]
        for row in rows:
            for side in order:
                found = ROWS[row](trees[side], args.processes, args.seconds)
                report["rounds"][row][side].append(found)
                print(row, side, json.dumps(found), file=sys.stderr, flush=True)
    report["load_average_end"] = os.getloadavg()
    report["medians"] = {
        row: {side: medians(found) for side, found in sides.items()}
        for row, sides in report["rounds"].items()
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.output is not None:
        args.output.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
