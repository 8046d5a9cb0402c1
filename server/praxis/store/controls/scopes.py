"""What a work order's ancestors impose on it, kept per process: the actions it permits
(enforced on every authorisation) and which budgets limit it (asked by every
dispatch).

A work order created with ``actions`` permits only those in it, and its children only
what each of them and their ancestors permit (a child narrows, never widens). This
:class:`~praxis.authority.protocol.Authority` wraps the configured one: once the
caller's grants allow an action on a work order, the action must also be permitted by
that work order's chain, else ACTION_NOT_GRANTED, whatever the grants.

A record's parent, actions and budget never change once created, so what its chain
imposes is read once and kept (at most :data:`CACHED` work orders). A work order with
no record imposes nothing until one is created: ``CreateWorkOrder`` publishes
:data:`~praxis.store.wake.hub.WORK_ORDER` topics, on which every process forgets the
work orders it knew without a record (:meth:`WorkOrderScopes.forget_unrecorded`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.core import work_orders as core
from praxis.core.records import ActorEvidence, ApprovalEvidence, ApprovalRecord, Principal
from praxis.core.rejection import Code, Rejection
from praxis.store.controls.rows import tree
from praxis.store.db.database import Database

CACHED = 4096


@dataclass(frozen=True)
class Imposed:
    """What a work order's chain imposes on it."""

    restricting: tuple[tuple[str, ...], ...] = ()
    """The actions of each work order of the chain that names actions."""
    budgets: tuple[str, ...] = ()
    """The work orders of the chain that have a budget, root first."""


_NOTHING = Imposed()


class WorkOrderScopes:
    """An :class:`Authority` that also applies the work orders' permitted actions."""

    def __init__(self, inner: Authority, db: Database) -> None:
        self.inner = inner
        self.db = db
        self._lock = threading.Lock()
        self._known: OrderedDict[str, Imposed] = OrderedDict()
        self._unrecorded: set[str] = set()
        # Advanced by every forget: a read that began before one does not remember a
        # work order as unrecorded (it may have been recorded meanwhile).
        self._generation = 0

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
        for actions in self.imposed(work_order_id).restricting:
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

    def budgeted(self, connection: Connection, work_order_id: str) -> tuple[str, ...]:
        """The work order and ancestors whose budgets limit its runs, root first (read
        with ``connection``, a dispatch's, when not known)."""
        return self.imposed(work_order_id, connection).budgets

    def forget(self, work_order_id: str) -> None:
        """A work order was recorded: read its chain at its next use."""
        with self._lock:
            self._unrecorded.discard(work_order_id)
            self._generation += 1

    def forget_unrecorded(self) -> None:
        """A work order was recorded somewhere: read again those known without a record."""
        with self._lock:
            self._unrecorded.clear()
            self._generation += 1

    def imposed(self, work_order_id: str, connection: Connection | None = None) -> Imposed:
        """What the work order's chain imposes (read once per recorded work order)."""
        with self._lock:
            known = self._known.get(work_order_id)
            if known is not None:
                self._known.move_to_end(work_order_id)
                return known
            if work_order_id in self._unrecorded:
                return _NOTHING
            generation = self._generation
        if connection is not None:
            chain = tree.chain_of(connection, work_order_id)
        else:
            with self.db.read() as reading:
                chain = tree.chain_of(reading, work_order_id)
        found = Imposed(
            tuple(node.actions for node in chain if node.actions),
            core.budgeted(chain),
        )
        with self._lock:
            if chain:
                self._known[work_order_id] = found
                while len(self._known) > CACHED:
                    self._known.popitem(last=False)
            elif generation == self._generation:
                if len(self._unrecorded) >= CACHED:
                    self._unrecorded.clear()
                self._unrecorded.add(work_order_id)
        return found
