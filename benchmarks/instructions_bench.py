"""Instructions per StartRun, registry cycle or chain, this tree against another, by callgrind.

CPU time per call swings by a third on these shared machines with the load of the other
benchmarks; the number of instructions a call executes does not. Each tree's code runs
``servicer_path.py`` (its workload through the servicers in one process, no gRPC) under
``valgrind --tool=callgrind`` twice, with a short and a long count; the difference of the
two totals over the difference of the counts is the instructions per step, all threads
(the writer's included) and sqlite3 included, the kernel not. The workload script is
this tree's for both trees; each tree's own packages come first on its ``PYTHONPATH``
(``tests.support.server_process.tree_path``). About a minute and a half per run.
Results go to stdout and ``benchmarks/results/instructions.json``.

    .venv/bin/python benchmarks/instructions_bench.py --baseline /path/to/main/checkout
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.commands_bench import HERE, _commit
from tests.support.server_process import tree_path

RESULTS = Path(__file__).parent / "results" / "instructions.json"
SCRIPT = Path(__file__).with_name("servicer_path.py")
COUNTS = {"start": (100, 400), "registry": (25, 100), "chain": (25, 100)}
"""The short and the long count of each workload (StartRun calls; registry cycles of 3
durable commands and a Review)."""
STEPS = {
    "start": "StartRun call",
    "registry": "registry cycle (3 durable commands, a Review)",
    "chain": "3-node chain: StartRun, then 3 claims and 3 completions (7 durable commands)",
}


def instructions(tree: Path, workload: str, count: int) -> int:
    """The instructions callgrind collected running ``count`` steps with ``tree``'s code."""
    found = subprocess.run(
        [
            *("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"),
            *(str(tree / ".venv" / "bin" / "python"), str(SCRIPT), workload, str(count)),
        ],
        cwd=tree,
        env={**os.environ, **tree_path(tree)},
        capture_output=True,
        text=True,
        check=True,
    )
    match = re.search(r"Collected : (\d+)", found.stderr)
    assert match, found.stderr[-2000:]
    return int(match.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the other code tree")
    parser.add_argument("--workloads", default="start,registry")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    trees = {"baseline": args.baseline.resolve(), "this": HERE}
    report: dict[str, Any] = {
        "command": "python benchmarks/instructions_bench.py " + " ".join(sys.argv[1:]),
        "commits": {label: _commit(path) for label, path in trees.items()},
        "workloads": {},
    }
    for workload in args.workloads.split(","):
        short, long = COUNTS[workload]
        per: dict[str, float] = {}
        for label, tree in trees.items():
            low = instructions(tree, workload, short)
            high = instructions(tree, workload, long)
            per[label] = (high - low) / (long - short)
            print(f"{workload} {label}: {per[label] / 1e6:.4f} M instructions per step")
        report["workloads"][workload] = {
            "step": STEPS[workload],
            "instructions_per_step": {label: round(value) for label, value in per.items()},
            "this_over_baseline": round(per["this"] / per["baseline"], 4),
        }
    args.output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
