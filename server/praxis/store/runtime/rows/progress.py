"""The latest progress of each attempt (``attempt_progress``, migration 20).

A heartbeat that carries a report (:mod:`praxis.core.progress`) overwrites its attempt's
row in the heartbeat's own transaction, which also saves the run (its lease, hence a new
version): the run's watchers are woken by that save and read the report with the new
snapshot. Nothing else writes the table, so claims and settlements cost what they did.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from praxis.core import progress
from praxis.core import run as core
from praxis.store.db import portable
from praxis.store.runtime.tables import attempt_progress

READ_CHUNK = 500
"""Attempt ids per read (an ``IN`` list), well under every driver's parameter limit."""


_NEWEST = ("text", "data_json", "reported_at_ms")
_UPSERT = portable.Upsert(
    attempt_progress,
    [attempt_progress.c.attempt_id],
    lambda excluded: {
        **{name: getattr(excluded, name) for name in _NEWEST},
        "reports": attempt_progress.c.reports + 1,
    },
)
_READ = select(attempt_progress).where(
    attempt_progress.c.attempt_id.in_(bindparam("ids", expanding=True))
)


def record(
    connection: Connection, attempt: core.Attempt, report: progress.Report, now: int
) -> None:
    """Keeps ``report`` as the attempt's latest (one statement)."""
    _UPSERT.run(
        connection,
        {
            "attempt_id": attempt.attempt_id,
            "run_id": attempt.run_id,
            "node_uid": attempt.node_uid,
            "text": report.text,
            "data_json": report.data_json,
            "reported_at_ms": now,
            "reports": 1,
        },
    )


def latest(connection: Connection, attempt_ids: Iterable[str]) -> dict[str, progress.Progress]:
    """The latest report of each of ``attempt_ids`` that reported one, by attempt id."""
    wanted = sorted(set(attempt_ids))
    found: dict[str, progress.Progress] = {}
    for start in range(0, len(wanted), READ_CHUNK):
        rows = connection.execute(_READ, {"ids": wanted[start : start + READ_CHUNK]})
        for row in rows:
            found[row.attempt_id] = progress.Progress(
                attempt_id=row.attempt_id,
                text=row.text,
                data_json=row.data_json,
                reported_at_ms=int(row.reported_at_ms),
                reports=int(row.reports),
            )
    return found
