from aiws.engine.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RunState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RUN_STATE_UNSPECIFIED: _ClassVar[RunState]
    RUN_STATE_RUNNING: _ClassVar[RunState]
    RUN_STATE_AWAITING_NODES: _ClassVar[RunState]
    RUN_STATE_COMPLETED: _ClassVar[RunState]
    RUN_STATE_FAILED: _ClassVar[RunState]
    RUN_STATE_CANCELLED: _ClassVar[RunState]
    RUN_STATE_COMPLETING: _ClassVar[RunState]
    RUN_STATE_FAILING: _ClassVar[RunState]
    RUN_STATE_CANCELLING: _ClassVar[RunState]

class NodeState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NODE_STATE_UNSPECIFIED: _ClassVar[NodeState]
    NODE_STATE_PENDING: _ClassVar[NodeState]
    NODE_STATE_READY: _ClassVar[NodeState]
    NODE_STATE_RUNNING: _ClassVar[NodeState]
    NODE_STATE_DONE: _ClassVar[NodeState]
    NODE_STATE_FAILED: _ClassVar[NodeState]
    NODE_STATE_CANCELLED: _ClassVar[NodeState]
    NODE_STATE_BLOCKED: _ClassVar[NodeState]
    NODE_STATE_EXPANDED: _ClassVar[NodeState]
    NODE_STATE_WAITING: _ClassVar[NodeState]
    NODE_STATE_STOPPING: _ClassVar[NodeState]

class SegmentReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEGMENT_REASON_UNSPECIFIED: _ClassVar[SegmentReason]
    SEGMENT_REASON_START: _ClassVar[SegmentReason]
    SEGMENT_REASON_RECOVERY: _ClassVar[SegmentReason]
    SEGMENT_REASON_OWNER_CHANGE: _ClassVar[SegmentReason]
RUN_STATE_UNSPECIFIED: RunState
RUN_STATE_RUNNING: RunState
RUN_STATE_AWAITING_NODES: RunState
RUN_STATE_COMPLETED: RunState
RUN_STATE_FAILED: RunState
RUN_STATE_CANCELLED: RunState
RUN_STATE_COMPLETING: RunState
RUN_STATE_FAILING: RunState
RUN_STATE_CANCELLING: RunState
NODE_STATE_UNSPECIFIED: NodeState
NODE_STATE_PENDING: NodeState
NODE_STATE_READY: NodeState
NODE_STATE_RUNNING: NodeState
NODE_STATE_DONE: NodeState
NODE_STATE_FAILED: NodeState
NODE_STATE_CANCELLED: NodeState
NODE_STATE_BLOCKED: NodeState
NODE_STATE_EXPANDED: NodeState
NODE_STATE_WAITING: NodeState
NODE_STATE_STOPPING: NodeState
SEGMENT_REASON_UNSPECIFIED: SegmentReason
SEGMENT_REASON_START: SegmentReason
SEGMENT_REASON_RECOVERY: SegmentReason
SEGMENT_REASON_OWNER_CHANGE: SegmentReason

class Segment(_message.Message):
    __slots__ = ("number", "reason", "started_at_ms", "ownership_epoch")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    OWNERSHIP_EPOCH_FIELD_NUMBER: _ClassVar[int]
    number: int
    reason: SegmentReason
    started_at_ms: int
    ownership_epoch: int
    def __init__(self, number: _Optional[int] = ..., reason: _Optional[_Union[SegmentReason, str]] = ..., started_at_ms: _Optional[int] = ..., ownership_epoch: _Optional[int] = ...) -> None: ...

class NodeStatus(_message.Message):
    __slots__ = ("node_uid", "node_id", "state", "attempts", "attempt_id", "error", "has_result", "revision", "fanout_items", "operation_id", "not_before_ms", "fanout_items_done", "started_at_ms", "finished_at_ms", "progress")
    NODE_UID_FIELD_NUMBER: _ClassVar[int]
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    ATTEMPT_ID_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    HAS_RESULT_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    FANOUT_ITEMS_FIELD_NUMBER: _ClassVar[int]
    OPERATION_ID_FIELD_NUMBER: _ClassVar[int]
    NOT_BEFORE_MS_FIELD_NUMBER: _ClassVar[int]
    FANOUT_ITEMS_DONE_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    node_uid: str
    node_id: str
    state: NodeState
    attempts: int
    attempt_id: str
    error: str
    has_result: bool
    revision: int
    fanout_items: int
    operation_id: str
    not_before_ms: int
    fanout_items_done: int
    started_at_ms: int
    finished_at_ms: int
    progress: AttemptProgress
    def __init__(self, node_uid: _Optional[str] = ..., node_id: _Optional[str] = ..., state: _Optional[_Union[NodeState, str]] = ..., attempts: _Optional[int] = ..., attempt_id: _Optional[str] = ..., error: _Optional[str] = ..., has_result: bool = ..., revision: _Optional[int] = ..., fanout_items: _Optional[int] = ..., operation_id: _Optional[str] = ..., not_before_ms: _Optional[int] = ..., fanout_items_done: _Optional[int] = ..., started_at_ms: _Optional[int] = ..., finished_at_ms: _Optional[int] = ..., progress: _Optional[_Union[AttemptProgress, _Mapping]] = ...) -> None: ...

class AttemptProgress(_message.Message):
    __slots__ = ("attempt_id", "text", "data_json", "reported_at_ms", "reports")
    ATTEMPT_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    DATA_JSON_FIELD_NUMBER: _ClassVar[int]
    REPORTED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    REPORTS_FIELD_NUMBER: _ClassVar[int]
    attempt_id: str
    text: str
    data_json: str
    reported_at_ms: int
    reports: int
    def __init__(self, attempt_id: _Optional[str] = ..., text: _Optional[str] = ..., data_json: _Optional[str] = ..., reported_at_ms: _Optional[int] = ..., reports: _Optional[int] = ...) -> None: ...

class Run(_message.Message):
    __slots__ = ("run_id", "state", "nodes", "result_json", "result_error", "ref", "revision", "definition_digest", "version", "created_at_ms", "updated_at_ms", "finished_at_ms", "request_id", "subscriber", "contract_id", "segments", "result_reason", "node_count", "items_omitted", "failed_node_ids", "work_order_id", "started_by", "labels", "deadline_ms")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    RESULT_JSON_FIELD_NUMBER: _ClassVar[int]
    RESULT_ERROR_FIELD_NUMBER: _ClassVar[int]
    REF_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    DEFINITION_DIGEST_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIBER_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_ID_FIELD_NUMBER: _ClassVar[int]
    SEGMENTS_FIELD_NUMBER: _ClassVar[int]
    RESULT_REASON_FIELD_NUMBER: _ClassVar[int]
    NODE_COUNT_FIELD_NUMBER: _ClassVar[int]
    ITEMS_OMITTED_FIELD_NUMBER: _ClassVar[int]
    FAILED_NODE_IDS_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    STARTED_BY_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    state: RunState
    nodes: _containers.RepeatedCompositeFieldContainer[NodeStatus]
    result_json: str
    result_error: str
    ref: _common_pb2.WorkflowRef
    revision: int
    definition_digest: str
    version: int
    created_at_ms: int
    updated_at_ms: int
    finished_at_ms: int
    request_id: str
    subscriber: str
    contract_id: str
    segments: _containers.RepeatedCompositeFieldContainer[Segment]
    result_reason: str
    node_count: int
    items_omitted: bool
    failed_node_ids: _containers.RepeatedScalarFieldContainer[str]
    work_order_id: str
    started_by: str
    labels: _containers.ScalarMap[str, str]
    deadline_ms: int
    def __init__(self, run_id: _Optional[str] = ..., state: _Optional[_Union[RunState, str]] = ..., nodes: _Optional[_Iterable[_Union[NodeStatus, _Mapping]]] = ..., result_json: _Optional[str] = ..., result_error: _Optional[str] = ..., ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., revision: _Optional[int] = ..., definition_digest: _Optional[str] = ..., version: _Optional[int] = ..., created_at_ms: _Optional[int] = ..., updated_at_ms: _Optional[int] = ..., finished_at_ms: _Optional[int] = ..., request_id: _Optional[str] = ..., subscriber: _Optional[str] = ..., contract_id: _Optional[str] = ..., segments: _Optional[_Iterable[_Union[Segment, _Mapping]]] = ..., result_reason: _Optional[str] = ..., node_count: _Optional[int] = ..., items_omitted: bool = ..., failed_node_ids: _Optional[_Iterable[str]] = ..., work_order_id: _Optional[str] = ..., started_by: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., deadline_ms: _Optional[int] = ...) -> None: ...

class StartRunRequest(_message.Message):
    __slots__ = ("request_id", "definition_json", "ref", "input_json", "subscriber", "contract_id", "work_order_id", "labels", "run_timeout_ms", "notify", "dry_run")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    DEFINITION_JSON_FIELD_NUMBER: _ClassVar[int]
    REF_FIELD_NUMBER: _ClassVar[int]
    INPUT_JSON_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIBER_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_ID_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    RUN_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    NOTIFY_FIELD_NUMBER: _ClassVar[int]
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    definition_json: str
    ref: _common_pb2.WorkflowRef
    input_json: str
    subscriber: str
    contract_id: str
    work_order_id: str
    labels: _containers.ScalarMap[str, str]
    run_timeout_ms: int
    notify: RunNotify
    dry_run: bool
    def __init__(self, request_id: _Optional[str] = ..., definition_json: _Optional[str] = ..., ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., input_json: _Optional[str] = ..., subscriber: _Optional[str] = ..., contract_id: _Optional[str] = ..., work_order_id: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., run_timeout_ms: _Optional[int] = ..., notify: _Optional[_Union[RunNotify, _Mapping]] = ..., dry_run: bool = ...) -> None: ...

class RunNotify(_message.Message):
    __slots__ = ("webhooks", "reply_to", "reply_template")
    WEBHOOKS_FIELD_NUMBER: _ClassVar[int]
    REPLY_TO_FIELD_NUMBER: _ClassVar[int]
    REPLY_TEMPLATE_FIELD_NUMBER: _ClassVar[int]
    webhooks: _containers.RepeatedScalarFieldContainer[str]
    reply_to: bool
    reply_template: str
    def __init__(self, webhooks: _Optional[_Iterable[str]] = ..., reply_to: bool = ..., reply_template: _Optional[str] = ...) -> None: ...

class StartRunResponse(_message.Message):
    __slots__ = ("run", "created", "warnings", "dry_run")
    RUN_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    run: Run
    created: bool
    warnings: _containers.RepeatedCompositeFieldContainer[_common_pb2.DefinitionWarning]
    dry_run: bool
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ..., created: bool = ..., warnings: _Optional[_Iterable[_Union[_common_pb2.DefinitionWarning, _Mapping]]] = ..., dry_run: bool = ...) -> None: ...

class GetRunRequest(_message.Message):
    __slots__ = ("run_id", "include_definition")
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_DEFINITION_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    include_definition: bool
    def __init__(self, run_id: _Optional[str] = ..., include_definition: bool = ...) -> None: ...

class GetRunResponse(_message.Message):
    __slots__ = ("run", "definition_json")
    RUN_FIELD_NUMBER: _ClassVar[int]
    DEFINITION_JSON_FIELD_NUMBER: _ClassVar[int]
    run: Run
    definition_json: str
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ..., definition_json: _Optional[str] = ...) -> None: ...

class GetNodeResultRequest(_message.Message):
    __slots__ = ("run_id", "node_uid")
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    NODE_UID_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    node_uid: str
    def __init__(self, run_id: _Optional[str] = ..., node_uid: _Optional[str] = ...) -> None: ...

class GetNodeResultResponse(_message.Message):
    __slots__ = ("present", "result_json")
    PRESENT_FIELD_NUMBER: _ClassVar[int]
    RESULT_JSON_FIELD_NUMBER: _ClassVar[int]
    present: bool
    result_json: str
    def __init__(self, present: bool = ..., result_json: _Optional[str] = ...) -> None: ...

class StopRunRequest(_message.Message):
    __slots__ = ("run_id", "reason")
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    reason: str
    def __init__(self, run_id: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class StopRunResponse(_message.Message):
    __slots__ = ("run",)
    RUN_FIELD_NUMBER: _ClassVar[int]
    run: Run
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ...) -> None: ...

class ResumeRunRequest(_message.Message):
    __slots__ = ("run_id", "request_id", "reason", "run_timeout_ms", "epochs", "approval_id", "to_head", "dry_run")
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RUN_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    EPOCHS_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    TO_HEAD_FIELD_NUMBER: _ClassVar[int]
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    request_id: str
    reason: str
    run_timeout_ms: int
    epochs: _common_pb2.Epochs
    approval_id: str
    to_head: bool
    dry_run: bool
    def __init__(self, run_id: _Optional[str] = ..., request_id: _Optional[str] = ..., reason: _Optional[str] = ..., run_timeout_ms: _Optional[int] = ..., epochs: _Optional[_Union[_common_pb2.Epochs, _Mapping]] = ..., approval_id: _Optional[str] = ..., to_head: bool = ..., dry_run: bool = ...) -> None: ...

class ResumeRunResponse(_message.Message):
    __slots__ = ("run", "replayed", "dry_run")
    RUN_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    run: Run
    replayed: bool
    dry_run: bool
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ..., replayed: bool = ..., dry_run: bool = ...) -> None: ...

class ReviewResumeRequest(_message.Message):
    __slots__ = ("run_id", "reason", "run_timeout_ms", "epochs", "to_head")
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RUN_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    EPOCHS_FIELD_NUMBER: _ClassVar[int]
    TO_HEAD_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    reason: str
    run_timeout_ms: int
    epochs: _common_pb2.Epochs
    to_head: bool
    def __init__(self, run_id: _Optional[str] = ..., reason: _Optional[str] = ..., run_timeout_ms: _Optional[int] = ..., epochs: _Optional[_Union[_common_pb2.Epochs, _Mapping]] = ..., to_head: bool = ...) -> None: ...

class ResumeNode(_message.Message):
    __slots__ = ("node_uid", "operation_id", "new_operation", "needs_approval", "effect_applied", "authorized", "input_digest")
    NODE_UID_FIELD_NUMBER: _ClassVar[int]
    OPERATION_ID_FIELD_NUMBER: _ClassVar[int]
    NEW_OPERATION_FIELD_NUMBER: _ClassVar[int]
    NEEDS_APPROVAL_FIELD_NUMBER: _ClassVar[int]
    EFFECT_APPLIED_FIELD_NUMBER: _ClassVar[int]
    AUTHORIZED_FIELD_NUMBER: _ClassVar[int]
    INPUT_DIGEST_FIELD_NUMBER: _ClassVar[int]
    node_uid: str
    operation_id: str
    new_operation: bool
    needs_approval: bool
    effect_applied: bool
    authorized: bool
    input_digest: str
    def __init__(self, node_uid: _Optional[str] = ..., operation_id: _Optional[str] = ..., new_operation: bool = ..., needs_approval: bool = ..., effect_applied: bool = ..., authorized: bool = ..., input_digest: _Optional[str] = ...) -> None: ...

class ResumeChange(_message.Message):
    __slots__ = ("node_id", "state", "old_spec_digest", "new_spec_digest", "old_node_json", "new_node_json")
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    OLD_SPEC_DIGEST_FIELD_NUMBER: _ClassVar[int]
    NEW_SPEC_DIGEST_FIELD_NUMBER: _ClassVar[int]
    OLD_NODE_JSON_FIELD_NUMBER: _ClassVar[int]
    NEW_NODE_JSON_FIELD_NUMBER: _ClassVar[int]
    node_id: str
    state: NodeState
    old_spec_digest: str
    new_spec_digest: str
    old_node_json: str
    new_node_json: str
    def __init__(self, node_id: _Optional[str] = ..., state: _Optional[_Union[NodeState, str]] = ..., old_spec_digest: _Optional[str] = ..., new_spec_digest: _Optional[str] = ..., old_node_json: _Optional[str] = ..., new_node_json: _Optional[str] = ...) -> None: ...

class ResumeMaterial(_message.Message):
    __slots__ = ("epochs", "work_order_id", "ref_run_id", "run_id", "run_version", "revision", "definition_digest", "nodes", "node_count", "reason", "run_timeout_ms", "reapprove", "reapprove_count", "to_revision", "to_definition_digest", "changes")
    EPOCHS_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    REF_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_VERSION_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    DEFINITION_DIGEST_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    NODE_COUNT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RUN_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    REAPPROVE_FIELD_NUMBER: _ClassVar[int]
    REAPPROVE_COUNT_FIELD_NUMBER: _ClassVar[int]
    TO_REVISION_FIELD_NUMBER: _ClassVar[int]
    TO_DEFINITION_DIGEST_FIELD_NUMBER: _ClassVar[int]
    CHANGES_FIELD_NUMBER: _ClassVar[int]
    epochs: _common_pb2.Epochs
    work_order_id: str
    ref_run_id: str
    run_id: str
    run_version: int
    revision: int
    definition_digest: str
    nodes: _containers.RepeatedCompositeFieldContainer[ResumeNode]
    node_count: int
    reason: str
    run_timeout_ms: int
    reapprove: _containers.RepeatedCompositeFieldContainer[ResumeNode]
    reapprove_count: int
    to_revision: int
    to_definition_digest: str
    changes: _containers.RepeatedCompositeFieldContainer[ResumeChange]
    def __init__(self, epochs: _Optional[_Union[_common_pb2.Epochs, _Mapping]] = ..., work_order_id: _Optional[str] = ..., ref_run_id: _Optional[str] = ..., run_id: _Optional[str] = ..., run_version: _Optional[int] = ..., revision: _Optional[int] = ..., definition_digest: _Optional[str] = ..., nodes: _Optional[_Iterable[_Union[ResumeNode, _Mapping]]] = ..., node_count: _Optional[int] = ..., reason: _Optional[str] = ..., run_timeout_ms: _Optional[int] = ..., reapprove: _Optional[_Iterable[_Union[ResumeNode, _Mapping]]] = ..., reapprove_count: _Optional[int] = ..., to_revision: _Optional[int] = ..., to_definition_digest: _Optional[str] = ..., changes: _Optional[_Iterable[_Union[ResumeChange, _Mapping]]] = ...) -> None: ...

class ReviewResumeResponse(_message.Message):
    __slots__ = ("material", "material_digest")
    MATERIAL_FIELD_NUMBER: _ClassVar[int]
    MATERIAL_DIGEST_FIELD_NUMBER: _ClassVar[int]
    material: ResumeMaterial
    material_digest: str
    def __init__(self, material: _Optional[_Union[ResumeMaterial, _Mapping]] = ..., material_digest: _Optional[str] = ...) -> None: ...

class WatchRunRequest(_message.Message):
    __slots__ = ("run_id",)
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    def __init__(self, run_id: _Optional[str] = ...) -> None: ...

class WatchRunResponse(_message.Message):
    __slots__ = ("run",)
    RUN_FIELD_NUMBER: _ClassVar[int]
    run: Run
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ...) -> None: ...

class ListRunsRequest(_message.Message):
    __slots__ = ("state", "page_size", "page_token", "work_order_id", "ref", "contract_id", "started_by", "created_after_ms", "created_before_ms", "labels")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    STATE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    REF_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_ID_FIELD_NUMBER: _ClassVar[int]
    STARTED_BY_FIELD_NUMBER: _ClassVar[int]
    CREATED_AFTER_MS_FIELD_NUMBER: _ClassVar[int]
    CREATED_BEFORE_MS_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    state: RunState
    page_size: int
    page_token: str
    work_order_id: str
    ref: _common_pb2.WorkflowRef
    contract_id: str
    started_by: str
    created_after_ms: int
    created_before_ms: int
    labels: _containers.ScalarMap[str, str]
    def __init__(self, state: _Optional[_Union[RunState, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., work_order_id: _Optional[str] = ..., ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., contract_id: _Optional[str] = ..., started_by: _Optional[str] = ..., created_after_ms: _Optional[int] = ..., created_before_ms: _Optional[int] = ..., labels: _Optional[_Mapping[str, str]] = ...) -> None: ...

class ListRunsResponse(_message.Message):
    __slots__ = ("runs", "next_page_token")
    RUNS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    runs: _containers.RepeatedCompositeFieldContainer[Run]
    next_page_token: str
    def __init__(self, runs: _Optional[_Iterable[_Union[Run, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListRunNodesRequest(_message.Message):
    __slots__ = ("run_id", "node_id", "state", "page_size", "page_token")
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    node_id: str
    state: NodeState
    page_size: int
    page_token: str
    def __init__(self, run_id: _Optional[str] = ..., node_id: _Optional[str] = ..., state: _Optional[_Union[NodeState, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListRunNodesResponse(_message.Message):
    __slots__ = ("nodes", "next_page_token", "version")
    NODES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    nodes: _containers.RepeatedCompositeFieldContainer[NodeStatus]
    next_page_token: str
    version: int
    def __init__(self, nodes: _Optional[_Iterable[_Union[NodeStatus, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., version: _Optional[int] = ...) -> None: ...
