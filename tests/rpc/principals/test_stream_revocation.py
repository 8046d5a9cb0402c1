"""Open streams and waiting long polls end when their credential is revoked or rotated away.

Each is opened with a principal's own token. After a revocation it ends with the status a
unary call gets (UNAUTHENTICATED / CREDENTIAL_REVOKED), after a rotation the status a
unary call with the old token gets (UNAUTHENTICATED / CREDENTIAL_INVALID), promptly even
while it waits, and it sends nothing committed after the change.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import (
    admin_pb2,
    common_pb2,
    event_pb2,
    event_pb2_grpc,
    inbox_pb2,
    inbox_pb2_grpc,
    run_pb2,
    run_pb2_grpc,
    task_pb2,
    task_pb2_grpc,
)
from aiws.engine.v1 import principal_pb2 as pb
from praxis_client import error_details
from tests.support.harness import Harness, start_server
from tests.support.runtime import definition, get_run, node, start

pytestmark = pytest.mark.backends("sqlite", "postgres")

GRANTS = [pb.Grant(actions=["run.*", "event.*", "task.*", "inbox.*"], work_orders=["*"])]
ONE_NODE = definition("a", a=node(model="echo"))
ENDED_WITHIN_S = 1.5  # "within about a second", on a busy machine
CHANGES = {
    "revoked": (grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_REVOKED"),
    "rotated": (grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_INVALID"),
}


@dataclass
class Opened:
    """A streaming call read on a thread: what it sent, and how and when it ended."""

    call: Any
    received: list[Any] = field(default_factory=list)
    error: grpc.RpcError | None = None
    ended_at: float = 0.0
    done: threading.Event = field(default_factory=threading.Event)
    first: threading.Event = field(default_factory=threading.Event)

    def read(self) -> None:
        try:
            for message in self.call:
                self.received.append(message)
                self.first.set()
        except grpc.RpcError as error:
            self.error = error
        finally:
            self.ended_at = time.monotonic()
            self.done.set()
            self.first.set()

    def ending(self, timeout_s: float = 10.0) -> tuple[grpc.StatusCode, str]:
        """The code and reason it ended with (it must end within ``timeout_s``)."""
        assert self.done.wait(timeout_s), f"still open; sent {len(self.received)} messages"
        assert self.error is not None, "ended without an error"
        details = error_details(self.error)
        return details.code, details.reason


def opened(call: Any) -> Opened:
    """Reads ``call`` on a thread until it ends."""
    stream = Opened(call)
    threading.Thread(target=stream.read, daemon=True).start()
    return stream


def create_carol(h: Harness) -> str:
    """A principal of its own for these tests (the harness's are shared); its token."""
    created = h.client("alice").principals.CreatePrincipal(
        pb.CreatePrincipalRequest(
            principal_id="carol", kind=common_pb2.PRINCIPAL_KIND_HUMAN, grants=GRANTS
        )
    )
    return str(created.token)


def change(h: Harness, how: str) -> None:
    """Revokes carol or rotates her token away."""
    principals = h.client("alice").principals
    if how == "revoked":
        principals.RevokePrincipal(pb.RevokePrincipalRequest(principal_id="carol", reason="x"))
    else:
        principals.RotatePrincipalToken(pb.RotatePrincipalTokenRequest(principal_id="carol"))


@pytest.fixture
def channel(harness: Harness) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(harness.address) as opened_channel:
        yield opened_channel


def _as(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def _last_seq(h: Harness) -> int:
    page = h.client("alice").events.ListEvents(event_pb2.ListEventsRequest(after=0, limit=1000))
    return max((event.seq for event in page.events), default=0)


@pytest.mark.parametrize("how", sorted(CHANGES))
def test_stream_events_ends_and_sends_no_event_committed_after(
    harness: Harness, channel: grpc.Channel, how: str
) -> None:
    token = create_carol(harness)
    start(harness, ONE_NODE, {"n": 1})
    stream = opened(
        event_pb2_grpc.EventServiceStub(channel).StreamEvents(
            event_pb2.StreamEventsRequest(after=0), metadata=_as(token)
        )
    )
    assert stream.first.wait(10) and stream.received, "the stored events come first"
    change(harness, how)
    before = _last_seq(harness)
    after_run = start(harness, ONE_NODE, {"n": 2}).run.run_id  # committed after the change
    assert stream.ending() == CHANGES[how]
    sent = [message.event for message in stream.received]
    assert all(event.seq <= before for event in sent), [event.seq for event in sent]
    assert after_run not in {event.run_id for event in sent}


@pytest.mark.parametrize("how", sorted(CHANGES))
def test_watch_run_ends_and_sends_no_snapshot_committed_after(
    harness: Harness, channel: grpc.Channel, how: str
) -> None:
    token = create_carol(harness)
    run_id = start(harness, ONE_NODE, {"n": 1}).run.run_id
    stream = opened(
        run_pb2_grpc.RunServiceStub(channel).WatchRun(
            run_pb2.WatchRunRequest(run_id=run_id), metadata=_as(token)
        )
    )
    assert stream.first.wait(10) and stream.received, "the run is sent at once"
    change(harness, how)
    version = get_run(harness, run_id).version
    harness.client("agent").tasks.ClaimTasks(  # the run changes after the change
        task_pb2.ClaimTasksRequest(worker_id="w1", models=["echo"], max_tasks=1, lease_ms=30_000)
    )
    assert get_run(harness, run_id).version > version
    assert stream.ending() == CHANGES[how]
    assert all(message.run.version <= version for message in stream.received)


@pytest.mark.parametrize("how", sorted(CHANGES))
def test_watch_inbox_ends_and_sends_no_change_committed_after(
    harness: Harness, channel: grpc.Channel, how: str
) -> None:
    token = create_carol(harness)
    stream = opened(
        inbox_pb2_grpc.InboxServiceStub(channel).WatchInbox(
            inbox_pb2.WatchInboxRequest(), metadata=_as(token)
        )
    )
    assert stream.first.wait(10) and stream.received, "the counts are sent at once"
    total = stream.received[0].total
    change(harness, how)
    harness.client("alice").admin.PlaceHold(  # the inbox changes after the change
        admin_pb2.PlaceHoldRequest(
            kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id="wo-revoked", reason="after"
        )
    )
    assert stream.ending() == CHANGES[how]
    assert [message.total for message in stream.received] == [total]


@pytest.mark.parametrize("how", sorted(CHANGES))
def test_a_waiting_claim_ends_and_leases_nothing_readied_after(
    harness: Harness, channel: grpc.Channel, how: str
) -> None:
    token = create_carol(harness)
    poll = task_pb2_grpc.TaskServiceStub(channel).ClaimTasks.future(
        task_pb2.ClaimTasksRequest(
            worker_id="carol-w", models=["echo"], max_tasks=1, lease_ms=30_000, wait_ms=20_000
        ),
        metadata=_as(token),
    )
    _wait_until(lambda: harness.server.gates.long_polls.open == 1)
    change(harness, how)
    run_id = start(harness, ONE_NODE, {"n": 1}).run.run_id  # ready after the change
    with pytest.raises(grpc.RpcError) as ended:
        poll.result(timeout=10)
    details = error_details(ended.value)
    assert (details.code, details.reason) == CHANGES[how]
    [task] = (
        harness.client("agent")
        .tasks.ClaimTasks(
            task_pb2.ClaimTasksRequest(
                worker_id="w1", models=["echo"], max_tasks=1, lease_ms=30_000
            )
        )
        .tasks
    )
    assert task.run_id == run_id and task.attempt == 1  # still ready: carol leased nothing


@pytest.mark.parametrize("how", sorted(CHANGES))
def test_waiting_streams_and_long_polls_end_promptly_with_nothing_else_committed(
    harness: Harness, channel: grpc.Channel, how: str
) -> None:
    token = create_carol(harness)
    run_id = start(harness, definition("a", a=node(model="echo")), {"n": 1}).run.run_id
    streams = _open_all(channel, token, run_id)
    _wait_until(lambda: harness.server.gates.long_polls.open == 1)
    changed = time.monotonic()
    change(harness, how)
    for name, stream in streams.items():
        assert stream.ending(5) == CHANGES[how], name
        assert stream.ended_at - changed < ENDED_WITHIN_S, (name, stream.ended_at - changed)


def test_streams_on_another_server_process_end_promptly(tmp_path: Path) -> None:
    database = tmp_path / "praxis.db"
    first, second = start_server(database), start_server(database)
    try:
        token = create_carol(first)
        run_id = start(first, definition("a", a=node(model="echo")), {"n": 1}).run.run_id
        with grpc.insecure_channel(second.address) as channel:
            streams = _open_all(channel, token, run_id)
            _wait_until(lambda: second.server.gates.long_polls.open == 1)
            # The second process has just looked carol up (its cache is fresh): the
            # first's wake-up must make it forget, not wait for the cache to expire.
            event_pb2_grpc.EventServiceStub(channel).ListEvents(
                event_pb2.ListEventsRequest(limit=1), metadata=_as(token)
            )
            changed = time.monotonic()
            change(first, "revoked")  # through the first process
            for name, stream in streams.items():
                assert stream.ending(5) == CHANGES["revoked"], name
                assert stream.ended_at - changed < ENDED_WITHIN_S, (name, stream.ended_at - changed)
    finally:
        first.close()
        second.close()


def _open_all(channel: grpc.Channel, token: str, run_id: str) -> dict[str, Opened]:
    """Every kind of stream and a long poll, each sent its first message (or waiting)."""
    claim = task_pb2_grpc.TaskServiceStub(channel).ClaimTasks.future(
        task_pb2.ClaimTasksRequest(
            worker_id="carol-w", models=["nothing"], max_tasks=1, lease_ms=30_000, wait_ms=30_000
        ),
        metadata=_as(token),
    )
    streams = {
        "StreamEvents": opened(
            event_pb2_grpc.EventServiceStub(channel).StreamEvents(
                event_pb2.StreamEventsRequest(after=0), metadata=_as(token)
            )
        ),
        "WatchRun": opened(
            run_pb2_grpc.RunServiceStub(channel).WatchRun(
                run_pb2.WatchRunRequest(run_id=run_id), metadata=_as(token)
            )
        ),
        "WatchInbox": opened(
            inbox_pb2_grpc.InboxServiceStub(channel).WatchInbox(
                inbox_pb2.WatchInboxRequest(), metadata=_as(token)
            )
        ),
        "ClaimTasks": _future_as_stream(claim),
    }
    for name, stream in streams.items():
        if name != "ClaimTasks":
            assert stream.first.wait(10) and stream.received, name
    time.sleep(0.3)  # each is waiting now (WatchInbox coalesces for 0.25 s after a read)
    return streams


def _future_as_stream(future: Any) -> Opened:
    stream = Opened(future)

    def settled(done: Any) -> None:
        stream.ended_at = time.monotonic()
        error = done.exception()
        if isinstance(error, grpc.RpcError):
            stream.error = error
        else:
            stream.received.append(done.result())
        stream.done.set()

    future.add_done_callback(settled)
    return stream


def _wait_until(condition: Callable[[], bool], timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)
