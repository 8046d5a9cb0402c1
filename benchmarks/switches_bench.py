"""Server CPU and context switches per node completion, checkouts side by side (perf stat).

Each round serves ``runtime_bench``'s workload (100 runs to warm, then 200 measured) from
one checkout's ``praxis serve`` (its own ``.venv``), with ``perf stat`` counting the
server processes' task-clock and context switches over the measured window. Checkouts
alternate round by round (A B C, C B A, ...) for each ``--processes`` value; the load
average is printed at the start and the end. Results go to ``--output`` as JSON.

    .venv/bin/python benchmarks/switches_bench.py CHECKOUT[,CHECKOUT...] \\
        [--processes 1,2] [--rounds 2] [--output switches.json]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.runtime_bench import praxis_throughput, served

EVENTS = "context-switches,task-clock"


def measure(tree: Path, processes: int) -> dict[str, Any]:
    """One round on a fresh server of checkout ``tree``: per node completion figures."""
    with tempfile.TemporaryDirectory() as name, served(Path(name) / "s", processes, tree) as setup:
        server, client, _workers = setup
        praxis_throughput(client, 0, 100)  # warms the server: imports, caches
        parent = str(server.process.pid)
        children = subprocess.run(["pgrep", "-P", parent], capture_output=True, text=True)
        pids = ",".join([parent, *children.stdout.split()])
        stat = subprocess.Popen(
            ["perf", "stat", "-x,", "-e", EVENTS, "-p", pids], stderr=subprocess.PIPE, text=True
        )
        time.sleep(0.2)
        found = praxis_throughput(client, 1, 200)
        stat.send_signal(signal.SIGINT)
        counted = {}
        for line in stat.communicate()[1].splitlines():
            fields = line.split(",")
            if len(fields) > 3 and fields[0].replace(".", "").isdigit():
                counted[fields[2]] = float(fields[0])
    completions = found["node_completions"]
    return {
        "completions_per_s": found["completions_per_s"],
        "context_switches": round(counted.get("context-switches", 0) / completions, 1),
        "cpu_ms": round(counted.get("task-clock", 0) / completions, 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", help="comma-separated checkouts, each with its .venv")
    parser.add_argument("--processes", default="1,2")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--output", type=Path, default=Path("switches.json"))
    args = parser.parse_args()
    checkouts = [Path(c).resolve() for c in args.checkouts.split(",")]
    report: dict[str, Any] = {"load_average_start": os.getloadavg(), "rounds": {}}
    for processes in (int(p) for p in args.processes.split(",")):
        for index in range(args.rounds):
            for checkout in checkouts if index % 2 == 0 else checkouts[::-1]:
                found = measure(checkout, processes)
                report["rounds"].setdefault(f"{checkout} processes={processes}", []).append(found)
                print(processes, checkout.name, found, flush=True)
    report["load_average_end"] = os.getloadavg()
    args.output.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
