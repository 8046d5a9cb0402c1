"""``praxis schedules create|list|show|pause|resume|delete|backfill``."""

from __future__ import annotations

import argparse
from typing import Any

from aiws.engine.v1 import schedule_pb2
from praxis_cli.commands.common import (
    approval_args,
    check_digest,
    create_approval,
    duration_ms,
    group,
    json_argument,
    leaf,
    parse_moment,
    parse_past_moment,
    parse_ref,
    pretty_json,
    read_text,
    ref_text,
)
from praxis_cli.output import Column, free_text, ident, local_time, to_dict
from praxis_client.conventions import enum_name

_OVERLAPS: dict[str, Any] = {
    "skip": schedule_pb2.OVERLAP_POLICY_SKIP,
    "buffer-one": schedule_pb2.OVERLAP_POLICY_BUFFER_ONE,
    "allow-all": schedule_pb2.OVERLAP_POLICY_ALLOW_ALL,
    "cancel-other": schedule_pb2.OVERLAP_POLICY_CANCEL_OTHER,
}


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    """Adds the ``schedules`` group."""
    schedules = group(commands, "schedules", "start runs at cron or interval times")
    create = leaf(
        schedules,
        common,
        "create",
        _create,
        "create a schedule (of a ref: without --digest, show the material to approve; "
        "with it, approve and create)",
    )
    create.add_argument("schedule", help="the schedule's id")
    source = create.add_mutually_exclusive_group(required=True)
    source.add_argument("-f", "--file", help="an ad hoc definition (JSON; - for stdin)")
    source.add_argument("--ref", metavar="WORK_ORDER/RUN", help="run the ref's active definition")
    when = create.add_mutually_exclusive_group(required=True)
    when.add_argument("--cron", help="a five-field cron expression, e.g. '0 3 * * 1-5'")
    when.add_argument("--every", metavar="DURATION", help="a fixed interval: 90s, 15m, 1h, 1d")
    create.add_argument("--time-zone", default="", help="an IANA zone for --cron (default UTC)")
    create.add_argument("--start", help="no time before this (ISO time or epoch ms)")
    create.add_argument("--end", help="no time at or after this (ISO time or epoch ms)")
    create.add_argument("--overlap", choices=sorted(_OVERLAPS), default="skip",
                        help="while the last run runs (default skip)")  # fmt: skip
    create.add_argument("--catchup", metavar="DURATION", default="0",
                        help="how late a missed time may still start (default 1m)")  # fmt: skip
    create.add_argument("--input", help="the runs' input, a JSON document")
    create.add_argument("--input-file", help="the runs' input as a JSON file")
    create.add_argument("--work-order", default="", help="the work order of an ad hoc schedule")
    create.add_argument("--run-timeout", type=int, default=0, metavar="MS",
                        help="each run's own time limit in ms")  # fmt: skip
    create.add_argument("--paused", action="store_true", help="create it paused")
    create.add_argument("--digest", help="a schedule of a ref: approve this material digest")
    approval_args(create)

    listing = leaf(schedules, common, "list", _list, "list schedules in id order")
    listing.add_argument("--work-order", default="", help="only this work order's schedules")
    listing.add_argument("--limit", type=int, default=0, help="page size (default 100)")
    listing.add_argument("--page-token", default="", help="continue a listing")

    show = leaf(schedules, common, "show", _show, "show a schedule and what it did")
    show.add_argument("schedule")
    for name, handler, text in (
        ("pause", _pause, "pause a schedule: its times start nothing until resumed"),
        ("resume", _resume, "resume a paused schedule from its next time"),
        ("delete", _delete, "delete a schedule for good (its runs are kept)"),
    ):
        leaf(schedules, common, name, handler, text).add_argument("schedule")
    backfill = leaf(
        schedules, common, "backfill", _backfill, "start now one run per time of a past range"
    )
    backfill.add_argument("schedule")
    backfill.add_argument("--from", dest="start", required=True,
                          help="the range start: 7d (ago), ISO time or epoch ms")  # fmt: skip
    backfill.add_argument("--to", dest="end", default="0s",
                          help="the range's end, exclusive (default now)")  # fmt: skip


def _spec(args: argparse.Namespace) -> schedule_pb2.ScheduleSpec:
    spec = schedule_pb2.ScheduleSpec(
        schedule_id=args.schedule,
        calendar=schedule_pb2.ScheduleCalendar(
            cron=args.cron or "",
            interval_ms=duration_ms(args.every, "--every") if args.every else 0,
            time_zone=args.time_zone,
            start_ms=parse_moment(args.start, "--start") if args.start else 0,
            end_ms=parse_moment(args.end, "--end") if args.end else 0,
        ),
        overlap=_OVERLAPS[args.overlap],
        catchup_window_ms=duration_ms(args.catchup, "--catchup"),
        input_json=json_argument(args.input, args.input_file, "--input"),
        work_order_id=args.work_order,
        run_timeout_ms=args.run_timeout,
    )
    if args.ref:
        spec.ref.CopyFrom(parse_ref(args.ref))
    else:
        spec.definition_json = json_argument(read_text(args.file), None, "--file")
    return spec


def _create(ctx: Any, args: argparse.Namespace) -> int:
    spec = _spec(args)
    request = schedule_pb2.CreateScheduleRequest(spec=spec, paused=args.paused)
    if spec.HasField("ref"):  # governed: a human approves the exact material first
        review = ctx.call(
            ctx.client.schedules.ReviewSchedule, schedule_pb2.ReviewScheduleRequest(spec=spec)
        )
        if not args.digest:
            if ctx.out.as_json:
                ctx.out.json(to_dict(review))
            else:
                ctx.out.line(pretty_json(review.material_json))
                ctx.out.line(f"material digest: {review.material_digest}")
                ctx.out.line("approve it: the same command with --digest DIGEST")
            return 0
        check_digest(args.digest, review.material_digest)
        approval = create_approval(ctx, args, review.material_digest, spec.ref.work_order_id)
        request.approval_id = approval.approval_id
    response = ctx.call(ctx.client.schedules.CreateSchedule, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
    else:
        schedule = response.schedule
        ctx.out.line(
            f"schedule {schedule.spec.schedule_id} {_state(schedule)}; next "
            f"{local_time(schedule.next_ms)}" + (" (replayed)" if response.replayed else "")
        )
    return 0


def _state(schedule: schedule_pb2.Schedule) -> str:
    name = schedule_pb2.ScheduleState.Name(schedule.state)
    return enum_name(name, "SCHEDULE_STATE_").lower()


def _when(schedule: schedule_pb2.Schedule) -> str:
    calendar = schedule.spec.calendar
    if calendar.cron:
        return f"cron '{calendar.cron}' {calendar.time_zone or 'UTC'}"
    return f"every {calendar.interval_ms} ms"


def _source(schedule: schedule_pb2.Schedule) -> str:
    return ref_text(schedule.spec.ref) if schedule.spec.HasField("ref") else "inline definition"


def _list(ctx: Any, args: argparse.Namespace) -> int:
    request = schedule_pb2.ListSchedulesRequest(
        work_order_id=args.work_order, page_size=args.limit, page_token=args.page_token
    )
    response = ctx.call(ctx.client.schedules.ListSchedules, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    ctx.out.table(
        [
            ident("SCHEDULE"),
            Column("STATE"),
            ident("WORK ORDER"),
            ident("RUNS", optional=True),
            free_text("WHEN"),
            Column("NEXT", optional=True),
            Column("STARTED"),
            Column("MISSED", optional=True),
        ],
        [
            [
                s.spec.schedule_id,
                _state(s),
                s.work_order_id,
                _source(s),
                _when(s),
                local_time(s.next_ms),
                str(s.started_count),
                str(s.missed_count),
            ]
            for s in response.schedules
        ],
    )
    if response.next_page_token:
        ctx.out.line(f"more: --page-token {response.next_page_token}")
    return 0


def _print(ctx: Any, schedule: schedule_pb2.Schedule) -> int:
    if ctx.out.as_json:
        ctx.out.json(to_dict(schedule))
        return 0
    overlap = enum_name(schedule_pb2.OverlapPolicy.Name(schedule.spec.overlap), "OVERLAP_POLICY_")
    ctx.out.fields(
        [
            ("schedule", schedule.spec.schedule_id),
            ("state", _state(schedule)),
            ("work order", schedule.work_order_id),
            ("runs", _source(schedule)),
            ("when", _when(schedule)),
            ("overlap", overlap.lower().replace("_", "-")),
            ("catch-up window", f"{schedule.spec.catchup_window_ms or 60_000} ms"),
            ("created by", schedule.principal_id),
            ("governed", f"approval {schedule.approval_id}" if schedule.governed else "no"),
            ("next", local_time(schedule.next_ms)),
            ("last run", schedule.last_run_id or "-"),
            ("buffered", local_time(schedule.buffered_ms)),
            (
                "times",
                f"{schedule.started_count} started, {schedule.skipped_count} skipped, "
                f"{schedule.missed_count} missed, {schedule.failed_count} failed",
            ),
            ("last refusal", schedule.last_error_reason or "-"),
        ]
    )
    return 0


def _show(ctx: Any, args: argparse.Namespace) -> int:
    request = schedule_pb2.GetScheduleRequest(schedule_id=args.schedule)
    return _print(ctx, ctx.call(ctx.client.schedules.GetSchedule, request).schedule)


def _pause(ctx: Any, args: argparse.Namespace) -> int:
    request = schedule_pb2.PauseScheduleRequest(schedule_id=args.schedule)
    return _print(ctx, ctx.call(ctx.client.schedules.PauseSchedule, request).schedule)


def _resume(ctx: Any, args: argparse.Namespace) -> int:
    request = schedule_pb2.ResumeScheduleRequest(schedule_id=args.schedule)
    return _print(ctx, ctx.call(ctx.client.schedules.ResumeSchedule, request).schedule)


def _delete(ctx: Any, args: argparse.Namespace) -> int:
    request = schedule_pb2.DeleteScheduleRequest(schedule_id=args.schedule)
    return _print(ctx, ctx.call(ctx.client.schedules.DeleteSchedule, request).schedule)


def _backfill(ctx: Any, args: argparse.Namespace) -> int:
    request = schedule_pb2.BackfillScheduleRequest(
        schedule_id=args.schedule,
        start_ms=parse_past_moment(args.start, "--from"),
        end_ms=parse_past_moment(args.end, "--to"),
    )
    response = ctx.call(ctx.client.schedules.BackfillSchedule, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
    else:
        ctx.out.line(f"{len(response.run_ids)} time(s), {response.started} run(s) started")
        for run_id in response.run_ids:
            ctx.out.line(run_id)
    return 0
