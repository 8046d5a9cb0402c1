"""Checks every command passes before its own rules: clock, holds, controls, epochs."""

from __future__ import annotations

from praxis.core.records import Control, Epochs, Hold, HoldKind, WorkOrder
from praxis.core.rejection import Rejection, precondition


def clock_step(now_ms: int, high_water_ms: int, tolerance_ms: int, step_ms: int) -> str:
    """What a command's clock read does to the installation's high-water mark.

    ``"behind"``: the clock stepped backwards past the tolerance (a clock-uncertainty
    hold is placed and the command refused); ``"advance"``: the read is more than
    ``step_ms`` past the mark, which moves to it; ``"keep"``: the mark stays.
    """
    if now_ms < high_water_ms - tolerance_ms:
        return "behind"
    return "advance" if now_ms > high_water_ms + step_ms else "keep"


def check_holds(
    holds: tuple[Hold, ...], work_order_id: str, ancestors: tuple[str, ...] = ()
) -> Rejection | None:
    """A rejection when a hold blocks the work order (its own, an ancestor's or
    installation-wide)."""
    for hold in holds:
        if hold.work_order_id not in ("", work_order_id) and hold.work_order_id not in ancestors:
            continue
        if hold.kind is HoldKind.CLOCK_UNCERTAINTY:
            return precondition(
                "CLOCK_UNCERTAIN",
                "the clock stepped backwards; an admin must clear the clock-uncertainty hold",
            )
        return precondition("RESTORE_HOLD", f"a restore hold blocks commands: {hold.reason}")
    return None


def check_control(work_order: WorkOrder) -> Rejection | None:
    """A rejection when the work order's control blocks commands."""
    if work_order.control is Control.PAUSED:
        return precondition(
            "WORK_ORDER_PAUSED", f"work order {work_order.work_order_id!r} is paused"
        )
    if work_order.control in (Control.CANCELING, Control.CANCELED):
        return precondition(
            "WORK_ORDER_CANCELED", f"work order {work_order.work_order_id!r} is canceled"
        )
    return None


def check_epochs(claimed: Epochs, installation_id: str, work_order: WorkOrder) -> Rejection | None:
    """A rejection when the caller's epochs are not the current ones."""
    if claimed.installation_id != installation_id:
        return precondition(
            "INSTALLATION_MISMATCH",
            f"installation {claimed.installation_id!r} is not this installation",
        )
    if (claimed.ownership_epoch, claimed.authority_epoch) != (
        work_order.ownership_epoch,
        work_order.authority_epoch,
    ):
        return precondition(
            "EPOCH_MISMATCH",
            f"epochs ({claimed.ownership_epoch}, {claimed.authority_epoch}) are not the "
            f"current ({work_order.ownership_epoch}, {work_order.authority_epoch})",
        )
    return None


def check_all(
    claimed: Epochs,
    installation_id: str,
    work_order: WorkOrder,
    holds: tuple[Hold, ...],
) -> Rejection | None:
    """Holds, then controls, then epochs: the first that blocks."""
    return (
        check_holds(holds, work_order.work_order_id, work_order.ancestors)
        or check_control(work_order)
        or check_epochs(claimed, installation_id, work_order)
    )
