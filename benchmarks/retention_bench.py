"""Database size under a steady load, with and without a retention policy (issue 27).

A server on a SQLite file and a test clock is driven through its gRPC API at a fixed
rate: every simulated day, ``--runs-per-day`` one-node runs are started, claimed and
completed, spread over the day; at the end of each day the archiver runs as the sweeper
would (``ArchiveStore.archive_due``). The same load runs three times: with no policy (every run
kept for ever), with ``keep_finished_ms`` = 7 days (tombstones kept the default 400
days), and with 7 days and tombstones kept 14 days. After each day the database is
checkpointed and measured: the file's size and the bytes of its pages in use (``page_count
- freelist_count``). With the policy the runs' rows stop growing once day 7's runs start
to be archived (SQLite reuses the freed pages): what still grows is one tombstone per
archived run, until ``keep_archived_ms`` deletes them; with 14 days the size is flat
from day 22. Every archived run verifies against its digest and tombstone. Results go to
stdout and ``benchmarks/results/retention.json``.

    .venv/bin/python benchmarks/retention_bench.py [--days 28] [--runs-per-day 100]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiws.engine.v1 import common_pb2, run_pb2, task_pb2
from praxis.core.retention import DAY_MS, RetentionPolicy
from praxis.store.retention import archive
from tests.support.harness import Harness, start_server
from tests.support.runtime import definition, json_out, node

RESULTS = Path(__file__).parent / "results" / "retention.json"
SINGLE = json.dumps(definition("a", a=node(output=json_out())))
RESULT = json.dumps({"answer": "x" * 200})  # a small result, as a model's would be


def measure(database: Path) -> dict[str, int]:
    with sqlite3.connect(database) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages, free, size = (
            connection.execute(f"PRAGMA {name}").fetchone()[0]
            for name in ("page_count", "freelist_count", "page_size")
        )
    return {"file_bytes": database.stat().st_size, "used_bytes": (pages - free) * size}


def one_day(h: Harness, day: int, runs: int) -> None:
    agent = h.client("agent")
    step = DAY_MS // runs
    for index in range(runs):
        agent.runs.StartRun(
            run_pb2.StartRunRequest(request_id=f"d{day}-{index}", definition_json=SINGLE)
        )
        for task in agent.tasks.ClaimTasks(
            task_pb2.ClaimTasksRequest(
                worker_id="w", models=["echo"], max_tasks=10, lease_ms=60_000
            )
        ).tasks:
            agent.tasks.CompleteTask(
                task_pb2.CompleteTaskRequest(
                    attempt_id=task.attempt_id,
                    worker_id="w",
                    result_json=RESULT,
                    effect=common_pb2.EFFECT_OUTCOME_APPLIED,
                )
            )
        h.clock.advance(step)


def scenario(directory: Path, policy: RetentionPolicy, days: int, runs: int) -> dict[str, Any]:
    database = directory / "praxis.db"
    h = start_server(
        database,
        sweeper=False,  # archived at the end of each day, as the sweeper would
        retention=policy,
        archive_dir=directory / "archive",
    )
    sizes: list[dict[str, int]] = []
    archived = 0
    started = time.perf_counter()
    try:
        for day in range(1, days + 1):
            one_day(h, day, runs)
            archived += h.server.engine.archive.archive_due()
            sizes.append({"day": day, "archived_total": archived, **measure(database)})
            print(json.dumps({"policy": repr(policy.keep_finished_ms), **sizes[-1]}), flush=True)
        checked = [
            archive.verify(path, h.server.engine.archive.tombstone)
            for path in archive.files(directory / "archive")
        ]
    finally:
        h.close()
    return {
        "keep_finished_days": policy.keep_finished_ms // DAY_MS,
        "days": sizes,
        "archived_runs": archived,
        "verified_runs": sum(result.verified for result in checked),
        "verification_problems": sum(len(result.problems) for result in checked),
        "archive_files": len(checked),
        "archive_bytes": sum(p.stat().st_size for p in archive.files(directory / "archive")),
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=28)
    parser.add_argument("--runs-per-day", type=int, default=100)
    args = parser.parse_args()
    results: dict[str, Any] = {"days": args.days, "runs_per_day": args.runs_per_day}
    for label, policy in (
        ("without_policy", RetentionPolicy()),
        ("keep_7_days", RetentionPolicy(keep_finished_ms=7 * DAY_MS, batch_runs=50)),
        (
            "keep_7_days_tombstones_14_days",
            RetentionPolicy(
                keep_finished_ms=7 * DAY_MS, batch_runs=50, keep_archived_ms=14 * DAY_MS
            ),
        ),
    ):
        with tempfile.TemporaryDirectory(prefix="praxis-retention-") as tmp:
            results[label] = scenario(Path(tmp), policy, args.days, args.runs_per_day)
    for label in ("without_policy", "keep_7_days", "keep_7_days_tombstones_14_days"):
        days = results[label]["days"]
        for since in (8, 22):  # growth from that day to the last day
            if since <= len(days):
                results[f"{label}_growth_after_day_{since}_bytes"] = (
                    days[-1]["used_bytes"] - days[since - 1]["used_bytes"]
                )
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in results.items() if not isinstance(v, dict)}, indent=2))


if __name__ == "__main__":
    main()
