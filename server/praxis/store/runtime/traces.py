"""A run's trace, stored: its trace context and the start times of its open spans.

Migration 11. ``run_traces`` holds each traced run's W3C trace context (the caller's
span of ``StartRun`` as parent, or a new trace) and its start; ``run_trace_spans`` holds
the start of each node span that outlives its first attempt (a retry, a block, a wait).
An attempt span starts at its ``attempts`` row's dispatch time, so dispatch writes
nothing. Both tables sit beside the run's rows, out of the replayed core state:
:mod:`praxis.store.runtime.log` neither writes nor reads them.

:class:`RunTraces` is called inside each command's transaction (``Effects.trace``) with
the state before and the outcome, before the outcome's rows are written; it closes spans
by comparing them, and hands the closed ones to the exporter after the commit, so a
rolled-back command exports nothing. Every process derives the same span ids from the
stored trace id (:func:`praxis.observability.tracing.derived_span_id`), so any process
may close a span another opened, before or after a restart. A run's rows go when its run span ends.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Iterable

from sqlalchemy.engine import Connection

from praxis.core import run as core
from praxis.observability.tracing import (
    Exporter,
    SpanRecord,
    TraceContext,
    derived_span_id,
    format_traceparent,
)
from praxis.store.db.database import Database
from praxis.store.runtime.rows import traces as rows

CACHE_RUNS = 4096  # trace contexts kept in memory (they never change once written)


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
        rows.insert(
            connection,
            run_id=run_id,
            trace_id=f"{trace_id:032x}",
            parent_span_id=f"{parent.span_id:016x}" if parent is not None else "",
            flags=flags,
            trace_state=parent.state if parent is not None else "",
            started_at_ms=now,
        )

    def _context(self, connection: Connection, run_id: str) -> _Run | None:
        with self._lock:
            found = self._runs.get(run_id)
        if found is not None:
            return found
        row = rows.load(connection, run_id)
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
        self,
        connection: Connection,
        before: core.RunState,
        outcome: core.Outcome,
        command: core.Command,
        now: int,
    ) -> None:
        """Closes the spans ``outcome`` ends (inside its transaction, before its rows are
        written): nothing is written at dispatch, since an attempt's span starts at its
        ``attempts`` row's time; a node's start is stored only once its first attempt
        ended and the node lives on (a retry, a block, a wait)."""
        old, new = before, outcome.state
        found = self._context(connection, new.run_id)
        if found is None or not found.flags & 1:
            return  # not traced, or not sampled: nothing to record
        ending: list[tuple[core.NodeRun, str, int]] = []  # (node, attempt id, number)
        finished: list[core.NodeRun] = []
        for uid in outcome.changed | outcome.removed:
            was, now_node = old.nodes.get(uid), new.nodes.get(uid)
            last = now_node or was
            ran = was.attempt_id if was and was.status in core.HOLDING else ""
            runs = now_node.attempt_id if now_node and now_node.status in core.HOLDING else ""
            if last is not None and was is not None and ran and ran != runs:
                ending.append((last, ran, was.attempts))
            if now_node is not None and now_node.attempts and now_node.status not in core.LIVE:
                finished.append(now_node)
        run_ends = new.status in core.TERMINAL and old.status not in core.TERMINAL
        if not ending and not finished and not run_ends:
            return
        starts = self._attempt_starts(connection, command, [e[1] for e in ending])
        spans: list[SpanRecord] = []
        firsts: dict[str, int] = {}  # node uid -> its first attempt's start, ending now
        for node, attempt_id, number in ending:
            started = starts.get(attempt_id, now)
            spans.append(self._attempt_span(found, new, node, attempt_id, outcome, started, now))
            if number == 1:
                firsts[node.uid] = started
        stored = self._node_starts(connection, new.run_id, finished, firsts, run_ends)
        for node in finished:
            started = firsts.get(node.uid, stored.pop("node:" + node.uid, now))
            spans.append(self._node_span(found, new, node, started, now))
        live = {
            uid: at
            for uid, at in firsts.items()
            if uid in new.nodes and new.nodes[uid].status in core.LIVE
        }
        if run_ends:
            for key, started in stored.items():  # retried nodes a stop left unfinished
                left = new.nodes.get(key.partition(":")[2])
                if left is not None:
                    spans.append(self._node_span(found, new, left, started, now))
            spans.append(self._run_span(found, new, now))
            rows.drop(connection, new.run_id)
            Database.after_commit(connection, functools.partial(self._forget, new.run_id))
        elif live:
            starting = [
                {"run_id": new.run_id, "span_key": "node:" + uid, "span_id": _hex(found, uid)}
                | {"started_at_ms": at}
                for uid, at in live.items()
            ]
            rows.keep_span_starts(connection, starting)
        if spans:
            Database.after_commit(connection, functools.partial(self._export, spans))

    def _attempt_starts(
        self, connection: Connection, command: core.Command, attempt_ids: list[str]
    ) -> dict[str, int]:
        """When the attempts began: the settled attempt's record rides on its command;
        others (expiry, a stop) are read from their rows, not yet rewritten."""
        carried = getattr(command, "attempt", None)
        if isinstance(carried, core.Attempt) and [carried.attempt_id] == attempt_ids:
            return {carried.attempt_id: carried.at_ms}
        if not attempt_ids:
            return {}
        return rows.attempt_starts(connection, attempt_ids)

    def _node_starts(
        self,
        connection: Connection,
        run_id: str,
        finished: list[core.NodeRun],
        firsts: dict[str, int],
        run_ends: bool,
    ) -> dict[str, int]:
        """The stored starts of nodes whose first attempt ended earlier (rows deleted)."""
        if run_ends:
            return rows.close_all(connection, run_id)
        keys = ["node:" + node.uid for node in finished if node.uid not in firsts]
        if not keys:
            return {}
        return rows.close(connection, run_id, keys)

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
        outcome: core.Outcome,
        started: int,
        now: int,
    ) -> SpanRecord:
        record = next((a for a in outcome.attempts if a.attempt_id == attempt_id), None)
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


def _hex(found: _Run, uid: str) -> str:
    return f"{derived_span_id(found.trace_id, 'node:' + uid):016x}"


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
