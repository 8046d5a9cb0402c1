"""Tables of work-order controls (migration 1): each work order's control and epochs,
and the holds placed on it; migration 27 makes each work order a record in a tree
(:data:`WORK_ORDER_TREE_COLUMNS`)."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, Integer, String, Table, Text, text

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
