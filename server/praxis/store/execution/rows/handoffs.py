"""Handoffs' SQL, and a handoff of a stored row."""

from __future__ import annotations

from typing import Any

from praxis.core import handoff
from praxis.core.records import Ref


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
