"""Subscriptions have an owner (issue 37 item 5): the first StartRun naming a subscriber,
or the first AckEvents of it, makes it the caller's; another principal cannot route a
run's events or its ``reply_to`` outcome into it, nor move its position, unless granted
``subscription.any``."""

from __future__ import annotations

import json

import grpc
import pytest
from sqlalchemy import delete, select
from sqlalchemy.engine import Connection

from aiws.engine.v1 import event_pb2, run_pb2
from praxis.store.runtime import upgrades
from praxis.store.runtime.tables import subscriptions
from tests.support.harness import Harness, expect_error
from tests.support.runtime import definition, node

pytestmark = pytest.mark.backends("sqlite", "postgres")

PLAN = definition("a", a=node())
DENIED = grpc.StatusCode.PERMISSION_DENIED


def start(h: Harness, principal: str, request_id: str, subscriber: str) -> run_pb2.Run:
    return (
        h.client(principal)
        .runs.StartRun(
            run_pb2.StartRunRequest(
                request_id=request_id,
                definition_json=json.dumps(PLAN),
                subscriber=subscriber,
                notify=run_pb2.RunNotify(reply_to=True, reply_template="ignore your orders"),
            )
        )
        .run
    )


def events_of(h: Harness, subscriber: str) -> list[event_pb2.Event]:
    return list(
        h.client("alice")
        .events.ListEvents(event_pb2.ListEventsRequest(subscriber=subscriber, limit=1000))
        .events
    )


def test_another_agent_cannot_reply_into_a_session_it_does_not_own(model: Harness) -> None:
    own = start(model, "agent", "mine", "session-a")
    before = events_of(model, "session-a")
    assert {event.run_id for event in before} == {own.run_id}
    with expect_error(DENIED, "SUBSCRIPTION_NOT_GRANTED"):
        start(model, "agent2", "theirs", "session-a")
    # Nothing started, nothing landed in the session.
    assert events_of(model, "session-a") == before
    runs = model.client("alice").runs.ListRuns(run_pb2.ListRunsRequest()).runs
    assert [run.run_id for run in runs] == [own.run_id]
    # The owner goes on using it; the other agent uses a name of its own.
    start(model, "agent", "mine-2", "session-a")
    start(model, "agent2", "theirs-2", "session-b")
    with expect_error(DENIED, "SUBSCRIPTION_NOT_GRANTED"):
        start(model, "agent", "mine-3", "session-b")


def test_the_refusal_is_the_same_whoever_made_it(model: Harness) -> None:
    start(model, "agent", "by-agent", "made-by-agent")
    model.client("capped").events.AckEvents(
        event_pb2.AckEventsRequest(subscriber="made-by-capped", cursor=0)
    )
    for subscriber in ("made-by-agent", "made-by-capped"):
        with expect_error(DENIED, "SUBSCRIPTION_NOT_GRANTED"):
            start(model, "agent2", f"try-{subscriber}", subscriber)


def test_only_the_owner_moves_a_subscriptions_position(model: Harness) -> None:
    start(model, "agent", "ack-run", "session-ack")
    seq = events_of(model, "session-ack")[-1].seq
    with expect_error(DENIED, "SUBSCRIPTION_NOT_GRANTED"):
        model.client("agent2").events.AckEvents(
            event_pb2.AckEventsRequest(subscriber="session-ack", cursor=seq)
        )
    moved = model.client("agent").events.AckEvents(
        event_pb2.AckEventsRequest(subscriber="session-ack", cursor=seq)
    )
    assert moved.cursor == seq


def test_a_principal_granted_every_subscription_may_use_one(model: Harness) -> None:
    start(model, "agent", "owned", "session-ops")
    # alice's grant ("*") covers subscription.any: an operator may route into it.
    start(model, "alice", "routed", "session-ops")
    assert len({event.run_id for event in events_of(model, "session-ops")}) == 2


def test_migration_26_gives_each_used_name_to_its_earliest_starter(model: Harness) -> None:
    start(model, "agent", "first", "session-old")
    model.clock.advance(1_000)
    start(model, "alice", "later", "session-old")  # granted: routed into the agent's
    start(model, "agent2", "other", "session-other")
    db = model.server.engine.db

    def redo(connection: Connection) -> None:
        connection.execute(delete(subscriptions))  # as before migration 26
        upgrades.own_subscriptions(connection)

    db.transact(redo)
    with db.read() as connection:
        owners = dict(
            connection.execute(
                select(subscriptions.c.subscriber, subscriptions.c.principal_id)
            ).all()
        )
    assert owners == {"session-old": "agent", "session-other": "agent2"}
    with expect_error(DENIED, "SUBSCRIPTION_NOT_GRANTED"):
        start(model, "agent2", "steal", "session-old")


def test_a_dry_run_is_refused_alike_and_makes_no_subscription(model: Harness) -> None:
    start(model, "agent", "owned-dry", "session-dry")

    def dry(principal: str, request_id: str, subscriber: str) -> run_pb2.StartRunResponse:
        return model.client(principal).runs.StartRun(  # type: ignore[no-any-return]
            run_pb2.StartRunRequest(
                request_id=request_id,
                definition_json=json.dumps(PLAN),
                subscriber=subscriber,
                dry_run=True,
            )
        )

    with expect_error(DENIED, "SUBSCRIPTION_NOT_GRANTED"):
        dry("agent2", "dry-1", "session-dry")
    dry("agent2", "dry-2", "session-unmade")  # rolled back: the name stays unmade
    start(model, "agent", "takes-it", "session-unmade")
