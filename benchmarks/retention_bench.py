"""Database size under a steady load, with and without a retention policy (issue 27).

A server on a SQLite file and a test clock is driven through its gRPC API at a fixed
rate: every simulated day, ``--runs-per-day`` one-node runs are started, claimed and
completed, spread over the day; at the end of each day the archiver runs as the sweeper
would (``ArchiveStore.archive_due``). The same load runs three times: with no policy (every run
kept for ever), with ``keep_finished_ms`` = 7 days (tombstones kept the default: as long
again, 7 days), and with 7 days and tombstones kept 400 days (the default before, for
comparison). After each day the database is checkpointed and measured: the file's size,
the bytes of its pages in use (``page_count - freelist_count``), and, with SQLite's
``dbstat`` table, the bytes of the pages of each group of tables with their indexes:
``runs`` (the tables archived with a run, ``rows.RUN_TABLES``, and the execution log),
``tombstones`` (``archived_runs``) and ``other`` (everything else). With the policy the
runs' rows stop growing once day 7's runs start to be archived (SQLite reuses the freed
pages): what still grows is one tombstone per archived run until ``keep_archived_ms``
deletes them, so with the default the size is flat from day 15. Every archived run
verifies against its digest and tombstone. Results go to stdout and
``benchmarks/results/retention.json``.

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
from praxis.store.execution.tables import model_events
from praxis.store.retention import archive
from praxis.store.retention.rows import RUN_TABLES
from praxis.store.retention.tables import archived_runs
from tests.support.harness import Harness, start_server
from tests.support.runtime import definition, json_out, node

RESULTS = Path(__file__).parent / "results" / "retention.json"
SINGLE = json.dumps(definition("a", a=node(output=json_out())))
RESULT = json.dumps({"answer": "x" * 200})  # a small result, as a model's would be
GROUPS = {t.name: "runs" for t in (*RUN_TABLES, model_events)} | {archived_runs.name: "tombstones"}
SCENARIOS = (
    ("without_policy", RetentionPolicy()),
    ("keep_7_days", RetentionPolicy(keep_finished_ms=7 * DAY_MS, batch_runs=50)),
    (
        "keep_7_days_tombstones_400_days",
        RetentionPolicy(keep_finished_ms=7 * DAY_MS, batch_runs=50, keep_archived_ms=400 * DAY_MS),
    ),
)


def measure(database: Path) -> dict[str, int]:
    """The file's size, the bytes of its pages in use, and those by group (``dbstat``)."""
    with sqlite3.connect(database) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages, free, size = (
            connection.execute(f"PRAGMA {name}").fetchone()[0]
            for name in ("page_count", "freelist_count", "page_size")
        )
        owners = dict(connection.execute("SELECT name, tbl_name FROM sqlite_master"))
        by_object = connection.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name")
        groups = dict.fromkeys(("runs", "tombstones", "other"), 0)
        for name, used in by_object:
            groups[GROUPS.get(owners.get(name, name), "other")] += int(used)
    return {
        "file_bytes": database.stat().st_size,
        "used_bytes": (pages - free) * size,
        **{f"{group}_bytes": used for group, used in groups.items()},
    }


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


def scenario(
    label: str, directory: Path, policy: RetentionPolicy, days: int, runs: int
) -> dict[str, Any]:
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
            print(json.dumps({"policy": label, **sizes[-1]}), flush=True)
        checked = [
            archive.verify(path, h.server.engine.archive.tombstone)
            for path in archive.files(directory / "archive")
        ]
        tombstones = h.server.engine.archive.count()
    finally:
        h.close()
    return {
        "keep_finished_days": policy.keep_finished_ms // DAY_MS,
        "keep_archived_days": policy.tombstone_keep_ms // DAY_MS,
        "tombstones_left": tombstones,
        "days": sizes,
        "archived_runs": archived,
        "verified_runs": sum(result.verified for result in checked),  # line and tombstone
        # lines whose digest matches their rows, their tombstone expired (keep_archived_ms)
        "verified_without_tombstone": sum(result.without_tombstone for result in checked),
        "every_archived_run_verifies": all(result.ok for result in checked)
        and sum(result.verified + result.without_tombstone for result in checked) == archived,
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
    for label, policy in SCENARIOS:
        with tempfile.TemporaryDirectory(prefix="praxis-retention-") as tmp:
            results[label] = scenario(label, Path(tmp), policy, args.days, args.runs_per_day)
    for label, _policy in SCENARIOS:
        days = results[label]["days"]
        for since in (8, 15):  # growth from that day to the last day
            if since <= len(days):
                for measure_ in ("used_bytes", "runs_bytes", "tombstones_bytes", "other_bytes"):
                    grown = days[-1][measure_] - days[since - 1][measure_]
                    results[f"{label}_growth_after_day_{since}_{measure_}"] = grown
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in results.items() if not isinstance(v, dict)}, indent=2))


if __name__ == "__main__":
    main()
