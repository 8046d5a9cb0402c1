"""Issue 26 item 4: the round trips to PostgreSQL each command costs, kept in a test so
that they cannot creep back (the SQLite statement budgets are in
``tests/rpc/serving/test_statement_budgets.py``).

A round trip is counted where the client waits for PostgreSQL's answers: each libpq
statement answered alone or pipeline answered together (:mod:`praxis.store.db.libpq`),
each statement psycopg's cursor sends for SQLAlchemy, and the COMMIT. The commands run
through the stores (no gRPC), one at a time, with the sweeper off. A budget is today's
count: lowering it is progress (lower the number here); exceeding it fails with the
places that waited, so that the new one can be found.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Iterator
from typing import Any

import pytest
from psycopg import generators
from sqlalchemy import event

from praxis.app import Engine, Settings
from praxis.clock import SystemClock
from praxis.core import run as core
from praxis.core.records import Principal, PrincipalKind
from praxis.store.principals import lookups
from praxis.store.runtime.runs import StartRequest
from praxis.store.runtime.tasks import Claim, Settlement
from tests.support.harness import authority
from tests.support.postgres import Cluster
from tests.support.runtime import definition, json_out, node

AGENT = Principal("agent", PrincipalKind.AGENT)
CHAIN = json.dumps(
    definition(
        "c",
        a=node(output=json_out(), effects="idempotent"),
        b=node("node:a", ("a",), json_out(), effects="idempotent"),
        c=node("node:b", ("b",), json_out(), effects="idempotent"),
    )
)
# Round trips per command today (before issue 26 item 4, through psycopg's cursor and
# pipeline, a StartRun took about 15, a one-task claim 8 and a settlement 7).
BUDGETS = {"StartRun": 5, "claim of one task": 4, "settlement": 3}


class Waits:
    """Where the client waited for PostgreSQL, while counting."""

    def __init__(self) -> None:
        self.places: list[str] = []
        self.on = False

    def note(self, what: str) -> None:
        if self.on:
            frames = [
                f
                for f in traceback.extract_stack()
                if "/praxis/store/" in f.filename and "/praxis/store/db/" not in f.filename
            ]
            where = frames[-1] if frames else None
            self.places.append(f"{what} at {where.filename}:{where.lineno}" if where else what)


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> Waits:
    counted = Waits()
    for name in ("execute", "send"):  # libpq's answered statements and pipelines, COMMIT
        original = getattr(generators, name)

        def wrapped(pgconn: Any, _original: Any = original, _name: str = name) -> Any:
            counted.note(_name)
            return _original(pgconn)

        monkeypatch.setattr(generators, name, wrapped)
    return counted


@pytest.fixture
def engine(postgres_cluster: Cluster, waits: Waits) -> Iterator[Engine]:
    running = Engine(
        Settings(
            database_url=postgres_cluster.create_database(),
            authority=authority(),
            clock=SystemClock(),
            sweeper=False,
        )
    )

    @event.listens_for(running.db.engine, "before_cursor_execute")
    def _through_sqlalchemy(*args: Any) -> None:  # psycopg's cursor: one round trip
        waits.note(f"SQLAlchemy {str(args[2])[:60]!r}")

    try:
        yield running
    finally:
        running.close()


def _counted(waits: Waits, call: Any) -> tuple[Any, list[str]]:
    waits.places.clear()
    waits.on = True
    try:
        answer = call()
    finally:
        waits.on = False
    return answer, list(waits.places)


def test_round_trips_per_command_stay_within_their_budgets(
    engine: Engine, waits: Waits, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The principal's lookup, read by the warm-up, stays cached however slow the machine:
    # its refresh every CACHE_TTL_S (on this SystemClock) is not a command's round trip.
    monkeypatch.setattr(lookups, "CACHE_TTL_S", 3600.0)
    claim = Claim("w", ["echo"], 1, 30_000)
    engine.runs.start(AGENT, StartRequest("warm", CHAIN))  # prepares
    engine.tasks.settle_many(AGENT, [], claim)
    measured: dict[str, list[str]] = {}
    _started, measured["StartRun"] = _counted(
        waits, lambda: engine.runs.start(AGENT, StartRequest("r1", CHAIN))
    )
    settled, measured["claim of one task"] = _counted(
        waits, lambda: engine.tasks.settle_many(AGENT, [], claim)
    )
    _replies, tasks = settled
    task = tasks[0]
    done = Settlement(task.attempt_id, "w", core.Effect.APPLIED, "0", '{"ok": true}')
    replies, measured["settlement"] = _counted(
        waits, lambda: engine.tasks.settle_many(AGENT, [done], None)
    )
    assert isinstance(replies[0][0], core.Reply), replies  # type: ignore[index]
    over = {name: places for name, places in measured.items() if len(places) > BUDGETS[name]}
    assert not over, over
    assert {name: len(places) for name, places in measured.items()} == BUDGETS


def test_without_libpq_the_same_commands_run_through_psycopg(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A connection libpq does not serve (its client encoding is not UTF-8) runs every
    statement, savepoint, lock and pipeline through psycopg's cursor instead."""
    from praxis.store.db import libpq

    monkeypatch.setattr(libpq, "session", lambda _driver: None)
    claim = Claim("w", ["echo"], 8, 30_000)
    started = engine.runs.start(AGENT, StartRequest("r1", CHAIN))
    assert not isinstance(started, Exception)
    for _ in range(3):  # a, b, c: each settlement readies the next node
        settled = engine.tasks.settle_many(AGENT, [], claim)
        assert isinstance(settled, tuple), settled
        (task,) = settled[1]
        done = Settlement(task.attempt_id, "w", core.Effect.APPLIED, "0", '{"ok": true}')
        answered = engine.tasks.settle_many(AGENT, [done, done], None)
        assert isinstance(answered, tuple), answered
        replies = answered[0]
        assert all(isinstance(reply, core.Reply) for reply in replies), replies
    run = engine.runs.get_run(AGENT, started[0].state.run_id)  # type: ignore[index]
    assert run.state.status is core.RunStatus.COMPLETED  # type: ignore[union-attr]
