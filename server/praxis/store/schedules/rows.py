"""Reading and writing the schedules table."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import and_, bindparam, or_, select, update
from sqlalchemy.engine import Connection

from praxis.core import calendar as calendars
from praxis.core import schedule as core
from praxis.core.records import Principal, PrincipalKind, Ref
from praxis.core.run.state import TERMINAL
from praxis.store.db.statements import Statement
from praxis.store.runtime.tables import runs
from praxis.store.schedules.tables import schedules


@dataclass(frozen=True)
class ScheduleRecord:
    """A stored schedule."""

    spec: core.Spec
    work_order_id: str
    principal: Principal
    governed: bool
    approval_id: str
    state: core.State
    created_at_ms: int
    next_ms: int
    buffered_ms: int = 0
    last_run_id: str = ""
    last_scheduled_ms: int = 0
    started_count: int = 0
    skipped_count: int = 0
    missed_count: int = 0
    failed_count: int = 0
    last_error_reason: str = ""
    version: int = 1

    def advanced(self, **changes: Any) -> ScheduleRecord:
        """The record with ``changes`` and its version bumped."""
        return replace(self, version=self.version + 1, **changes)


def spec_document(spec: core.Spec) -> dict[str, Any]:
    """A spec as stored."""
    return {
        "schedule_id": spec.schedule_id,
        "calendar": {
            "cron": spec.calendar.cron,
            "interval_ms": spec.calendar.interval_ms,
            "time_zone": spec.calendar.time_zone,
            "start_ms": spec.calendar.start_ms,
            "end_ms": spec.calendar.end_ms,
        },
        "overlap": spec.overlap.name,
        "catchup_window_ms": spec.catchup_window_ms,
        "definition_json": spec.definition_json,
        "ref": [spec.ref.work_order_id, spec.ref.run_id] if spec.ref else None,
        "input_json": spec.input_json,
        "work_order_id": spec.work_order_id,
        "run_timeout_ms": spec.run_timeout_ms,
    }


def _spec(text: str) -> core.Spec:
    data = json.loads(text)
    cal = data["calendar"]
    ref = data["ref"]
    return core.Spec(
        schedule_id=data["schedule_id"],
        calendar=calendars.Calendar(
            cal["cron"], cal["interval_ms"], cal["time_zone"], cal["start_ms"], cal["end_ms"]
        ),
        overlap=core.Overlap[data["overlap"]],
        catchup_window_ms=data["catchup_window_ms"],
        definition_json=data["definition_json"],
        ref=Ref(ref[0], ref[1]) if ref else None,
        input_json=data["input_json"],
        work_order_id=data["work_order_id"],
        run_timeout_ms=data["run_timeout_ms"],
    )


def _values(record: ScheduleRecord) -> dict[str, Any]:
    return {
        "work_order_id": record.work_order_id,
        "principal_id": record.principal.principal_id,
        "principal_kind": record.principal.kind.value,
        "governed": int(record.governed),
        "approval_id": record.approval_id,
        "state": record.state.name,
        "created_at_ms": record.created_at_ms,
        "next_ms": record.next_ms,
        "buffered_ms": record.buffered_ms,
        "last_run_id": record.last_run_id,
        "last_scheduled_ms": record.last_scheduled_ms,
        "started_count": record.started_count,
        "skipped_count": record.skipped_count,
        "missed_count": record.missed_count,
        "failed_count": record.failed_count,
        "last_error_reason": record.last_error_reason,
        "version": record.version,
    }


def _record(row: Any) -> ScheduleRecord:
    return ScheduleRecord(
        spec=_spec(row.spec_json),
        work_order_id=row.work_order_id,
        principal=Principal(row.principal_id, PrincipalKind(row.principal_kind)),
        governed=bool(row.governed),
        approval_id=row.approval_id,
        state=core.State[row.state],
        created_at_ms=row.created_at_ms,
        next_ms=row.next_ms,
        buffered_ms=row.buffered_ms,
        last_run_id=row.last_run_id,
        last_scheduled_ms=row.last_scheduled_ms,
        started_count=row.started_count,
        skipped_count=row.skipped_count,
        missed_count=row.missed_count,
        failed_count=row.failed_count,
        last_error_reason=row.last_error_reason,
        version=row.version,
    )


def load(connection: Connection, schedule_id: str) -> tuple[ScheduleRecord, str] | None:
    """A schedule and its spec digest."""
    row = connection.execute(
        select(schedules).where(schedules.c.schedule_id == schedule_id)
    ).first()
    return None if row is None else (_record(row), row.spec_digest)


def insert(connection: Connection, record: ScheduleRecord, spec_digest: str) -> None:
    """Stores a new schedule."""
    spec = json.dumps(spec_document(record.spec), sort_keys=True, separators=(",", ":"))
    connection.execute(
        schedules.insert().values(
            schedule_id=record.spec.schedule_id,
            spec_json=spec,
            spec_digest=spec_digest,
            **_values(record),
        )
    )


def save(connection: Connection, before: ScheduleRecord, after: ScheduleRecord) -> bool:
    """Writes ``after`` over ``before`` (compare-and-swap on the version)."""
    done = connection.execute(
        update(schedules)
        .where(
            and_(
                schedules.c.schedule_id == before.spec.schedule_id,
                schedules.c.version == before.version,
            )
        )
        .values(**_values(after))
    )
    return bool(done.rowcount == 1)


def due(connection: Connection, now: int, limit: int) -> list[str]:
    """Active schedules with a time due by ``now`` or a buffered time whose last run has
    ended, in time order (every sweep asks: prepared statements)."""
    timed = _DUE_TIMED.run(connection, {"now": now, "limit": limit})
    buffered = _DUE_BUFFERED.run(connection, {"limit": limit, "ended": _ENDED})
    return list(dict.fromkeys([row.schedule_id for row in [*timed, *buffered]]))


_ACTIVE = schedules.c.state == core.State.ACTIVE.name
_ENDED = sorted(status.value for status in TERMINAL)
_DUE_TIMED = Statement(
    select(schedules.c.schedule_id)
    .where(_ACTIVE, schedules.c.next_ms > 0, schedules.c.next_ms <= bindparam("now"))
    .order_by(schedules.c.next_ms)
    .limit(bindparam("limit"))
)
# A buffered time is due once the last run has ended (or is gone, archived): the
# schedules whose run still runs are left out, so that they never crowd out of the limit
# one whose run has ended.
_DUE_BUFFERED = Statement(
    select(schedules.c.schedule_id)
    .select_from(schedules.outerjoin(runs, runs.c.run_id == schedules.c.last_run_id))
    .where(
        _ACTIVE,
        schedules.c.buffered_ms > 0,
        or_(runs.c.run_id.is_(None), runs.c.status.in_(bindparam("ended", expanding=True))),
    )
    .order_by(schedules.c.buffered_ms)
    .limit(bindparam("limit"))
)


def page(
    connection: Connection, work_order_ids: list[str] | None, after: str, limit: int
) -> list[ScheduleRecord]:
    """Schedules after the id ``after`` in id order (of ``work_order_ids`` when given)."""
    query = select(schedules).where(schedules.c.schedule_id > after)
    if work_order_ids is not None:
        query = query.where(schedules.c.work_order_id.in_(work_order_ids))
    rows = connection.execute(query.order_by(schedules.c.schedule_id).limit(limit)).all()
    return [_record(row) for row in rows]
