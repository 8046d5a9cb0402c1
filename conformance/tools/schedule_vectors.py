"""Schedules' vectors (issue 27 item 3): create (idempotent by schedule id), read,
pause, resume, delete, backfill (each time once), the refusals of a bad spec, and a
schedule of a ref that needs a human's approval of its material.

Imported by ``build_vectors.py``. The sweeper's starts are not observed here (they depend
on when it runs); the vectors' schedules are paused, deleted or due only an hour after
``t0``, and start runs only of the vector's own model, which nobody else claims.
"""

from __future__ import annotations

from typing import Any

from runtime_vectors import AGENT, INVALID, ONE, teach
from vectorlib import approve, canonical, clock, ref, registered, step, vector

Json = Any

HOUR = 3_600_000
SCHEDULES = ["aiws.engine.v1.ScheduleService"]
GOVERNED = [*SCHEDULES, "aiws.engine.v1.RegistryService", "aiws.engine.v1.ApprovalService"]
EXISTS = ("ALREADY_EXISTS", "SCHEDULE_EXISTS")
PRECONDITION = "FAILED_PRECONDITION"


def spec(
    schedule_id: str = "${ns}-s",
    *,
    start: str = "${t0+3600000}",
    overlap: str = "OVERLAP_POLICY_SKIP",
    source: Json = None,
    **calendar: Json,
) -> dict[str, Json]:
    """An hourly schedule of the vector's one-node definition, in the vector's work order."""
    out: dict[str, Json] = {
        "scheduleId": schedule_id,
        "calendar": {"intervalMs": str(HOUR), "startMs": start, **calendar},
        "overlap": overlap,
    }
    if calendar.get("cron"):
        del out["calendar"]["intervalMs"]
    if source is None:
        out.update(definitionJson=canonical(ONE), workOrderId="${ns}")
    else:
        out.update(source)
    return out


def call(method: str, request: Json, principal: str = "alice", **expect: Json) -> Json:
    """One ScheduleService call."""
    return step(principal, "ScheduleService", method, request, **expect)


def named(method: str, schedule_id: str = "${ns}-s", **expect: Json) -> Json:
    """A call that names a schedule."""
    return call(method, {"scheduleId": schedule_id}, **expect)


def schedule(state: str, **fields: Json) -> dict[str, Json]:
    """The expected ``schedule`` of a response."""
    return {"schedule": {"state": f"SCHEDULE_STATE_{state}", **fields}}


def lifecycle() -> Json:
    created = {"spec": {"scheduleId": "${ns}-s"}, "workOrderId": "${ns}", "principalId": "alice"}
    return vector(
        "schedules/create-read-pause-resume-delete",
        "CreateSchedule answers the schedule with its next time; the same spec again "
        "replays it, another spec under the id is SCHEDULE_EXISTS. Pause clears the next "
        "time, resume sets the next time after now, delete ends it for good "
        "(SCHEDULE_DELETED), and the id stays taken (its own spec replays it, deleted).",
        [
            teach(),
            call(
                "CreateSchedule",
                {"spec": spec()},
                response={
                    **schedule("ACTIVE", nextMs="${t0+3600000}", **created),
                    "replayed": None,
                },
            ),
            call("CreateSchedule", {"spec": spec()}, response={"replayed": True}),
            call("CreateSchedule", {"spec": spec(start="${t0+7200000}")}, error=EXISTS),
            named("GetSchedule", response=schedule("ACTIVE", governed=None, version="1")),
            named("PauseSchedule", response=schedule("PAUSED", nextMs=None, version="2")),
            named("PauseSchedule", response=schedule("PAUSED", version="2")),
            named("ResumeSchedule", response=schedule("ACTIVE", nextMs="${t0+3600000}")),
            named("DeleteSchedule", response=schedule("DELETED", nextMs=None)),
            named("ResumeSchedule", error=(PRECONDITION, "SCHEDULE_DELETED")),
            call(
                "CreateSchedule",
                {"spec": spec()},
                response={**schedule("DELETED"), "replayed": True},
            ),
            call("CreateSchedule", {"spec": spec(start="${t0+7200000}")}, error=EXISTS),
            call(
                "ListSchedules",
                {"workOrderId": "${ns}"},
                response={"schedules": [{"spec": {"scheduleId": "${ns}-s"}}]},
            ),
        ],
        SCHEDULES,
    )


def refusals() -> Json:
    def refused(name: str, why: str, request: Json, reason: str, code: str = INVALID):
        return vector(
            f"schedules/{name}",
            why,
            [teach(), call("CreateSchedule", request, error=(code, reason))],
            SCHEDULES,
        )

    return [
        refused(
            "bad-cron-is-refused",
            "A cron expression that is not five valid fields is CALENDAR_INVALID.",
            {"spec": spec(cron="61 * * * *")},
            "CALENDAR_INVALID",
        ),
        refused(
            "unknown-time-zone-is-refused",
            "A time zone that is not an IANA name is CALENDAR_INVALID.",
            {"spec": spec(cron="0 3 * * *", timeZone="Mars/Olympus")},
            "CALENDAR_INVALID",
        ),
        refused(
            "cron-and-interval-together-are-refused",
            "A calendar gives exactly one of cron and interval_ms.",
            {"spec": {**spec(), "calendar": {"cron": "0 3 * * *", "intervalMs": "60000"}}},
            "CALENDAR_INVALID",
        ),
        refused(
            "unset-overlap-policy-is-refused",
            "OVERLAP_POLICY_UNSPECIFIED is ENUM_INVALID.",
            {"spec": spec(overlap="OVERLAP_POLICY_UNSPECIFIED")},
            "ENUM_INVALID",
        ),
        vector(
            "schedules/unknown-schedule-is-not-found",
            "Reading or changing a schedule id that holds none is SCHEDULE_NOT_FOUND.",
            [
                named("GetSchedule", "${ns}-none", error=("NOT_FOUND", "SCHEDULE_NOT_FOUND")),
                named("PauseSchedule", "${ns}-none", error=("NOT_FOUND", "SCHEDULE_NOT_FOUND")),
            ],
            SCHEDULES,
        ),
    ]


def backfill() -> Json:
    def fill(start: str, end: str, **expect: Json) -> Json:
        request = {"scheduleId": "${ns}-b", "startMs": start, "endMs": end}
        return call("BackfillSchedule", request, **expect)

    return vector(
        "schedules/backfill-starts-each-past-time-once",
        "BackfillSchedule starts one run per time of a past range, whatever the overlap "
        "policy, even while paused; the same range again starts nothing new and answers "
        "the same runs. A range reaching past now is BACKFILL_RANGE_INVALID.",
        [
            teach(),
            call(
                "CreateSchedule",
                {"spec": spec("${ns}-b", start="${t0-36000000}"), "paused": True},
                response=schedule("PAUSED"),
            ),
            fill(
                "${t0-36000000}",
                "${t0-25200000}",
                response={"started": 3, "runIds": ["<any>", "<any>", "<any>"]},
                captures={"first": "runIds.0"},
            ),
            fill(
                "${t0-36000000}",
                "${t0-25200000}",
                response={"started": None, "runIds": ["${first}", "<any>", "<any>"]},
            ),
            named("GetSchedule", "${ns}-b", response=schedule("PAUSED", startedCount="3")),
            fill("${t0-3600000}", "${t0+3600000}", error=(INVALID, "BACKFILL_RANGE_INVALID")),
            step(
                AGENT,
                "RunService",
                "GetRun",
                {"runId": "${first}"},
                response={
                    "run": {"workOrderId": "${ns}", "labels": {"praxis.schedule": "${ns}-b"}}
                },
            ),
        ],
        [*SCHEDULES, "aiws.engine.v1.RunService"],
    )


def governed() -> Json:
    of_ref = spec("${ns}-g", source={"ref": ref()})
    return vector(
        "schedules/a-schedule-of-a-ref-needs-a-human-approval",
        "A schedule of a registry ref is governed: without an approval it is "
        "APPROVAL_REQUIRED; ReviewSchedule gives the material's digest, and an approval "
        "of it creates the schedule once (a second use is APPROVAL_CONSUMED).",
        [
            clock(advance_ms=1000),
            *registered(),
            call("CreateSchedule", {"spec": of_ref}, error=(PRECONDITION, "APPROVAL_REQUIRED")),
            call(
                "ReviewSchedule",
                {"spec": of_ref},
                response={"materialJson": "<any>", "materialDigest": "<any>"},
                captures={"md_s": "materialDigest"},
            ),
            approve("${ns}-ap-s", "md_s"),
            call(
                "CreateSchedule",
                {"spec": of_ref, "approvalId": "${ns}-ap-s"},
                response=schedule("ACTIVE", governed=True, approvalId="${ns}-ap-s"),
            ),
            call(
                "CreateSchedule",
                {"spec": spec("${ns}-g2", source={"ref": ref()}), "approvalId": "${ns}-ap-s"},
                error=(PRECONDITION, "APPROVAL_CONSUMED"),
            ),
            named("DeleteSchedule", "${ns}-g", response=schedule("DELETED")),
        ],
        GOVERNED,
    )


AREAS = {
    "schedules": (
        "ScheduleService: schedules created idempotently by id, paused, resumed, deleted "
        "and backfilled; a bad spec's refusals; a schedule of a ref needs an approval.",
        lambda: [lifecycle(), *refusals(), backfill(), governed()],
    ),
}
