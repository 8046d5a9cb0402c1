"""Issue 40's chain row, A/B: this tree's server against a baseline tree's, alternating.

Each round is ``serving_bench.idle_workers`` (the row's workload, unchanged: ``praxis
serve`` with its default processes, 50 worker threads long-polling with SettleTasks,
3-node chains started one after another, chain p50 over health ``Check`` p50) on a fresh
server started from one of two code trees: the baseline's (``--baseline``, a checkout
with its own ``.venv``, e.g. a worktree of main) and this one's. Rounds alternate A B B A
..., so that a change of the machine's load weighs on both alike. Each round also
records, from /proc, the server processes' CPU and context switches per chain (what
the load average does not move much), and, just before it, the p50 of 200 durable
SQLite commits (WAL, ``synchronous=FULL``) in the same temporary directory: four commits
lie on a chain's path one after another, so the disk's share of the chain is visible
beside it. The load average is recorded at the start and the end of each round.

Results go to stdout and ``benchmarks/results/chain.json``.

    .venv/bin/python benchmarks/chain_bench.py --baseline /work/wt/base-40b [--rounds 6]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.registry_bench import server_cpu_s
from benchmarks.serving_bench import idle_workers
from praxis.serve.processes import default_processes
from tests.support.server_process import ServerProcess, free_port, write_config

RESULTS = Path(__file__).parent / "results" / "chain.json"
HERE = Path(__file__).resolve().parents[1]
WARM_CHAINS = 5  # idle_workers' warm-up chains, counted in the per-chain CPU


def server_pids(pid: int) -> list[int]:
    """A process and its descendants."""
    found = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    for child in children.read_text().split() if children.exists() else []:
        found += server_pids(int(child))
    return found


def context_switches(pid: int) -> int:
    """Voluntary and involuntary context switches of every thread of ``pid``'s tree."""
    total = 0
    for process in server_pids(pid):
        for thread in Path(f"/proc/{process}/task").glob("*"):
            try:
                lines = (thread / "status").read_text().splitlines()
            except FileNotFoundError:  # ended meanwhile
                continue
            total += sum(int(line.split()[1]) for line in lines if "ctxt_switches" in line)
    return total


def commit_p50_ms(directory: Path, count: int = 200) -> float:
    """The p50 of ``count`` durable SQLite commits (WAL, synchronous=FULL) of a few rows,
    about what one chain step writes."""
    path = directory / "probe.db"
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v BLOB)")
        samples = []
        for _ in range(count):
            connection.execute("BEGIN IMMEDIATE")
            connection.executemany("INSERT INTO t (v) VALUES (?)", [(os.urandom(300),)] * 8)
            began = time.perf_counter()
            connection.execute("COMMIT")
            samples.append((time.perf_counter() - began) * 1000)
    finally:
        connection.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    return round(statistics.median(samples), 3)


def one_round(
    tree: Path, directory: Path, processes: int, workers: int, chains: int
) -> dict[str, Any]:
    """One server from ``tree``, its chain figures, CPU and context switches per chain."""
    load_start = os.getloadavg()
    directory.mkdir(parents=True)
    commit = commit_p50_ms(directory)
    config = write_config(directory, models=["echo", "idle"])
    server = ServerProcess(config, free_port(), "--processes", str(processes), tree=tree)
    server.start(timeout_s=90)
    try:
        pid = server.process.pid  # type: ignore[union-attr]
        cpu, switches = server_cpu_s(pid), context_switches(pid)
        found = idle_workers(server, workers, chains)
        cpu, switches = server_cpu_s(pid) - cpu, context_switches(pid) - switches
    finally:
        server.terminate()
    per = chains + WARM_CHAINS
    found.pop("target_met")
    return {
        **found,
        "sqlite_commit_p50_ms": commit,
        "server_cpu_ms_per_chain": round(cpu * 1000 / per, 2),
        "server_context_switches_per_chain": round(switches / per, 1),
        "load_average": [round(x, 2) for x in (*load_start, *os.getloadavg())],
    }


def summary(rounds: list[dict[str, Any]]) -> dict[str, float]:
    """The medians over a side's rounds."""
    keys = (
        "round_trips",
        "chain_p50_ms",
        "noop_p50_ms",
        "sqlite_commit_p50_ms",
        "server_cpu_ms_per_chain",
        "server_context_switches_per_chain",
    )
    return {key: round(statistics.median(r[key] for r in rounds), 3) for key in keys}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout with .venv")
    parser.add_argument("--rounds", type=int, default=6, help="rounds in all (A B B A ...)")
    parser.add_argument("--chains", type=int, default=40)
    parser.add_argument("--workers", type=int, default=50)
    parser.add_argument("--processes", type=int, default=default_processes())
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    trees = {"baseline": args.baseline.resolve(), "this": HERE}
    order = (["baseline", "this", "this", "baseline"] * args.rounds)[: args.rounds]
    report: dict[str, Any] = {
        "command": "python benchmarks/chain_bench.py " + " ".join(sys.argv[1:]),
        "trees": {label: str(tree) for label, tree in trees.items()},
        "commits": {
            label: subprocess.run(
                ["git", "-C", str(tree), "rev-parse", "HEAD"],
                capture_output=True,
                text=True,
                check=False,
            ).stdout.strip()
            for label, tree in trees.items()
        },
        "server_processes": args.processes,
        "load_average_start": os.getloadavg(),
        "rounds": [],
    }
    with tempfile.TemporaryDirectory() as directory:
        for index, label in enumerate(order):
            found = one_round(
                trees[label], Path(directory) / str(index), args.processes, args.workers,
                args.chains,
            )  # fmt: skip
            report["rounds"].append({"tree": label, **found})
            print(
                f"{label:9s} {found['round_trips']:5.1f} round trips, chain "
                f"{found['chain_p50_ms']:.2f} ms, no-op {found['noop_p50_ms']:.3f} ms, "
                f"commit {found['sqlite_commit_p50_ms']:.3f} ms, server CPU "
                f"{found['server_cpu_ms_per_chain']:.1f} ms/chain, "
                f"{found['server_context_switches_per_chain']:.0f} switches/chain, "
                f"load {found['load_average'][0]:.2f}",
                flush=True,
            )
    report["load_average_end"] = os.getloadavg()
    for label in trees:
        report[label] = summary([r for r in report["rounds"] if r["tree"] == label])
    base, this = report["baseline"], report["this"]
    report["ratio_this_over_baseline"] = {
        key: round(this[key] / base[key], 3) for key in base if base[key]
    }
    print(json.dumps({k: report[k] for k in ("baseline", "this", "ratio_this_over_baseline")}))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
