"""The actions a work order permits, enforced on every authorisation.

A work order created with ``actions`` permits only those in it, and its children only
what each of them and their ancestors permit (a child narrows, never widens). This
:class:`~praxis.authority.protocol.Authority` wraps the configured one: once the
caller's grants allow an action on a work order, the action must also be permitted by
that work order's chain, else ACTION_NOT_GRANTED, whatever the grants.

A record's parent and actions never change once created, so a chain read is kept (at
most :data:`CACHED` work orders). A work order with no record is read again after
:data:`UNKNOWN_TTL_S` (another process may record it meanwhile; this process forgets it
at once, :meth:`WorkOrderScopes.forget`).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from decimal import Decimal
from typing import Any

from praxis.authority.protocol import Authority
from praxis.core import work_orders as core
from praxis.core.records import ActorEvidence, ApprovalEvidence, ApprovalRecord, Principal
from praxis.core.rejection import Code, Rejection
from praxis.store.controls import tree
from praxis.store.db.database import Database

CACHED = 4096
UNKNOWN_TTL_S = 1.0

_Chain = tuple[tuple[str, ...], ...]  # each restricting work order's actions


class WorkOrderScopes:
    """An :class:`Authority` that also applies the work orders' permitted actions."""

    def __init__(self, inner: Authority, db: Database) -> None:
        self.inner = inner
        self.db = db
        self._lock = threading.Lock()
        self._known: OrderedDict[str, _Chain] = OrderedDict()
        self._unknown: dict[str, float] = {}

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
        """The inner authority's evidence, refused for an action the work order (or an
        ancestor) does not permit."""
        evidence = self.inner.authorize(principal, action, work_order_id, now_ms, purpose)
        if isinstance(evidence, Rejection) or not work_order_id or work_order_id == "*":
            return evidence
        for actions in self._chain(work_order_id):
            if not core.matches(actions, action):
                return Rejection(
                    Code.PERMISSION_DENIED,
                    "ACTION_NOT_GRANTED",
                    f"work order {work_order_id!r} (or an ancestor) does not permit {action!r}",
                )
        return evidence

    def verify_approval(
        self, approval: ApprovalRecord, work_order_id: str, now_ms: int
    ) -> ApprovalEvidence | Rejection:
        """Delegates."""
        return self.inner.verify_approval(approval, work_order_id, now_ms)

    def spend_cap(self, principal_id: str) -> Decimal | None:
        """Delegates."""
        return self.inner.spend_cap(principal_id)

    def forget(self, work_order_id: str) -> None:
        """A work order was recorded here: read its chain at its next authorisation."""
        with self._lock:
            self._unknown.pop(work_order_id, None)

    def _chain(self, work_order_id: str) -> _Chain:
        now = time.monotonic()
        with self._lock:
            known = self._known.get(work_order_id)
            if known is not None:
                self._known.move_to_end(work_order_id)
                return known
            if self._unknown.get(work_order_id, 0.0) > now:
                return ()
        with self.db.read() as connection:
            chain = tree.chain_of(connection, work_order_id)
        restricting = tuple(node.actions for node in chain if node.actions)
        with self._lock:
            if chain:
                self._known[work_order_id] = restricting
                while len(self._known) > CACHED:
                    self._known.popitem(last=False)
            else:
                if len(self._unknown) > CACHED:
                    self._unknown.clear()
                self._unknown[work_order_id] = now + UNKNOWN_TTL_S
        return restricting
