"""Tables of work-order controls (migration 1): each work order's control and epochs,
and the holds placed on it; migration 27 makes each work order a record in a tree
(:data:`WORK_ORDER_TREE_COLUMNS`); migration 28 adds proposals
(:data:`WORK_ORDER_PROPOSAL_COLUMNS`) and the reservations of running attempts against
work-order budgets (:data:`work_order_reservations`)."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    text,
)

from praxis.store.db.metadata import metadata

work_orders = Table(
    "work_orders",
    metadata,
    Column("work_order_id", String(128), primary_key=True),
    # The effective control: the most restrictive of its own and its ancestors' (what
    # every claim filter reads).
    Column("control", String(16), nullable=False),
    Column("ownership_epoch", BigInteger, nullable=False),
    Column("authority_epoch", BigInteger, nullable=False),
    Column("updated_at_ms", BigInteger, nullable=False),
    # Migration 27: the record and its place in the tree.
    Column("own_control", String(16), nullable=False, server_default=text("''")),
    Column("parent_id", String(128), nullable=False, server_default=text("''")),
    Column("ancestors_json", Text, nullable=False, server_default=text("'[]'")),
    Column("title", Text, nullable=False, server_default=text("''")),
    Column("labels_json", Text, nullable=False, server_default=text("'{}'")),
    Column("creator", String(128), nullable=False, server_default=text("''")),
    Column("created_at_ms", BigInteger, nullable=False, server_default=text("0")),
    Column("closed_at_ms", BigInteger, nullable=False, server_default=text("0")),
    Column("budget_microcredits", Text, nullable=False, server_default=text("''")),
    Column("spent_microcredits", Text, nullable=False, server_default=text("'0'")),
    Column("actions_json", Text, nullable=False, server_default=text("'[]'")),
    # Migration 28: a child an agent proposed. `proposal` is '' (created directly),
    # PROPOSED (waiting for a human), APPROVED or DECLINED (final); `creator` is then
    # the proposer and `decided_by` the human who decided.
    Column("proposal", String(16), nullable=False, server_default=text("''")),
    Column("decided_by", String(128), nullable=False, server_default=text("''")),
    Column("decided_at_ms", BigInteger, nullable=False, server_default=text("0")),
    Column("decline_reason", Text, nullable=False, server_default=text("''")),
)
WORK_ORDER_TREE_COLUMNS = (
    "own_control",
    "parent_id",
    "ancestors_json",
    "title",
    "labels_json",
    "creator",
    "created_at_ms",
    "closed_at_ms",
    "budget_microcredits",
    "spent_microcredits",
    "actions_json",
)
WORK_ORDER_PROPOSAL_COLUMNS = ("proposal", "decided_by", "decided_at_ms", "decline_reason")
WORK_ORDER_PROPOSALS = Index(
    "work_orders_proposals", work_orders.c.proposal, work_orders.c.work_order_id
)
WORK_ORDER_CHILDREN = Index(
    "work_orders_children", work_orders.c.parent_id, work_orders.c.work_order_id
)

holds = Table(
    "holds",
    metadata,
    Column("hold_id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(32), nullable=False),
    Column("work_order_id", String(128), nullable=False),
    Column("reason", Text, nullable=False),
    Column("placed_at_ms", BigInteger, nullable=False),
    Column("placed_by", String(128), nullable=False),
    Column("cleared_at_ms", BigInteger, nullable=True),
    Column("cleared_by", String(128), nullable=True),
)
Index("holds_active", holds.c.kind, holds.c.work_order_id, holds.c.cleared_at_ms)

# Migration 28: one row per running attempt whose node declares a maximum cost and per
# work order with a budget on its run's path (the run's work order and its ancestors).
# The rows of a work order add up, exactly, to what running attempts in its subtree may
# still spend; dispatch counts them against its budget (praxis.store.controls.budgets).
# Attempts already running when migration 28 is applied hold none.
work_order_reservations = Table(
    "work_order_reservations",
    metadata,
    Column("attempt_id", String(64), nullable=False),
    Column("work_order_id", String(128), nullable=False),
    Column("run_id", String(64), nullable=False),
    Column("amount_microcredits", Text, nullable=False),
    Column("reserved_at_ms", BigInteger, nullable=False),
    PrimaryKeyConstraint("attempt_id", "work_order_id"),
)
Index(
    "work_order_reservations_by_order",
    work_order_reservations.c.work_order_id,
    work_order_reservations.c.run_id,
)
