from aiws.engine.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ReconciliationState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RECONCILIATION_STATE_UNSPECIFIED: _ClassVar[ReconciliationState]
    RECONCILIATION_STATE_PENDING: _ClassVar[ReconciliationState]
    RECONCILIATION_STATE_RESOLVED: _ClassVar[ReconciliationState]

class ReconciliationDecision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RECONCILIATION_DECISION_UNSPECIFIED: _ClassVar[ReconciliationDecision]
    RECONCILIATION_DECISION_APPLIED: _ClassVar[ReconciliationDecision]
    RECONCILIATION_DECISION_NOT_APPLIED: _ClassVar[ReconciliationDecision]
RECONCILIATION_STATE_UNSPECIFIED: ReconciliationState
RECONCILIATION_STATE_PENDING: ReconciliationState
RECONCILIATION_STATE_RESOLVED: ReconciliationState
RECONCILIATION_DECISION_UNSPECIFIED: ReconciliationDecision
RECONCILIATION_DECISION_APPLIED: ReconciliationDecision
RECONCILIATION_DECISION_NOT_APPLIED: ReconciliationDecision

class Reconciliation(_message.Message):
    __slots__ = ("attempt_id", "run_id", "node_uid", "operation_id", "completed", "state", "decision", "evidence_json", "approval_id", "decided_by", "opened_at_ms", "decided_at_ms", "error")
    ATTEMPT_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    NODE_UID_FIELD_NUMBER: _ClassVar[int]
    OPERATION_ID_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_JSON_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    DECIDED_BY_FIELD_NUMBER: _ClassVar[int]
    OPENED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    DECIDED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    attempt_id: str
    run_id: str
    node_uid: str
    operation_id: str
    completed: bool
    state: ReconciliationState
    decision: ReconciliationDecision
    evidence_json: str
    approval_id: str
    decided_by: str
    opened_at_ms: int
    decided_at_ms: int
    error: str
    def __init__(self, attempt_id: _Optional[str] = ..., run_id: _Optional[str] = ..., node_uid: _Optional[str] = ..., operation_id: _Optional[str] = ..., completed: bool = ..., state: _Optional[_Union[ReconciliationState, str]] = ..., decision: _Optional[_Union[ReconciliationDecision, str]] = ..., evidence_json: _Optional[str] = ..., approval_id: _Optional[str] = ..., decided_by: _Optional[str] = ..., opened_at_ms: _Optional[int] = ..., decided_at_ms: _Optional[int] = ..., error: _Optional[str] = ...) -> None: ...

class ReconciliationMaterial(_message.Message):
    __slots__ = ("epochs", "work_order_id", "run_id", "node_uid", "operation_id", "attempt_id", "completed", "decision", "evidence_digest", "result_digest")
    EPOCHS_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    NODE_UID_FIELD_NUMBER: _ClassVar[int]
    OPERATION_ID_FIELD_NUMBER: _ClassVar[int]
    ATTEMPT_ID_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_DIGEST_FIELD_NUMBER: _ClassVar[int]
    RESULT_DIGEST_FIELD_NUMBER: _ClassVar[int]
    epochs: _common_pb2.Epochs
    work_order_id: str
    run_id: str
    node_uid: str
    operation_id: str
    attempt_id: str
    completed: bool
    decision: ReconciliationDecision
    evidence_digest: str
    result_digest: str
    def __init__(self, epochs: _Optional[_Union[_common_pb2.Epochs, _Mapping]] = ..., work_order_id: _Optional[str] = ..., run_id: _Optional[str] = ..., node_uid: _Optional[str] = ..., operation_id: _Optional[str] = ..., attempt_id: _Optional[str] = ..., completed: bool = ..., decision: _Optional[_Union[ReconciliationDecision, str]] = ..., evidence_digest: _Optional[str] = ..., result_digest: _Optional[str] = ...) -> None: ...

class ListReconciliationsRequest(_message.Message):
    __slots__ = ("run_id",)
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    def __init__(self, run_id: _Optional[str] = ...) -> None: ...

class ListReconciliationsResponse(_message.Message):
    __slots__ = ("reconciliations",)
    RECONCILIATIONS_FIELD_NUMBER: _ClassVar[int]
    reconciliations: _containers.RepeatedCompositeFieldContainer[Reconciliation]
    def __init__(self, reconciliations: _Optional[_Iterable[_Union[Reconciliation, _Mapping]]] = ...) -> None: ...

class ReviewReconciliationRequest(_message.Message):
    __slots__ = ("epochs", "attempt_id", "decision", "evidence_json", "result_json")
    EPOCHS_FIELD_NUMBER: _ClassVar[int]
    ATTEMPT_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_JSON_FIELD_NUMBER: _ClassVar[int]
    RESULT_JSON_FIELD_NUMBER: _ClassVar[int]
    epochs: _common_pb2.Epochs
    attempt_id: str
    decision: ReconciliationDecision
    evidence_json: str
    result_json: str
    def __init__(self, epochs: _Optional[_Union[_common_pb2.Epochs, _Mapping]] = ..., attempt_id: _Optional[str] = ..., decision: _Optional[_Union[ReconciliationDecision, str]] = ..., evidence_json: _Optional[str] = ..., result_json: _Optional[str] = ...) -> None: ...

class ReviewReconciliationResponse(_message.Message):
    __slots__ = ("material", "material_digest")
    MATERIAL_FIELD_NUMBER: _ClassVar[int]
    MATERIAL_DIGEST_FIELD_NUMBER: _ClassVar[int]
    material: ReconciliationMaterial
    material_digest: str
    def __init__(self, material: _Optional[_Union[ReconciliationMaterial, _Mapping]] = ..., material_digest: _Optional[str] = ...) -> None: ...

class ReconcileRequest(_message.Message):
    __slots__ = ("epochs", "request_id", "attempt_id", "decision", "evidence_json", "approval_id", "result_json")
    EPOCHS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ATTEMPT_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_JSON_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_JSON_FIELD_NUMBER: _ClassVar[int]
    epochs: _common_pb2.Epochs
    request_id: str
    attempt_id: str
    decision: ReconciliationDecision
    evidence_json: str
    approval_id: str
    result_json: str
    def __init__(self, epochs: _Optional[_Union[_common_pb2.Epochs, _Mapping]] = ..., request_id: _Optional[str] = ..., attempt_id: _Optional[str] = ..., decision: _Optional[_Union[ReconciliationDecision, str]] = ..., evidence_json: _Optional[str] = ..., approval_id: _Optional[str] = ..., result_json: _Optional[str] = ...) -> None: ...

class ReconcileResponse(_message.Message):
    __slots__ = ("reconciliation", "replayed")
    RECONCILIATION_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    reconciliation: Reconciliation
    replayed: bool
    def __init__(self, reconciliation: _Optional[_Union[Reconciliation, _Mapping]] = ..., replayed: bool = ...) -> None: ...
