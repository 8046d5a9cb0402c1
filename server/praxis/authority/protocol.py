"""The host adapter the engine asks before anything is done.

There is no allow-all default: a server is always built with an :class:`Authority`.
Both calls return short-lived evidence that the engine validates (principal, action,
scope, expiry) or a :class:`~praxis.core.rejection.Rejection` that denies. They run
under the database writer lock for commands, so they must be quick, local checks: do
sign-in and human interaction beforehand.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Protocol

from praxis.core.records import ActorEvidence, ApprovalEvidence, ApprovalRecord, Principal
from praxis.core.rejection import Rejection


class Authority(Protocol):
    """Authentication, authorization and approval verification."""

    def authenticate(self, token: str | None, now_ms: int) -> Principal | Rejection:
        """Resolves a bearer token to a principal, or denies (UNAUTHENTICATED)."""
        ...

    def authorize(
        self,
        principal: Principal,
        action: str,
        work_order_id: str,
        now_ms: int,
        purpose: str = "",
    ) -> ActorEvidence | Rejection:
        """Evidence that ``principal`` may perform ``action`` on ``work_order_id`` now.

        ``work_order_id`` is empty for actions that are not scoped to a work order.
        ``purpose`` is the purpose the action names (empty: none; see
        :mod:`praxis.core.purposes`); an authority without purposes may ignore it.
        """
        ...

    def verify_approval(
        self, approval: ApprovalRecord, work_order_id: str, now_ms: int
    ) -> ApprovalEvidence | Rejection:
        """Evidence that ``approval`` is a current decision of a verified human who may
        approve on ``work_order_id`` (empty: installation-wide) for the approval's
        ``purpose`` now. The evidence carries that purpose."""
        ...

    def spend_cap(self, principal_id: str) -> Decimal | None:
        """The principal's spending cap in microcredits, or ``None`` when uncapped."""
        ...
