"""Operator controls: pause, resume, cancel, holds and epochs. The engine never changes
these on its own (apart from placing the clock-uncertainty hold)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core import values
from praxis.core.records import Control, Hold, HoldKind, Principal, WorkOrder
from praxis.core.rejection import Code, Rejection, invalid, precondition
from praxis.store.controls import rows as controls
from praxis.store.controls.emits import (
    ControlChanged,
    HoldsChanged,
    OwnerChanged,
    WorkOrderCancelled,
)
from praxis.store.controls.rows import tree
from praxis.store.db.database import Database, Rollback
from praxis.store.db.reactions import Reactions


@dataclass(frozen=True)
class WorkOrderView:
    """A work order with its epochs and the holds that block it."""

    work_order: WorkOrder
    installation_id: str
    holds: tuple[Hold, ...]


_TRANSITIONS = {
    "pause": ({Control.ACTIVE, Control.PAUSED}, Control.PAUSED),
    "resume": ({Control.PAUSED, Control.ACTIVE}, Control.ACTIVE),
    "cancel": (
        {Control.ACTIVE, Control.PAUSED, Control.CANCELING, Control.CANCELED},
        Control.CANCELED,
    ),
}


class AdminStore:
    """Admin operations, each authorized with an ``admin.*`` grant."""

    def __init__(
        self,
        db: Database,
        authority: Authority,
        clock: Clock,
        installation_id: str,
        reactions: Reactions | None = None,
    ) -> None:
        self.db = db
        self.authority = authority
        self.clock = clock
        self.installation_id = installation_id
        # Where ControlChanged, WorkOrderCancelled, OwnerChanged and HoldsChanged are
        # published (praxis.app.reactions).
        self.reactions = reactions or Reactions()

    def _authorize(self, principal: Principal, action: str, work_order_id: str) -> Rejection | None:
        evidence = self.authority.authorize(principal, action, work_order_id, self.clock.now_ms())
        return evidence if isinstance(evidence, Rejection) else None

    def _view(self, connection: Connection, work_order_id: str) -> WorkOrderView:
        work_order = controls.load_work_order(connection, work_order_id)
        return WorkOrderView(
            work_order,
            self.installation_id,
            controls.active_holds(connection, work_order_id, work_order.ancestors),
        )

    def get_work_order(self, principal: Principal, work_order_id: str) -> WorkOrderView | Rejection:
        """A work order's controls, epochs and holds."""
        problem = values.check_identifier(work_order_id, "work_order_id") or self._authorize(
            principal, "admin.read", work_order_id
        )
        if problem:
            return problem
        with self.db.read() as connection:
            return self._view(connection, work_order_id)

    def transition(
        self, principal: Principal, work_order_id: str, verb: str, reason: str
    ) -> WorkOrderView | Rejection:
        """Pause, resume or cancel a work order."""
        problem = (
            values.check_identifier(work_order_id, "work_order_id")
            or values.check_text(reason, "reason")
            or self._authorize(principal, "admin.control", work_order_id)
        )
        if problem:
            return problem
        allowed, target = _TRANSITIONS[verb]
        now = self.clock.now_ms()
        try:
            with self.db.write() as connection:
                current = controls.load_work_order(connection, work_order_id)
                if current.control not in allowed:
                    raise Rollback(
                        precondition(
                            "CONTROL_TRANSITION_INVALID",
                            f"cannot {verb} a work order that is {current.control.name.lower()}",
                        )
                    )
                if verb == "resume":
                    _check_not_inherited(connection, work_order_id)
                # The control applies to the whole subtree: each work order whose applied
                # control changed is told, and a cancel stops each one's runs.
                for changed, control in tree.set_control(connection, work_order_id, target, now):
                    self.reactions.publish(ControlChanged(connection, changed, control))
                    if verb == "cancel":
                        self.reactions.publish(
                            WorkOrderCancelled(
                                connection, changed, reason or "work order canceled", now
                            )
                        )
                return self._view(connection, work_order_id)
        except Rollback as rollback:
            assert isinstance(rollback.value, Rejection)
            return rollback.value

    def place_hold(
        self, principal: Principal, kind: HoldKind | None, work_order_id: str, reason: str
    ) -> Hold | Rejection:
        """Places a restore hold on the installation or a work order."""
        if kind is not HoldKind.RESTORE:
            return invalid("ENUM_INVALID", "kind", "only HOLD_KIND_RESTORE can be placed")
        problem = (
            (values.check_identifier(work_order_id, "work_order_id") if work_order_id else None)
            or values.check_text(reason, "reason")
            or self._authorize(principal, "admin.hold", work_order_id)
        )
        if problem:
            return problem
        hold = Hold(kind, work_order_id, reason, self.clock.now_ms(), principal.principal_id)
        with self.db.write() as connection:
            placed = controls.place_hold(connection, hold)
        self.reactions.publish(HoldsChanged())
        return placed

    def clear_hold(
        self, principal: Principal, kind: HoldKind | None, work_order_id: str
    ) -> Hold | Rejection:
        """Clears a hold; clearing the clock hold also resets the clock's high-water mark."""
        if kind is None:
            return invalid("ENUM_INVALID", "kind", "kind is required")
        problem = (
            values.check_identifier(work_order_id, "work_order_id") if work_order_id else None
        ) or self._authorize(principal, "admin.hold", work_order_id)
        if problem:
            return problem
        now = self.clock.now_ms()
        with self.db.write() as connection:
            cleared = controls.clear_hold(
                connection, kind, work_order_id, principal.principal_id, now
            )
            if cleared is not None and kind is HoldKind.CLOCK_UNCERTAINTY:
                controls.put_meta(connection, controls.CLOCK_KEY, str(now))
        if cleared is None:
            return Rejection(Code.NOT_FOUND, "HOLD_NOT_FOUND", "no such hold is placed")
        self.reactions.publish(HoldsChanged())
        return cleared

    def list_holds(self, principal: Principal) -> tuple[Hold, ...] | Rejection:
        """Every hold currently placed."""
        problem = self._authorize(principal, "admin.read", "")
        if problem:
            return problem
        with self.db.read() as connection:
            return controls.active_holds(connection)

    def advance_epoch(
        self, principal: Principal, work_order_id: str, ownership: bool | None, expected: int
    ) -> WorkOrderView | Rejection:
        """Advances the ownership (``True``) or authority (``False``) epoch from ``expected``."""
        if ownership is None:
            return invalid("ENUM_INVALID", "kind", "kind must be OWNERSHIP or AUTHORITY")
        if expected < 1:
            return invalid("FIELD_REQUIRED", "expected_epoch", "expected_epoch must be >= 1")
        problem = values.check_identifier(work_order_id, "work_order_id") or self._authorize(
            principal, "admin.epoch", work_order_id
        )
        if problem:
            return problem
        with self.db.write() as connection:
            current = controls.load_work_order(connection, work_order_id)
            epoch = current.ownership_epoch if ownership else current.authority_epoch
            if epoch != expected:
                return precondition(
                    "EPOCH_MISMATCH", f"the epoch is {epoch}, not the expected {expected}"
                )
            if ownership:
                changed = replace(current, ownership_epoch=current.ownership_epoch + 1)
            else:
                changed = replace(current, authority_epoch=current.authority_epoch + 1)
            controls.save_work_order(connection, changed, self.clock.now_ms())
            if ownership:
                self.reactions.publish(
                    OwnerChanged(
                        connection, work_order_id, changed.ownership_epoch, self.clock.now_ms()
                    )
                )
            return self._view(connection, work_order_id)


def _check_not_inherited(connection: Connection, work_order_id: str) -> None:
    """Refuses to resume a work order that an ancestor pauses or cancels.

    Raises:
        Rollback: WORK_ORDER_CONTROL_INHERITED.
    """
    node = tree.load(connection, work_order_id)
    if node is None or not node.parent_id:
        return
    parent = tree.load(connection, node.parent_id)
    if parent is not None and parent.control is not Control.ACTIVE:
        raise Rollback(
            precondition(
                "WORK_ORDER_CONTROL_INHERITED",
                f"work order {work_order_id!r} is {parent.control.name.lower()} by an "
                "ancestor: resume the ancestor",
            )
        )
