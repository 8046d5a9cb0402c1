"""Issue 40's engine table, every row from one run, each a ratio of the same run.

The phases and their workloads are ``write_path_bench``'s (read its docstring: which
servers, which workers, which alternation); this table reads them against issue 40's
targets, and differs in two rows:

2. Praxis **server** CPU per completion on PostgreSQL over on SQLite (one replica each,
   alternating rounds): the server process's CPU from /proc per completion, not the
   machine's. The cluster's own CPU per completion is reported beside it.
1. ``--processes 2`` / ``--processes 1`` is reported with the writers' turn held per
   completion (ms): one more round of the workload on a 2-process server that serves
   its metrics (``praxis_db_writer_turn_held_seconds``, summed over the processes, read
   before and after). That server is apart from row 1's, so the metrics' own cost
   (the processes' shared files) does not touch the ratio.

    .venv/bin/python benchmarks/engine_bench.py [--quick] [--rows 1,4]

Results go to stdout and ``benchmarks/results/engine.json``.
"""

from __future__ import annotations

import re
import statistics
import sys
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.runtime_bench import praxis_throughput, served
from benchmarks.write_path_bench import Found, Sizes, Table, Target, main
from tests.support.server_process import free_port

RESULTS = Path(__file__).parent / "results" / "engine.json"
HELD = "praxis_db_writer_turn_held_seconds_total"
WAITED = "praxis_db_writer_turn_wait_seconds_total"

TARGETS = {
    1: Target("node completions/s, --processes 2 / 1 (2 cores)", "0.92-1.2x", ">= 1.3x"),
    2: Target("Praxis server CPU per completion, PostgreSQL / SQLite", "(machine 1.55-2.0x)",
              "<= 1.3x"),
    3: Target("3-node chain p50 with {workers} idle workers, in no-op round trips", "29-33",
              "<= 20", digits=1),
    4: Target("node completions/s / no-op calls/s (8 threads)", "0.10-0.17", ">= 0.25", 3),
    5: Target("server CPU per completion / per no-op", "6.4-8.7x", "<= 5x"),
    6: Target("StartRun/s / no-op (8 clients)", "0.15-0.19", ">= 0.25", 3),
    7: Target("registry command/s / no-op (8 clients)", "0.15-0.19", ">= 0.25", 3),
    8: Target("node completions/s vs DBOS", "2.0-2.6x", ">= 4x"),
}  # fmt: skip


def scraped(address: str) -> dict[str, float]:
    """The writers' turn counters of a server's metrics endpoint."""
    with urllib.request.urlopen(f"http://{address}/metrics", timeout=10) as response:
        text = response.read().decode()
    found = {}
    for name in (HELD, WAITED):
        match = re.search(rf"^{name}(?:{{[^}}]*}})? ([0-9.e+-]+)$", text, re.MULTILINE)
        found[name] = float(match.group(1)) if match else 0.0
    return found


def writer_turn(sizes: Sizes, directory: Path, rows: frozenset[int]) -> Found:
    """One round of the workload on a 2-process server serving its metrics: the writers'
    turn held (and waited for) per completion."""
    metrics = f"127.0.0.1:{free_port()}"
    with served(directory / "writer", 2, metrics_listen=metrics) as (_, client, _pids):
        praxis_throughput(client, 0, max(20, sizes.runs // 4))  # warm
        before = scraped(metrics)
        found = praxis_throughput(client, 1, sizes.runs)
        after = scraped(metrics)
    completions = found["node_completions"]
    per = {name: (after[name] - before[name]) * 1000 / completions for name in after}
    return {
        1: {
            "writer_turn_held_ms_per_completion": round(per[HELD], 3),
            "writer_turn_held_max_ms": 1.0,
            "writer_turn_waited_ms_per_completion": round(per[WAITED], 3),
            "detail": f"writers' turn held {per[HELD]:.3f} ms per completion (<= 1.0 asked), "
            f"waited for {per[WAITED]:.3f} ms, on a 2-process server",
            "writer_round": {k: v for k, v in found.items() if k != "cursor"},
        }
    }, None


def server_cpu(rows: dict[str, dict[str, Any]], phases: dict[str, Any]) -> None:
    """Row 2 read as the server's CPU (and the cluster's beside it), not the machine's."""
    rounds = phases.get("postgres", {}).get("rounds")
    if "2" not in rows or not rounds:
        return
    per: dict[str, dict[str, float]] = {}
    for label, found in rounds.items():
        per[label] = {
            "server_cpu_ms_per_completion": statistics.median(
                sum(r["cpu_s"]["replicas"]) * 1000 / r["node_completions"] for r in found
            ),
            "database_cpu_ms_per_completion": statistics.median(
                (r["cpu_s"]["postgres"] or 0.0) * 1000 / r["node_completions"] for r in found
            ),
        }
    sqlite, postgres = per["sqlite-1"], per["postgres-1"]
    rows["2"] = {
        **rows["2"],
        "value": postgres["server_cpu_ms_per_completion"] / sqlite["server_cpu_ms_per_completion"],
        "machine_ratio": rows["2"]["value"],
        "detail": "server CPU ms per completion: SQLite {:.3f}, PostgreSQL {:.3f}; the "
        "cluster's own: {:.3f}".format(
            sqlite["server_cpu_ms_per_completion"],
            postgres["server_cpu_ms_per_completion"],
            postgres["database_cpu_ms_per_completion"],
        ),
        "cpu_ms_per_completion": {
            label: {k: round(v, 3) for k, v in p.items()} for label, p in per.items()
        },
    }


ISSUE_40 = Table(
    "benchmarks/engine_bench.py",
    (__doc__ or "").splitlines()[0],
    TARGETS,
    RESULTS,
    extra_phases=(("writer", frozenset({1}), writer_turn),),
    derive=server_cpu,
)

if __name__ == "__main__":
    sys.exit(main(ISSUE_40))
