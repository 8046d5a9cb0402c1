"""WatchRun and EventService: ordered, durable, resumable."""

from __future__ import annotations

import json
import threading

import grpc
import pytest

from aiws.engine.v1 import event_pb2, run_pb2
from praxis.core import run as core
from tests.support.harness import Harness, expect_error
from tests.support.runtime import claim, complete, definition, diamond, drive, node, start

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


def kinds(events: list[event_pb2.Event]) -> list[str]:
    return [event_pb2.EventKind.Name(e.kind)[len("EVENT_KIND_") :] for e in events]


def test_every_run_event_kind_has_its_event_kind_on_the_wire() -> None:
    names = event_pb2.EventKind.DESCRIPTOR.values_by_name
    wire = {name for name in names if name != "EVENT_KIND_UNSPECIFIED"}
    assert wire == {"EVENT_KIND_" + kind for kind in core.EVENT_KINDS}
    with pytest.raises(ValueError, match="unknown run event kind"):
        core.Event("NODE_VANISHED")


def test_watch_run_streams_snapshots_until_the_run_ends(harness: Harness) -> None:
    run = start(harness, diamond()).run
    snapshots: list[run_pb2.Run] = []
    stream = harness.client("agent").runs.WatchRun(run_pb2.WatchRunRequest(run_id=run.run_id))
    reader = threading.Thread(target=lambda: snapshots.extend(r.run for r in stream))
    reader.start()
    drive(harness, run.run_id)
    reader.join(timeout=10)
    assert not reader.is_alive()
    versions = [s.version for s in snapshots]
    assert versions == sorted(set(versions))
    assert snapshots[0].state in (run_pb2.RUN_STATE_RUNNING, run_pb2.RUN_STATE_AWAITING_NODES)
    assert snapshots[-1].state == run_pb2.RUN_STATE_COMPLETED
    assert json.loads(snapshots[-1].result_json)["node"] == "d"


def test_list_events_in_order_with_paging(harness: Harness) -> None:
    run = start(harness, definition("a", a=node())).run
    drive(harness, run.run_id)
    events = harness.client("agent").events
    page = events.ListEvents(event_pb2.ListEventsRequest(run_id=run.run_id, limit=2))
    assert kinds(list(page.events)) == ["RUN_STARTED", "NODE_DISPATCHED"]
    rest = events.ListEvents(event_pb2.ListEventsRequest(run_id=run.run_id, after=page.next_after))
    assert kinds(list(rest.events)) == ["NODE_COMPLETED", "RUN_COMPLETED"]
    final = json.loads(rest.events[-1].payload_json)
    assert final["result"] == "done:a"
    seqs = [e.seq for e in [*page.events, *rest.events]]
    assert seqs == sorted(seqs) and len(set(seqs)) == 4
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        events.ListEvents(event_pb2.ListEventsRequest(limit=5_000))


def test_stream_events_delivers_live_events_and_resumes_from_a_cursor(harness: Harness) -> None:
    events = harness.client("agent").events
    first = start(harness, definition("a", a=node())).run
    stream = events.StreamEvents(event_pb2.StreamEventsRequest())
    received: list[event_pb2.Event] = []
    for message in stream:
        received.append(message.event)
        if message.event.kind == event_pb2.EVENT_KIND_RUN_STARTED:
            drive(harness, first.run_id)
        if message.event.kind == event_pb2.EVENT_KIND_RUN_COMPLETED:
            stream.cancel()
            break
    assert kinds(received) == ["RUN_STARTED", "NODE_DISPATCHED", "NODE_COMPLETED", "RUN_COMPLETED"]
    cursor = received[1].seq
    resumed = events.StreamEvents(event_pb2.StreamEventsRequest(after=cursor))
    again = [next(resumed).event for _ in range(2)]
    resumed.cancel()
    assert [e.seq for e in again] == [e.seq for e in received[2:]]


def test_subscribers_resume_where_they_acknowledged(harness: Harness) -> None:
    events = harness.client("agent").events
    mine = start(harness, definition("a", a=node()), subscriber="billing").run
    start(harness, definition("a", a=node()))  # not for this subscriber
    drive(harness, mine.run_id)
    page = events.ListEvents(event_pb2.ListEventsRequest(subscriber="billing"))
    assert {e.run_id for e in page.events} == {mine.run_id}
    assert len(page.events) == 4
    ack = events.AckEvents(
        event_pb2.AckEventsRequest(subscriber="billing", cursor=page.events[1].seq)
    )
    assert ack.cursor == page.events[1].seq
    lower = events.AckEvents(event_pb2.AckEventsRequest(subscriber="billing", cursor=1))
    assert lower.cursor == page.events[1].seq  # never moves backwards
    stream = events.StreamEvents(event_pb2.StreamEventsRequest(subscriber="billing"))
    resumed = [next(stream).event for _ in range(2)]
    stream.cancel()
    assert [e.seq for e in resumed] == [e.seq for e in page.events[2:]]
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        events.AckEvents(event_pb2.AckEventsRequest(subscriber="billing", cursor=10**9))
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "FIELD_REQUIRED"):
        events.AckEvents(event_pb2.AckEventsRequest(cursor=1))


def test_events_survive_a_restart(tmp_path: object) -> None:
    from pathlib import Path

    from tests.support.harness import start_server

    path = Path(str(tmp_path)) / "events.db"
    first = start_server(path)
    run = start(first, definition("a", a=node())).run
    [task] = claim(first)
    first.close()
    second = start_server(path)
    try:
        complete(second, task, "after restart")
        page = second.client("agent").events.ListEvents(
            event_pb2.ListEventsRequest(run_id=run.run_id)
        )
        assert kinds(list(page.events)) == [
            "RUN_STARTED",
            "NODE_DISPATCHED",
            "NODE_COMPLETED",
            "RUN_COMPLETED",
        ]
    finally:
        second.close()
