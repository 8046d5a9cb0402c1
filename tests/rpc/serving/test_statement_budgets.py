"""Issue 26 item 3: the SQL statements each command costs, kept in a test so that they
cannot creep back.

Every statement SQLite runs on any connection of the server is counted (sqlite3's trace
callback, transaction control included: BEGIN, SAVEPOINT, COMMIT cost a step each), from
the moment a call is sent until its answer is back, reads outside the write transaction
included. Not counted: a new connection's PRAGMAs (one per thread, once) and credential
lookups (cached for a quarter of a second, so their count depends on timing). The server
runs on a test clock with no sweeper, so nothing else runs meanwhile. A budget is
today's count: lowering it is progress (lower the number here); exceeding it fails with
the statements of the call, so that the new one can be found.

And none of these calls runs a statement through SQLAlchemy's execution path (its
``before_cursor_execute`` event): the hot path's statements are prepared
:class:`~praxis.store.db.statements.Statement` s, run on the driver's cursor. A query built
with ``select(...)`` per call costs more than the statement itself (a StartRun's
archived-request check built one: 15% of a StartRun server's time).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import Engine, event

from aiws.engine.v1 import registry_pb2, run_pb2
from praxis.store.controls.rows import CLOCK_STEP_MS
from tests.support.harness import Harness, start_server
from tests.support.registry import (
    activate_cmd,
    approve,
    execute,
    propose_cmd,
    ref,
    registered,
    variant,
)
from tests.support.runtime import claim, complete, definition, get_run, json_out, node, start

T = TypeVar("T")
# Statements per call today (SQLite). Lower them when a change saves statements.
BUDGETS = {
    "StartRun (3-node chain)": 17,
    "StartRun of a ref": 19,
    "ClaimTasks (one task)": 15,
    "CompleteTask (readies the next node)": 14,
    "CompleteTask (completes the run)": 13,
    "3-node chain, start to end": 103,
    "Execute PROPOSE": 8,
    "Execute PROPOSE (moves the clock's mark)": 9,
    "Execute ACTIVATE": 11,
    "Review ACTIVATE": 3,
}
CHAIN = definition(
    "c",
    a=node(output=json_out(), effects="idempotent"),
    b=node("node:a", ("a",), json_out(), effects="idempotent"),
    c=node("node:b", ("b",), json_out(), effects="idempotent"),
)


class Trace:
    """The statements of the transactions every connection opened since :func:`traced`
    runs, flushed when each transaction ends."""

    def __init__(self) -> None:
        self.statements: list[str] = []
        self.total = 0  # of every counted call
        self.compiled: list[str] | None = None  # through SQLAlchemy, while a call runs
        self._lock = threading.Lock()

    def connection(self) -> Callable[[str], None]:
        """The trace callback of one new connection."""
        pending: list[str] = []

        def record(statement: str) -> None:
            if statement.startswith(("--", "PRAGMA")):
                return  # a trigger's sub-program; a new connection's set-up (per thread)
            pending.append(statement)
            if statement not in ("COMMIT", "ROLLBACK"):
                return
            done = list(pending)
            pending.clear()
            if all(s in ("BEGIN", "COMMIT") or "FROM principals" in s for s in done):
                return  # a credential lookup: cached for CACHE_TTL_S, so timing-dependent
            with self._lock:
                self.statements.extend(done)

        return record

    def count(self, name: str, call: Callable[[], T]) -> T:
        """``call()``, asserting that it costs at most its budget of statements."""
        with self._lock:
            self.statements.clear()
            self.compiled = []
        value = call()
        with self._lock:
            used, statements = len(self.statements), list(self.statements)
            compiled, self.compiled = self.compiled, None
        assert not compiled, f"{name} ran statements through SQLAlchemy: {compiled}"
        assert used <= BUDGETS[name], (
            f"{name}: {used} statements, budget {BUDGETS[name]}:\n" + "\n".join(statements)
        )
        self.total += used
        return value


@pytest.fixture
def traced(tmp_path: Path) -> Iterator[tuple[Harness, Trace]]:
    trace = Trace()

    def on_connect(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
        dbapi_connection.set_trace_callback(trace.connection())

    def compiled(_connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        with trace._lock:
            if trace.compiled is not None and "FROM principals" not in statement:
                trace.compiled.append(statement)  # (a credential lookup: timing-dependent)

    event.listen(Engine, "connect", on_connect)
    event.listen(Engine, "before_cursor_execute", compiled)
    h = start_server(tmp_path / "praxis.db", sweeper=False)
    try:
        yield h, trace
    finally:
        h.close()
        event.remove(Engine, "connect", on_connect)
        event.remove(Engine, "before_cursor_execute", compiled)


def test_a_three_node_chain_stays_within_its_statement_budget(
    traced: tuple[Harness, Trace],
) -> None:
    h, trace = traced
    start(h, CHAIN, {"x": 1}, request_id="warm-up")  # first-use reads (definitions, models)
    for _ in range(3):
        for task in claim(h):
            complete(h, task, {"ok": True})
    trace.total = 0
    run_id = trace.count(
        "StartRun (3-node chain)", lambda: start(h, CHAIN, {"x": 2}, request_id="measured")
    ).run.run_id
    for step in ("readies the next node", "readies the next node", "completes the run"):
        tasks = trace.count("ClaimTasks (one task)", lambda: claim(h))
        assert len(tasks) == 1
        trace.count(f"CompleteTask ({step})", partial(complete, h, tasks[0], {"ok": True}))
    assert trace.total <= BUDGETS["3-node chain, start to end"], trace.total
    assert get_run(h, run_id).state == run_pb2.RUN_STATE_COMPLETED


def test_registry_commands_stay_within_their_statement_budgets(
    traced: tuple[Harness, Trace],
) -> None:
    h, trace = traced
    warm = registered(h, ref("wo-s", "run-w"))  # first-use reads and connections
    execute(h, "agent", "req-w1", propose_cmd(warm, "w1", 1))
    r = registered(h, ref("wo-s", "run-s"))
    epochs = h.epochs("wo-s")  # read by the caller before, not part of the command
    trace.count(
        "Execute PROPOSE", lambda: execute(h, "agent", "req-p1", propose_cmd(r, "p1", 1), epochs)
    )
    command = activate_cmd(r, "p1", 1, "ap-act-1")
    review = registry_pb2.ReviewRequest(epochs=epochs, command=command)
    trace.count("Review ACTIVATE", lambda: h.client("alice").registry.Review(review))
    approve(h, command, "ap-act-1", epochs=epochs)
    trace.count("Execute ACTIVATE", lambda: execute(h, "alice", "req-a1", command, epochs))


def test_registry_commands_on_a_running_clock_write_its_mark_once_a_step(
    traced: tuple[Harness, Trace],
) -> None:
    """The clock's high-water mark is written when a command's clock read is more than
    ``CLOCK_STEP_MS`` past it, not by every command whose clock moved."""
    h, trace = traced
    warm = registered(h, ref("wo-s", "run-w"))  # writes the mark (first-use reads too)
    execute(h, "agent", "req-w1", propose_cmd(warm, "w1", 1))
    r = registered(h, ref("wo-s", "run-s"))
    epochs = h.epochs("wo-s")
    h.clock.advance(CLOCK_STEP_MS // 2)
    trace.count(
        "Execute PROPOSE", lambda: execute(h, "agent", "req-p1", propose_cmd(r, "p1", 1), epochs)
    )
    assert not [s for s in trace.statements if "meta" in s.split("(")[0]]
    command = activate_cmd(r, "p1", 1, "ap-act-1")
    approve(h, command, "ap-act-1", epochs=epochs)
    h.clock.advance(CLOCK_STEP_MS // 2)  # the mark's own time + CLOCK_STEP_MS: kept
    trace.count("Execute ACTIVATE", lambda: execute(h, "alice", "req-a1", command, epochs))
    assert not [s for s in trace.statements if "meta" in s.split("(")[0]]
    h.clock.advance(1)  # past the step: this command moves the mark
    trace.count(
        "Execute PROPOSE (moves the clock's mark)",
        lambda: execute(h, "agent", "req-p2", propose_cmd(r, "p2", 2, variant(3)), epochs),
    )
    assert [s for s in trace.statements if s.startswith("UPDATE meta")]


def test_a_governed_start_runs_no_statement_through_sqlalchemy(
    traced: tuple[Harness, Trace],
) -> None:
    """A StartRun of a registered ref binds its head with prepared statements too."""
    h, trace = traced
    registered(h, ref("wo-g", "run-w"))
    start(h, ref=ref("wo-g", "run-w"), request_id="warm-up")  # first-use reads
    registered(h, ref("wo-g", "run-g"))
    run = trace.count(
        "StartRun of a ref", lambda: start(h, ref=ref("wo-g", "run-g"), request_id="measured")
    ).run
    assert run.ref.run_id == "run-g" and run.revision == 1
