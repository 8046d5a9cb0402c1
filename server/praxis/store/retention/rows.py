"""The SQL of archival: which runs are due, their rows, their deletion, tombstones.

Archival is cross-slice by nature (a run's rows live in the runtime and execution
tables), like the read-only views; it is the one writer that deletes them.

What is archived with a run (``RUN_TABLES``): its ``runs`` row, nodes, attempts, results,
events, command journal, labels, traces, segments and waits (and any queue or
reservation row, none for a finished run), a verification it still owed
(``assessments_due``: an accepted run may be archived unverified; the inbox item goes
with it), its workers' last progress, its notification and webhook deliveries, and
the execution log's events about those (``RUN_MODEL_EVENTS``: its segments started,
waits satisfied, resumes).

What is never touched: registry history, receipts and approvals; the reconciliations,
handoffs and assessments that refer to a run (decided records, kept) and their events;
contracts and spend; run definitions (shared by digest).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Table, and_, bindparam, delete, exists, false, func, insert, or_, select
from sqlalchemy.engine import Connection

from praxis.core.assessment import Kind
from praxis.core.effects import ReconciliationState
from praxis.core.handoff import State as HandoffState
from praxis.core.run.state import TERMINAL, RunStatus
from praxis.store.db import locks
from praxis.store.db.statements import Statement
from praxis.store.execution.tables import (
    assessments,
    assessments_due,
    handoffs,
    model_events,
    reconciliations,
    run_segments,
    waits,
)
from praxis.store.notifications.rows import FAILED, PENDING
from praxis.store.notifications.tables import deliveries, run_notifications
from praxis.store.retention.tables import archived_runs
from praxis.store.runtime.tables import (
    attempt_progress,
    attempts,
    contract_reservations,
    node_results,
    principal_reservations,
    ready_nodes,
    run_commands,
    run_events,
    run_labels,
    run_nodes,
    run_timers,
    run_trace_spans,
    run_traces,
    runs,
)

RUN_TABLES: tuple[Table, ...] = (
    runs,
    run_nodes,
    attempts,
    node_results,
    run_events,
    run_commands,
    run_labels,
    run_traces,
    run_trace_spans,
    run_segments,
    waits,
    assessments_due,
    attempt_progress,
    run_notifications,
    deliveries,
    ready_nodes,
    run_timers,
    contract_reservations,
    principal_reservations,
)
_FINISHED = [status.value for status in TERMINAL]
# Events of the execution model's log whose subject is the run and that record what the
# archived tables held; the others (assessed, costs, handoffs, reconciliations) stay.
RUN_MODEL_EVENTS = ("SEGMENT_STARTED", "WAIT_SATISFIED", "RUN_RESUMED")


def _run_model_events(run_ids: Sequence[str]) -> Any:
    return and_(
        model_events.c.subject.in_(list(run_ids)), model_events.c.kind.in_(RUN_MODEL_EVENTS)
    )


def candidates(
    connection: Connection,
    cutoff_ms: int,
    after: tuple[int, str],
    limit: int,
    patterns: Sequence[str] | None = None,
) -> list[Any]:
    """Finished runs that finished at or before ``cutoff_ms``, after the scan cursor
    ``after`` = (finished_at_ms, run_id), in that order (index ``runs_finished``); with
    ``patterns`` (work orders, or prefixes ending in ``*``), only runs of those."""
    done, run_id = after
    scope = [] if patterns is None else [_work_orders(patterns)]
    query = (
        select(
            runs.c.run_id,
            runs.c.work_order_id,
            runs.c.status,
            runs.c.finished_at_ms,
            runs.c.principal_id,
            runs.c.request_id,
            runs.c.version,
        )
        .where(
            runs.c.finished_at_ms > 0,
            runs.c.finished_at_ms <= cutoff_ms,
            or_(
                runs.c.finished_at_ms > done,
                and_(runs.c.finished_at_ms == done, runs.c.run_id > run_id),
            ),
            runs.c.status.in_(_FINISHED),
            *scope,
        )
        .order_by(runs.c.finished_at_ms, runs.c.run_id)
        .limit(limit)
    )
    return list(connection.execute(query).all())


def _work_orders(patterns: Sequence[str]) -> Any:
    return or_(
        false(),
        *(
            runs.c.work_order_id.startswith(p[:-1], autoescape=True)
            if p.endswith("*")
            else runs.c.work_order_id == p
            for p in patterns
        ),
    )


def referenced(connection: Connection, run_id: str) -> str:
    """Why the run may not be archived ('' when it may): a pending reconciliation, an
    unacknowledged handoff, a webhook not yet delivered (pending or failed, to be tried
    again), or (a completed run under a contract) no acceptance yet."""
    if connection.execute(
        select(
            exists().where(
                reconciliations.c.run_id == run_id,
                reconciliations.c.state == ReconciliationState.PENDING.value,
            )
        )
    ).scalar():
        return "a pending reconciliation"
    if connection.execute(
        select(
            exists().where(
                handoffs.c.run_id == run_id, handoffs.c.state == HandoffState.OFFERED.value
            )
        )
    ).scalar():
        return "an unacknowledged handoff"
    if connection.execute(
        select(
            exists().where(deliveries.c.run_id == run_id, deliveries.c.state.in_((PENDING, FAILED)))
        )
    ).scalar():
        return "a webhook not yet delivered"
    row = connection.execute(
        select(runs.c.status, runs.c.contract_id).where(runs.c.run_id == run_id)
    ).first()
    if row is not None and row.status == RunStatus.COMPLETED.value and row.contract_id:
        accepted = connection.execute(
            select(
                exists().where(
                    assessments.c.run_id == run_id,
                    assessments.c.kind == Kind.ACCEPTANCE.name,
                )
            )
        ).scalar()
        if not accepted:
            return "a pending acceptance"
    return ""


def _order(table: Table) -> list[Any]:
    keys = list(table.primary_key.columns)
    return keys or list(table.columns)


def rows_of(connection: Connection, run_id: str) -> dict[str, list[dict[str, Any]]]:
    """Every row the run has in :data:`RUN_TABLES`, by table (empty tables left out)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for table in RUN_TABLES:
        rows = connection.execute(
            select(table).where(table.c.run_id == run_id).order_by(*_order(table))
        ).all()
        if rows:
            found[table.name] = [dict(row._mapping) for row in rows]
    logged = connection.execute(
        select(model_events).where(_run_model_events([run_id])).order_by(model_events.c.seq)
    ).all()
    if logged:
        found[model_events.name] = [dict(row._mapping) for row in logged]
    return found


def current_version(connection: Connection, run_id: str) -> tuple[int, str] | None:
    """The run's (version, status), its row locked on PostgreSQL; ``None`` when gone."""
    locks.run(connection, run_id)
    row = connection.execute(
        select(runs.c.version, runs.c.status).where(runs.c.run_id == run_id)
    ).first()
    return None if row is None else (int(row.version), str(row.status))


def prune(connection: Connection, run_ids: Sequence[str]) -> None:
    """Deletes every row of the runs in :data:`RUN_TABLES` (the ``runs`` rows last)."""
    if not run_ids:
        return
    connection.execute(delete(model_events).where(_run_model_events(run_ids)))
    for table in reversed(RUN_TABLES):
        connection.execute(delete(table).where(table.c.run_id.in_(list(run_ids))))


def insert_tombstones(connection: Connection, tombstones: Sequence[dict[str, Any]]) -> None:
    """Records the archived runs."""
    if tombstones:
        connection.execute(insert(archived_runs), list(tombstones))


def tombstone(connection: Connection, run_id: str) -> Any:
    """The run's tombstone row, or ``None``."""
    return connection.execute(select(archived_runs).where(archived_runs.c.run_id == run_id)).first()


def tombstone_of_request(connection: Connection, principal_id: str, request_id: str) -> Any:
    """The tombstone of the run this principal's request started, or ``None`` (every
    StartRun of a new request id asks, in its transaction: a prepared statement)."""
    return _TOMBSTONE_OF_REQUEST.run(connection, {"pid": principal_id, "rid": request_id}).first()


_TOMBSTONE_OF_REQUEST = Statement(
    select(archived_runs).where(
        archived_runs.c.principal_id == bindparam("pid"),
        archived_runs.c.request_id == bindparam("rid"),
    )
)


def expirable(connection: Connection, before_ms: int, limit: int) -> list[int]:
    """The ``seq`` of up to ``limit`` of the oldest tombstones, archived at or before
    ``before_ms`` (tombstones are written in time order: the scan stops at the first
    younger one)."""
    oldest = (
        select(archived_runs.c.seq, archived_runs.c.archived_at_ms)
        .order_by(archived_runs.c.seq)
        .limit(limit)
    )
    found: list[int] = []
    for row in connection.execute(oldest):
        if row.archived_at_ms > before_ms:
            break
        found.append(int(row.seq))
    return found


def expire_tombstones(connection: Connection, seqs: Sequence[int], before_ms: int) -> int:
    """Deletes the tombstones ``seqs`` (still archived at or before ``before_ms``: a seq
    another process freed meanwhile may have been reused); how many."""
    if not seqs:
        return 0
    done = connection.execute(
        delete(archived_runs).where(
            archived_runs.c.seq.in_(list(seqs)), archived_runs.c.archived_at_ms <= before_ms
        )
    )
    return int(done.rowcount)


def count_tombstones(connection: Connection) -> int:
    """How many archived runs have a tombstone."""
    return int(connection.execute(select(func.count()).select_from(archived_runs)).scalar_one())
