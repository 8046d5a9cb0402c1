"""CPU per durable call through the servicers, this tree against another, alternating.

``servicer_path.py`` (StartRun calls or registry cycles through the servicers of a real
engine in one process, no gRPC) runs with each tree's own interpreter and packages
(``tests.support.server_process.tree_path``), in alternating rounds (A B B A ...), and
prints the process's CPU per durable call; the medians and their ratio are reported with
the load average at the start and the end. A quicker check than ``instructions_bench.py``
(seconds, not minutes) and one that sees what depends on the wall clock (the clock's
high-water mark advances in steps of time, which callgrind's slowdown hides), but CPU time
moves with the machine's load: read it over several rounds. Results go to stdout and
``benchmarks/results/servicer_cpu.json`` (or ``--output``).

    .venv/bin/python benchmarks/servicer_cpu_bench.py --baseline /path/to/other/checkout \
        [--workloads start,registry] [--count 300] [--rounds 6]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.commands_bench import HERE, _commit
from tests.support.server_process import tree_path

RESULTS = Path(__file__).parent / "results" / "servicer_cpu.json"
SCRIPT = Path(__file__).with_name("servicer_path.py")


def cpu_per_call(tree: Path, workload: str, count: int) -> float:
    """Milliseconds of the process's CPU per durable call, ``tree``'s code."""
    found = subprocess.run(
        [str(tree / ".venv" / "bin" / "python"), str(SCRIPT), workload, str(count)],
        cwd=tree,
        env={**os.environ, **tree_path(tree)},
        capture_output=True,
        text=True,
        check=True,
    )
    match = re.search(r"([\d.]+) ms CPU per durable call", found.stdout)
    assert match, found.stdout[-2000:] + found.stderr[-2000:]
    return float(match.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the other code tree")
    parser.add_argument("--workloads", default="start,registry")
    parser.add_argument("--count", type=int, default=300, help="steps per run")
    parser.add_argument("--rounds", type=int, default=6, help="runs per tree")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    trees = {"baseline": args.baseline.resolve(), "this": HERE}
    report: dict[str, Any] = {
        "command": "python benchmarks/servicer_cpu_bench.py " + " ".join(sys.argv[1:]),
        "commits": {label: _commit(path) for label, path in trees.items()},
        "load_average_start": os.getloadavg(),
        "workloads": {},
    }
    for workload in args.workloads.split(","):
        found: dict[str, list[float]] = {label: [] for label in trees}
        for round_ in range(args.rounds):
            order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
            for label in order:
                found[label].append(cpu_per_call(trees[label], workload, args.count))
            print(f"{workload} round {round_}: " + json.dumps({k: v[-1] for k, v in found.items()}))
        medians = {label: statistics.median(values) for label, values in found.items()}
        report["workloads"][workload] = {
            "ms_cpu_per_durable_call": found,
            "medians": medians,
            "this_over_baseline": round(medians["this"] / medians["baseline"], 4),
        }
        print(f"{workload}: {json.dumps(report['workloads'][workload]['medians'])}")
    report["load_average_end"] = os.getloadavg()
    args.output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
