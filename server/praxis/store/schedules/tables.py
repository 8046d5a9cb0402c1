"""The schedules table (migration 18 on this branch; its own table, created whole).

One row per schedule, never deleted (a deleted schedule keeps its id taken, so that its
start request ids are never reused by another schedule). Its cursor (``next_ms``), the
time it keeps (``buffered_ms``) and its counts change under a compare-and-swap on
``version`` inside one write transaction with the runs it starts.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, Integer, String, Table, Text

from praxis.store.db.metadata import metadata

schedules = Table(
    "schedules",
    metadata,
    Column("schedule_id", String(128), primary_key=True),
    Column("work_order_id", String(128), nullable=False),
    Column("principal_id", String(128), nullable=False),
    Column("principal_kind", String(16), nullable=False),
    Column("spec_json", Text, nullable=False),
    Column("spec_digest", String(80), nullable=False),
    Column("governed", Integer, nullable=False),
    Column("approval_id", String(128), nullable=False),
    Column("state", String(16), nullable=False),
    Column("created_at_ms", BigInteger, nullable=False),
    Column("next_ms", BigInteger, nullable=False),
    Column("buffered_ms", BigInteger, nullable=False),
    Column("last_run_id", String(64), nullable=False),
    Column("last_scheduled_ms", BigInteger, nullable=False),
    Column("started_count", BigInteger, nullable=False),
    Column("skipped_count", BigInteger, nullable=False),
    Column("missed_count", BigInteger, nullable=False),
    Column("failed_count", BigInteger, nullable=False),
    Column("last_error_reason", String(64), nullable=False),
    Column("version", BigInteger, nullable=False),
)
# The sweeper's query: active schedules whose next time has come, in time order.
Index("schedules_due", schedules.c.state, schedules.c.next_ms)
# Active schedules keeping a buffered time (OVERLAP_POLICY_BUFFER_ONE).
Index("schedules_buffered", schedules.c.state, schedules.c.buffered_ms)
