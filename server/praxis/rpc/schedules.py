"""ScheduleService: create, review, read, pause, resume, delete and backfill schedules."""

from __future__ import annotations

import grpc

from aiws.engine.v1 import common_pb2, schedule_pb2, schedule_pb2_grpc
from praxis.core import calendar as calendars
from praxis.core import schedule as core
from praxis.core import values
from praxis.core.records import Ref
from praxis.core.rejection import Rejection, invalid
from praxis.rpc.auth import principal
from praxis.rpc.errors import unwrap
from praxis.rpc.registry import epochs_from_proto
from praxis.store.schedules.rows import ScheduleRecord
from praxis.store.schedules.store import ScheduleStore

OVERLAPS = {
    core.Overlap.SKIP: schedule_pb2.OVERLAP_POLICY_SKIP,
    core.Overlap.BUFFER_ONE: schedule_pb2.OVERLAP_POLICY_BUFFER_ONE,
    core.Overlap.ALLOW_ALL: schedule_pb2.OVERLAP_POLICY_ALLOW_ALL,
    core.Overlap.CANCEL_OTHER: schedule_pb2.OVERLAP_POLICY_CANCEL_OTHER,
}
_OVERLAP_OF = {value: key for key, value in OVERLAPS.items()}
STATES = {
    core.State.ACTIVE: schedule_pb2.SCHEDULE_STATE_ACTIVE,
    core.State.PAUSED: schedule_pb2.SCHEDULE_STATE_PAUSED,
    core.State.DELETED: schedule_pb2.SCHEDULE_STATE_DELETED,
}


def spec_from_proto(message: schedule_pb2.ScheduleSpec) -> core.Spec | Rejection:
    """The core spec of a wire spec (ENUM_INVALID for an unset or unknown overlap)."""
    overlap = _OVERLAP_OF.get(message.overlap)
    if overlap is None:
        return invalid("ENUM_INVALID", "spec.overlap", "set an OverlapPolicy")
    cal = message.calendar
    source = message.WhichOneof("source")
    return core.Spec(
        schedule_id=message.schedule_id,
        calendar=calendars.Calendar(
            cal.cron, cal.interval_ms, cal.time_zone, cal.start_ms, cal.end_ms
        ),
        overlap=overlap,
        catchup_window_ms=message.catchup_window_ms,
        definition_json=message.definition_json if source == "definition_json" else "",
        ref=Ref(message.ref.work_order_id, message.ref.run_id) if source == "ref" else None,
        input_json=message.input_json,
        work_order_id=message.work_order_id,
        run_timeout_ms=message.run_timeout_ms,
    )


def spec_to_proto(spec: core.Spec) -> schedule_pb2.ScheduleSpec:
    """The wire spec."""
    cal = spec.calendar
    message = schedule_pb2.ScheduleSpec(
        schedule_id=spec.schedule_id,
        input_json=spec.input_json,
        work_order_id=spec.work_order_id,
        calendar=schedule_pb2.ScheduleCalendar(
            cron=cal.cron,
            interval_ms=cal.interval_ms,
            time_zone=cal.time_zone,
            start_ms=cal.start_ms,
            end_ms=cal.end_ms,
        ),
        overlap=OVERLAPS[spec.overlap],
        catchup_window_ms=spec.catchup_window_ms,
        run_timeout_ms=spec.run_timeout_ms,
    )
    if spec.ref is not None:
        message.ref.CopyFrom(
            common_pb2.WorkflowRef(work_order_id=spec.ref.work_order_id, run_id=spec.ref.run_id)
        )
    else:
        message.definition_json = spec.definition_json
    return message


def schedule_to_proto(record: ScheduleRecord) -> schedule_pb2.Schedule:
    """A stored schedule on the wire."""
    return schedule_pb2.Schedule(
        spec=spec_to_proto(record.spec),
        state=STATES[record.state],
        work_order_id=record.work_order_id,
        principal_id=record.principal.principal_id,
        governed=record.governed,
        approval_id=record.approval_id,
        created_at_ms=record.created_at_ms,
        next_ms=record.next_ms,
        last_run_id=record.last_run_id,
        last_scheduled_ms=record.last_scheduled_ms,
        buffered_ms=record.buffered_ms,
        started_count=record.started_count,
        skipped_count=record.skipped_count,
        missed_count=record.missed_count,
        failed_count=record.failed_count,
        last_error_reason=record.last_error_reason,
        version=record.version,
    )


class ScheduleServicer(schedule_pb2_grpc.ScheduleServiceServicer):
    """The ScheduleService over a :class:`ScheduleStore`."""

    def __init__(self, store: ScheduleStore) -> None:
        self.store = store

    def CreateSchedule(
        self, request: schedule_pb2.CreateScheduleRequest, context: grpc.ServicerContext
    ) -> schedule_pb2.CreateScheduleResponse:
        spec = unwrap(context, spec_from_proto(request.spec))
        epochs = epochs_from_proto(request.epochs) if request.HasField("epochs") else None
        record, replayed = unwrap(
            context,
            self.store.create(principal(), spec, request.approval_id, request.paused, epochs),
        )
        return schedule_pb2.CreateScheduleResponse(
            schedule=schedule_to_proto(record), replayed=replayed
        )

    def ReviewSchedule(
        self, request: schedule_pb2.ReviewScheduleRequest, context: grpc.ServicerContext
    ) -> schedule_pb2.ReviewScheduleResponse:
        spec = unwrap(context, spec_from_proto(request.spec))
        epochs = epochs_from_proto(request.epochs) if request.HasField("epochs") else None
        material = unwrap(context, self.store.review(principal(), spec, epochs))
        return schedule_pb2.ReviewScheduleResponse(
            material_json=values.canonical_json(material.document()),
            material_digest=material.digest(),
        )

    def GetSchedule(
        self, request: schedule_pb2.GetScheduleRequest, context: grpc.ServicerContext
    ) -> schedule_pb2.GetScheduleResponse:
        record = unwrap(context, self.store.get(principal(), request.schedule_id))
        return schedule_pb2.GetScheduleResponse(schedule=schedule_to_proto(record))

    def ListSchedules(
        self, request: schedule_pb2.ListSchedulesRequest, context: grpc.ServicerContext
    ) -> schedule_pb2.ListSchedulesResponse:
        records, token = unwrap(
            context,
            self.store.list_page(
                principal(), request.work_order_id, request.page_size, request.page_token
            ),
        )
        return schedule_pb2.ListSchedulesResponse(
            schedules=[schedule_to_proto(record) for record in records], next_page_token=token
        )

    def PauseSchedule(
        self, request: schedule_pb2.PauseScheduleRequest, context: grpc.ServicerContext
    ) -> schedule_pb2.PauseScheduleResponse:
        record = unwrap(context, self.store.pause(principal(), request.schedule_id))
        return schedule_pb2.PauseScheduleResponse(schedule=schedule_to_proto(record))

    def ResumeSchedule(
        self, request: schedule_pb2.ResumeScheduleRequest, context: grpc.ServicerContext
    ) -> schedule_pb2.ResumeScheduleResponse:
        record = unwrap(context, self.store.resume(principal(), request.schedule_id))
        return schedule_pb2.ResumeScheduleResponse(schedule=schedule_to_proto(record))

    def DeleteSchedule(
        self, request: schedule_pb2.DeleteScheduleRequest, context: grpc.ServicerContext
    ) -> schedule_pb2.DeleteScheduleResponse:
        record = unwrap(context, self.store.delete(principal(), request.schedule_id))
        return schedule_pb2.DeleteScheduleResponse(schedule=schedule_to_proto(record))

    def BackfillSchedule(
        self, request: schedule_pb2.BackfillScheduleRequest, context: grpc.ServicerContext
    ) -> schedule_pb2.BackfillScheduleResponse:
        run_ids, started = unwrap(
            context,
            self.store.backfill(principal(), request.schedule_id, request.start_ms, request.end_ms),
        )
        return schedule_pb2.BackfillScheduleResponse(run_ids=run_ids, started=started)
