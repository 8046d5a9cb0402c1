"""The stuck-runs scan's statements (:mod:`praxis.store.views.stuck`): the oldest ready
rows of active work orders, their nodes' deadlines, installation-wide holds and pending
reconciliations."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Row, and_, bindparam, or_, select
from sqlalchemy.engine import Connection

from praxis.core import run as core
from praxis.core.records import Control
from praxis.store.controls.tables import holds, work_orders
from praxis.store.execution.tables import reconciliations
from praxis.store.runtime.tables import ready_nodes, run_nodes

_CHUNK = 500
_KEYS = 100


def ready_rows(connection: Connection, work_order_id: str, limit: int) -> list[Row[Any]]:
    """The oldest ``limit`` ready rows of active, unheld work orders (of
    ``work_order_id`` only, when given), oldest first."""
    return list(connection.execute(_ready_rows(work_order_id).limit(limit)))


def _ready_rows(work_order_id: str):  # type: ignore[no-untyped-def]  # a Select
    """Ready rows of active, unheld work orders, oldest first: a walk of the primary key
    (no join, so that no planner starts from another table)."""
    stopped = select(work_orders.c.work_order_id).where(
        work_orders.c.control != Control.ACTIVE.value
    )
    held = select(holds.c.work_order_id).where(holds.c.cleared_at_ms.is_(None))
    query = (
        select(
            ready_nodes.c.run_id,
            ready_nodes.c.node_uid,
            ready_nodes.c.model,
            ready_nodes.c.not_before_ms,
            ready_nodes.c.ready_at_ms,
            ready_nodes.c.work_order_id,
        )
        .where(
            ready_nodes.c.work_order_id.not_in(stopped),
            ready_nodes.c.work_order_id.not_in(held),
        )
        .order_by(ready_nodes.c.seq)
    )
    if work_order_id:
        query = query.where(ready_nodes.c.work_order_id == work_order_id)
    return query


def ready_deadlines(
    connection: Connection, keys: list[tuple[str, str]]
) -> dict[tuple[str, str], int]:
    """The schedule-to-start deadline of each of these nodes still READY: primary-key
    lookups, :data:`_KEYS` to a statement (an OR of keys, which both databases answer
    from the key's index; a row-value IN list is a table scan on SQLite)."""
    found: dict[tuple[str, str], int] = {}
    for start in range(0, len(keys), _KEYS):
        chunk = keys[start : start + _KEYS]
        query = select(run_nodes.c.run_id, run_nodes.c.node_uid, run_nodes.c.deadline_ms).where(
            or_(
                *(
                    and_(run_nodes.c.run_id == run_id, run_nodes.c.node_uid == uid)
                    for run_id, uid in chunk
                )
            ),
            run_nodes.c.status == core.NodeStatus.READY.value,
        )
        found.update(
            ((r.run_id, r.node_uid), int(r.deadline_ms)) for r in connection.execute(query)
        )
    return found


def installation_held(connection: Connection) -> bool:
    """Whether an installation-wide hold stops every work order."""
    query = select(holds.c.hold_id).where(
        holds.c.work_order_id == "", holds.c.cleared_at_ms.is_(None)
    )
    return connection.execute(query.limit(1)).first() is not None


_PENDING = select(reconciliations.c.run_id).where(
    reconciliations.c.run_id.in_(bindparam("runs", expanding=True)),
    reconciliations.c.state == "PENDING",
)


def reconciling(connection: Connection, run_ids: Iterable[str]) -> set[str]:
    """Those of ``run_ids`` with a pending reconciliation (by the index on run)."""
    ids = list(run_ids)
    found: set[str] = set()
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        found.update(connection.execute(_PENDING, {"runs": chunk}).scalars())
    return found
