"""Run state as rows: ListRunNodes paging and filters, summary snapshots of wide runs
(``items_omitted``), and a 10,000-item fan-out rebuilt from its command log."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import run_pb2
from praxis.core import journal
from praxis.core import run as core
from praxis.core.records import Principal, PrincipalKind
from praxis.core.rejection import Rejection
from praxis.store.runtime import log as run_log
from praxis.store.runtime import records
from praxis.store.runtime.rows import loading
from praxis.store.runtime.tasks import Settlement
from praxis_client import error_details
from tests.support.harness import Harness, start_server
from tests.support.runtime import (
    claim,
    complete,
    expanded,
    get_run,
)

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")

WIDE = int(os.environ.get("PRAXIS_TEST_WIDE", "10000"))


def listing(h: Harness, principal: str = "agent", **fields: Any) -> run_pb2.ListRunNodesResponse:
    request = run_pb2.ListRunNodesRequest(**fields)
    return h.client(principal).runs.ListRunNodes(request)  # type: ignore[no-any-return]


def pages(h: Harness, **fields: Any) -> list[run_pb2.NodeStatus]:
    found: list[run_pb2.NodeStatus] = []
    token = ""
    while True:
        page = listing(h, page_token=token, **fields)
        found.extend(page.nodes)
        token = page.next_page_token
        if not token:
            return found


def reason_of(error: grpc.RpcError) -> str:
    return error_details(error).reason


def refused(h: Harness, principal: str = "agent", **fields: Any) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        listing(h, principal, **fields)
    return caught.value


def test_pages_follow_definition_then_item_order(harness: Harness) -> None:
    run_id = expanded(harness, 25)
    run = get_run(harness, run_id)
    assert not run.items_omitted and run.node_count == 28
    everything = pages(harness, run_id=run_id, page_size=7)
    assert [n.node_uid for n in everything] == (
        ["split", "each"] + [f"each#{i}" for i in range(25)] + ["join"]
    )
    assert list(everything) == list(run.nodes)  # the same fields as the snapshot
    first = listing(harness, run_id=run_id, page_size=7)
    assert len(first.nodes) == 7 and first.version == run.version
    assert len(listing(harness, run_id=run_id).nodes) == 28  # page_size 0 means 500


def test_filters_by_node_and_state(harness: Harness) -> None:
    run_id = expanded(harness, 12)
    tasks = claim(harness, max_tasks=5)
    for task in tasks[:3]:
        complete(harness, task, {"ok": True})
    only_each = pages(harness, run_id=run_id, node_id="each", page_size=5)
    assert [n.node_uid for n in only_each] == ["each"] + [f"each#{i}" for i in range(12)]
    done = pages(harness, run_id=run_id, state=run_pb2.NODE_STATE_DONE, page_size=2)
    assert [n.node_uid for n in done] == ["split", "each#0", "each#1", "each#2"]
    running = pages(harness, run_id=run_id, node_id="each", state=run_pb2.NODE_STATE_RUNNING)
    assert [n.node_uid for n in running] == ["each#3", "each#4"]
    ready = pages(harness, run_id=run_id, state=run_pb2.NODE_STATE_READY, page_size=3)
    assert [n.node_uid for n in ready] == [f"each#{i}" for i in range(5, 12)]
    parent = listing(harness, run_id=run_id, node_id="each", page_size=1).nodes[0]
    assert parent.fanout_items == 12 and parent.fanout_items_done == 3
    assert not listing(harness, run_id=run_id, state=run_pb2.NODE_STATE_BLOCKED).nodes


def test_bad_listings_are_refused_with_a_reason(harness: Harness) -> None:
    run_id = expanded(harness, 4)
    token = listing(harness, run_id=run_id, page_size=2).next_page_token
    assert token
    cases: list[tuple[dict[str, Any], grpc.StatusCode, str]] = [
        ({"run_id": run_id, "page_token": "garbage!"}, grpc.StatusCode.INVALID_ARGUMENT,
         "PAGE_INVALID"),
        ({"run_id": run_id, "page_token": token, "node_id": "each"},
         grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"),  # another filter's token
        ({"run_id": run_id, "page_token": token, "state": run_pb2.NODE_STATE_READY},
         grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"),
        ({"run_id": run_id, "page_size": 1001}, grpc.StatusCode.INVALID_ARGUMENT,
         "PAGE_INVALID"),
        ({"run_id": run_id, "page_size": -1}, grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"),
        ({"run_id": run_id, "state": 99}, grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"),
        ({"run_id": run_id, "node_id": "nope"}, grpc.StatusCode.NOT_FOUND, "NODE_NOT_FOUND"),
        ({"run_id": run_id, "node_id": "bad id!"}, grpc.StatusCode.INVALID_ARGUMENT,
         "IDENTIFIER_INVALID"),
        ({"run_id": "run_missing"}, grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"),
        ({}, grpc.StatusCode.INVALID_ARGUMENT, "FIELD_REQUIRED"),
    ]  # fmt: skip
    for fields, code, reason in cases:
        error = refused(harness, **fields)
        assert (error.code(), reason_of(error)) == (code, reason), fields
    # Another run's token is not this run's.
    other = expanded(harness, 4)
    error = refused(harness, run_id=other, page_token=token, page_size=2)
    assert reason_of(error) == "PAGE_INVALID"
    # Authorized like GetRun.
    denied = refused(harness, "reader", run_id=run_id)
    with pytest.raises(grpc.RpcError) as get:
        harness.client("reader").runs.GetRun(run_pb2.GetRunRequest(run_id=run_id))
    assert (denied.code(), reason_of(denied)) == (get.value.code(), reason_of(get.value))
    assert denied.code() == grpc.StatusCode.PERMISSION_DENIED


def test_wide_runs_omit_items_from_snapshots(harness: Harness) -> None:
    limit = records.SNAPSHOT_NODES_MAX
    wide = expanded(harness, limit - 2)
    small = expanded(harness, limit - 3)  # split + each + join + items == the limit
    run = get_run(harness, small)
    assert run.node_count == limit and not run.items_omitted and len(run.nodes) == limit
    run = get_run(harness, wide)
    assert run.node_count == limit + 1 and run.items_omitted
    assert [n.node_uid for n in run.nodes] == ["split", "each", "join"]
    assert run.nodes[1].fanout_items == limit - 2 and run.nodes[1].fanout_items_done == 0
    tasks = claim(harness, max_tasks=40)
    assert {t.run_id for t in tasks} == {wide}
    for task in tasks:
        complete(harness, task, {"ok": True})
    run = get_run(harness, wide)
    assert run.nodes[1].fanout_items_done == 40
    listed = {
        r.run_id: r for r in harness.client("agent").runs.ListRuns(run_pb2.ListRunsRequest()).runs
    }
    assert listed[wide].items_omitted and len(listed[wide].nodes) == 3
    assert listed[wide].node_count == limit + 1
    assert listed[wide].nodes[1].fanout_items_done == 40
    assert not listed[small].items_omitted and len(listed[small].nodes) == limit
    assert list(listed[wide].nodes) == list(run.nodes)
    items = pages(harness, run_id=wide, node_id="each", page_size=1000)
    assert len(items) == limit - 1  # the parent and every item, over two pages


@pytest.mark.slow
@pytest.mark.timeout(900)  # about 70 s of CPU; far longer in wall time on a busy machine
def test_a_ten_thousand_item_run_rebuilds_from_its_log(tmp_path: Path) -> None:
    """Drives a 10,000-item fan-out through the store (claims of 100), then compares.

    SQLite with ``synchronous=NORMAL`` (WAL: no fsync per commit): the test is about the
    state, and 10,000 fully synced commits would spend minutes waiting on the disk.
    (``PRAXIS_TEST_WIDE`` shrinks it for debugging.)
    """
    harness = start_server(tmp_path / "wide.db", synchronous="NORMAL")
    try:
        _drive_wide(harness)
    finally:
        harness.close()


def _drive_wide(harness: Harness) -> None:
    store, tasks_of = harness.server.engine.runs, harness.server.engine.tasks
    agent = Principal("agent", PrincipalKind.AGENT)
    run_id = expanded(harness, WIDE)
    done = 0
    while True:
        tasks = tasks_of.claim(agent, "w1", ["echo"], 100, 60_000)
        assert not isinstance(tasks, Rejection)
        if not tasks:
            break
        for task in tasks:
            if task.node_id == "join":
                assert len(json.loads(task.input_json)) == WIDE
                assert json.loads(task.input_json)[:3] == [{"i": 0}, {"i": 1}, {"i": 2}]
            item = int(task.node_uid.partition("#")[2] or -1)
            reply = tasks_of.complete(
                agent,
                Settlement(
                    task.attempt_id, "w1", core.Effect.APPLIED, "0", json.dumps({"i": item})
                ),
            )
            assert not isinstance(reply, Rejection)
            done += 1
    assert done == WIDE + 1  # every item, then the join
    run = get_run(harness, run_id)
    assert run.state == run_pb2.RUN_STATE_COMPLETED and run.items_omitted
    assert run.node_count == WIDE + 3
    with store.db.read() as connection:
        live = loading.load(connection, run_id, store.definition)
        rebuilt = run_log.rebuild(connection, run_id, store.definition, store.limits)
    assert live is not None and rebuilt is not None
    assert journal.snapshot(rebuilt) == journal.snapshot(live.state)
    cached = store.snapshots.get(run_id, live.state.version, live.state.definition.digest)
    assert cached is not None and journal.snapshot(cached) == journal.snapshot(live.state)
