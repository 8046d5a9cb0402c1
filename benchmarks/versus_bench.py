"""This checkout's server against another checkout's, in the same run, alternating rounds.

Each round runs ``runtime_bench``'s workload (200 runs of 10 nodes, 4 worker processes
settling and claiming with ``SettleTasks``) on a fresh ``praxis serve`` of one checkout,
after a no-op window (health checks from 8 threads) on the same server, and records the
server's CPU per node completion and per no-op call (``registry_bench.CpuMeter``: the
server processes' CPU from /proc), the completions per second and the run latency. The
two checkouts alternate (A B, B A, ...) for each ``--processes`` value, so the machine's
load weighs on both; the load average is recorded at the start and the end.

Each checkout's server runs its own code with its own virtualenv's interpreter
(``tree`` of ``tests.support.server_process.ServerProcess``): a ``git worktree`` of the
commit to compare against, with ``make setup`` run in it (or a ``.venv`` linked in).

    .venv/bin/python benchmarks/versus_bench.py --baseline /path/to/other/checkout \\
        [--processes 1,2] [--rounds 3] [--output benchmarks/results/versus.json]
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

from benchmarks.runtime_bench import served
from benchmarks.write_path_bench import Sizes, runtime_round

HERE = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).parent / "results" / "versus.json"


def commit_of(checkout: Path) -> str:
    """The checkout's commit, with ``+`` when it has uncommitted changes."""
    head = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    dirty = subprocess.run(
        ["git", "-C", str(checkout), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    return head + ("+" if dirty else "")


def one_round(tree: Path, processes: int, sizes: Sizes) -> dict[str, Any]:
    """A no-op window and two workload rounds on a fresh server of checkout ``tree``; the
    figures are the second round's (the first warms the server: imports, caches)."""
    with (
        tempfile.TemporaryDirectory() as name,
        served(Path(name) / "server", processes, tree) as setup,
    ):
        first = runtime_round(setup, 0, sizes, Path(name), True, False)
        second = runtime_round(setup, 1, sizes, Path(name), False, False, first["cursor"])
    noop, praxis = first["noop"], second["praxis"]
    return {
        "noop_calls_per_s": round(noop["calls_per_s"], 1),
        "noop_server_cpu_ms": noop["server_cpu_ms_per_call"],
        "completions_per_s": praxis["completions_per_s"],
        "server_cpu_ms_per_completion": praxis["server_cpu_ms_per_call"],
        "run_latency_ms_p50": praxis["run_latency_ms_p50"],
        "completions_per_noop": round(praxis["completions_per_s"] / noop["calls_per_s"], 4),
        "cpu_per_noop_cpu": round(
            praxis["server_cpu_ms_per_call"] / max(noop["server_cpu_ms_per_call"], 1e-9), 2
        ),
    }


def summary(rounds: list[dict[str, Any]]) -> dict[str, float]:
    """The median of each figure over the rounds."""
    return {key: round(statistics.median(r[key] for r in rounds), 4) for key in rounds[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the other checkout")
    parser.add_argument("--processes", default="1,2", help="server processes, comma-separated")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    baseline = args.baseline.resolve()
    trees = {"this": HERE, "baseline": baseline}
    for name, tree in trees.items():
        if not (tree / ".venv" / "bin" / "python").exists():
            parser.error(f"{name}: no virtualenv in {tree}")
    sizes = Sizes(args.runs, args.rounds, 3.0, 0, 0, 0, 0, 0.0)
    report: dict[str, Any] = {
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        "this": commit_of(HERE),
        "baseline": commit_of(baseline),
        "cores": os.cpu_count(),
        "load_average_start": [round(x, 2) for x in os.getloadavg()],
        "by_processes": {},
    }
    for processes in (int(p) for p in args.processes.split(",")):
        rounds: dict[str, list[dict[str, Any]]] = {"this": [], "baseline": []}
        for index in range(args.rounds):
            order = ("baseline", "this") if index % 2 == 0 else ("this", "baseline")
            for name in order:
                found = one_round(trees[name], processes, sizes)
                rounds[name].append(found)
                print(f"processes={processes} round {index} {name:8} {found}", flush=True)
        medians = {name: summary(found) for name, found in rounds.items()}
        report["by_processes"][str(processes)] = {
            "rounds": rounds,
            "medians": medians,
            "this_over_baseline": {
                key: round(medians["this"][key] / medians["baseline"][key], 3)
                for key in ("completions_per_s", "server_cpu_ms_per_completion")
            },
        }
    report["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    args.output.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    for processes, found in report["by_processes"].items():
        print(f"processes={processes}: this/baseline {found['this_over_baseline']}")
        for name, medians in found["medians"].items():
            print(f"  {name:8} {medians}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
