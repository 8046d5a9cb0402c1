"""A run's trace, stored: its trace context and the start times of its open spans.

Migration 11. ``run_traces`` holds each traced run's W3C trace context (the caller's
span of ``StartRun`` as parent, or a new trace); ``run_trace_spans`` holds the node and
attempt spans that are open, with their start times. Both sit beside the run's rows, out
of the replayed core state: :mod:`praxis.store.run_log` neither writes nor reads them.

:class:`RunTraces` is called inside each command's transaction (``Effects.trace``) with
the state before and the outcome; it opens and closes spans by comparing them, and hands
the closed ones to the exporter after the commit, so a rolled-back command exports
nothing. Every process computes the same span ids (:func:`praxis.tracing.derived_span_id`),
so any process may close a span another opened, before or after a restart. The rows of
a run are deleted when its run span ends.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import TYPE_CHECKING

from sqlalchemy import BigInteger, Column, Integer, String, Table, Text, bindparam, delete, select
from sqlalchemy.engine import Connection

from praxis.core import run as core
from praxis.store import dialect, migrations
from praxis.store.database import Database
from praxis.store.schema import metadata
from praxis.tracing import (
    Exporter,
    SpanRecord,
    TraceContext,
    derived_span_id,
    format_traceparent,
)

if TYPE_CHECKING:
    from praxis.store.run_rows import RunRecord

VERSION = 11
RUNNING = core.NodeStatus.RUNNING
CACHE_RUNS = 4096  # trace contexts kept in memory (they never change once written)

run_traces = Table(
    "run_traces",
    metadata,
    Column("run_id", String(64), primary_key=True),
    Column("trace_id", String(32), nullable=False),
    Column("parent_span_id", String(16), nullable=False),  # '' for a run that began a trace
    Column("flags", Integer, nullable=False),
    Column("trace_state", Text, nullable=False),
    Column("started_at_ms", BigInteger, nullable=False),
)

run_trace_spans = Table(
    "run_trace_spans",
    metadata,
    Column("run_id", String(64), primary_key=True),
    Column("span_key", String(300), primary_key=True),  # node:<uid> or attempt:<attempt id>
    Column("span_id", String(16), nullable=False),
    Column("started_at_ms", BigInteger, nullable=False),
)

migrations.register(migrations.Migration(VERSION, "run_traces", (run_traces, run_trace_spans)))

_LOAD = select(run_traces).where(run_traces.c.run_id == bindparam("rid"))
_SPAN_TIMES = (run_trace_spans.c.span_key, run_trace_spans.c.started_at_ms)
_CLOSE = (
    delete(run_trace_spans)
    .where(
        run_trace_spans.c.run_id == bindparam("rid"),
        run_trace_spans.c.span_key.in_(bindparam("keys", expanding=True)),
    )
    .returning(*_SPAN_TIMES)
)
_CLOSE_ALL = (
    delete(run_trace_spans)
    .where(run_trace_spans.c.run_id == bindparam("rid"))
    .returning(*_SPAN_TIMES)
)
_DROP_RUN = delete(run_traces).where(run_traces.c.run_id == bindparam("rid"))


class _Run:
    """A traced run's context, as stored."""

    __slots__ = ("flags", "parent_span_id", "span_id", "started_at_ms", "state", "trace_id")

    def __init__(
        self, trace_id: int, parent_span_id: int, flags: int, state: str, started_at_ms: int
    ) -> None:
        self.trace_id = trace_id
        self.parent_span_id = parent_span_id
        self.flags = flags
        self.state = state
        self.started_at_ms = started_at_ms
        self.span_id = derived_span_id(trace_id, "run")


class RunTraces:
    """Opens, stores and closes the spans of runs (tracing on only)."""

    def __init__(self, exporter: Exporter) -> None:
        self.exporter = exporter
        self._runs: OrderedDict[str, _Run] = OrderedDict()
        self._lock = threading.Lock()

    # --- the run's trace context ------------------------------------------------------

    def started(
        self, connection: Connection, run_id: str, parent: TraceContext | None, now: int
    ) -> None:
        """Records a new run's trace: the caller's (``parent``) or a new one."""
        trace_id = parent.trace_id if parent is not None else self.exporter.new_trace_id()
        sampled = self.exporter.sample(parent, trace_id)
        flags = ((parent.flags if parent is not None else 0) & ~1) | int(sampled)
        connection.execute(
            run_traces.insert().values(
                run_id=run_id,
                trace_id=f"{trace_id:032x}",
                parent_span_id=f"{parent.span_id:016x}" if parent is not None else "",
                flags=flags,
                trace_state=parent.state if parent is not None else "",
                started_at_ms=now,
            )
        )

    def _context(self, connection: Connection, run_id: str) -> _Run | None:
        with self._lock:
            found = self._runs.get(run_id)
        if found is not None:
            return found
        row = connection.execute(_LOAD, {"rid": run_id}).first()
        if row is None:
            return None
        found = _Run(
            int(row.trace_id, 16),
            int(row.parent_span_id, 16) if row.parent_span_id else 0,
            row.flags,
            row.trace_state,
            row.started_at_ms,
        )
        with self._lock:
            self._runs[run_id] = found
            while len(self._runs) > CACHE_RUNS:
                self._runs.popitem(last=False)
        return found

    def traceparent(self, connection: Connection, run_id: str, attempt_id: str) -> str:
        """The attempt's span as a ``traceparent`` ('' for a run without a trace)."""
        found = self._context(connection, run_id)
        if found is None:
            return ""
        span_id = derived_span_id(found.trace_id, "attempt:" + attempt_id)
        return format_traceparent(found.trace_id, span_id, found.flags)

    # --- spans ------------------------------------------------------------------------

    def observe(
        self, connection: Connection, before: RunRecord, outcome: core.Outcome, now: int
    ) -> None:
        """Opens and closes the spans ``outcome`` implies (inside its transaction)."""
        old, new = before.state, outcome.state
        found = self._context(connection, new.run_id)
        if found is None or not found.flags & 1:
            return  # not traced, or not sampled: nothing to record
        opened: list[str] = []
        closing: dict[str, tuple[str, core.NodeRun]] = {}  # key -> (kind, node)
        for uid in outcome.changed | outcome.removed:
            was, now_node = old.nodes.get(uid), new.nodes.get(uid)
            ran = was.attempt_id if was and was.status is RUNNING else ""
            runs = now_node.attempt_id if now_node and now_node.status is RUNNING else ""
            last = now_node or was
            if last is not None and ran and ran != runs:
                closing["attempt:" + ran] = ("attempt", last)
            if now_node is not None and runs and runs != ran:
                opened.append("attempt:" + runs)
                if now_node.attempts == 1:
                    opened.append("node:" + uid)  # the node's span opens at its first dispatch
            if now_node is not None and now_node.status not in core.LIVE:
                closing["node:" + uid] = ("node", now_node)
        run_ends = new.status in core.TERMINAL and old.status not in core.TERMINAL
        if not opened and not closing and not run_ends:
            return
        stored: dict[str, int] = {}  # the closed spans' start times, their rows deleted
        if run_ends:
            stored = dict(connection.execute(_CLOSE_ALL, {"rid": new.run_id}).tuples().all())
            connection.execute(_DROP_RUN, {"rid": new.run_id})
            Database.after_commit(connection, functools.partial(self._forget, new.run_id))
        elif closing:
            found_rows = connection.execute(_CLOSE, {"rid": new.run_id, "keys": list(closing)})
            stored = dict(found_rows.tuples().all())
        if opened and not run_ends:
            connection.execute(
                dialect.insert_missing(connection, run_trace_spans),
                [
                    {
                        "run_id": new.run_id,
                        "span_key": key,
                        "span_id": _hex(found, key),
                        "started_at_ms": now,
                    }
                    for key in opened
                ],
            )
        spans = self._closed(found, new, outcome, closing, stored, now)
        if run_ends:
            spans += self._orphans(found, new, stored, closing, now)
            spans.append(self._run_span(found, new, now))
        if spans:
            Database.after_commit(connection, functools.partial(self._export, spans))

    def _closed(
        self,
        found: _Run,
        state: core.RunState,
        outcome: core.Outcome,
        closing: dict[str, tuple[str, core.NodeRun]],
        stored: dict[str, int],
        now: int,
    ) -> list[SpanRecord]:
        attempts = {attempt.attempt_id: attempt for attempt in outcome.attempts}
        spans = []
        for key, (kind, node) in closing.items():
            if key not in stored:
                continue  # never dispatched while traced (skipped, cancelled while ready)
            if kind == "attempt":
                attempt_id = key.partition(":")[2]
                spans.append(
                    self._attempt_span(found, state, node, attempt_id, attempts, stored[key], now)
                )
            else:
                spans.append(self._node_span(found, state, node, stored[key], now))
        return spans

    def _orphans(
        self,
        found: _Run,
        state: core.RunState,
        stored: dict[str, int],
        closing: dict[str, tuple[str, core.NodeRun]],
        now: int,
    ) -> list[SpanRecord]:
        """Spans still open when the run ends (the run was stopped): closed with it."""
        spans = []
        for key, started in stored.items():
            if key in closing:
                continue
            kind, _, rest = key.partition(":")
            node = state.nodes.get(rest) if kind == "node" else None
            if kind == "node" and node is not None:
                spans.append(self._node_span(found, state, node, started, now))
            elif kind == "attempt":
                uid = next((uid for uid, n in state.nodes.items() if n.attempt_id == rest), None)
                if uid is not None:
                    spans.append(
                        self._attempt_span(found, state, state.nodes[uid], rest, {}, started, now)
                    )
        return spans

    def _run_span(self, found: _Run, state: core.RunState, now: int) -> SpanRecord:
        attributes: list[tuple[str, str | int | bool]] = [
            ("praxis.run_id", state.run_id),
            ("praxis.run.status", state.status.value),
            ("praxis.run.nodes", len(state.nodes)),
            ("praxis.definition_digest", state.definition.digest),
        ]
        if state.result_reason:
            attributes.append(("praxis.run.result_reason", state.result_reason))
        failed = state.status is not core.RunStatus.COMPLETED
        return SpanRecord(
            name="praxis.run",
            trace_id=found.trace_id,
            span_id=found.span_id,
            parent_span_id=found.parent_span_id,
            flags=found.flags,
            start_ms=found.started_at_ms,
            end_ms=now,
            attributes=tuple(attributes),
            error=(state.result_error or state.status.value) if failed else None,
            trace_state=found.state,
            remote_parent=True,
        )

    def _node_span(
        self, found: _Run, state: core.RunState, node: core.NodeRun, started: int, now: int
    ) -> SpanRecord:
        attributes = [
            *_node_attributes(state, node),
            ("praxis.node.status", node.status.value),
            ("praxis.node.attempts", node.attempts),
        ]
        return SpanRecord(
            name="praxis.node " + node.node_id,
            trace_id=found.trace_id,
            span_id=derived_span_id(found.trace_id, "node:" + node.uid),
            parent_span_id=found.span_id,
            flags=found.flags,
            start_ms=started,
            end_ms=now,
            attributes=tuple(attributes),
            error=(node.error or node.status.value)
            if node.status is not core.NodeStatus.DONE
            else None,
            trace_state=found.state,
        )

    def _attempt_span(
        self,
        found: _Run,
        state: core.RunState,
        node: core.NodeRun,
        attempt_id: str,
        attempts: dict[str, core.Attempt],
        started: int,
        now: int,
    ) -> SpanRecord:
        record = attempts.get(attempt_id)
        status = record.status.value if record is not None else core.AttemptStatus.CANCELLED.value
        attributes: list[tuple[str, str | int | bool]] = [
            *_node_attributes(state, node),
            ("praxis.attempt_id", attempt_id),
            ("praxis.attempt.status", status),
        ]
        if record is not None:
            attributes += [
                ("praxis.attempt", record.number),
                ("praxis.worker_id", record.worker_id),
                ("praxis.effect", record.effect or "UNSPECIFIED"),
                ("praxis.will_retry", record.will_retry),
                ("praxis.cost_microcredits", record.cost_microcredits),
            ]
        completed = status == core.AttemptStatus.COMPLETED.value
        return SpanRecord(
            name="praxis.attempt " + node.node_id,
            trace_id=found.trace_id,
            span_id=derived_span_id(found.trace_id, "attempt:" + attempt_id),
            parent_span_id=derived_span_id(found.trace_id, "node:" + node.uid),
            flags=found.flags,
            start_ms=started,
            end_ms=now,
            attributes=tuple(attributes),
            error=None if completed else (node.error or status),
            trace_state=found.state,
        )

    def _export(self, spans: Iterable[SpanRecord]) -> None:
        for span in spans:
            self.exporter.export(span)

    def _forget(self, run_id: str) -> None:
        with self._lock:
            self._runs.pop(run_id, None)


def _hex(found: _Run, key: str) -> str:
    return f"{derived_span_id(found.trace_id, key):016x}"


def _node_attributes(
    state: core.RunState, node: core.NodeRun
) -> list[tuple[str, str | int | bool]]:
    spec = state.definition.nodes.get(node.node_id)
    attributes: list[tuple[str, str | int | bool]] = [
        ("praxis.run_id", state.run_id),
        ("praxis.node_id", node.node_id),
        ("praxis.node_uid", node.uid),
    ]
    if node.item >= 0:
        attributes.append(("praxis.node.item", node.item))
    if spec is not None:
        attributes.append(("praxis.model", spec.agent.model))
    return attributes
