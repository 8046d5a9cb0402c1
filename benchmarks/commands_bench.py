"""Issue 40 rows 6 and 7 as an A/B: this tree's server against another tree's, same run.

StartRun calls and registry commands (``startrun_bench.bench_pair`` and
``registry_bench.bench_pair``: 8 clients, no-op windows alternating with durable ones)
are run against a ``praxis serve`` (SQLite, ``synchronous=FULL``) started from each of
two code trees in turn, in alternating rounds (A B B A ...), a fresh server and database
each time; ``store_path`` runs one round of ``store_path_bench``'s completions through the
stores in one process (no gRPC: its CPU per completion) with each tree's code. Each
tree's server runs with its own virtualenv's interpreter (``TREE/.venv``), so the
baseline is exactly the code of that tree. Reported per tree and workload (medians
over the rounds): the durable rate over the no-op rate (the rows' figure), the server's
CPU per durable call and per no-op call (from /proc, ``registry_bench.CpuMeter``) and
their ratio, with the load average at the start and end: these machines are shared, and
CPU per call is the steadier figure. Results go to stdout and
``benchmarks/results/commands.json`` (or ``--output``).

    .venv/bin/python benchmarks/commands_bench.py --baseline /path/to/main/checkout \
        [--rounds 4] [--seconds 8] [--processes 1] [--workloads start,registry,store_path]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import registry_bench, startrun_bench
from tests.support.server_process import ServerProcess, free_port, tree_path, write_config

HERE = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).parent / "results" / "commands.json"
BENCHES = {"start": startrun_bench, "registry": registry_bench}
FIGURES = ("ratio_to_noop", "server_cpu_ms", "noop_server_cpu_ms", "cpu_per_noop", "calls_per_s")


# One round of store_path_bench in a tree's own interpreter (its results file untouched):
# the store path of a completion, in one process, no gRPC.
STORE_PATH = """
import json, sys, tempfile
sys.path.insert(0, ".")
from benchmarks import store_path_bench as bench
from praxis.app import Engine, Settings
from praxis.clock import SystemClock
from tests.support.harness import authority
with tempfile.TemporaryDirectory() as raw:
    engine = Engine(Settings(database_url=f"sqlite:///{raw}/store.db", authority=authority(),
                             clock=SystemClock(), sweeper=False))
    try:
        bench.one_round(engine, 0, 20)  # warm
        print(json.dumps(bench.one_round(engine, 1, 100)))
    finally:
        engine.close()
"""


def store_path_round(tree: Path) -> dict[str, Any]:
    """CPU per completion of ``store_path_bench``'s workload run by ``tree``'s code."""
    found = subprocess.run(
        [str(tree / ".venv" / "bin" / "python"), "-c", STORE_PATH],
        cwd=tree,
        env={**os.environ, **tree_path(tree)},
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(found.stdout.strip().splitlines()[-1])
    return {
        "server_cpu_ms": result["cpu_ms_per_completion"],
        "wall_ms": result["wall_ms_per_completion"],
        "load_1m": os.getloadavg()[0],
    }


def one_round(
    tree: Path, workload: str, clients: int, seconds: float, processes: int
) -> dict[str, Any]:
    """One server from ``tree``, one ``bench_pair`` of ``workload`` (``store_path``: one
    round of the store path of completions, in one process)."""
    if workload == "store_path":
        return store_path_round(tree)
    with tempfile.TemporaryDirectory(prefix="praxis-commands-") as tmp:
        config = write_config(Path(tmp), synchronous="FULL")
        server = ServerProcess(config, free_port(), "--processes", str(processes), tree=tree)
        server.start(timeout_s=90)
        assert server.process is not None
        try:
            noop, durable = BENCHES[workload].bench_pair(
                server.address, clients, seconds, server.process.pid
            )
        finally:
            server.terminate()
    rate = durable["calls_per_s"] if "calls_per_s" in durable else durable["commands_per_s"]
    return {
        "ratio_to_noop": rate / noop["calls_per_s"],
        "server_cpu_ms": durable["server_cpu_ms_per_call"],
        "noop_server_cpu_ms": noop["server_cpu_ms_per_call"],
        "cpu_per_noop": durable["server_cpu_ms_per_call"] / noop["server_cpu_ms_per_call"],
        "calls_per_s": rate,
        "noop_calls_per_s": noop["calls_per_s"],
        "load_1m": os.getloadavg()[0],
    }


def summary(rounds: list[dict[str, Any]]) -> dict[str, float]:
    """The medians of a tree's rounds."""
    return {
        key: round(statistics.median(r[key] for r in rounds), 3)
        for key in FIGURES
        if key in rounds[0]
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the other code tree")
    parser.add_argument("--rounds", type=int, default=4, help="rounds per tree")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--processes", type=int, default=1, help="server processes")
    parser.add_argument("--workloads", default="start,registry")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    trees = {"baseline": args.baseline.resolve(), "this": HERE}
    report: dict[str, Any] = {
        "command": "python benchmarks/commands_bench.py " + " ".join(sys.argv[1:]),
        "trees": {label: str(path) for label, path in trees.items()},
        "commits": {label: _commit(path) for label, path in trees.items()},
        "server_processes": args.processes,
        "synchronous": "FULL",
        "load_average_start": os.getloadavg(),
        "workloads": {},
    }
    for workload in args.workloads.split(","):
        found: dict[str, list[dict[str, Any]]] = {label: [] for label in trees}
        for round_ in range(args.rounds):
            order = ["baseline", "this"] if round_ % 2 == 0 else ["this", "baseline"]
            for label in order:
                result = one_round(
                    trees[label], workload, args.clients, args.seconds, args.processes
                )
                found[label].append(result)
                print(f"{workload} {label}: " + json.dumps(result), flush=True)
        medians = {label: summary(rounds) for label, rounds in found.items()}
        this, base = medians["this"], medians["baseline"]
        report["workloads"][workload] = {
            "rounds": found,
            "medians": medians,
            "this_over_baseline": {key: round(this[key] / base[key], 3) for key in this},
        }
        print(f"{workload}: " + json.dumps(report["workloads"][workload]["medians"]))
    report["load_average_end"] = os.getloadavg()
    args.output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"written to {args.output}")
    return 0


def _commit(tree: Path) -> str:
    """The tree's commit ("(modified)" when its tracked files differ), or what its
    ``COMMIT`` file says (an exported tree)."""
    if not (tree / ".git").exists() and (tree / "COMMIT").exists():
        return (tree / "COMMIT").read_text(encoding="utf-8").strip() + " (exported)"
    found = subprocess.run(
        ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    dirty = subprocess.run(
        ["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
        check=False,
    )
    return found.stdout.strip() + (" (modified)" if dirty.stdout.strip() else "")


if __name__ == "__main__":
    sys.exit(main())
