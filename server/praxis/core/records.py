"""Records shared by the registry, the authority and the runtime."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class PrincipalKind(enum.Enum):
    """The verified kind of a principal; it comes from the principal's record."""

    HUMAN = "HUMAN"
    AGENT = "AGENT"
    SERVICE = "SERVICE"


class Control(enum.Enum):
    """Operator control of a work order."""

    ACTIVE = "ACTIVE"
    PAUSED = "PAUSED"
    CANCELING = "CANCELING"
    CANCELED = "CANCELED"


class HoldKind(enum.Enum):
    """Holds that block commands until an admin clears them."""

    RESTORE = "RESTORE"
    CLOCK_UNCERTAINTY = "CLOCK_UNCERTAINTY"


@dataclass(frozen=True)
class Ref:
    """A registry ref: the definition lineage of a run within a work order."""

    work_order_id: str
    run_id: str


@dataclass(frozen=True)
class Epochs:
    """The authority context a command or approval is bound to."""

    installation_id: str
    ownership_epoch: int
    authority_epoch: int


@dataclass(frozen=True)
class WorkOrder:
    """The control record of a work order (ACTIVE with epochs 1/1 when never touched);
    ``control`` is the one that applies, its own or inherited from an ancestor."""

    work_order_id: str
    control: Control = Control.ACTIVE
    ownership_epoch: int = 1
    authority_epoch: int = 1
    ancestors: tuple[str, ...] = ()
    """Its ancestors in the work-order tree, root first (their holds hold it too)."""
    closed: bool = False
    """Closed (CloseWorkOrder): it admits no new run, resume or child."""
    proposal: str = ""
    """PROPOSED (waiting for a human) or DECLINED: it admits no new run, resume or
    child; empty when created directly or approved."""


@dataclass(frozen=True)
class Hold:
    """A placed hold; ``work_order_id`` is empty for installation-wide holds."""

    kind: HoldKind
    work_order_id: str
    reason: str
    placed_at_ms: int
    placed_by: str


@dataclass(frozen=True)
class Principal:
    """An authenticated principal as the authority knows it."""

    principal_id: str
    kind: PrincipalKind


@dataclass(frozen=True)
class ActorEvidence:
    """Short-lived proof from the authority that a principal may perform an action.

    Attributes:
        principal_id: Who was authorized.
        kind: The principal's verified kind.
        action: The action authorized (e.g. ``registry.activate``).
        work_order_id: The scope authorized.
        expires_at_ms: When the evidence stops being valid (checked at commit).
    """

    principal_id: str
    kind: PrincipalKind
    action: str
    work_order_id: str
    expires_at_ms: int


@dataclass(frozen=True)
class ApprovalRecord:
    """A stored human approval of one review material digest.

    ``purpose`` is the purpose of the approved action (empty: none); only a command whose
    action has that purpose may consume the approval.
    """

    approval_id: str
    material_digest: str
    approver_id: str
    proof_digest: str
    created_at_ms: int
    expires_at_ms: int
    purpose: str = ""


@dataclass(frozen=True)
class ApprovalEvidence:
    """Short-lived proof from the authority that an approval is a verified human decision."""

    approval_id: str
    approver_id: str
    approver_kind: PrincipalKind
    material_digest: str
    proof_digest: str
    expires_at_ms: int
    purpose: str = ""
