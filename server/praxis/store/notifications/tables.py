"""The notifications slice's tables (migration 23, :mod:`praxis.store.schema`)."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, Integer, String, Table, Text

from praxis.store.db.metadata import metadata

# --- migration 23, notifications: what a run pushes when it ends (rows.py) ---
#
# * ``run_notifications``: one row per run started with ``notify`` (its webhook
#   destination names as canonical JSON, its reply_to and template), read only when the
#   run reaches a terminal state.
# * ``deliveries``: the outbox, one row per webhook push, written in the transaction of
#   the terminal state; ``seq`` orders listings (newest first), ``delivery_id`` is the
#   stable ``webhook-id``; ``body`` is fixed when written (every try sends the same
#   bytes); ``state`` is PENDING, FAILED, DELIVERED or DEAD; ``next_at_ms`` is when it is
#   due (0 when DELIVERED or DEAD) and also the lease of a try in flight (a process that
#   died mid-try leaves it due again once the lease passes: at least once).

run_notifications = Table(
    "run_notifications",
    metadata,
    Column("run_id", String(64), primary_key=True),
    Column("webhooks_json", Text, nullable=False),
    Column("reply_to", Integer, nullable=False),
    Column("reply_template", Text, nullable=False),
)

deliveries = Table(
    "deliveries",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("delivery_id", String(64), nullable=False, unique=True),
    Column("run_id", String(64), nullable=False),
    Column("destination", String(128), nullable=False),
    Column("event_type", String(32), nullable=False),
    Column("body", Text, nullable=False),
    Column("state", String(16), nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("next_at_ms", BigInteger, nullable=False),
    Column("last_error", Text, nullable=False),
    Column("last_status", Integer, nullable=False),
    Column("created_at_ms", BigInteger, nullable=False),
    Column("updated_at_ms", BigInteger, nullable=False),
    Column("delivered_at_ms", BigInteger, nullable=False),
)
Index("deliveries_due", deliveries.c.state, deliveries.c.next_at_ms)
Index("deliveries_run", deliveries.c.run_id, deliveries.c.destination)
