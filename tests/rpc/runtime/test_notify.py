"""StartRun's ``notify``: webhook deliveries written with the run's end, signed, listed and
redelivered; ``reply_to`` posts the outcome into the starter's subscription."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from aiws.engine.v1 import event_pb2, notification_pb2, run_pb2
from praxis.core import webhooks
from praxis.deliverer import DeliveryLimits, Destination
from tests.support.harness import T0, Harness, expect_error, start_server
from tests.support.runtime import claim, complete, definition, drive, fail, node, start
from tests.support.webhooks import (
    SECRET,
    Receiver,
    deliveries,
    logged_secrets,
    signed_correctly,
    wait_state,
)

pytestmark = pytest.mark.backends("sqlite", "postgres")

PLAN = definition("a", a=node())


@pytest.fixture(autouse=True)
def no_secret_in_any_log(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Every log record of these webhook tests is searched for the signing secret."""
    caplog.set_level(logging.DEBUG)
    yield
    assert logged_secrets(caplog.records) == []


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    running = Receiver()
    try:
        yield running
    finally:
        running.close()


@pytest.fixture
def harness(database: Path | str, receiver: Receiver) -> Iterator[Harness]:
    """A server with one declared destination, ``ops``, pointing at the receiver (it
    overrides the shared fixture, keeping its backends)."""
    key = webhooks.secret_key(SECRET)
    assert key is not None
    running = start_server(
        database,
        webhooks={"ops": Destination("ops", receiver.url, key)},
        notifications=DeliveryLimits(timeout_s=2, max_attempts=2, backoff_base_ms=10),
    )
    try:
        yield running
    finally:
        running.close()


def notify(**fields: object) -> run_pb2.RunNotify:
    return run_pb2.RunNotify(**fields)  # type: ignore[arg-type]


def test_an_unknown_or_malformed_destination_starts_nothing(harness: Harness) -> None:
    cases = [
        (notify(webhooks=["nowhere"]), "NOTIFY_DESTINATION_UNKNOWN"),
        (notify(webhooks=["ops", "ops"]), "NOTIFY_INVALID"),
        (notify(webhooks=["ops"] * 5), "NOTIFY_INVALID"),
        (notify(webhooks=["bad name"]), "NOTIFY_INVALID"),
        (notify(reply_to=True), "NOTIFY_INVALID"),  # no subscriber
        (notify(reply_template="hi"), "NOTIFY_INVALID"),  # no reply_to
    ]
    for index, (asked, reason) in enumerate(cases):
        with expect_error(grpc.StatusCode.INVALID_ARGUMENT, reason):
            start(harness, PLAN, request_id=f"bad-{index}", notify=asked)
    runs = harness.client("alice").runs.ListRuns(run_pb2.ListRunsRequest())
    assert list(runs.runs) == []


def test_a_request_id_repeated_with_another_notify_is_refused(harness: Harness) -> None:
    first = start(harness, PLAN, request_id="same", notify=notify(webhooks=["ops"]))
    again = start(harness, PLAN, request_id="same", notify=notify(webhooks=["ops"]))
    assert again.run.run_id == first.run.run_id and not again.created
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "REQUEST_ID_REUSED"):
        start(harness, PLAN, request_id="same")


def test_the_outcome_reaches_the_receiver_signed_and_is_listed_delivered(
    harness: Harness, receiver: Receiver
) -> None:
    run = start(harness, PLAN, notify=notify(webhooks=["ops"]), labels={"team": "x"}).run
    assert deliveries(harness).deliveries == []  # nothing before the run ends
    drive(harness, run.run_id)
    receiver.wait_for(lambda r: len(r.accepted()) == 1)
    got = receiver.accepted()[0]
    assert signed_correctly(SECRET, got.headers, got.body)
    assert got.headers["webhook-timestamp"] == str(T0 // 1000)  # the server's clock
    assert got.headers["content-type"] == "application/json"
    assert got.json["type"] == "run.completed"
    assert got.json["data"]["run_id"] == run.run_id
    assert got.json["data"]["status"] == "COMPLETED"
    assert got.json["data"]["result"] == "done:a"
    listed = wait_state(harness, run.run_id, notification_pb2.DELIVERY_STATE_DELIVERED)
    assert listed.delivery_id == got.delivery_id and listed.delivery_id.startswith("msg_")
    assert (listed.destination, listed.event_type, listed.attempts) == ("ops", "run.completed", 1)
    assert listed.last_status == 200 and listed.delivered_at_ms == T0


def test_a_dead_delivery_is_listed_and_redelivered_with_the_same_id(
    harness: Harness, receiver: Receiver
) -> None:
    receiver.default = "fail"
    run = start(harness, PLAN, notify=notify(webhooks=["ops"])).run
    harness.client("alice").runs.StopRun(run_pb2.StopRunRequest(run_id=run.run_id))
    receiver.wait_for(lambda r: len(r.all()) == 1)
    failed = wait_state(harness, run.run_id, notification_pb2.DELIVERY_STATE_FAILED)
    assert (failed.attempts, failed.last_status, failed.last_error) == (1, 503, "HTTP 503")
    assert failed.next_attempt_at_ms > T0
    harness.clock.advance(60_000)  # past the backoff: the second and last try
    dead = wait_state(harness, run.run_id, notification_pb2.DELIVERY_STATE_DEAD)
    assert dead.attempts == 2 and dead.next_attempt_at_ms == 0
    page = deliveries(harness, state=notification_pb2.DELIVERY_STATE_DEAD)
    assert [d.delivery_id for d in page.deliveries] == [dead.delivery_id]
    assert (page.pending, page.failed, page.dead) == (0, 0, 1)
    assert receiver.all()[0].json["type"] == "run.cancelled"
    receiver.default = "ok"
    again = harness.client("alice").notifications.RedeliverDelivery(
        notification_pb2.RedeliverDeliveryRequest(delivery_id=dead.delivery_id)
    )
    assert again.delivery.state == notification_pb2.DELIVERY_STATE_PENDING
    assert again.delivery.attempts == 0
    wait_state(harness, run.run_id, notification_pb2.DELIVERY_STATE_DELIVERED)
    ids = {r.delivery_id for r in receiver.all()}
    assert ids == {dead.delivery_id}
    assert len({r.body for r in receiver.all()}) == 1  # the same bytes every try


def test_operators_only_and_bad_input(harness: Harness) -> None:
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        harness.client("agent").notifications.ListDeliveries(
            notification_pb2.ListDeliveriesRequest()
        )
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        harness.client("agent").notifications.RedeliverDelivery(
            notification_pb2.RedeliverDeliveryRequest(delivery_id="msg_x")
        )
    # A human's grant, as docs/operations.md says: an agent granted "*" is refused too.
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "HUMAN_REQUIRED"):
        harness.client("rogue").notifications.ListDeliveries(
            notification_pb2.ListDeliveriesRequest()
        )
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "HUMAN_REQUIRED"):
        harness.client("rogue").notifications.RedeliverDelivery(
            notification_pb2.RedeliverDeliveryRequest(delivery_id="msg_x")
        )
    with expect_error(grpc.StatusCode.NOT_FOUND, "DELIVERY_NOT_FOUND"):
        harness.client("alice").notifications.RedeliverDelivery(
            notification_pb2.RedeliverDeliveryRequest(delivery_id="msg_nothing")
        )
    for request, reason in (
        (notification_pb2.ListDeliveriesRequest(page_size=1001), "PAGE_INVALID"),
        (notification_pb2.ListDeliveriesRequest(page_token="x"), "PAGE_INVALID"),
        (notification_pb2.ListDeliveriesRequest(state=99), "ENUM_INVALID"),  # type: ignore[arg-type]
    ):
        with expect_error(grpc.StatusCode.INVALID_ARGUMENT, reason):
            harness.client("alice").notifications.ListDeliveries(request)


def test_listing_pages_newest_first(harness: Harness, receiver: Receiver) -> None:
    run_ids = []
    for index in range(3):
        run = start(harness, PLAN, notify=notify(webhooks=["ops"]), request_id=f"p{index}").run
        harness.client("alice").runs.StopRun(run_pb2.StopRunRequest(run_id=run.run_id))
        run_ids.append(run.run_id)
    receiver.wait_for(lambda r: len(r.accepted()) == 3)
    first = deliveries(harness, page_size=2)
    second = deliveries(harness, page_size=2, page_token=first.next_page_token)
    assert [d.run_id for d in [*first.deliveries, *second.deliveries]] == run_ids[::-1]
    assert second.next_page_token == ""
    only = deliveries(harness, run_id=run_ids[1], destination="ops")
    assert [d.run_id for d in only.deliveries] == [run_ids[1]]


def test_reply_to_posts_the_outcome_into_the_starters_subscription(harness: Harness) -> None:
    asked = notify(reply_to=True, reply_template="pick the winner:")
    run = start(harness, PLAN, subscriber="session-1", notify=asked).run
    drive(harness, run.run_id)
    events = harness.client("agent").events.ListEvents(
        event_pb2.ListEventsRequest(subscriber="session-1")
    )
    replies = [e for e in events.events if e.kind == event_pb2.EVENT_KIND_RUN_REPLY]
    assert len(replies) == 1
    payload = json.loads(replies[0].payload_json)
    assert payload["run_id"] == run.run_id and payload["status"] == "COMPLETED"
    assert payload["result"] == "done:a" and payload["template"] == "pick the winner:"
    assert payload["delivery_id"].startswith("msg_")
    assert replies[0].seq == events.events[-1].seq  # after RUN_COMPLETED, same transaction
    assert deliveries(harness).deliveries == []  # no webhook asked for


def test_the_outcome_is_pushed_at_the_real_end_not_when_the_output_finished(
    harness: Harness,
) -> None:
    asked = notify(webhooks=["ops"], reply_to=True)
    orphaned = definition("out", out=node(), side=node(effects="external"))
    run = start(harness, orphaned, subscriber="session-2", notify=asked).run
    tasks = {task.node_uid: task for task in claim(harness)}
    complete(harness, tasks["out"], "done")  # the output finished; the orphan still runs

    def replies() -> list[event_pb2.Event]:
        events = harness.client("agent").events.ListEvents(
            event_pb2.ListEventsRequest(subscriber="session-2")
        )
        return [e for e in events.events if e.kind == event_pb2.EVENT_KIND_RUN_REPLY]

    completing = harness.client("agent").runs.GetRun(run_pb2.GetRunRequest(run_id=run.run_id))
    assert completing.run.state == run_pb2.RUN_STATE_COMPLETING
    assert replies() == [] and deliveries(harness).deliveries == []
    fail(harness, tasks["side"], "stopped before the call")  # its report settles it
    [reply] = replies()
    assert json.loads(reply.payload_json)["status"] == "COMPLETED"
    assert [d.run_id for d in deliveries(harness).deliveries] == [run.run_id]
