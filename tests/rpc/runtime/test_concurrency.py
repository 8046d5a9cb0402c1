"""Concurrency: duplicate starts, competing workers, two servers on one database."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from aiws.engine.v1 import event_pb2, run_pb2
from praxis.clock import TestClock
from tests.support.harness import T0, Harness, start_server
from tests.support.runtime import (
    TERMINAL,
    claim,
    complete,
    definition,
    diamond,
    get_run,
    json_out,
    node,
    start,
)

# The harness test runs on two replicas too: one request id sent through both at once.
pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


def test_duplicate_start_run_under_concurrency_creates_one_run(harness: Harness) -> None:
    def attempt(_: int) -> run_pb2.StartRunResponse:
        return start(harness, diamond(), {"n": 1}, request_id="same-request")

    with ThreadPoolExecutor(max_workers=8) as pool:
        responses = list(pool.map(attempt, range(16)))
    assert len({r.run.run_id for r in responses}) == 1
    assert sum(r.created for r in responses) == 1
    listed = harness.client("agent").runs.ListRuns(run_pb2.ListRunsRequest())
    assert len(listed.runs) == 1


def work_until_done(h: Harness, worker: str, run_ids: list[str], stop: threading.Event) -> int:
    done = 0
    while not stop.is_set():
        for task in claim(h, worker=worker, max_tasks=5, wait_ms=200):
            complete(h, task, {"by": worker, "input": json.loads(task.input_json)}, worker=worker)
            done += 1
        if all(get_run(h, run_id).state in TERMINAL for run_id in run_ids):
            stop.set()
    return done


def test_two_servers_on_one_database_share_runs_safely(tmp_path: Path) -> None:
    clock = TestClock(T0)
    one = start_server(tmp_path / "shared.db", clock)
    two = start_server(tmp_path / "shared.db", clock)
    try:
        fan = definition(
            "d",
            a=node(output=json_out()),
            b=node("node:a", ("a",), json_out()),
            c=node("node:a", ("a",), json_out()),
            d=node(["node:b", "node:c"], ("b", "c"), json_out()),
        )
        run_ids = [start(one if i % 2 else two, fan, {"i": i}).run.run_id for i in range(12)]
        stop = threading.Event()
        with ThreadPoolExecutor(max_workers=4) as pool:
            futures = [
                pool.submit(work_until_done, server, f"{name}-{k}", run_ids, stop)
                for server, name in ((one, "one"), (two, "two"))
                for k in range(2)
            ]
            counts = [f.result(timeout=60) for f in futures]
        assert sum(counts) == 12 * 4  # every node completed exactly once
        for run_id in run_ids:
            run = get_run(two, run_id)
            assert run.state == run_pb2.RUN_STATE_COMPLETED
            assert all(n.attempts == 1 for n in run.nodes)
        events = one.client("agent").events.ListEvents(event_pb2.ListEventsRequest(limit=1000))
        completed = [e for e in events.events if e.kind == event_pb2.EVENT_KIND_NODE_COMPLETED]
        assert len(completed) == 12 * 4
        assert len({(e.run_id, e.node_uid) for e in completed}) == 12 * 4
    finally:
        one.close()
        two.close()


def test_a_run_changed_by_another_server_is_seen_by_the_first(tmp_path: Path) -> None:
    one = start_server(tmp_path / "shared.db")
    two = start_server(tmp_path / "shared.db", one.clock)
    try:
        run = start(one, definition("a", a=node())).run
        [task] = claim(two)
        complete(one, task, "settled on one")
        snapshot: Any = get_run(two, run.run_id)
        assert snapshot.state == run_pb2.RUN_STATE_COMPLETED
        assert json.loads(snapshot.result_json) == "settled on one"
    finally:
        one.close()
        two.close()
