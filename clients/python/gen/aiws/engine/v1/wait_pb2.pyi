from aiws.engine.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class WaitKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WAIT_KIND_UNSPECIFIED: _ClassVar[WaitKind]
    WAIT_KIND_HUMAN_INPUT: _ClassVar[WaitKind]
    WAIT_KIND_TIMER: _ClassVar[WaitKind]
    WAIT_KIND_AUTHORIZATION: _ClassVar[WaitKind]

class WaitState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WAIT_STATE_UNSPECIFIED: _ClassVar[WaitState]
    WAIT_STATE_NOT_OPEN: _ClassVar[WaitState]
    WAIT_STATE_PENDING: _ClassVar[WaitState]
    WAIT_STATE_SATISFIED: _ClassVar[WaitState]
    WAIT_STATE_EXPIRED: _ClassVar[WaitState]
    WAIT_STATE_DEFAULTED: _ClassVar[WaitState]
    WAIT_STATE_CANCELLED: _ClassVar[WaitState]

class WaitExpiry(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WAIT_EXPIRY_UNSPECIFIED: _ClassVar[WaitExpiry]
    WAIT_EXPIRY_FAIL: _ClassVar[WaitExpiry]
    WAIT_EXPIRY_DEFAULT: _ClassVar[WaitExpiry]
WAIT_KIND_UNSPECIFIED: WaitKind
WAIT_KIND_HUMAN_INPUT: WaitKind
WAIT_KIND_TIMER: WaitKind
WAIT_KIND_AUTHORIZATION: WaitKind
WAIT_STATE_UNSPECIFIED: WaitState
WAIT_STATE_NOT_OPEN: WaitState
WAIT_STATE_PENDING: WaitState
WAIT_STATE_SATISFIED: WaitState
WAIT_STATE_EXPIRED: WaitState
WAIT_STATE_DEFAULTED: WaitState
WAIT_STATE_CANCELLED: WaitState
WAIT_EXPIRY_UNSPECIFIED: WaitExpiry
WAIT_EXPIRY_FAIL: WaitExpiry
WAIT_EXPIRY_DEFAULT: WaitExpiry

class Wait(_message.Message):
    __slots__ = ("wait_id", "run_id", "node_uid", "kind", "state", "opened_at_ms", "expires_at_ms", "schema_json", "on_expiry", "default_json", "payload_json", "satisfied_by", "satisfied_at_ms", "purpose", "authorizes", "approval_id", "material_digest", "question", "choices")
    WAIT_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    NODE_UID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    OPENED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_JSON_FIELD_NUMBER: _ClassVar[int]
    ON_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_JSON_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_JSON_FIELD_NUMBER: _ClassVar[int]
    SATISFIED_BY_FIELD_NUMBER: _ClassVar[int]
    SATISFIED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    AUTHORIZES_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    MATERIAL_DIGEST_FIELD_NUMBER: _ClassVar[int]
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    wait_id: str
    run_id: str
    node_uid: str
    kind: WaitKind
    state: WaitState
    opened_at_ms: int
    expires_at_ms: int
    schema_json: str
    on_expiry: WaitExpiry
    default_json: str
    payload_json: str
    satisfied_by: str
    satisfied_at_ms: int
    purpose: str
    authorizes: _containers.RepeatedCompositeFieldContainer[AuthorizedAction]
    approval_id: str
    material_digest: str
    question: str
    choices: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, wait_id: _Optional[str] = ..., run_id: _Optional[str] = ..., node_uid: _Optional[str] = ..., kind: _Optional[_Union[WaitKind, str]] = ..., state: _Optional[_Union[WaitState, str]] = ..., opened_at_ms: _Optional[int] = ..., expires_at_ms: _Optional[int] = ..., schema_json: _Optional[str] = ..., on_expiry: _Optional[_Union[WaitExpiry, str]] = ..., default_json: _Optional[str] = ..., payload_json: _Optional[str] = ..., satisfied_by: _Optional[str] = ..., satisfied_at_ms: _Optional[int] = ..., purpose: _Optional[str] = ..., authorizes: _Optional[_Iterable[_Union[AuthorizedAction, _Mapping]]] = ..., approval_id: _Optional[str] = ..., material_digest: _Optional[str] = ..., question: _Optional[str] = ..., choices: _Optional[_Iterable[str]] = ...) -> None: ...

class AuthorizedAction(_message.Message):
    __slots__ = ("node_uid", "model", "operation_id", "spec_digest", "input_digest", "fanout", "input_json")
    NODE_UID_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    OPERATION_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_DIGEST_FIELD_NUMBER: _ClassVar[int]
    INPUT_DIGEST_FIELD_NUMBER: _ClassVar[int]
    FANOUT_FIELD_NUMBER: _ClassVar[int]
    INPUT_JSON_FIELD_NUMBER: _ClassVar[int]
    node_uid: str
    model: str
    operation_id: str
    spec_digest: str
    input_digest: str
    fanout: bool
    input_json: str
    def __init__(self, node_uid: _Optional[str] = ..., model: _Optional[str] = ..., operation_id: _Optional[str] = ..., spec_digest: _Optional[str] = ..., input_digest: _Optional[str] = ..., fanout: bool = ..., input_json: _Optional[str] = ...) -> None: ...

class WaitMaterial(_message.Message):
    __slots__ = ("epochs", "work_order_id", "run_id", "wait_id", "node_uid", "expires_at_ms", "purpose", "payload_digest", "actions")
    EPOCHS_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    WAIT_ID_FIELD_NUMBER: _ClassVar[int]
    NODE_UID_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_DIGEST_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    epochs: _common_pb2.Epochs
    work_order_id: str
    run_id: str
    wait_id: str
    node_uid: str
    expires_at_ms: int
    purpose: str
    payload_digest: str
    actions: _containers.RepeatedCompositeFieldContainer[AuthorizedAction]
    def __init__(self, epochs: _Optional[_Union[_common_pb2.Epochs, _Mapping]] = ..., work_order_id: _Optional[str] = ..., run_id: _Optional[str] = ..., wait_id: _Optional[str] = ..., node_uid: _Optional[str] = ..., expires_at_ms: _Optional[int] = ..., purpose: _Optional[str] = ..., payload_digest: _Optional[str] = ..., actions: _Optional[_Iterable[_Union[AuthorizedAction, _Mapping]]] = ...) -> None: ...

class GetWaitRequest(_message.Message):
    __slots__ = ("wait_id",)
    WAIT_ID_FIELD_NUMBER: _ClassVar[int]
    wait_id: str
    def __init__(self, wait_id: _Optional[str] = ...) -> None: ...

class GetWaitResponse(_message.Message):
    __slots__ = ("wait",)
    WAIT_FIELD_NUMBER: _ClassVar[int]
    wait: Wait
    def __init__(self, wait: _Optional[_Union[Wait, _Mapping]] = ...) -> None: ...

class ListWaitsRequest(_message.Message):
    __slots__ = ("run_id",)
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    def __init__(self, run_id: _Optional[str] = ...) -> None: ...

class ListWaitsResponse(_message.Message):
    __slots__ = ("waits",)
    WAITS_FIELD_NUMBER: _ClassVar[int]
    waits: _containers.RepeatedCompositeFieldContainer[Wait]
    def __init__(self, waits: _Optional[_Iterable[_Union[Wait, _Mapping]]] = ...) -> None: ...

class ReviewWaitRequest(_message.Message):
    __slots__ = ("wait_id", "payload_json")
    WAIT_ID_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_JSON_FIELD_NUMBER: _ClassVar[int]
    wait_id: str
    payload_json: str
    def __init__(self, wait_id: _Optional[str] = ..., payload_json: _Optional[str] = ...) -> None: ...

class ReviewWaitResponse(_message.Message):
    __slots__ = ("material", "material_digest")
    MATERIAL_FIELD_NUMBER: _ClassVar[int]
    MATERIAL_DIGEST_FIELD_NUMBER: _ClassVar[int]
    material: WaitMaterial
    material_digest: str
    def __init__(self, material: _Optional[_Union[WaitMaterial, _Mapping]] = ..., material_digest: _Optional[str] = ...) -> None: ...

class SatisfyWaitRequest(_message.Message):
    __slots__ = ("request_id", "wait_id", "payload_json", "approval_id")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    WAIT_ID_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_JSON_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    wait_id: str
    payload_json: str
    approval_id: str
    def __init__(self, request_id: _Optional[str] = ..., wait_id: _Optional[str] = ..., payload_json: _Optional[str] = ..., approval_id: _Optional[str] = ...) -> None: ...

class SatisfyWaitResponse(_message.Message):
    __slots__ = ("wait", "replayed")
    WAIT_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    wait: Wait
    replayed: bool
    def __init__(self, wait: _Optional[_Union[Wait, _Mapping]] = ..., replayed: bool = ...) -> None: ...
