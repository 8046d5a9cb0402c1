"""Tables of work-order controls (migration 1): each work order's control and epochs,
and the holds placed on it."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, Integer, String, Table, Text

from praxis.store.db.metadata import metadata

work_orders = Table(
    "work_orders",
    metadata,
    Column("work_order_id", String(128), primary_key=True),
    Column("control", String(16), nullable=False),
    Column("ownership_epoch", BigInteger, nullable=False),
    Column("authority_epoch", BigInteger, nullable=False),
    Column("updated_at_ms", BigInteger, nullable=False),
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
