"""Handoffs' SQL, and a handoff of a stored row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.engine import Connection

from praxis.core import handoff
from praxis.core.records import Ref
from praxis.store.execution.tables import handoffs
from praxis.store.runtime.tables import runs as run_table


def handoff_of(row: Any) -> handoff.Handoff:
    """The handoff of a ``handoffs`` row."""
    return handoff.Handoff(
        delivery_id=row.delivery_id,
        run_id=row.run_id,
        node_uid=row.node_uid,
        from_principal_id=row.from_principal_id,
        to_principal_id=row.to_principal_id,
        outputs_digest=row.outputs_digest,
        note=row.note,
        state=handoff.State(row.state),
        created_at_ms=row.created_at_ms,
        acknowledged_at_ms=row.acknowledged_at_ms,
        work=None if row.revision < 0 else _work_of_row(row),
    )


def _work_of_row(row: Any) -> handoff.Work:
    ref = Ref(row.ref_work_order_id, row.ref_run_id) if row.ref_run_id else None
    return handoff.Work(ref, row.revision, row.definition_digest)


def offer(connection: Connection, **columns: Any) -> None:
    """Records an offered handoff (``columns``: the ``handoffs`` row)."""
    connection.execute(handoffs.insert().values(**columns))


def acknowledge(connection: Connection, delivery_id: str, state: handoff.State, now: int) -> None:
    """Records the receiver's acknowledgement."""
    connection.execute(
        update(handoffs)
        .where(handoffs.c.delivery_id == delivery_id)
        .values(state=state.value, acknowledged_at_ms=now)
    )


def load(connection: Connection, delivery_id: str) -> handoff.Handoff | None:
    """The handoff of this delivery id, or ``None``."""
    row: Any = connection.execute(
        select(handoffs).where(handoffs.c.delivery_id == delivery_id)
    ).first()
    return None if row is None else handoff_of(row)


def addressed(
    connection: Connection,
    to_principal_id: str,
    state: handoff.State | None,
    after: tuple[int, str] | None,
    limit: int,
) -> Sequence[Any]:
    """Up to ``limit`` handoff rows addressed to a principal (of one state, unless
    ``None``), with their run's ``work_order_id``, oldest first, past ``after``
    (``(created_at_ms, delivery_id)``)."""
    query = (
        select(handoffs, run_table.c.work_order_id)
        .join(run_table, run_table.c.run_id == handoffs.c.run_id)
        .where(handoffs.c.to_principal_id == to_principal_id)
        .order_by(handoffs.c.created_at_ms, handoffs.c.delivery_id)
        .limit(limit)
    )
    if state is not None:
        query = query.where(handoffs.c.state == state.value)
    if after is not None:
        since, delivery = after
        query = query.where(
            or_(
                handoffs.c.created_at_ms > since,
                and_(handoffs.c.created_at_ms == since, handoffs.c.delivery_id > delivery),
            )
        )
    return list(connection.execute(query))
