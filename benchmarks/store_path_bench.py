"""The store path of a node completion alone: runtime_bench's workload without gRPC.

One process drives the stores directly, on a SQLite file with ``synchronous=FULL``: each
round starts ``--runs`` runs (half 10-node chains, half fan-outs split -> 8 items ->
join, ``runtime_bench``'s definitions) with ``RunStore.start``, then one worker loop
settles what it claimed and claims up to 16 more in one ``TaskStore.settle_many`` group
commit, as a worker's ``SettleTasks`` does, until every run has ended. The figure is the
process's CPU per node completion (``time.process_time``), StartRun included: what a
completion costs the server beyond serving (gRPC, protobuf, wake-ups, executor threads).
Compare it with the server CPU per completion of ``write_path_bench.py`` (row 5) measured
on the same machine. Results go to stdout and ``benchmarks/results/store_path.json``.

    .venv/bin/python benchmarks/store_path_bench.py [--runs 100] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.runtime_bench import CHAIN10, FANOUT10, result_of
from praxis.app import Engine, Settings
from praxis.clock import SystemClock
from praxis.core import run as core
from praxis.core.records import Principal, PrincipalKind
from praxis.core.rejection import Rejection
from praxis.store.runtime.runs import StartRequest
from praxis.store.runtime.tasks import Claim, Settlement
from tests.support.harness import authority

RESULTS = Path(__file__).parent / "results" / "store_path.json"
AGENT = Principal("agent", PrincipalKind.AGENT)


def one_round(engine: Engine, round_: int, runs: int) -> dict[str, Any]:
    cpu, wall = time.process_time(), time.perf_counter()
    for index in range(runs):
        document = CHAIN10 if index % 2 == 0 else FANOUT10
        started = engine.runs.start(AGENT, StartRequest(f"r{round_}-{index}", json.dumps(document)))
        assert not isinstance(started, Rejection), started
    completions, pending = 0, []
    claim = Claim("w", ["echo"], 16, 30_000)
    while True:
        settled = engine.tasks.settle_many(AGENT, pending, claim)
        assert not isinstance(settled, Rejection), settled
        replies, tasks = settled
        assert not any(isinstance(reply, Rejection) for reply in replies), replies
        completions += len(pending)
        if not tasks and not pending:
            break
        pending = [
            Settlement(
                task.attempt_id, "w", core.Effect.APPLIED, "0", json.dumps(result_of(task.node_id))
            )
            for task in tasks
        ]
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    assert completions == runs * 10, completions
    return {
        "completions": completions,
        "cpu_ms_per_completion": round(cpu * 1000 / completions, 3),
        "wall_ms_per_completion": round(wall * 1000 / completions, 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as raw:
        engine = Engine(
            Settings(
                database_url=f"sqlite:///{raw}/store.db",
                authority=authority(),
                clock=SystemClock(),
                sweeper=False,
            )
        )
        try:
            rounds = [one_round(engine, round_, args.runs) for round_ in range(args.rounds)]
        finally:
            engine.close()
    report = {
        "command": "python benchmarks/store_path_bench.py",
        "runs_per_round": args.runs,
        "load_average": os.getloadavg(),
        "rounds": rounds,
        "cpu_ms_per_completion_median": statistics.median(
            r["cpu_ms_per_completion"] for r in rounds
        ),
    }
    for index, found in enumerate(rounds):
        print(
            f"round {index}: {found['completions']} completions, "
            f"{found['cpu_ms_per_completion']} ms CPU / {found['wall_ms_per_completion']} ms "
            "wall per completion"
        )
    print(f"median CPU per completion: {report['cpu_ms_per_completion_median']} ms")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"written to {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
