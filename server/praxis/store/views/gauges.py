"""What the stored state looks like now, for the metrics endpoint (read at scrape time).

Each figure is one small query on an existing index, so a scrape costs the same however
many server processes there are (the endpoint's process asks once) and grows only with
the live work, not with history, except ``runs by state``, which counts the
``runs_status_created`` index (one query, a covering index scan that reads no table rows;
``tests/store/views/test_gauges.py`` checks the plan on SQLite).

A ready row is *claimable* when its retry backoff has elapsed and its work order is active
(the conditions of a claim, ``praxis.store.runtime.runs._READY``); the others are reported apart,
by why they wait, so ``praxis_tasks_ready`` with no claims means an idle worker pool.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import bindparam, case, func, select

from praxis.core.records import Control
from praxis.store.controls.tables import holds, work_orders
from praxis.store.db import files
from praxis.store.db.database import Database
from praxis.store.notifications.tables import deliveries
from praxis.store.runtime.tables import ready_nodes, run_nodes, run_timers, runs


@dataclass(frozen=True)
class StoredState:
    """Counts read in one snapshot.

    Attributes:
        ready: Claimable attempts per model: ready, out of retry backoff, their work
            order active.
        deferred: Ready attempts not claimable yet, per ``(model, reason)``: ``backoff``
            (a retry's backoff has not elapsed) or ``held`` (their work order is paused
            or being cancelled).
        leases: Attempts leased to a worker and not yet settled or expired.
        runs: Runs per state (``RUNNING``, ``COMPLETED``, ...).
        holds: Holds in place per kind.
        database_bytes: The size of the database (SQLite: the main file's pages;
            PostgreSQL: ``pg_database_size``), or ``None`` when it cannot be read.
    """

    ready: dict[str, int] = field(default_factory=dict)
    deferred: dict[tuple[str, str], int] = field(default_factory=dict)
    leases: int = 0
    runs: dict[str, int] = field(default_factory=dict)
    holds: dict[str, int] = field(default_factory=dict)
    database_bytes: int | None = None
    deliveries: dict[str, int] = field(default_factory=dict)
    """Webhook deliveries per state (a scan of the ``deliveries_due`` index)."""


_BACKOFF = ready_nodes.c.not_before_ms > bindparam("now")
_HELD = ready_nodes.c.work_order_id.in_(
    select(work_orders.c.work_order_id).where(work_orders.c.control != Control.ACTIVE.value)
)
_READY = select(
    ready_nodes.c.model,
    func.count(),
    func.sum(case((_BACKOFF, 1), else_=0)),
    func.sum(case((_BACKOFF, 0), (_HELD, 1), else_=0)),
).group_by(ready_nodes.c.model)
# Every running attempt has a timer row (its lease or timeout); waits have one too, so
# each timer row is checked for a RUNNING or STOPPING node by primary key. EXISTS (not a join) keeps
# the scan on run_timers (the live work): a join may be planned as a scan of run_nodes,
# which holds every node of history.
_LEASES = (
    select(func.count())
    .select_from(run_timers)
    .where(
        select(run_nodes.c.run_id)
        .where(
            run_nodes.c.run_id == run_timers.c.run_id,
            run_nodes.c.node_uid == run_timers.c.node_uid,
            run_nodes.c.status.in_(("RUNNING", "STOPPING")),
        )
        .exists()
    )
)
_RUNS = select(runs.c.status, func.count()).group_by(runs.c.status)
_DELIVERIES = select(deliveries.c.state, func.count()).group_by(deliveries.c.state)
_HOLDS = (
    select(holds.c.kind, func.count()).where(holds.c.cleared_at_ms.is_(None)).group_by(holds.c.kind)
)


def read(db: Database, now_ms: int) -> StoredState:
    """The counts at ``now_ms`` (the server clock's), read in one read transaction."""
    ready: dict[str, int] = {}
    deferred: dict[tuple[str, str], int] = {}
    with db.read() as connection:
        for model, count, backoff, held in connection.execute(_READY, {"now": now_ms}):
            backoff, held = int(backoff or 0), int(held or 0)
            ready[str(model)] = int(count) - backoff - held
            deferred[(str(model), "backoff")] = backoff
            deferred[(str(model), "held")] = held
        leases = int(connection.execute(_LEASES).scalar() or 0)
        by_status = {str(status): int(count) for status, count in connection.execute(_RUNS)}
        by_kind = {str(kind): int(count) for kind, count in connection.execute(_HOLDS)}
        outbox = {str(state): int(count) for state, count in connection.execute(_DELIVERIES)}
        size = files.database_bytes(connection, db.url)
    return StoredState(ready, deferred, leases, by_status, by_kind, size, outbox)
