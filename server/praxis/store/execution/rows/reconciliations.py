"""Reconciliations' SQL, and a reconciliation as a caller sees it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from praxis.core import effects
from praxis.core import run as core
from praxis.store.execution.tables import reconciliations


@dataclass(frozen=True)
class ReconciliationView:
    """One stored reconciliation."""

    attempt_id: str
    run_id: str
    node_uid: str
    completed: bool
    state: effects.ReconciliationState
    decision: str
    evidence_json: str
    approval_id: str
    decided_by: str
    opened_at_ms: int
    decided_at_ms: int
    error: str
    result_json: str

    operation: int = 0
    """The node's operation generation (``NodeRun.operation``) while the reconciliation
    is pending; a decided one of an earlier generation shows the node's current one."""

    @property
    def operation_id(self) -> str:
        """The operation id, shared by every attempt of the node's operation."""
        return core.operation_id(self.run_id, self.node_uid, self.operation)


def reconciliation_view(r: Any) -> ReconciliationView:
    """The reconciliation of a ``reconciliations`` row."""
    return ReconciliationView(
        attempt_id=r.attempt_id,
        run_id=r.run_id,
        node_uid=r.node_uid,
        completed=bool(r.completed),
        state=effects.ReconciliationState(r.state),
        decision=r.decision,
        evidence_json=r.evidence_json,
        approval_id=r.approval_id,
        decided_by=r.decided_by,
        opened_at_ms=r.opened_at_ms,
        decided_at_ms=r.decided_at_ms,
        error=r.error,
        result_json=r.result_json,
    )


def open_pending(
    connection: Connection,
    attempt_id: str,
    run_id: str,
    node_uid: str,
    completed: bool,
    result_json: str,
    error: str,
    now: int,
) -> None:
    """Records a pending reconciliation of an attempt whose effect is unknown."""
    connection.execute(
        reconciliations.insert().values(
            attempt_id=attempt_id,
            run_id=run_id,
            node_uid=node_uid,
            completed=int(completed),
            result_json=result_json,
            error=error,
            state=effects.ReconciliationState.PENDING.value,
            decision="",
            evidence_json="",
            approval_id="",
            decided_by="",
            opened_at_ms=now,
            decided_at_ms=0,
        )
    )


def load(connection: Connection, attempt_id: str) -> ReconciliationView | None:
    """The reconciliation of an attempt, or ``None``."""
    row = connection.execute(
        select(reconciliations).where(reconciliations.c.attempt_id == attempt_id)
    ).first()
    return None if row is None else reconciliation_view(row)


def run_of(connection: Connection, attempt_id: str) -> str | None:
    """The run of an attempt's reconciliation, or ``None`` when it has none."""
    row = connection.execute(
        select(reconciliations.c.run_id).where(reconciliations.c.attempt_id == attempt_id)
    ).first()
    return None if row is None else str(row.run_id)


def of_run(connection: Connection, run_id: str) -> list[ReconciliationView]:
    """A run's reconciliations, oldest first."""
    rows = connection.execute(
        select(reconciliations)
        .where(reconciliations.c.run_id == run_id)
        .order_by(reconciliations.c.opened_at_ms, reconciliations.c.attempt_id)
    ).all()
    return [reconciliation_view(row) for row in rows]


def resolve(
    connection: Connection,
    attempt_id: str,
    decision: str,
    evidence_json: str,
    approval_id: str,
    decided_by: str,
    now: int,
) -> None:
    """Records a reconciliation's decision."""
    connection.execute(
        update(reconciliations)
        .where(reconciliations.c.attempt_id == attempt_id)
        .values(
            state=effects.ReconciliationState.RESOLVED.value,
            decision=decision,
            evidence_json=evidence_json,
            approval_id=approval_id,
            decided_by=decided_by,
            decided_at_ms=now,
        )
    )
