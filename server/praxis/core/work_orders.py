"""Work orders as a tree: the pure rules (no I/O).

A work order may have a parent. It inherits its ancestors' controls (the most restrictive
control of the chain applies, :func:`effective`), their permitted actions (a child's
narrow its parent's, :func:`covers`), and spends within their budgets (:func:`remaining`).
The limits keep every ancestor check a bounded walk: :data:`MAX_LEVELS` levels,
:data:`MAX_CHILDREN` children per work order.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from praxis.core import membership, money, values
from praxis.core.records import Control
from praxis.core.rejection import Code, Rejection, invalid, precondition

MAX_LEVELS = 8
"""A tree has at most this many levels: a root is depth 0, the deepest child depth 7."""
MAX_CHILDREN = 1000
"""A work order has at most this many children."""
MAX_TITLE = 1000
"""A title's maximum length in characters."""
MAX_ACTIONS = 64
"""A work order names at most this many action patterns."""

_RANK = {Control.ACTIVE: 0, Control.PAUSED: 1, Control.CANCELING: 2, Control.CANCELED: 3}


class State(enum.Enum):
    """A work order's lifecycle as a caller sees it."""

    OPEN = "OPEN"
    PAUSED = "PAUSED"
    CANCELLED = "CANCELLED"
    CLOSED = "CLOSED"
    PROPOSED = "PROPOSED"
    """Proposed by an agent, waiting for a human's decision: it admits no run or child."""
    DECLINED = "DECLINED"
    """A proposal a human declined, for good: it admits nothing."""


class Proposal(enum.Enum):
    """How a work order came to be: created directly, or proposed and then decided."""

    NONE = ""
    PROPOSED = "PROPOSED"
    APPROVED = "APPROVED"
    DECLINED = "DECLINED"


@dataclass(frozen=True)
class Node:
    """A work order's record as stored.

    Attributes:
        work_order_id: Its id.
        own: The control set on it (not inherited).
        control: The control that applies to it (its own or an ancestor's).
        parent_id: Its parent, empty for a root.
        ancestors: Its ancestors, root first.
        budget: Its own budget, or ``None``.
        spent: What its subtree's attempts reported.
        actions: Its own permitted action patterns (empty: its parent's).
    """

    work_order_id: str
    own: Control = Control.ACTIVE
    control: Control = Control.ACTIVE
    parent_id: str = ""
    ancestors: tuple[str, ...] = ()
    title: str = ""
    labels: Mapping[str, str] = field(default_factory=dict)
    creator: str = ""
    created_at_ms: int = 0
    closed_at_ms: int = 0
    budget: Decimal | None = None
    spent: Decimal = money.ZERO
    actions: tuple[str, ...] = ()
    proposal: Proposal = Proposal.NONE
    decided_by: str = ""
    decided_at_ms: int = 0
    decline_reason: str = ""

    @property
    def state(self) -> State:
        """Its state: a pending or declined proposal's first, then cancelled or paused
        (inherited) before closed before open."""
        if self.proposal is Proposal.DECLINED:
            return State.DECLINED
        if self.proposal is Proposal.PROPOSED:
            return State.PROPOSED
        if self.control in (Control.CANCELING, Control.CANCELED):
            return State.CANCELLED
        if self.control is Control.PAUSED:
            return State.PAUSED
        return State.CLOSED if self.closed_at_ms else State.OPEN

    @property
    def depth(self) -> int:
        """0 for a root."""
        return len(self.ancestors)


@dataclass(frozen=True)
class Request:
    """A validated CreateWorkOrder request."""

    work_order_id: str
    parent_id: str
    title: str
    labels: Mapping[str, str]
    budget: Decimal | None
    actions: tuple[str, ...]


def effective(own: Control, inherited: Control) -> Control:
    """The control that applies: the more restrictive of a work order's own control and
    the control its parent applies."""
    return own if _RANK[own] >= _RANK[inherited] else inherited


def check_request(
    work_order_id: str,
    parent_id: str,
    title: str,
    labels: Mapping[str, str],
    budget_text: str,
    actions: Sequence[str],
) -> Request | Rejection:
    """Validates a CreateWorkOrder request (INVALID_ARGUMENT reasons)."""
    problem = (
        values.check_identifier(work_order_id, "work_order_id")
        or (values.check_identifier(parent_id, "parent_id") if parent_id else None)
        or membership.check_labels(labels)
    )
    if problem:
        return problem
    if parent_id == work_order_id:
        return invalid("IDENTIFIER_INVALID", "parent_id", "a work order cannot be its own parent")
    if len(title) > MAX_TITLE:
        return invalid("TEXT_TOO_LONG", "title", f"title is over {MAX_TITLE} characters")
    if len(actions) > MAX_ACTIONS:
        return invalid("GRANT_INVALID", "actions", f"at most {MAX_ACTIONS} actions")
    for index, pattern in enumerate(actions):
        if not pattern or len(pattern) > 128 or "*" in pattern[:-1]:
            return invalid(
                "GRANT_INVALID",
                f"actions[{index}]",
                "an action pattern is an action or a prefix ending with one `*`",
            )
    budget: Decimal | None = None
    if budget_text:
        parsed = money.parse_amount(budget_text, "budget_microcredits")
        if isinstance(parsed, Rejection):
            return parsed
        budget = parsed
    return Request(
        work_order_id, parent_id, title, dict(labels), budget, tuple(dict.fromkeys(actions))
    )


def matches(patterns: Sequence[str], name: str) -> bool:
    """Whether an action pattern (an action, or a prefix ending with ``*``) names ``name``."""
    return any(
        pattern == name or (pattern.endswith("*") and name.startswith(pattern[:-1]))
        for pattern in patterns
    )


def covers(parent: Sequence[str], pattern: str) -> bool:
    """Whether every action ``pattern`` names is named by one of ``parent``'s patterns."""
    if not pattern.endswith("*"):
        return matches(parent, pattern)
    prefix = pattern[:-1]
    return any(p.endswith("*") and prefix.startswith(p[:-1]) for p in parent)


def permitted(chain: Sequence[Node], action: str) -> bool:
    """Whether ``action`` is permitted in the last work order of ``chain`` (root first):
    every work order of the chain that names actions names it."""
    return all(matches(node.actions, action) for node in chain if node.actions)


def remaining(
    chain: Sequence[Node], reserved: Mapping[str, Decimal] | None = None
) -> Decimal | None:
    """The least that a work order of ``chain`` with a budget has left (negative when
    overspent), or ``None`` when none has a budget. ``reserved``: what running attempts
    hold against each work order's budget (by id), counted as spent."""
    held = reserved or {}
    left = [
        money.subtract(n.budget, money.add(n.spent, held.get(n.work_order_id, money.ZERO)))
        for n in chain
        if n.budget is not None
    ]
    return min(left) if left else None


def budgeted(chain: Sequence[Node]) -> tuple[str, ...]:
    """The work orders of ``chain`` that have a budget, in chain order."""
    return tuple(n.work_order_id for n in chain if n.budget is not None)


def not_approved(node: Node) -> Rejection | None:
    """Why a proposed or declined work order admits nothing (no run, resume or child)."""
    if node.proposal not in (Proposal.PROPOSED, Proposal.DECLINED):
        return None
    return not_approved_reason(node.work_order_id, node.proposal.value)


def not_approved_reason(work_order_id: str, proposal: str) -> Rejection:
    """WORK_ORDER_NOT_APPROVED for a work order whose proposal is ``proposal``."""
    waits = "waits for a human's approval" if proposal == "PROPOSED" else "was declined"
    return precondition(
        "WORK_ORDER_NOT_APPROVED",
        f"work order {work_order_id!r} is a proposed child that {waits}: it admits no run, "
        "resume or child until approved",
    )


def check_decision(node: Node, approve: bool) -> Rejection | None:
    """Why ``node`` cannot be approved (or declined) now; ``None`` also when the same
    decision was already taken (a replay answers it unchanged)."""
    wanted = Proposal.APPROVED if approve else Proposal.DECLINED
    if node.proposal in (Proposal.PROPOSED, wanted):
        return None
    if node.proposal is Proposal.NONE:
        told = "was created directly, not proposed"
    else:
        told = f"was already {node.proposal.value.lower()}"
    return precondition(
        "WORK_ORDER_PROPOSAL_DECIDED",
        f"work order {node.work_order_id!r} {told}: there is nothing to decide",
    )


def check_child(parent_chain: Sequence[Node], children: int, request: Request) -> Rejection | None:
    """Why a child of the last work order of ``parent_chain`` (root first) may not be
    created as ``request`` asks, or ``None``."""
    parent = parent_chain[-1]
    pending = not_approved(parent)
    if pending:
        return pending
    if parent.state in (State.CLOSED, State.CANCELLED):
        return precondition(
            "WORK_ORDER_CLOSED",
            f"work order {parent.work_order_id!r} is {parent.state.value.lower()}: "
            "it admits no child",
        )
    if parent.depth + 1 >= MAX_LEVELS:
        return precondition(
            "WORK_ORDER_TOO_DEEP",
            f"a work order tree has at most {MAX_LEVELS} levels; "
            f"{parent.work_order_id!r} is at depth {parent.depth}",
        )
    if children >= MAX_CHILDREN:
        return Rejection(
            Code.RESOURCE_EXHAUSTED,
            "WORK_ORDER_TOO_MANY_CHILDREN",
            f"work order {parent.work_order_id!r} has {MAX_CHILDREN} children, the most allowed",
        )
    left = remaining(parent_chain)
    if request.budget is not None and left is not None and request.budget > left:
        return precondition(
            "WORK_ORDER_BUDGET_EXCEEDS_PARENT",
            f"the budget {money.text(request.budget)} is more than the "
            f"{money.text(left)} microcredits its ancestors have left",
        )
    inherited = [n.actions for n in parent_chain if n.actions]
    for index, pattern in enumerate(request.actions):
        if not all(covers(actions, pattern) for actions in inherited):
            return Rejection(
                Code.FAILED_PRECONDITION,
                "WORK_ORDER_ACTIONS_WIDENED",
                f"action {pattern!r} is wider than its parent's actions",
                (),
                (("field", f"actions[{index}]"),),
            )
    return None


def check_proposals(parent_id: str, pending: int) -> Rejection | None:
    """Why one more proposal under ``parent_id`` is refused: at most :data:`MAX_CHILDREN`
    wait for a decision at once."""
    if pending < MAX_CHILDREN:
        return None
    return Rejection(
        Code.RESOURCE_EXHAUSTED,
        "WORK_ORDER_TOO_MANY_CHILDREN",
        f"work order {parent_id!r} has {MAX_CHILDREN} proposals waiting for a decision",
    )


def same_request(node: Node, request: Request, creator: str, proposed: bool = False) -> bool:
    """Whether ``node`` is what ``request`` by ``creator`` records (a replay); a proposal
    replays only a proposal, a create only a create."""
    return (
        node.creator == creator
        and (node.proposal is not Proposal.NONE) == proposed
        and node.parent_id == request.parent_id
        and node.title == request.title
        and dict(node.labels) == dict(request.labels)
        and node.budget == request.budget
        and node.actions == request.actions
    )


def state_from(chain: Sequence[Node]) -> str:
    """The work order of ``chain`` (root first) whose own control gives the last one's
    state: the highest one set to it (resume that one first), else the last itself."""
    last = chain[-1]
    if last.control is Control.ACTIVE:
        return last.work_order_id
    return next((n.work_order_id for n in chain if n.own is last.control), last.work_order_id)


def unknown_state() -> Rejection:
    """The refusal of a state filter that names no state."""
    return invalid("ENUM_INVALID", "state", "state is not a WorkOrderState")
