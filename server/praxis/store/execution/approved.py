"""Human approvals of exact material, verified and consumed by the execution model's
governed actions (reconciliations, resumes) the way registry commands consume theirs.

A human reviews the material of an action, approves its digest with CreateApproval, and
the action's transaction verifies the approval against the material computed now
(:func:`verify`) and records its proof as consumed (:func:`consume`): single use.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.core import registry
from praxis.core.records import ApprovalEvidence, Epochs
from praxis.core.rejection import Rejection, precondition
from praxis.store.db.database import Rollback
from praxis.store.registry.rows import load_approval
from praxis.store.registry.tables import consumed_proofs


def verify(
    connection: Connection,
    authority: Authority,
    approval_id: str,
    digest: str,
    epochs: Epochs,
    work_order_id: str,
    now: int,
) -> ApprovalEvidence:
    """The evidence that ``approval_id`` approves exactly ``digest``, unconsumed and
    unexpired, by a principal who may approve on ``work_order_id``.

    Raises:
        Rollback: APPROVAL_NOT_FOUND, the authority's refusal, or the registry's
            approval check (APPROVAL_MISMATCH, APPROVAL_EXPIRED, APPROVAL_CONSUMED, ...).
    """
    approval = load_approval(connection, approval_id)
    if approval is None:
        raise Rollback(precondition("APPROVAL_NOT_FOUND", f"no approval {approval_id!r}"))
    evidence = authority.verify_approval(approval.record, work_order_id, now)
    if isinstance(evidence, Rejection):
        raise Rollback(evidence)
    state = registry.State(
        epochs=epochs,
        head=None,
        proposal=None,
        approval=approval.record,
        proof_consumed=bool(approval.consumed_at_ms),
    )
    problem = registry.check_approval(state, evidence, digest, now)
    if problem:
        raise Rollback(problem)
    return evidence


def consume(
    connection: Connection, approval_id: str, request_id: str, principal_id: str, now: int
) -> None:
    """Records the approval's proof as consumed (a second use is APPROVAL_CONSUMED)."""
    approval = load_approval(connection, approval_id)
    assert approval is not None
    connection.execute(
        consumed_proofs.insert().values(
            proof_digest=approval.record.proof_digest,
            approval_id=approval_id,
            request_id=request_id,
            principal_id=principal_id,
            consumed_at_ms=now,
        )
    )
