"""Approvals: a human's approval of one material digest, recorded once by id, and read.

A command that names an approval verifies and consumes it in its own transaction
(:mod:`praxis.store.registry.store`); here an approval is only created and read.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core import kinds, purposes, values
from praxis.core.records import ApprovalRecord, Principal
from praxis.core.rejection import Code, Rejection, invalid
from praxis.store.db.database import Database
from praxis.store.db.reactions import Reactions
from praxis.store.registry.emits import RegistryWritten
from praxis.store.registry.rows import (
    INSERT,
    ApprovalView,
    approval_and_proof,
    approval_view,
    load_approval,
)

MAX_APPROVAL_TTL_MS = 7 * 24 * 3600 * 1000


class ApprovalStore:
    """CreateApproval and GetApproval over a :class:`Database`."""

    def __init__(
        self,
        db: Database,
        authority: Authority,
        clock: Clock,
        reactions: Reactions | None = None,
    ) -> None:
        self.db = db
        self.authority = authority
        self.clock = clock
        # Where RegistryWritten is published after every approval created (a new approval
        # may enter the inbox, or renew one there; praxis.app.reactions).
        self.reactions = reactions or Reactions()

    def create_approval(
        self,
        principal: Principal,
        approval_id: str,
        material_digest: str,
        expires_at_ms: int,
        work_order_id: str = "",
        purpose: str = "",
    ) -> tuple[ApprovalView, bool] | Rejection:
        """Records a human's approval of one material digest (idempotent by id), for the
        action's ``purpose`` when it has one."""
        problem = values.check_identifier(approval_id, "approval_id") or (
            values.check_identifier(work_order_id, "work_order_id") if work_order_id else None
        )
        if problem:
            return problem
        wrong_purpose = purposes.purpose_problem(purpose) if purpose else None
        if wrong_purpose:
            return invalid("IDENTIFIER_INVALID", "purpose", f"purpose {wrong_purpose}")
        if not values.is_digest(material_digest):
            return invalid("DIGEST_INVALID", "material_digest", "must be sha256:<64 hex>")
        now = self.clock.now_ms()
        if not now < expires_at_ms <= now + MAX_APPROVAL_TTL_MS:
            return invalid(
                "TIME_INVALID",
                "expires_at_ms",
                "expires_at_ms must be after now and at most 7 days ahead",
            )
        actor = self.authority.authorize(principal, "approval.create", work_order_id, now, purpose)
        if isinstance(actor, Rejection):
            return actor
        problem = kinds.check_kind("approval.create", actor.kind)
        if problem:
            return problem
        record = ApprovalRecord(
            approval_id=approval_id,
            material_digest=material_digest,
            approver_id=principal.principal_id,
            proof_digest=values.digest(
                {"material_digest": material_digest, "approver_id": principal.principal_id}
            ),
            created_at_ms=now,
            expires_at_ms=expires_at_ms,
            purpose=purpose,
        )

        row_values = {
            "approval_id": approval_id,
            "material_digest": material_digest,
            "approver_id": record.approver_id,
            "proof_digest": record.proof_digest,
            "created_at_ms": now,
            "expires_at_ms": expires_at_ms,
            "purpose": purpose,
        }

        def transaction(connection: Connection) -> tuple[ApprovalView, bool] | Rejection:
            row = approval_and_proof(connection, approval_id, record.proof_digest)
            if row.approval_id is not None:
                same = (row.material_digest, row.approver_id, row.expires_at_ms, row.purpose) == (
                    material_digest,
                    principal.principal_id,
                    expires_at_ms,
                    purpose,
                )
                if not same:
                    return Rejection(
                        Code.ALREADY_EXISTS,
                        "APPROVAL_ALREADY_EXISTS",
                        f"approval {approval_id!r} exists with different content",
                    )
                # The same approver and material: the same proof, read with it.
                return approval_view(row), True
            INSERT["approvals"].run(connection, row_values)
            # A new approval may enter the inbox, or renew one there (RegistryWritten
            # wakes WatchInbox); the commands of one group commit wake once.
            self.reactions.after_commit(connection, RegistryWritten())
            # The same approver approving the same material shares the proof, whose
            # consumption may already be recorded under another approval id: say so.
            if row.consumed_at_ms is None:
                return ApprovalView(record, 0, ""), False
            return ApprovalView(record, row.consumed_at_ms, row.consumed_by_request_id), False

        result: tuple[ApprovalView, bool] | Rejection = self.db.transact(transaction)
        return result

    def get_approval(self, principal: Principal, approval_id: str) -> ApprovalView | Rejection:
        """One approval and its consumption."""
        problem = values.check_identifier(approval_id, "approval_id")
        if problem:
            return problem
        evidence = self.authority.authorize(principal, "approval.read", "", self.clock.now_ms())
        if isinstance(evidence, Rejection):
            return evidence
        with self.db.read() as connection:
            found = load_approval(connection, approval_id)
        if found is None:
            return Rejection(Code.NOT_FOUND, "APPROVAL_NOT_FOUND", f"no approval {approval_id!r}")
        return found
