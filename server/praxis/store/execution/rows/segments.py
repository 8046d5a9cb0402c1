"""Run segments' SQL: a run's segments, new ones, and the live runs that get one."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from praxis.core import run as runs
from praxis.core import segments as core
from praxis.store.db.statements import Statement
from praxis.store.execution.tables import run_segments
from praxis.store.runtime.tables import runs as run_table

_INSERT_SEGMENT = Statement(run_segments.insert())  # built once, raw on SQLite
_SEGMENTS_OF = Statement(  # every snapshot (GetRun, WatchRun updates) reads them
    select(run_segments)
    .where(run_segments.c.run_id == bindparam("run_id"))
    .order_by(run_segments.c.number)
)
_LIVE = [s.value for s in runs.RunStatus if s not in runs.TERMINAL]


def add(connection: Connection, run_id: str, segment: core.Segment, incarnation: str) -> None:
    """Adds one segment of a run."""
    _INSERT_SEGMENT.run(
        connection,
        {
            "run_id": run_id,
            "number": segment.number,
            "reason": segment.reason.value,
            "started_at_ms": segment.started_at_ms,
            "ownership_epoch": segment.ownership_epoch,
            "incarnation": incarnation,
        },
    )


def load(connection: Connection, run_id: str) -> list[core.Segment]:
    """A run's segments, oldest first."""
    rows: Any = _SEGMENTS_OF.run(connection, {"run_id": run_id}).all()
    return [
        core.Segment(
            row.number,
            core.Reason(row.reason),
            row.started_at_ms,
            row.ownership_epoch,
            row.incarnation,
        )
        for row in rows
    ]


def live_runs(connection: Connection) -> list[Any]:
    """``(run_id, work_order_id)`` of every run not finished."""
    return list(
        connection.execute(
            select(run_table.c.run_id, run_table.c.work_order_id).where(
                run_table.c.status.in_(_LIVE)
            )
        ).all()
    )


def live_runs_of(connection: Connection, work_order_id: str) -> list[str]:
    """The ids of a work order's runs not finished."""
    return list(
        connection.execute(
            select(run_table.c.run_id).where(
                run_table.c.work_order_id == work_order_id, run_table.c.status.in_(_LIVE)
            )
        ).scalars()
    )
