"""Authorisation of reads and commands on one stored subject, without an existence oracle.

A caller who may not act on a subject must not learn whether it exists: a missing subject
and a subject outside the caller's grants answer the same ``PERMISSION_DENIED``. Only a
caller whose grant covers every work order (``*``) learns ``NOT_FOUND``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from praxis.authority.protocol import Authority
from praxis.core import kinds
from praxis.core.records import ActorEvidence, ApprovalEvidence, ApprovalRecord, Principal
from praxis.core.rejection import Code, Rejection

# The refusals that say a grant does not cover a subject (its action or work order, its
# purpose, its window): the same answer as for an absent subject.
NOT_COVERED = frozenset({"ACTION_NOT_GRANTED", "PURPOSE_NOT_GRANTED", "GRANT_OUTSIDE_WINDOW"})


def hidden(action: str) -> Rejection:
    """The one answer for "absent" and "not yours" alike."""
    return Rejection(
        Code.PERMISSION_DENIED,
        "ACTION_NOT_GRANTED",
        f"no grant for {action!r} covers this subject, or it does not exist",
    )


def authorize_subject(
    authority: Authority,
    principal: Principal,
    action: str,
    work_order_id: str | None,
    now_ms: int,
    missing: Rejection,
) -> ActorEvidence | Rejection:
    """Evidence for ``action`` on a subject of ``work_order_id`` (``None``: no such subject).

    Returns ``missing`` only to a caller whose grant covers every work order; any other
    caller denied for either reason receives :func:`hidden`.
    """
    if work_order_id is None:
        wide = authority.authorize(principal, action, "", now_ms)
        if isinstance(wide, Rejection):
            return hidden(action) if wide.reason in NOT_COVERED else wide
        return missing
    evidence = authority.authorize(principal, action, work_order_id, now_ms)
    if isinstance(evidence, Rejection) and evidence.reason in NOT_COVERED:
        return hidden(action)
    return evidence


class HumanOnly:
    """An :class:`Authority` that refuses the human-only actions to anyone but a human.

    It wraps the configured authority, so the rule of :mod:`praxis.core.kinds` holds for
    every service and every authority implementation alike.
    """

    def __init__(self, inner: Authority) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        """Optional capabilities of the inner authority (``authenticate_certificate``)."""
        return getattr(self.inner, name)

    def authenticate(self, token: str | None, now_ms: int) -> Principal | Rejection:
        """Delegates."""
        return self.inner.authenticate(token, now_ms)

    def authorize(
        self,
        principal: Principal,
        action: str,
        work_order_id: str,
        now_ms: int,
        purpose: str = "",
    ) -> ActorEvidence | Rejection:
        """The inner authority's evidence, refused for a non-human on a human-only action."""
        evidence = self.inner.authorize(principal, action, work_order_id, now_ms, purpose)
        if isinstance(evidence, Rejection):
            return evidence
        return kinds.check_kind(action, evidence.kind) or evidence

    def verify_approval(
        self, approval: ApprovalRecord, work_order_id: str, now_ms: int
    ) -> ApprovalEvidence | Rejection:
        """Delegates."""
        return self.inner.verify_approval(approval, work_order_id, now_ms)

    def spend_cap(self, principal_id: str) -> Decimal | None:
        """Delegates."""
        return self.inner.spend_cap(principal_id)
