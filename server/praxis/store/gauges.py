"""What the stored state looks like now, for the metrics endpoint (read at scrape time).

Each figure is one small query on an existing index, so a scrape costs the same however
many server processes there are (the endpoint's process asks once) and grows only with
the live work, not with history, except ``runs by state``, which counts the
``runs_status_created`` index (a covering index scan, no table rows).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from sqlalchemy import and_, func, select, text

from praxis.store import files
from praxis.store.database import Database
from praxis.store.runtime_schema import ready_nodes, run_nodes, run_timers, runs
from praxis.store.schema import holds


@dataclass(frozen=True)
class StoredState:
    """Counts read in one snapshot.

    Attributes:
        ready: Ready attempts per model (``ready_nodes``), including those in retry
            backoff.
        leases: Attempts leased to a worker and not yet settled or expired.
        runs: Runs per state (``RUNNING``, ``COMPLETED``, ...).
        holds: Holds in place per kind.
        database_bytes: The size of the database (SQLite: the main file's pages;
            PostgreSQL: ``pg_database_size``), or ``None`` when it cannot be read.
    """

    ready: dict[str, int] = field(default_factory=dict)
    leases: int = 0
    runs: dict[str, int] = field(default_factory=dict)
    holds: dict[str, int] = field(default_factory=dict)
    database_bytes: int | None = None


_READY = select(ready_nodes.c.model, func.count()).group_by(ready_nodes.c.model)
# Every running attempt has a timer row (its lease or timeout); waits have one too, so
# the join keeps the RUNNING nodes (primary-key lookups, one per timer row).
_LEASES = (
    select(func.count())
    .select_from(run_timers)
    .join(
        run_nodes,
        and_(
            run_nodes.c.run_id == run_timers.c.run_id,
            run_nodes.c.node_uid == run_timers.c.node_uid,
        ),
    )
    .where(run_nodes.c.status == "RUNNING")
)
_RUNS = select(runs.c.status, func.count()).group_by(runs.c.status)
_HOLDS = (
    select(holds.c.kind, func.count()).where(holds.c.cleared_at_ms.is_(None)).group_by(holds.c.kind)
)


def read(db: Database) -> StoredState:
    """The counts, read in one read transaction."""
    with db.read() as connection:
        ready = {str(model): int(count) for model, count in connection.execute(_READY)}
        leases = int(connection.execute(_LEASES).scalar() or 0)
        by_status = {str(status): int(count) for status, count in connection.execute(_RUNS)}
        by_kind = {str(kind): int(count) for kind, count in connection.execute(_HOLDS)}
        size: int | None = None
        if connection.dialect.name == "postgresql":
            size = int(connection.execute(text("SELECT pg_database_size(current_database())"))
                       .scalar() or 0)  # fmt: skip
    if size is None:
        size = _sqlite_bytes(db)
    return StoredState(ready, leases, by_status, by_kind, size)


def _sqlite_bytes(db: Database) -> int | None:
    """The SQLite file's size plus its WAL (what the disk holds), or None."""
    path = files.sqlite_path(db.url)
    if path is None:
        return None
    total = 0
    for name in (str(path), f"{path}-wal"):
        try:
            total += os.stat(name).st_size
        except OSError:
            continue
    return total
