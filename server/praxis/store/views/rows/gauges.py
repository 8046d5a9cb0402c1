"""The metrics gauges' statements (:mod:`praxis.store.views.gauges`): one small query
each on an existing index, read in the caller's read transaction."""

from __future__ import annotations

from sqlalchemy import bindparam, case, func, select
from sqlalchemy.engine import Connection

from praxis.core.records import Control
from praxis.store.controls.tables import holds, work_orders
from praxis.store.notifications.tables import deliveries
from praxis.store.runtime.tables import ready_nodes, run_nodes, run_timers, runs

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


def ready(connection: Connection, now_ms: int) -> list[tuple[str, int, int, int]]:
    """Per model: its ready rows, those in a retry's backoff at ``now_ms`` and those held
    (their work order not active)."""
    return [
        (str(model), int(count), int(backoff or 0), int(held or 0))
        for model, count, backoff, held in connection.execute(_READY, {"now": now_ms})
    ]


def leases(connection: Connection) -> int:
    """The attempts leased to a worker (a timer row of a RUNNING or STOPPING node)."""
    return int(connection.execute(_LEASES).scalar() or 0)


def runs_by_status(connection: Connection) -> dict[str, int]:
    """Runs per state."""
    return {str(status): int(count) for status, count in connection.execute(_RUNS)}


def holds_by_kind(connection: Connection) -> dict[str, int]:
    """Holds in place per kind."""
    return {str(kind): int(count) for kind, count in connection.execute(_HOLDS)}


def deliveries_by_state(connection: Connection) -> dict[str, int]:
    """Webhook deliveries per state."""
    return {str(state): int(count) for state, count in connection.execute(_DELIVERIES)}
