from aiws.engine.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class OverlapPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OVERLAP_POLICY_UNSPECIFIED: _ClassVar[OverlapPolicy]
    OVERLAP_POLICY_SKIP: _ClassVar[OverlapPolicy]
    OVERLAP_POLICY_BUFFER_ONE: _ClassVar[OverlapPolicy]
    OVERLAP_POLICY_ALLOW_ALL: _ClassVar[OverlapPolicy]
    OVERLAP_POLICY_CANCEL_OTHER: _ClassVar[OverlapPolicy]

class ScheduleState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCHEDULE_STATE_UNSPECIFIED: _ClassVar[ScheduleState]
    SCHEDULE_STATE_ACTIVE: _ClassVar[ScheduleState]
    SCHEDULE_STATE_PAUSED: _ClassVar[ScheduleState]
    SCHEDULE_STATE_DELETED: _ClassVar[ScheduleState]
OVERLAP_POLICY_UNSPECIFIED: OverlapPolicy
OVERLAP_POLICY_SKIP: OverlapPolicy
OVERLAP_POLICY_BUFFER_ONE: OverlapPolicy
OVERLAP_POLICY_ALLOW_ALL: OverlapPolicy
OVERLAP_POLICY_CANCEL_OTHER: OverlapPolicy
SCHEDULE_STATE_UNSPECIFIED: ScheduleState
SCHEDULE_STATE_ACTIVE: ScheduleState
SCHEDULE_STATE_PAUSED: ScheduleState
SCHEDULE_STATE_DELETED: ScheduleState

class ScheduleCalendar(_message.Message):
    __slots__ = ("cron", "interval_ms", "time_zone", "start_ms", "end_ms")
    CRON_FIELD_NUMBER: _ClassVar[int]
    INTERVAL_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    START_MS_FIELD_NUMBER: _ClassVar[int]
    END_MS_FIELD_NUMBER: _ClassVar[int]
    cron: str
    interval_ms: int
    time_zone: str
    start_ms: int
    end_ms: int
    def __init__(self, cron: _Optional[str] = ..., interval_ms: _Optional[int] = ..., time_zone: _Optional[str] = ..., start_ms: _Optional[int] = ..., end_ms: _Optional[int] = ...) -> None: ...

class ScheduleSpec(_message.Message):
    __slots__ = ("schedule_id", "definition_json", "ref", "input_json", "work_order_id", "calendar", "overlap", "catchup_window_ms", "run_timeout_ms")
    SCHEDULE_ID_FIELD_NUMBER: _ClassVar[int]
    DEFINITION_JSON_FIELD_NUMBER: _ClassVar[int]
    REF_FIELD_NUMBER: _ClassVar[int]
    INPUT_JSON_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    CALENDAR_FIELD_NUMBER: _ClassVar[int]
    OVERLAP_FIELD_NUMBER: _ClassVar[int]
    CATCHUP_WINDOW_MS_FIELD_NUMBER: _ClassVar[int]
    RUN_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    schedule_id: str
    definition_json: str
    ref: _common_pb2.WorkflowRef
    input_json: str
    work_order_id: str
    calendar: ScheduleCalendar
    overlap: OverlapPolicy
    catchup_window_ms: int
    run_timeout_ms: int
    def __init__(self, schedule_id: _Optional[str] = ..., definition_json: _Optional[str] = ..., ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., input_json: _Optional[str] = ..., work_order_id: _Optional[str] = ..., calendar: _Optional[_Union[ScheduleCalendar, _Mapping]] = ..., overlap: _Optional[_Union[OverlapPolicy, str]] = ..., catchup_window_ms: _Optional[int] = ..., run_timeout_ms: _Optional[int] = ...) -> None: ...

class Schedule(_message.Message):
    __slots__ = ("spec", "state", "work_order_id", "principal_id", "governed", "approval_id", "created_at_ms", "next_ms", "last_run_id", "last_scheduled_ms", "buffered_ms", "started_count", "skipped_count", "missed_count", "failed_count", "last_error_reason", "version")
    SPEC_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    GOVERNED_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    NEXT_MS_FIELD_NUMBER: _ClassVar[int]
    LAST_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    LAST_SCHEDULED_MS_FIELD_NUMBER: _ClassVar[int]
    BUFFERED_MS_FIELD_NUMBER: _ClassVar[int]
    STARTED_COUNT_FIELD_NUMBER: _ClassVar[int]
    SKIPPED_COUNT_FIELD_NUMBER: _ClassVar[int]
    MISSED_COUNT_FIELD_NUMBER: _ClassVar[int]
    FAILED_COUNT_FIELD_NUMBER: _ClassVar[int]
    LAST_ERROR_REASON_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    spec: ScheduleSpec
    state: ScheduleState
    work_order_id: str
    principal_id: str
    governed: bool
    approval_id: str
    created_at_ms: int
    next_ms: int
    last_run_id: str
    last_scheduled_ms: int
    buffered_ms: int
    started_count: int
    skipped_count: int
    missed_count: int
    failed_count: int
    last_error_reason: str
    version: int
    def __init__(self, spec: _Optional[_Union[ScheduleSpec, _Mapping]] = ..., state: _Optional[_Union[ScheduleState, str]] = ..., work_order_id: _Optional[str] = ..., principal_id: _Optional[str] = ..., governed: bool = ..., approval_id: _Optional[str] = ..., created_at_ms: _Optional[int] = ..., next_ms: _Optional[int] = ..., last_run_id: _Optional[str] = ..., last_scheduled_ms: _Optional[int] = ..., buffered_ms: _Optional[int] = ..., started_count: _Optional[int] = ..., skipped_count: _Optional[int] = ..., missed_count: _Optional[int] = ..., failed_count: _Optional[int] = ..., last_error_reason: _Optional[str] = ..., version: _Optional[int] = ...) -> None: ...

class CreateScheduleRequest(_message.Message):
    __slots__ = ("spec", "approval_id", "paused", "epochs")
    SPEC_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    EPOCHS_FIELD_NUMBER: _ClassVar[int]
    spec: ScheduleSpec
    approval_id: str
    paused: bool
    epochs: _common_pb2.Epochs
    def __init__(self, spec: _Optional[_Union[ScheduleSpec, _Mapping]] = ..., approval_id: _Optional[str] = ..., paused: bool = ..., epochs: _Optional[_Union[_common_pb2.Epochs, _Mapping]] = ...) -> None: ...

class CreateScheduleResponse(_message.Message):
    __slots__ = ("schedule", "replayed")
    SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    schedule: Schedule
    replayed: bool
    def __init__(self, schedule: _Optional[_Union[Schedule, _Mapping]] = ..., replayed: bool = ...) -> None: ...

class ReviewScheduleRequest(_message.Message):
    __slots__ = ("spec", "epochs")
    SPEC_FIELD_NUMBER: _ClassVar[int]
    EPOCHS_FIELD_NUMBER: _ClassVar[int]
    spec: ScheduleSpec
    epochs: _common_pb2.Epochs
    def __init__(self, spec: _Optional[_Union[ScheduleSpec, _Mapping]] = ..., epochs: _Optional[_Union[_common_pb2.Epochs, _Mapping]] = ...) -> None: ...

class ReviewScheduleResponse(_message.Message):
    __slots__ = ("material_json", "material_digest")
    MATERIAL_JSON_FIELD_NUMBER: _ClassVar[int]
    MATERIAL_DIGEST_FIELD_NUMBER: _ClassVar[int]
    material_json: str
    material_digest: str
    def __init__(self, material_json: _Optional[str] = ..., material_digest: _Optional[str] = ...) -> None: ...

class GetScheduleRequest(_message.Message):
    __slots__ = ("schedule_id",)
    SCHEDULE_ID_FIELD_NUMBER: _ClassVar[int]
    schedule_id: str
    def __init__(self, schedule_id: _Optional[str] = ...) -> None: ...

class GetScheduleResponse(_message.Message):
    __slots__ = ("schedule",)
    SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    schedule: Schedule
    def __init__(self, schedule: _Optional[_Union[Schedule, _Mapping]] = ...) -> None: ...

class ListSchedulesRequest(_message.Message):
    __slots__ = ("work_order_id", "page_size", "page_token")
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    page_size: int
    page_token: str
    def __init__(self, work_order_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListSchedulesResponse(_message.Message):
    __slots__ = ("schedules", "next_page_token")
    SCHEDULES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    schedules: _containers.RepeatedCompositeFieldContainer[Schedule]
    next_page_token: str
    def __init__(self, schedules: _Optional[_Iterable[_Union[Schedule, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class PauseScheduleRequest(_message.Message):
    __slots__ = ("schedule_id",)
    SCHEDULE_ID_FIELD_NUMBER: _ClassVar[int]
    schedule_id: str
    def __init__(self, schedule_id: _Optional[str] = ...) -> None: ...

class PauseScheduleResponse(_message.Message):
    __slots__ = ("schedule",)
    SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    schedule: Schedule
    def __init__(self, schedule: _Optional[_Union[Schedule, _Mapping]] = ...) -> None: ...

class ResumeScheduleRequest(_message.Message):
    __slots__ = ("schedule_id",)
    SCHEDULE_ID_FIELD_NUMBER: _ClassVar[int]
    schedule_id: str
    def __init__(self, schedule_id: _Optional[str] = ...) -> None: ...

class ResumeScheduleResponse(_message.Message):
    __slots__ = ("schedule",)
    SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    schedule: Schedule
    def __init__(self, schedule: _Optional[_Union[Schedule, _Mapping]] = ...) -> None: ...

class DeleteScheduleRequest(_message.Message):
    __slots__ = ("schedule_id",)
    SCHEDULE_ID_FIELD_NUMBER: _ClassVar[int]
    schedule_id: str
    def __init__(self, schedule_id: _Optional[str] = ...) -> None: ...

class DeleteScheduleResponse(_message.Message):
    __slots__ = ("schedule",)
    SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    schedule: Schedule
    def __init__(self, schedule: _Optional[_Union[Schedule, _Mapping]] = ...) -> None: ...

class BackfillScheduleRequest(_message.Message):
    __slots__ = ("schedule_id", "start_ms", "end_ms")
    SCHEDULE_ID_FIELD_NUMBER: _ClassVar[int]
    START_MS_FIELD_NUMBER: _ClassVar[int]
    END_MS_FIELD_NUMBER: _ClassVar[int]
    schedule_id: str
    start_ms: int
    end_ms: int
    def __init__(self, schedule_id: _Optional[str] = ..., start_ms: _Optional[int] = ..., end_ms: _Optional[int] = ...) -> None: ...

class BackfillScheduleResponse(_message.Message):
    __slots__ = ("run_ids", "started")
    RUN_IDS_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    run_ids: _containers.RepeatedScalarFieldContainer[str]
    started: int
    def __init__(self, run_ids: _Optional[_Iterable[str]] = ..., started: _Optional[int] = ...) -> None: ...
