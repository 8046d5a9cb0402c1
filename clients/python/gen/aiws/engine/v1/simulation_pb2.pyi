from aiws.engine.v1 import common_pb2 as _common_pb2
from aiws.engine.v1 import event_pb2 as _event_pb2
from aiws.engine.v1 import run_pb2 as _run_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ScriptedOutcomeKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCRIPTED_OUTCOME_KIND_UNSPECIFIED: _ClassVar[ScriptedOutcomeKind]
    SCRIPTED_OUTCOME_KIND_COMPLETE: _ClassVar[ScriptedOutcomeKind]
    SCRIPTED_OUTCOME_KIND_FAIL: _ClassVar[ScriptedOutcomeKind]
    SCRIPTED_OUTCOME_KIND_UNCERTAIN: _ClassVar[ScriptedOutcomeKind]
    SCRIPTED_OUTCOME_KIND_LEASE_LOST: _ClassVar[ScriptedOutcomeKind]
    SCRIPTED_OUTCOME_KIND_ANSWER: _ClassVar[ScriptedOutcomeKind]
    SCRIPTED_OUTCOME_KIND_RECONCILE: _ClassVar[ScriptedOutcomeKind]

class SimulationStepAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SIMULATION_STEP_ACTION_UNSPECIFIED: _ClassVar[SimulationStepAction]
    SIMULATION_STEP_ACTION_START: _ClassVar[SimulationStepAction]
    SIMULATION_STEP_ACTION_DISPATCH: _ClassVar[SimulationStepAction]
    SIMULATION_STEP_ACTION_COMPLETE: _ClassVar[SimulationStepAction]
    SIMULATION_STEP_ACTION_FAIL: _ClassVar[SimulationStepAction]
    SIMULATION_STEP_ACTION_EXPIRE: _ClassVar[SimulationStepAction]
    SIMULATION_STEP_ACTION_ANSWER: _ClassVar[SimulationStepAction]
    SIMULATION_STEP_ACTION_RECONCILE: _ClassVar[SimulationStepAction]
    SIMULATION_STEP_ACTION_REFUSED: _ClassVar[SimulationStepAction]

class SimulationEnd(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SIMULATION_END_UNSPECIFIED: _ClassVar[SimulationEnd]
    SIMULATION_END_RUN_ENDED: _ClassVar[SimulationEnd]
    SIMULATION_END_NEEDS_SCRIPT: _ClassVar[SimulationEnd]
    SIMULATION_END_STEP_LIMIT: _ClassVar[SimulationEnd]
SCRIPTED_OUTCOME_KIND_UNSPECIFIED: ScriptedOutcomeKind
SCRIPTED_OUTCOME_KIND_COMPLETE: ScriptedOutcomeKind
SCRIPTED_OUTCOME_KIND_FAIL: ScriptedOutcomeKind
SCRIPTED_OUTCOME_KIND_UNCERTAIN: ScriptedOutcomeKind
SCRIPTED_OUTCOME_KIND_LEASE_LOST: ScriptedOutcomeKind
SCRIPTED_OUTCOME_KIND_ANSWER: ScriptedOutcomeKind
SCRIPTED_OUTCOME_KIND_RECONCILE: ScriptedOutcomeKind
SIMULATION_STEP_ACTION_UNSPECIFIED: SimulationStepAction
SIMULATION_STEP_ACTION_START: SimulationStepAction
SIMULATION_STEP_ACTION_DISPATCH: SimulationStepAction
SIMULATION_STEP_ACTION_COMPLETE: SimulationStepAction
SIMULATION_STEP_ACTION_FAIL: SimulationStepAction
SIMULATION_STEP_ACTION_EXPIRE: SimulationStepAction
SIMULATION_STEP_ACTION_ANSWER: SimulationStepAction
SIMULATION_STEP_ACTION_RECONCILE: SimulationStepAction
SIMULATION_STEP_ACTION_REFUSED: SimulationStepAction
SIMULATION_END_UNSPECIFIED: SimulationEnd
SIMULATION_END_RUN_ENDED: SimulationEnd
SIMULATION_END_NEEDS_SCRIPT: SimulationEnd
SIMULATION_END_STEP_LIMIT: SimulationEnd

class ScriptedOutcome(_message.Message):
    __slots__ = ("node", "kind", "result_json", "error", "retryable", "cost_microcredits", "duration_ms", "applied")
    NODE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    RESULT_JSON_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    RETRYABLE_FIELD_NUMBER: _ClassVar[int]
    COST_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    DURATION_MS_FIELD_NUMBER: _ClassVar[int]
    APPLIED_FIELD_NUMBER: _ClassVar[int]
    node: str
    kind: ScriptedOutcomeKind
    result_json: str
    error: str
    retryable: bool
    cost_microcredits: str
    duration_ms: int
    applied: bool
    def __init__(self, node: _Optional[str] = ..., kind: _Optional[_Union[ScriptedOutcomeKind, str]] = ..., result_json: _Optional[str] = ..., error: _Optional[str] = ..., retryable: bool = ..., cost_microcredits: _Optional[str] = ..., duration_ms: _Optional[int] = ..., applied: bool = ...) -> None: ...

class SimulateRunRequest(_message.Message):
    __slots__ = ("definition_json", "ref", "revision", "input_json", "start_at_ms", "script", "work_order_id", "lease_ms", "run_timeout_ms")
    DEFINITION_JSON_FIELD_NUMBER: _ClassVar[int]
    REF_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    INPUT_JSON_FIELD_NUMBER: _ClassVar[int]
    START_AT_MS_FIELD_NUMBER: _ClassVar[int]
    SCRIPT_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    LEASE_MS_FIELD_NUMBER: _ClassVar[int]
    RUN_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    definition_json: str
    ref: _common_pb2.WorkflowRef
    revision: int
    input_json: str
    start_at_ms: int
    script: _containers.RepeatedCompositeFieldContainer[ScriptedOutcome]
    work_order_id: str
    lease_ms: int
    run_timeout_ms: int
    def __init__(self, definition_json: _Optional[str] = ..., ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., revision: _Optional[int] = ..., input_json: _Optional[str] = ..., start_at_ms: _Optional[int] = ..., script: _Optional[_Iterable[_Union[ScriptedOutcome, _Mapping]]] = ..., work_order_id: _Optional[str] = ..., lease_ms: _Optional[int] = ..., run_timeout_ms: _Optional[int] = ...) -> None: ...

class SimulationStep(_message.Message):
    __slots__ = ("at_ms", "action", "node_uid", "attempt", "state", "events", "input_json", "refusal_reason")
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    NODE_UID_FIELD_NUMBER: _ClassVar[int]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    INPUT_JSON_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_REASON_FIELD_NUMBER: _ClassVar[int]
    at_ms: int
    action: SimulationStepAction
    node_uid: str
    attempt: int
    state: _run_pb2.RunState
    events: _containers.RepeatedCompositeFieldContainer[_event_pb2.Event]
    input_json: str
    refusal_reason: str
    def __init__(self, at_ms: _Optional[int] = ..., action: _Optional[_Union[SimulationStepAction, str]] = ..., node_uid: _Optional[str] = ..., attempt: _Optional[int] = ..., state: _Optional[_Union[_run_pb2.RunState, str]] = ..., events: _Optional[_Iterable[_Union[_event_pb2.Event, _Mapping]]] = ..., input_json: _Optional[str] = ..., refusal_reason: _Optional[str] = ...) -> None: ...

class SimulateRunResponse(_message.Message):
    __slots__ = ("steps", "run", "end", "waiting_on", "result_json")
    STEPS_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    WAITING_ON_FIELD_NUMBER: _ClassVar[int]
    RESULT_JSON_FIELD_NUMBER: _ClassVar[int]
    steps: _containers.RepeatedCompositeFieldContainer[SimulationStep]
    run: _run_pb2.Run
    end: SimulationEnd
    waiting_on: str
    result_json: str
    def __init__(self, steps: _Optional[_Iterable[_Union[SimulationStep, _Mapping]]] = ..., run: _Optional[_Union[_run_pb2.Run, _Mapping]] = ..., end: _Optional[_Union[SimulationEnd, str]] = ..., waiting_on: _Optional[str] = ..., result_json: _Optional[str] = ...) -> None: ...
