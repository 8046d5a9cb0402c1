"""Reconciliations' SQL, and a reconciliation as a caller sees it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from praxis.core import effects
from praxis.core import run as core


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
