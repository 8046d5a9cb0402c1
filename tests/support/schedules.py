"""Helpers for schedule tests: specs, and the runs a schedule started."""

from __future__ import annotations

import json
from typing import Any

from aiws.engine.v1 import common_pb2, run_pb2, schedule_pb2
from tests.support.harness import Harness
from tests.support.runtime import definition, node

HOUR = 3_600_000
PLAN = definition("only", only=node())


def spec(
    schedule_id: str,
    interval_ms: int = HOUR,
    start_ms: int = 0,
    overlap: int = schedule_pb2.OVERLAP_POLICY_ALLOW_ALL,
    catchup_window_ms: int = 0,
    ref: common_pb2.WorkflowRef | None = None,
    document: dict[str, Any] | None = None,
    **calendar: Any,
) -> schedule_pb2.ScheduleSpec:
    """An interval (or, with ``cron=``, a cron) schedule of PLAN or of ``ref``."""
    found = schedule_pb2.ScheduleSpec(
        schedule_id=schedule_id,
        calendar=schedule_pb2.ScheduleCalendar(
            interval_ms=0 if calendar.get("cron") else interval_ms, start_ms=start_ms, **calendar
        ),
        overlap=overlap,  # type: ignore[arg-type]
        catchup_window_ms=catchup_window_ms,
        input_json=json.dumps({"n": 1}),
    )
    if ref is not None:
        found.ref.CopyFrom(ref)
    else:
        found.definition_json = json.dumps(document or PLAN)
    return found


def create(
    h: Harness, found: schedule_pb2.ScheduleSpec, principal: str = "alice", **fields: Any
) -> schedule_pb2.Schedule:
    """Creates a schedule."""
    request = schedule_pb2.CreateScheduleRequest(spec=found, **fields)
    return h.client(principal).schedules.CreateSchedule(request).schedule  # type: ignore[no-any-return]


def get(h: Harness, schedule_id: str) -> schedule_pb2.Schedule:
    """A schedule as alice reads it."""
    request = schedule_pb2.GetScheduleRequest(schedule_id=schedule_id)
    return h.client("alice").schedules.GetSchedule(request).schedule  # type: ignore[no-any-return]


def runs_of(h: Harness, schedule_id: str) -> list[run_pb2.Run]:
    """Every run started by the schedule, oldest first (its runs carry its label)."""
    found: list[run_pb2.Run] = []
    token = ""
    while True:
        page = h.client("alice").runs.ListRuns(
            run_pb2.ListRunsRequest(
                page_size=1000, page_token=token, labels={"praxis.schedule": schedule_id}
            )
        )
        found += page.runs
        token = page.next_page_token
        if not token:
            return sorted(found, key=lambda run: run.created_at_ms)
