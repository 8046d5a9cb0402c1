"""A run's stored trace (``run_traces``, ``run_trace_spans``, migration 11).

Each traced run's W3C trace context, and the start of each node span that outlives its
first attempt; the start times of attempts are read from their ``attempts`` rows.
:class:`praxis.store.runtime.traces.RunTraces` decides what to write and close.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row, bindparam, delete, select
from sqlalchemy.engine import Connection

from praxis.store.db import portable
from praxis.store.runtime.tables import attempts, run_trace_spans, run_traces

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
_ATTEMPT_STARTS = select(attempts.c.attempt_id, attempts.c.at_ms).where(
    attempts.c.attempt_id.in_(bindparam("ids", expanding=True))
)


def insert(connection: Connection, **values: Any) -> None:
    """Stores a new run's trace context (the columns of ``run_traces``)."""
    connection.execute(run_traces.insert().values(**values))


def load(connection: Connection, run_id: str) -> Row[Any] | None:
    """The run's stored trace context, or None for a run without a trace."""
    return connection.execute(_LOAD, {"rid": run_id}).first()


def drop(connection: Connection, run_id: str) -> None:
    """Deletes the run's trace context (its run span ended)."""
    connection.execute(_DROP_RUN, {"rid": run_id})


def keep_span_starts(connection: Connection, rows: list[dict[str, Any]]) -> None:
    """Stores the starts of node spans still open (a row already there is kept)."""
    connection.execute(portable.insert_missing(connection, run_trace_spans), rows)


def attempt_starts(connection: Connection, attempt_ids: list[str]) -> dict[str, int]:
    """attempt id -> its ``attempts`` row's time, for the ids given."""
    rows = connection.execute(_ATTEMPT_STARTS, {"ids": attempt_ids})
    return dict(rows.tuples().all())


def close_all(connection: Connection, run_id: str) -> dict[str, int]:
    """Deletes every stored span start of the run: span key -> start."""
    return dict(connection.execute(_CLOSE_ALL, {"rid": run_id}).tuples().all())


def close(connection: Connection, run_id: str, keys: list[str]) -> dict[str, int]:
    """Deletes the stored starts of the spans ``keys``: span key -> start."""
    return dict(connection.execute(_CLOSE, {"rid": run_id, "keys": keys}).tuples().all())
