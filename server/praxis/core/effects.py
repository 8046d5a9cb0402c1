"""Effects and reconciliation: the review material of a decision about an uncertain effect.

An operation keeps its id (:func:`praxis.core.run.operation_id`) across safe retries and
each attempt has its own. An attempt settled with an ``UNCERTAIN`` effect blocks its node
(see :mod:`praxis.core.run`); a human decides whether the effect was applied, approving
the exact :class:`Material` of that decision through the registry's review-and-approve
flow (:func:`praxis.core.registry.check_approval`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from praxis.core import values
from praxis.core.records import Epochs


class Decision(enum.Enum):
    """What the reviewing human established about the effect."""

    APPLIED = "APPLIED"
    NOT_APPLIED = "NOT_APPLIED"


class ReconciliationState(enum.Enum):
    """Lifecycle of a reconciliation."""

    PENDING = "PENDING"
    RESOLVED = "RESOLVED"


@dataclass(frozen=True)
class Pending:
    """An open reconciliation: the attempt whose effect is uncertain."""

    attempt_id: str
    run_id: str
    node_uid: str
    completed: bool
    result_digest: str


@dataclass(frozen=True)
class Material:
    """The exact subject of a reconciliation decision; approvals bind to its digest."""

    epochs: Epochs
    work_order_id: str
    pending: Pending
    operation_id: str
    decision: Decision
    evidence_digest: str

    def document(self) -> dict[str, values.JsonValue]:
        """The material as a document (what the digest covers)."""
        return {
            "action": "RECONCILE",
            "installation_id": self.epochs.installation_id,
            "ownership_epoch": self.epochs.ownership_epoch,
            "authority_epoch": self.epochs.authority_epoch,
            "work_order_id": self.work_order_id,
            "run_id": self.pending.run_id,
            "node_uid": self.pending.node_uid,
            "operation_id": self.operation_id,
            "attempt_id": self.pending.attempt_id,
            "completed": self.pending.completed,
            "result_digest": self.pending.result_digest,
            "decision": self.decision.value,
            "evidence_digest": self.evidence_digest,
        }

    def digest(self) -> str:
        """``sha256`` over the material."""
        return values.digest(self.document())
