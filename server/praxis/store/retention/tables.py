"""The table of archived runs (retention migration).

* ``archived_runs``: one tombstone per archived run, as small as GetRun's RUN_ARCHIVED
  answer allows: its work order (GetRun authorises against it), who started it with
  which request id (a repeated StartRun answers RUN_ARCHIVED), its status, the digest of
  what was archived (32 bytes, shown as ``sha256:<hex>``) and when it was archived. The
  archive file is not stored: it is the UTC day of ``archived_at_ms``
  (``archive.period_name``). ``seq`` orders tombstones as they were written (SQLite's
  rowid), so expiry reads the oldest without an index of its own. Kept
  ``keep_archived_ms`` (default: as long again as the runs were kept), then deleted.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, Integer, LargeBinary, String, Table

from praxis.store.db.metadata import metadata

archived_runs = Table(
    "archived_runs",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("run_id", String(64), nullable=False),
    Column("work_order_id", String(128), nullable=False),
    Column("principal_id", String(128), nullable=False),
    Column("request_id", String(128), nullable=False),
    Column("status", String(16), nullable=False),
    Column("digest", LargeBinary(32), nullable=False),  # the sha256 of the archived rows
    Column("archived_at_ms", BigInteger, nullable=False),
)
Index("archived_runs_run", archived_runs.c.run_id, unique=True)
# StartRun: a request id whose run was archived still answers (RUN_ARCHIVED).
Index("archived_runs_request", archived_runs.c.principal_id, archived_runs.c.request_id)
