"""A work order's record as read: its node, what it has left, its children and its runs'
counts (what WorkOrderService and the inbox answer)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy.engine import Connection

from praxis.core import money
from praxis.core import work_orders as core
from praxis.store.controls import budgets
from praxis.store.controls.rows import tree

CHILDREN_SHOWN = 100
"""GetWorkOrderRecord answers at most this many children."""


@dataclass(frozen=True)
class Record:
    """A work order with its runs' counts and first children."""

    node: core.Node
    remaining: Decimal | None
    """What its runs may still spend (``None``: no budget limits them)."""
    child_count: int
    state_from: str
    """The work order whose control gives its state (itself or an ancestor)."""
    run_counts: tuple[tuple[str, int], ...] = ()
    children: tuple[Record, ...] = ()
    reserved: Decimal = money.ZERO
    """What running attempts in its subtree hold against its own budget (0 without one)."""


def record_of(
    connection: Connection,
    node: core.Node,
    full: bool = False,
    counts: tuple[tuple[str, int], ...] = (),
) -> Record:
    """A work order's record as read in ``connection``: with ``full``, its first
    children too."""
    chain = tree.chain(connection, node)
    children: tuple[Record, ...] = ()
    if full:
        shown = tree.page(connection, node.work_order_id, None, CHILDREN_SHOWN)
        children = tuple(record_of(connection, child) for child in shown)
    held = {
        each.work_order_id: budgets.reserved(connection, each.work_order_id)
        for each in chain
        if each.budget is not None
    }
    return Record(
        node,
        core.remaining(chain, held),
        tree.child_count(connection, node.work_order_id),
        core.state_from(chain),
        counts,
        children,
        held.get(node.work_order_id, money.ZERO),
    )
