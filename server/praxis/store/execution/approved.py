"""Human approvals of exact material, verified and consumed by the execution model's
governed actions (reconciliations, resumes, authorization waits) the way registry
commands consume theirs.

A human reviews the material of an action, approves its digest with CreateApproval, and
the action's transaction verifies the approval against the material computed now
(:func:`verify`) and records its proof as consumed (:func:`consume`): single use.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.core import registry
from praxis.core.records import ApprovalEvidence, ApprovalRecord, Epochs
from praxis.core.rejection import precondition
from praxis.observability import metrics
from praxis.store.db.database import Database, Rollback
from praxis.store.registry.rows import consume_proof, load_approval


def verify(
    connection: Connection,
    authority: Authority,
    approval_id: str,
    digest: str,
    epochs: Epochs,
    work_order_id: str,
    now: int,
    purpose: str = "",
) -> tuple[ApprovalRecord, ApprovalEvidence]:
    """The approval ``approval_id`` and the authority's evidence, when it approves
    exactly ``digest`` for ``purpose`` (see :func:`praxis.core.registry.check_approval`),
    unconsumed and unexpired, by a principal who may approve on ``work_order_id``.

    Raises:
        Rollback: APPROVAL_NOT_FOUND, the authority's refusal, or the registry's
            approval check (APPROVAL_MISMATCH, APPROVAL_EXPIRED, APPROVAL_CONSUMED, ...).
    """
    approval = load_approval(connection, approval_id)
    if approval is None:
        raise Rollback(precondition("APPROVAL_NOT_FOUND", f"no approval {approval_id!r}"))
    evidence = authority.verify_approval(approval.record, work_order_id, now)
    if not isinstance(evidence, ApprovalEvidence):
        raise Rollback(evidence)
    state = registry.State(
        epochs=epochs,
        head=None,
        proposal=None,
        approval=approval.record,
        proof_consumed=bool(approval.consumed_at_ms),
    )
    problem = registry.check_approval(state, evidence, digest, now, purpose)
    if problem:
        raise Rollback(problem)
    return approval.record, evidence


def consume(
    connection: Connection, approval: ApprovalRecord, request_id: str, principal_id: str, now: int
) -> None:
    """Records the approval's proof as consumed (a second use is APPROVAL_CONSUMED)."""
    consume_proof(connection, approval, request_id, principal_id, now)
    if metrics.ON:
        Database.after_commit(connection, metrics.approval_consumed)
