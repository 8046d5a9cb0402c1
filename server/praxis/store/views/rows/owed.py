"""The statements of what else a human owes (:mod:`praxis.store.views.owed`): owed
assessments, offered handoffs and unconsumed, unrenewed approvals, each read from an
index in the inbox's order (oldest first)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row, and_, exists, select
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from praxis.core import handoff
from praxis.store.execution.tables import assessments_due, handoffs
from praxis.store.registry.tables import approvals, consumed_proofs
from praxis.store.runtime.tables import runs


def assessments(
    connection: Connection, work_order_id: str, since: int, limit: int
) -> list[Row[Any]]:
    """The ``assessments_due`` rows since ``since`` or later with their run's contract,
    oldest first."""
    query = select(assessments_due, runs.c.contract_id).join(
        runs, runs.c.run_id == assessments_due.c.run_id
    )
    if work_order_id:
        query = query.where(assessments_due.c.work_order_id == work_order_id)
    query = (
        query.where(assessments_due.c.since_ms >= since)
        .order_by(assessments_due.c.since_ms, assessments_due.c.run_id)
        .limit(limit)
    )
    return list(connection.execute(query))


def offered_handoffs(
    connection: Connection, work_order_id: str, since: int, limit: int
) -> list[Row[Any]]:
    """The OFFERED handoff rows offered at ``since`` or later with their run's work
    order, oldest first."""
    query = (
        select(handoffs, runs.c.work_order_id)
        .join(runs, runs.c.run_id == handoffs.c.run_id)
        .where(handoffs.c.state == handoff.State.OFFERED.value, handoffs.c.created_at_ms >= since)
    )
    if work_order_id:
        query = query.where(runs.c.work_order_id == work_order_id)
    query = query.order_by(handoffs.c.created_at_ms, handoffs.c.delivery_id).limit(limit)
    return list(connection.execute(query))


def unconsumed_approvals(
    connection: Connection, now_ms: int, window_end_ms: int, limit: int
) -> list[Row[Any]]:
    """Up to ``limit`` unconsumed approvals unexpired at ``now_ms`` and not renewed past
    ``window_end_ms``, soonest expiry first, with their consumption columns (empty)."""
    query = (
        select(approvals)
        .add_columns(
            consumed_proofs.c.consumed_at_ms,
            consumed_proofs.c.request_id.label("consumed_by_request_id"),
        )
        .outerjoin(consumed_proofs, consumed_proofs.c.proof_digest == approvals.c.proof_digest)
        .where(
            approvals.c.expires_at_ms > now_ms,
            consumed_proofs.c.proof_digest.is_(None),
            ~_renewed(window_end_ms),
        )
        .order_by(approvals.c.expires_at_ms, approvals.c.approval_id)
    )
    return list(connection.execute(query.limit(limit)))


def _renewed(window_end_ms: int) -> ColumnElement[bool]:
    """Whether another active approval of the same material digest and purpose expires
    after the window: the approval was renewed, and the renewal is the one to use."""
    other = approvals.alias("renewal")
    used = consumed_proofs.alias("renewal_used")
    return exists(
        select(other.c.approval_id)
        .outerjoin(used, used.c.proof_digest == other.c.proof_digest)
        .where(
            and_(
                other.c.material_digest == approvals.c.material_digest,
                other.c.purpose == approvals.c.purpose,
                other.c.approval_id != approvals.c.approval_id,
                other.c.expires_at_ms > window_end_ms,
                used.c.proof_digest.is_(None),
            )
        )
    )
