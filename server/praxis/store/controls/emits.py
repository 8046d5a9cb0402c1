"""The events the work-order controls emit, that other slices react to
(``praxis.app.reactions``)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.engine import Connection

from praxis.core.records import Control


@dataclass(frozen=True, eq=False, slots=True)
class ControlChanged:
    """A pause, resume or cancel changed the control a work order applies (each one of
    the subtree whose control changed), inside the admin's transaction."""

    connection: Connection
    work_order_id: str
    control: Control


@dataclass(frozen=True, eq=False, slots=True)
class WorkOrderCancelled:
    """A work order was cancelled (each one of the subtree), inside the admin's
    transaction, after its :class:`ControlChanged`: its runs stop with ``reason``."""

    connection: Connection
    work_order_id: str
    reason: str
    now: int


@dataclass(frozen=True, eq=False, slots=True)
class OwnerChanged:
    """AdvanceEpoch advanced a work order's ownership epoch, inside its transaction."""

    connection: Connection
    work_order_id: str
    epoch: int
    now: int


@dataclass(frozen=True, slots=True)
class HoldsChanged:
    """A hold was placed or cleared (published after its commit): holds are inbox items."""


@dataclass(frozen=True, slots=True)
class WorkOrderRecorded:
    """A work order was recorded, proposed, or its proposal decided (published after its
    commit): what imposes actions or a budget on its subtree may be new, and a proposal
    joined or left the inbox."""

    work_order_id: str
