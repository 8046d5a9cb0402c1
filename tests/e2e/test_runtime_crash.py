"""SIGKILL the server repeatedly while 50 runs execute with live workers.

After the last restart every run completes, each node's result is stored exactly once,
and no queue row outlives its run.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections import Counter
from pathlib import Path

import pytest

from aiws.engine.v1 import run_pb2
from praxis_client import connect
from praxis_client.worker import Task, Worker
from tests.support.crash import NODES_PER_RUN, PLAN, RUNS, handle, retrying
from tests.support.harness import token_of
from tests.support.server_process import ServerProcess, free_port, write_config

TASK_S = 0.5  # in the crash test each task takes this long, so its work spans the kills


def slow_handle(task: Task) -> object:
    time.sleep(TASK_S)
    return handle(task)


@pytest.mark.serial  # a SIGKILL loop under load: the machine to itself (make test-python)
@pytest.mark.slow
def test_sigkill_during_fifty_runs_with_live_workers(tmp_path: Path) -> None:
    server = ServerProcess(write_config(tmp_path), free_port())
    server.start()
    client = connect(server.address, token_of("agent"))
    workers = [
        Worker(
            connect(server.address, token_of("agent")),
            ["echo"],
            slow_handle,
            worker_id=f"w{i}",
            concurrency=4,
            lease_ms=1_000,
            poll_ms=300,
        ).start()
        for i in range(3)
    ]
    run_ids = []
    for index in range(RUNS):
        response = retrying(
            lambda index=index: client.runs.StartRun(
                run_pb2.StartRunRequest(
                    request_id=f"crash-{index}", definition_json=json.dumps(PLAN)
                ),
                timeout=5,
            ),
            time.monotonic() + 30,
        )
        run_ids.append(response.run.run_id)  # type: ignore[attr-defined]
    rng = random.Random(11)
    at_kills = []  # (runs not completed, leased attempts) when each kill came
    for _ in range(4):
        time.sleep(rng.uniform(0.3, 0.8))
        with sqlite3.connect(f"file:{tmp_path / 'praxis.db'}?mode=ro", uri=True) as probe:
            at_kills.append(
                probe.execute(
                    "SELECT (SELECT count(*) FROM runs WHERE status <> 'COMPLETED'),"
                    " (SELECT count(*) FROM attempts WHERE status = 'LIVE')"
                ).fetchone()
            )
        server.kill()
        server.start()
    print(json.dumps({"unfinished_runs_and_leases_at_kills": at_kills}))
    # Every kill came while runs were in flight, the first while workers held leases
    # (before, with 5 ms tasks, all 50 runs had finished before the first kill; after a
    # restart the workers are often still backing off when the next kill comes).
    assert all(runs for runs, _leases in at_kills) and at_kills[0][1], at_kills
    deadline = time.monotonic() + 45
    pending = set(run_ids)
    while pending and time.monotonic() < deadline:
        for run_id in list(pending):
            run = retrying(
                lambda run_id=run_id: client.runs.GetRun(
                    run_pb2.GetRunRequest(run_id=run_id), timeout=5
                ),
                deadline,
            ).run  # type: ignore[attr-defined]
            if (
                run.state != run_pb2.RUN_STATE_RUNNING
                and run.state != run_pb2.RUN_STATE_AWAITING_NODES
            ):
                assert run.state == run_pb2.RUN_STATE_COMPLETED, run
                assert json.loads(run.result_json) == "sum=14"
                pending.discard(run_id)
        time.sleep(0.1)
    for worker in workers:
        worker.stop()
    assert not pending, f"{len(pending)} runs did not complete"
    assert server.terminate() == 0
    client.close()
    check_store(tmp_path / "praxis.db", run_ids)


def check_store(db: Path, run_ids: list[str]) -> None:
    with sqlite3.connect(db) as connection:
        q = connection.execute
        results = Counter(run_id for (run_id,) in q("SELECT run_id FROM node_results").fetchall())
        for run_id in run_ids:
            assert results[run_id] == 5  # split, 3 items, join: each stored exactly once
            status, node_count = q(
                "SELECT status, node_count FROM runs WHERE run_id=?", (run_id,)
            ).fetchone()
            assert status == "COMPLETED"
            assert node_count == NODES_PER_RUN
            rows = q("SELECT status FROM run_nodes WHERE run_id=?", (run_id,)).fetchall()
            assert len(rows) == NODES_PER_RUN  # one row per node and item, none lost
            assert {status for (status,) in rows} == {"DONE"}
        completed = Counter(
            (run_id, uid)
            for run_id, uid in q(
                "SELECT run_id, node_uid FROM run_events WHERE kind='NODE_COMPLETED'"
            ).fetchall()
        )
        assert set(completed.values()) == {1}
        assert len(completed) == RUNS * NODES_PER_RUN
        assert q("SELECT COUNT(*) FROM ready_nodes").fetchone()[0] == 0
        assert q("SELECT COUNT(*) FROM run_timers").fetchone()[0] == 0
        assert q("SELECT COUNT(*) FROM attempts WHERE status='LIVE'").fetchone()[0] == 0
