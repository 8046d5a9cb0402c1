from aiws.engine.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class HandoffState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HANDOFF_STATE_UNSPECIFIED: _ClassVar[HandoffState]
    HANDOFF_STATE_OFFERED: _ClassVar[HandoffState]
    HANDOFF_STATE_ACKNOWLEDGED: _ClassVar[HandoffState]
HANDOFF_STATE_UNSPECIFIED: HandoffState
HANDOFF_STATE_OFFERED: HandoffState
HANDOFF_STATE_ACKNOWLEDGED: HandoffState

class Handoff(_message.Message):
    __slots__ = ("delivery_id", "run_id", "node_uid", "operation_id", "from_principal_id", "to_principal_id", "outputs_digest", "note", "state", "created_at_ms", "acknowledged_at_ms", "ref", "revision", "definition_digest")
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    NODE_UID_FIELD_NUMBER: _ClassVar[int]
    OPERATION_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    TO_PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    OUTPUTS_DIGEST_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    ACKNOWLEDGED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    REF_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    DEFINITION_DIGEST_FIELD_NUMBER: _ClassVar[int]
    delivery_id: str
    run_id: str
    node_uid: str
    operation_id: str
    from_principal_id: str
    to_principal_id: str
    outputs_digest: str
    note: str
    state: HandoffState
    created_at_ms: int
    acknowledged_at_ms: int
    ref: _common_pb2.WorkflowRef
    revision: int
    definition_digest: str
    def __init__(self, delivery_id: _Optional[str] = ..., run_id: _Optional[str] = ..., node_uid: _Optional[str] = ..., operation_id: _Optional[str] = ..., from_principal_id: _Optional[str] = ..., to_principal_id: _Optional[str] = ..., outputs_digest: _Optional[str] = ..., note: _Optional[str] = ..., state: _Optional[_Union[HandoffState, str]] = ..., created_at_ms: _Optional[int] = ..., acknowledged_at_ms: _Optional[int] = ..., ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., revision: _Optional[int] = ..., definition_digest: _Optional[str] = ...) -> None: ...

class CreateHandoffRequest(_message.Message):
    __slots__ = ("request_id", "run_id", "node_uid", "to_principal_id", "note")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    NODE_UID_FIELD_NUMBER: _ClassVar[int]
    TO_PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    run_id: str
    node_uid: str
    to_principal_id: str
    note: str
    def __init__(self, request_id: _Optional[str] = ..., run_id: _Optional[str] = ..., node_uid: _Optional[str] = ..., to_principal_id: _Optional[str] = ..., note: _Optional[str] = ...) -> None: ...

class CreateHandoffResponse(_message.Message):
    __slots__ = ("handoff", "replayed")
    HANDOFF_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    handoff: Handoff
    replayed: bool
    def __init__(self, handoff: _Optional[_Union[Handoff, _Mapping]] = ..., replayed: bool = ...) -> None: ...

class AcknowledgeHandoffRequest(_message.Message):
    __slots__ = ("delivery_id",)
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    delivery_id: str
    def __init__(self, delivery_id: _Optional[str] = ...) -> None: ...

class AcknowledgeHandoffResponse(_message.Message):
    __slots__ = ("handoff",)
    HANDOFF_FIELD_NUMBER: _ClassVar[int]
    handoff: Handoff
    def __init__(self, handoff: _Optional[_Union[Handoff, _Mapping]] = ...) -> None: ...

class GetHandoffRequest(_message.Message):
    __slots__ = ("delivery_id",)
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    delivery_id: str
    def __init__(self, delivery_id: _Optional[str] = ...) -> None: ...

class GetHandoffResponse(_message.Message):
    __slots__ = ("handoff",)
    HANDOFF_FIELD_NUMBER: _ClassVar[int]
    handoff: Handoff
    def __init__(self, handoff: _Optional[_Union[Handoff, _Mapping]] = ...) -> None: ...

class ListHandoffsRequest(_message.Message):
    __slots__ = ("state", "page_size", "page_token")
    STATE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    state: HandoffState
    page_size: int
    page_token: str
    def __init__(self, state: _Optional[_Union[HandoffState, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListHandoffsResponse(_message.Message):
    __slots__ = ("handoffs", "next_page_token")
    HANDOFFS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    handoffs: _containers.RepeatedCompositeFieldContainer[Handoff]
    next_page_token: str
    def __init__(self, handoffs: _Optional[_Iterable[_Union[Handoff, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
