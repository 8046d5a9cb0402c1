from aiws.engine.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ModelSource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MODEL_SOURCE_UNSPECIFIED: _ClassVar[ModelSource]
    MODEL_SOURCE_CONFIG: _ClassVar[ModelSource]
    MODEL_SOURCE_WORKER: _ClassVar[ModelSource]

class NodeEffects(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NODE_EFFECTS_UNSPECIFIED: _ClassVar[NodeEffects]
    NODE_EFFECTS_NONE: _ClassVar[NodeEffects]
    NODE_EFFECTS_IDEMPOTENT: _ClassVar[NodeEffects]
    NODE_EFFECTS_EXTERNAL: _ClassVar[NodeEffects]
MODEL_SOURCE_UNSPECIFIED: ModelSource
MODEL_SOURCE_CONFIG: ModelSource
MODEL_SOURCE_WORKER: ModelSource
NODE_EFFECTS_UNSPECIFIED: NodeEffects
NODE_EFFECTS_NONE: NodeEffects
NODE_EFFECTS_IDEMPOTENT: NodeEffects
NODE_EFFECTS_EXTERNAL: NodeEffects

class Model(_message.Message):
    __slots__ = ("name", "source", "expires_at_ms")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    name: str
    source: ModelSource
    expires_at_ms: int
    def __init__(self, name: _Optional[str] = ..., source: _Optional[_Union[ModelSource, str]] = ..., expires_at_ms: _Optional[int] = ...) -> None: ...

class AgentSpec(_message.Message):
    __slots__ = ("model", "system_prompt", "functions_json", "output_json", "provider")
    MODEL_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_PROMPT_FIELD_NUMBER: _ClassVar[int]
    FUNCTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_JSON_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    model: str
    system_prompt: str
    functions_json: str
    output_json: str
    provider: str
    def __init__(self, model: _Optional[str] = ..., system_prompt: _Optional[str] = ..., functions_json: _Optional[str] = ..., output_json: _Optional[str] = ..., provider: _Optional[str] = ...) -> None: ...

class Task(_message.Message):
    __slots__ = ("attempt_id", "run_id", "node_uid", "node_id", "attempt", "operation_id", "agent", "input_json", "template", "deadline_ms", "lease_expires_at_ms", "revision", "traceparent", "effects")
    ATTEMPT_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    NODE_UID_FIELD_NUMBER: _ClassVar[int]
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    OPERATION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_FIELD_NUMBER: _ClassVar[int]
    INPUT_JSON_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    LEASE_EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    TRACEPARENT_FIELD_NUMBER: _ClassVar[int]
    EFFECTS_FIELD_NUMBER: _ClassVar[int]
    attempt_id: str
    run_id: str
    node_uid: str
    node_id: str
    attempt: int
    operation_id: str
    agent: AgentSpec
    input_json: str
    template: str
    deadline_ms: int
    lease_expires_at_ms: int
    revision: int
    traceparent: str
    effects: NodeEffects
    def __init__(self, attempt_id: _Optional[str] = ..., run_id: _Optional[str] = ..., node_uid: _Optional[str] = ..., node_id: _Optional[str] = ..., attempt: _Optional[int] = ..., operation_id: _Optional[str] = ..., agent: _Optional[_Union[AgentSpec, _Mapping]] = ..., input_json: _Optional[str] = ..., template: _Optional[str] = ..., deadline_ms: _Optional[int] = ..., lease_expires_at_ms: _Optional[int] = ..., revision: _Optional[int] = ..., traceparent: _Optional[str] = ..., effects: _Optional[_Union[NodeEffects, str]] = ...) -> None: ...

class ClaimTasksRequest(_message.Message):
    __slots__ = ("worker_id", "models", "max_tasks", "lease_ms", "wait_ms")
    WORKER_ID_FIELD_NUMBER: _ClassVar[int]
    MODELS_FIELD_NUMBER: _ClassVar[int]
    MAX_TASKS_FIELD_NUMBER: _ClassVar[int]
    LEASE_MS_FIELD_NUMBER: _ClassVar[int]
    WAIT_MS_FIELD_NUMBER: _ClassVar[int]
    worker_id: str
    models: _containers.RepeatedScalarFieldContainer[str]
    max_tasks: int
    lease_ms: int
    wait_ms: int
    def __init__(self, worker_id: _Optional[str] = ..., models: _Optional[_Iterable[str]] = ..., max_tasks: _Optional[int] = ..., lease_ms: _Optional[int] = ..., wait_ms: _Optional[int] = ...) -> None: ...

class ClaimTasksResponse(_message.Message):
    __slots__ = ("tasks",)
    TASKS_FIELD_NUMBER: _ClassVar[int]
    tasks: _containers.RepeatedCompositeFieldContainer[Task]
    def __init__(self, tasks: _Optional[_Iterable[_Union[Task, _Mapping]]] = ...) -> None: ...

class HeartbeatRequest(_message.Message):
    __slots__ = ("attempt_id", "worker_id", "lease_ms", "progress")
    ATTEMPT_ID_FIELD_NUMBER: _ClassVar[int]
    WORKER_ID_FIELD_NUMBER: _ClassVar[int]
    LEASE_MS_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    attempt_id: str
    worker_id: str
    lease_ms: int
    progress: ProgressReport
    def __init__(self, attempt_id: _Optional[str] = ..., worker_id: _Optional[str] = ..., lease_ms: _Optional[int] = ..., progress: _Optional[_Union[ProgressReport, _Mapping]] = ...) -> None: ...

class ProgressReport(_message.Message):
    __slots__ = ("text", "data_json")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    DATA_JSON_FIELD_NUMBER: _ClassVar[int]
    text: str
    data_json: str
    def __init__(self, text: _Optional[str] = ..., data_json: _Optional[str] = ...) -> None: ...

class HeartbeatResponse(_message.Message):
    __slots__ = ("lease_expires_at_ms", "cancelled", "paused")
    LEASE_EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    CANCELLED_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    lease_expires_at_ms: int
    cancelled: bool
    paused: bool
    def __init__(self, lease_expires_at_ms: _Optional[int] = ..., cancelled: bool = ..., paused: bool = ...) -> None: ...

class CompleteTaskRequest(_message.Message):
    __slots__ = ("attempt_id", "worker_id", "result_json", "effect", "cost_microcredits")
    ATTEMPT_ID_FIELD_NUMBER: _ClassVar[int]
    WORKER_ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_JSON_FIELD_NUMBER: _ClassVar[int]
    EFFECT_FIELD_NUMBER: _ClassVar[int]
    COST_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    attempt_id: str
    worker_id: str
    result_json: str
    effect: _common_pb2.EffectOutcome
    cost_microcredits: str
    def __init__(self, attempt_id: _Optional[str] = ..., worker_id: _Optional[str] = ..., result_json: _Optional[str] = ..., effect: _Optional[_Union[_common_pb2.EffectOutcome, str]] = ..., cost_microcredits: _Optional[str] = ...) -> None: ...

class CompleteTaskResponse(_message.Message):
    __slots__ = ("replayed",)
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    replayed: bool
    def __init__(self, replayed: bool = ...) -> None: ...

class FailTaskRequest(_message.Message):
    __slots__ = ("attempt_id", "worker_id", "error", "retryable", "effect", "cost_microcredits")
    ATTEMPT_ID_FIELD_NUMBER: _ClassVar[int]
    WORKER_ID_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    RETRYABLE_FIELD_NUMBER: _ClassVar[int]
    EFFECT_FIELD_NUMBER: _ClassVar[int]
    COST_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    attempt_id: str
    worker_id: str
    error: str
    retryable: bool
    effect: _common_pb2.EffectOutcome
    cost_microcredits: str
    def __init__(self, attempt_id: _Optional[str] = ..., worker_id: _Optional[str] = ..., error: _Optional[str] = ..., retryable: bool = ..., effect: _Optional[_Union[_common_pb2.EffectOutcome, str]] = ..., cost_microcredits: _Optional[str] = ...) -> None: ...

class FailTaskResponse(_message.Message):
    __slots__ = ("will_retry", "replayed")
    WILL_RETRY_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    will_retry: bool
    replayed: bool
    def __init__(self, will_retry: bool = ..., replayed: bool = ...) -> None: ...

class Settlement(_message.Message):
    __slots__ = ("complete", "fail")
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    FAIL_FIELD_NUMBER: _ClassVar[int]
    complete: CompleteTaskRequest
    fail: FailTaskRequest
    def __init__(self, complete: _Optional[_Union[CompleteTaskRequest, _Mapping]] = ..., fail: _Optional[_Union[FailTaskRequest, _Mapping]] = ...) -> None: ...

class SettlementError(_message.Message):
    __slots__ = ("code", "reason", "message")
    CODE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    code: int
    reason: str
    message: str
    def __init__(self, code: _Optional[int] = ..., reason: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class SettlementResult(_message.Message):
    __slots__ = ("attempt_id", "complete", "fail", "error")
    ATTEMPT_ID_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    FAIL_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    attempt_id: str
    complete: CompleteTaskResponse
    fail: FailTaskResponse
    error: SettlementError
    def __init__(self, attempt_id: _Optional[str] = ..., complete: _Optional[_Union[CompleteTaskResponse, _Mapping]] = ..., fail: _Optional[_Union[FailTaskResponse, _Mapping]] = ..., error: _Optional[_Union[SettlementError, _Mapping]] = ...) -> None: ...

class SettleTasksRequest(_message.Message):
    __slots__ = ("settlements", "claim")
    SETTLEMENTS_FIELD_NUMBER: _ClassVar[int]
    CLAIM_FIELD_NUMBER: _ClassVar[int]
    settlements: _containers.RepeatedCompositeFieldContainer[Settlement]
    claim: ClaimTasksRequest
    def __init__(self, settlements: _Optional[_Iterable[_Union[Settlement, _Mapping]]] = ..., claim: _Optional[_Union[ClaimTasksRequest, _Mapping]] = ...) -> None: ...

class SettleTasksResponse(_message.Message):
    __slots__ = ("results", "tasks")
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    TASKS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[SettlementResult]
    tasks: _containers.RepeatedCompositeFieldContainer[Task]
    def __init__(self, results: _Optional[_Iterable[_Union[SettlementResult, _Mapping]]] = ..., tasks: _Optional[_Iterable[_Union[Task, _Mapping]]] = ...) -> None: ...

class ListModelsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListModelsResponse(_message.Message):
    __slots__ = ("models",)
    MODELS_FIELD_NUMBER: _ClassVar[int]
    models: _containers.RepeatedCompositeFieldContainer[Model]
    def __init__(self, models: _Optional[_Iterable[_Union[Model, _Mapping]]] = ...) -> None: ...
