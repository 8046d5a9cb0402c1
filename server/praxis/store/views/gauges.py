"""What the stored state looks like now, for the metrics endpoint (read at scrape time).

Each figure is one small query on an existing index, so a scrape costs the same however
many server processes there are (the endpoint's process asks once) and grows only with
the live work, not with history, except ``runs by state``, which counts the
``runs_status_created`` index (one query, a covering index scan that reads no table rows;
``tests/store/views/test_gauges.py`` checks the plan on SQLite).

A ready row is *claimable* when its retry backoff has elapsed and its work order is active
(the conditions of a claim, ``praxis.store.runtime.runs._READY``); the others are reported apart,
by why they wait, so ``praxis_tasks_ready`` with no claims means an idle worker pool.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from praxis.store.db import files
from praxis.store.db.database import Database
from praxis.store.views.rows import gauges as rows


@dataclass(frozen=True)
class StoredState:
    """Counts read in one snapshot.

    Attributes:
        ready: Claimable attempts per model: ready, out of retry backoff, their work
            order active.
        deferred: Ready attempts not claimable yet, per ``(model, reason)``: ``backoff``
            (a retry's backoff has not elapsed) or ``held`` (their work order is paused
            or being cancelled).
        leases: Attempts leased to a worker and not yet settled or expired.
        runs: Runs per state (``RUNNING``, ``COMPLETED``, ...).
        holds: Holds in place per kind.
        database_bytes: The size of the database (SQLite: the main file's pages;
            PostgreSQL: ``pg_database_size``), or ``None`` when it cannot be read.
    """

    ready: dict[str, int] = field(default_factory=dict)
    deferred: dict[tuple[str, str], int] = field(default_factory=dict)
    leases: int = 0
    runs: dict[str, int] = field(default_factory=dict)
    holds: dict[str, int] = field(default_factory=dict)
    database_bytes: int | None = None
    deliveries: dict[str, int] = field(default_factory=dict)
    """Webhook deliveries per state (a scan of the ``deliveries_due`` index)."""


def read(db: Database, now_ms: int) -> StoredState:
    """The counts at ``now_ms`` (the server clock's), read in one read transaction."""
    ready: dict[str, int] = {}
    deferred: dict[tuple[str, str], int] = {}
    with db.read() as connection:
        for model, count, backoff, held in rows.ready(connection, now_ms):
            ready[model] = count - backoff - held
            deferred[(model, "backoff")] = backoff
            deferred[(model, "held")] = held
        leases = rows.leases(connection)
        by_status = rows.runs_by_status(connection)
        by_kind = rows.holds_by_kind(connection)
        outbox = rows.deliveries_by_state(connection)
        size = files.database_bytes(connection, db.url)
    return StoredState(ready, deferred, leases, by_status, by_kind, size, outbox)
