"""Schedules: the list with each one's calendar, next time, last run and counts; pause,
resume and delete (ScheduleService, with the signed-in principal's own grants)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from aiws.engine.v1 import schedule_pb2, schedule_pb2_grpc
from praxis_console import web
from praxis_console.api import ApiError

PAGE = 100


def _stub(request: Request) -> Any:
    return web.console_of(request).engine.stub("schedules", schedule_pb2_grpc.ScheduleServiceStub)


def view(schedule: schedule_pb2.Schedule) -> dict[str, Any]:
    """What the page shows of one schedule."""
    calendar = schedule.spec.calendar
    when = (
        f"cron {calendar.cron} ({calendar.time_zone or 'UTC'})"
        if calendar.cron
        else f"every {calendar.interval_ms // 1000} s"
    )
    state = schedule_pb2.ScheduleState.Name(schedule.state).removeprefix("SCHEDULE_STATE_")
    overlap = schedule_pb2.OverlapPolicy.Name(schedule.spec.overlap)
    return {
        "id": schedule.spec.schedule_id,
        "state": state.lower(),
        "work_order_id": schedule.work_order_id,
        "source": (
            f"{schedule.spec.ref.work_order_id}/{schedule.spec.ref.run_id}"
            if schedule.spec.HasField("ref")
            else "inline definition"
        ),
        "governed": schedule.governed,
        "when": when,
        "overlap": overlap.removeprefix("OVERLAP_POLICY_").lower().replace("_", "-"),
        "next_ms": schedule.next_ms,
        "last_run_id": schedule.last_run_id,
        "started": schedule.started_count,
        "skipped": schedule.skipped_count,
        "missed": schedule.missed_count,
        "failed": schedule.failed_count,
        "last_error": schedule.last_error_reason,
    }


async def schedules_page(request: Request) -> Response:
    session = web.require_session(request)
    engine = web.console_of(request).engine
    token = request.query_params.get("page_token", "")[:512]
    listed, problem = await engine.read(
        session.token,
        _stub(request).ListSchedules,
        schedule_pb2.ListSchedulesRequest(page_size=PAGE, page_token=token),
    )
    return web.render(
        request,
        "schedules.html",
        {
            "schedules": [view(s) for s in listed.schedules] if listed else [],
            "next_page": listed.next_page_token if listed else "",
            "first_page": not token,
            "problem": problem,
        },
    )


async def schedule_control(request: Request) -> Response:
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    schedule_id = request.path_params["schedule_id"]
    stub = _stub(request)
    calls: dict[str, tuple[Any, Any]] = {
        "pause": (stub.PauseSchedule, schedule_pb2.PauseScheduleRequest(schedule_id=schedule_id)),
        "resume": (
            stub.ResumeSchedule,
            schedule_pb2.ResumeScheduleRequest(schedule_id=schedule_id),
        ),
        "delete": (
            stub.DeleteSchedule,
            schedule_pb2.DeleteScheduleRequest(schedule_id=schedule_id),
        ),
    }
    action = web.field_text(form, "action", 16)
    if action not in calls:
        error = ApiError("INVALID_ARGUMENT", "", "action must be pause, resume or delete")
        return web.render(request, "error.html", {"error": error}, 400)
    try:
        await engine.call(session.token, *calls[action])
    except ApiError as error:
        return web.error_page(request, error)
    return web.redirect("/schedules")


ROUTES = [
    Route("/schedules", schedules_page, methods=["GET"]),
    Route("/schedules/{schedule_id}/control", schedule_control, methods=["POST"]),
]
