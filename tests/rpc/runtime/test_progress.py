"""Progress reported with heartbeats: kept per attempt (the latest only), shown by
GetRun, ListRunNodes and WatchRun, refused past its bounds without extending the lease."""

from __future__ import annotations

import json
import threading
import time

import grpc
import pytest
from sqlalchemy import func, select

from aiws.engine.v1 import run_pb2, task_pb2
from praxis.store.runtime.tables import attempt_progress, run_commands, run_events
from praxis_client.errors import error_details
from tests.support.harness import Harness
from tests.support.runtime import claim, complete, definition, fail, get_run, node, start

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


def beat(
    h: Harness, task: task_pb2.Task, text: str = "", data_json: str = "", lease_ms: int = 30_000
) -> task_pb2.HeartbeatResponse:
    return h.client("agent").tasks.Heartbeat(  # type: ignore[no-any-return]
        task_pb2.HeartbeatRequest(
            attempt_id=task.attempt_id,
            worker_id="w1",
            lease_ms=lease_ms,
            progress=task_pb2.ProgressReport(text=text, data_json=data_json),
        )
    )


def rows(h: Harness, table: object, run_id: str) -> int:
    store = h.server.engine.runs
    with store.db.read() as connection:
        return int(
            connection.execute(
                select(func.count()).select_from(table).where(table.c.run_id == run_id)  # type: ignore[attr-defined]
            ).scalar_one()
        )


def test_the_latest_report_is_shown_and_replaces_the_one_before(harness: Harness) -> None:
    run = start(harness, definition("a", a=node())).run
    [task] = claim(harness)
    assert not get_run(harness, run.run_id).nodes[0].HasField("progress")
    beat(harness, task, "1 of 3", '{"total": 3, "done": 1}')
    harness.clock.advance(100)
    events = rows(harness, run_events, run.run_id)
    for done in (2, 3):
        beat(harness, task, f"{done} of 3", json.dumps({"done": done, "total": 3}))
    shown = get_run(harness, run.run_id).nodes[0].progress
    assert shown.attempt_id == task.attempt_id and shown.text == "3 of 3"
    assert shown.data_json == '{"done":3,"total":3}'  # canonical JSON
    assert shown.reports == 3 and shown.reported_at_ms == harness.clock.now_ms()
    assert rows(harness, attempt_progress, run.run_id) == 1
    assert rows(harness, run_events, run.run_id) == events  # no event per report
    listed = harness.client("agent").runs.ListRunNodes(
        run_pb2.ListRunNodesRequest(run_id=run.run_id)
    )
    assert listed.nodes[0].progress == shown
    complete(harness, task, "ok")
    finished = get_run(harness, run.run_id)
    assert finished.nodes[0].progress == shown  # the last attempt's last report stays


def test_a_heartbeat_without_progress_keeps_the_last_report(harness: Harness) -> None:
    run = start(harness, definition("a", a=node())).run
    [task] = claim(harness)
    beat(harness, task, "halfway")
    harness.client("agent").tasks.Heartbeat(
        task_pb2.HeartbeatRequest(attempt_id=task.attempt_id, worker_id="w1", lease_ms=30_000)
    )
    shown = get_run(harness, run.run_id).nodes[0].progress
    assert shown.text == "halfway" and shown.reports == 1 and shown.data_json == ""


def test_a_retry_starts_without_progress(harness: Harness) -> None:
    run = start(harness, definition("a", a=node())).run
    [first] = claim(harness)
    beat(harness, first, "trying")
    fail(harness, first)
    harness.clock.advance(60_000)
    [second] = claim(harness)
    assert second.attempt_id != first.attempt_id
    assert not get_run(harness, run.run_id).nodes[0].HasField("progress")
    beat(harness, second, "again")
    assert get_run(harness, run.run_id).nodes[0].progress.attempt_id == second.attempt_id


def test_watchers_see_each_report_live(harness: Harness) -> None:
    run = start(harness, definition("a", a=node())).run
    [task] = claim(harness)
    stream = harness.client("agent").runs.WatchRun(run_pb2.WatchRunRequest(run_id=run.run_id))
    seen: list[str] = []
    reported = threading.Event()

    def read() -> None:
        for message in stream:
            seen.append(message.run.nodes[0].progress.text)
            if "step 2" in seen:
                reported.set()

    reader = threading.Thread(target=read)
    reader.start()
    deadline = time.monotonic() + 5
    while not seen and time.monotonic() < deadline:
        time.sleep(0.01)
    assert seen, "WatchRun sent no first message"
    beat(harness, task, "step 1")
    beat(harness, task, "step 2")
    assert reported.wait(5), seen
    complete(harness, task, "ok")
    reader.join(timeout=5)
    assert "step 2" in seen


@pytest.mark.parametrize(
    ("text", "data_json", "reason", "field"),
    [
        ("x" * 513, "", "TEXT_TOO_LONG", "progress.text"),
        ("é" * 257, "", "TEXT_TOO_LONG", "progress.text"),  # 514 UTF-8 bytes
        ("", json.dumps({"log": "y" * 1_100}), "DOCUMENT_TOO_LARGE", "progress.data_json"),
        ("", "{not json", "DOCUMENT_MALFORMED", "progress.data_json"),
        ("", '{"ratio": 0.5}', "DOCUMENT_NUMBER_FORBIDDEN", "progress.data_json"),
        ("", '{"a": 1, "a": 2}', "DOCUMENT_DUPLICATE_KEY", "progress.data_json"),
    ],
)
def test_a_report_past_its_bounds_refuses_the_heartbeat(
    harness: Harness, text: str, data_json: str, reason: str, field: str
) -> None:
    run = start(harness, definition("a", a=node())).run
    [task] = claim(harness, lease_ms=5_000)
    before = get_run(harness, run.run_id)
    with pytest.raises(grpc.RpcError) as caught:
        beat(harness, task, text, data_json)
    details = error_details(caught.value)
    assert (details.code, details.reason) == (grpc.StatusCode.INVALID_ARGUMENT, reason)
    assert field in {path for path, _ in details.field_violations}
    after = get_run(harness, run.run_id)
    assert after.version == before.version  # the lease was not extended
    assert not after.nodes[0].HasField("progress")
    beat(harness, task, "x" * 512, json.dumps({"log": "y" * 1_000}))  # at the bounds: kept
    assert get_run(harness, run.run_id).nodes[0].progress.text == "x" * 512


def test_a_report_on_a_stopped_run_is_not_kept(harness: Harness) -> None:
    run = start(harness, definition("a", a=node(effects="none"))).run
    [task] = claim(harness)
    harness.client("agent").runs.StopRun(run_pb2.StopRunRequest(run_id=run.run_id))
    commands = rows(harness, run_commands, run.run_id)
    assert beat(harness, task, "late").cancelled
    assert not get_run(harness, run.run_id).nodes[0].HasField("progress")
    assert rows(harness, attempt_progress, run.run_id) == 0
    assert rows(harness, run_commands, run.run_id) == commands
