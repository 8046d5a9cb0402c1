"""Server CPU per completion on PostgreSQL, this checkout against another, and over SQLite.

Issue 40's row 2 (Praxis server CPU per completion on PostgreSQL over on SQLite), with
this checkout's PostgreSQL server beside another checkout's (``--baseline``, a ``git
worktree`` with its own ``.venv``), all in one run: each round measures, in an order that
alternates round by round, ``pg_replicas_bench.measure`` (its workload: ``--runs`` runs,
chains and fan-outs of 10 nodes, one server process, 4 worker processes settling and
claiming with ``SettleTasks``) on

- ``pg``: this checkout's server on a fresh database of a throwaway PostgreSQL cluster;
- ``pg-baseline``: the other checkout's server, the same way;
- ``sqlite``: this checkout's server on a fresh SQLite file.

Per setup: the server process's CPU per completion (from /proc), the cluster's CPU per
completion (its backends), and the rate; the medians over the rounds; and the ratios
``pg / sqlite`` (the row) and ``pg / pg-baseline``. The load average is recorded at the
start and end (other work on the machine weighs on every setup alike, being alternated).

    .venv/bin/python benchmarks/pg_versus_bench.py --baseline /work/wt/base-0ddf \\
        [--rounds 3] [--runs 100] [--output benchmarks/results/pg_versus.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import pg_replicas_bench
from benchmarks.versus_bench import commit_of
from tests.support.postgres import Cluster, binaries

HERE = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).parent / "results" / "pg_versus.json"


def commit(tree: Path) -> str:
    """The checkout's commit (``+``: with changes), or why there is none."""
    try:
        return commit_of(tree)
    except subprocess.CalledProcessError:
        return "not a git checkout"


def per_completion(found: dict[str, Any]) -> dict[str, float]:
    """Server and cluster CPU (ms) per completion, and the rate, of one measurement."""
    completions = found["node_completions"]
    cpu = found["cpu_s"]
    return {
        "server_cpu_ms": round(sum(cpu["replicas"]) * 1000 / completions, 3),
        "postgres_cpu_ms": round((cpu["postgres"] or 0.0) * 1000 / completions, 3),
        "completions_per_s": found["completions_per_s"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    bin_dir = binaries()
    if bin_dir is None:
        print("PostgreSQL is not installed (scripts/install_postgres.sh)", file=sys.stderr)
        return 1
    trees: dict[str, Path | None] = {"pg": None, "pg-baseline": args.baseline, "sqlite": None}
    rounds: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
    commits = {"this": commit(HERE), "baseline": commit(args.baseline)}
    load_start = [round(load, 2) for load in os.getloadavg()]
    began = time.monotonic()
    cluster = Cluster(bin_dir)
    try:
        with tempfile.TemporaryDirectory(prefix="praxis-pg-versus-") as scratch:
            for round_ in range(args.rounds):
                order = list(trees) if round_ % 2 == 0 else list(trees)[::-1]
                for label in order:
                    where = Path(scratch) / f"round-{round_}"
                    postgres = label.startswith("pg")
                    url = cluster.create_database() if postgres else f"sqlite:///{where / 'db'}"
                    found = pg_replicas_bench.measure(
                        label, url, 1, args.runs, where, cluster if postgres else None,
                        tree=trees[label],
                    )  # fmt: skip
                    rounds[label].append(per_completion(found))
    finally:
        cluster.stop()
    medians = {
        label: {key: statistics.median(r[key] for r in found) for key in found[0]}
        for label, found in rounds.items()
    }
    report: dict[str, Any] = {
        "command": " ".join(["benchmarks/pg_versus_bench.py", *sys.argv[1:]]),
        "commit": commits["this"],
        "baseline": {"tree": str(args.baseline), "commit": commits["baseline"]},
        "load_average": {
            "start": load_start,
            "end": [round(load, 2) for load in os.getloadavg()],
        },
        "seconds": round(time.monotonic() - began, 1),
        "medians": medians,
        "server_cpu_pg_over_sqlite": round(
            medians["pg"]["server_cpu_ms"] / medians["sqlite"]["server_cpu_ms"], 3
        ),
        "server_cpu_pg_over_pg_baseline": round(
            medians["pg"]["server_cpu_ms"] / medians["pg-baseline"]["server_cpu_ms"], 3
        ),
        "baseline_server_cpu_pg_over_sqlite": round(
            medians["pg-baseline"]["server_cpu_ms"] / medians["sqlite"]["server_cpu_ms"], 3
        ),
        # The same ratios round by round (both sides measured back to back), and their
        # medians: steadier than a ratio of medians when the machine's load drifts.
        "round_ratios": {
            "pg_over_sqlite": [
                round(a["server_cpu_ms"] / b["server_cpu_ms"], 3)
                for a, b in zip(rounds["pg"], rounds["sqlite"], strict=True)
            ],
            "pg_over_pg_baseline": [
                round(a["server_cpu_ms"] / b["server_cpu_ms"], 3)
                for a, b in zip(rounds["pg"], rounds["pg-baseline"], strict=True)
            ],
        },
        "rounds": rounds,
    }
    report["round_ratio_medians"] = {
        name: statistics.median(found) for name, found in report["round_ratios"].items()
    }
    args.output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in report.items() if k != "rounds"}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
