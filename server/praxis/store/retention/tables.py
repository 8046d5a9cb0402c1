"""The table of archived runs (retention migration).

* ``archived_runs``: one tombstone per archived run: where its archive line is (the
  file name in the archive folder), the digest of what was archived, its work order
  (GetRun authorises against it), who started it with which request id, and when it
  finished and was archived. Kept ``keep_archived_ms`` (default 400 days), then deleted.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, String, Table

from praxis.store.db.metadata import metadata

archived_runs = Table(
    "archived_runs",
    metadata,
    Column("run_id", String(64), primary_key=True),
    Column("work_order_id", String(128), nullable=False),
    Column("principal_id", String(128), nullable=False),
    Column("request_id", String(128), nullable=False),
    Column("status", String(16), nullable=False),
    Column("archive", String(128), nullable=False),
    Column("digest", String(80), nullable=False),
    Column("finished_at_ms", BigInteger, nullable=False),
    Column("archived_at_ms", BigInteger, nullable=False),
)
Index("archived_runs_at", archived_runs.c.archived_at_ms, archived_runs.c.run_id)
# StartRun: a request id whose run was archived still answers (RUN_ARCHIVED).
Index("archived_runs_request", archived_runs.c.principal_id, archived_runs.c.request_id)
