from aiws.engine.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PrincipalState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PRINCIPAL_STATE_UNSPECIFIED: _ClassVar[PrincipalState]
    PRINCIPAL_STATE_ACTIVE: _ClassVar[PrincipalState]
    PRINCIPAL_STATE_REVOKED: _ClassVar[PrincipalState]
    PRINCIPAL_STATE_EXPIRED: _ClassVar[PrincipalState]

class PrincipalEventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PRINCIPAL_EVENT_KIND_UNSPECIFIED: _ClassVar[PrincipalEventKind]
    PRINCIPAL_EVENT_KIND_IMPORTED: _ClassVar[PrincipalEventKind]
    PRINCIPAL_EVENT_KIND_CREATED: _ClassVar[PrincipalEventKind]
    PRINCIPAL_EVENT_KIND_ROTATED: _ClassVar[PrincipalEventKind]
    PRINCIPAL_EVENT_KIND_REVOKED: _ClassVar[PrincipalEventKind]
PRINCIPAL_STATE_UNSPECIFIED: PrincipalState
PRINCIPAL_STATE_ACTIVE: PrincipalState
PRINCIPAL_STATE_REVOKED: PrincipalState
PRINCIPAL_STATE_EXPIRED: PrincipalState
PRINCIPAL_EVENT_KIND_UNSPECIFIED: PrincipalEventKind
PRINCIPAL_EVENT_KIND_IMPORTED: PrincipalEventKind
PRINCIPAL_EVENT_KIND_CREATED: PrincipalEventKind
PRINCIPAL_EVENT_KIND_ROTATED: PrincipalEventKind
PRINCIPAL_EVENT_KIND_REVOKED: PrincipalEventKind

class Grant(_message.Message):
    __slots__ = ("actions", "work_orders", "max_spend_microcredits", "purposes", "not_before_ms", "not_after_ms")
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDERS_FIELD_NUMBER: _ClassVar[int]
    MAX_SPEND_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    PURPOSES_FIELD_NUMBER: _ClassVar[int]
    NOT_BEFORE_MS_FIELD_NUMBER: _ClassVar[int]
    NOT_AFTER_MS_FIELD_NUMBER: _ClassVar[int]
    actions: _containers.RepeatedScalarFieldContainer[str]
    work_orders: _containers.RepeatedScalarFieldContainer[str]
    max_spend_microcredits: str
    purposes: _containers.RepeatedScalarFieldContainer[str]
    not_before_ms: int
    not_after_ms: int
    def __init__(self, actions: _Optional[_Iterable[str]] = ..., work_orders: _Optional[_Iterable[str]] = ..., max_spend_microcredits: _Optional[str] = ..., purposes: _Optional[_Iterable[str]] = ..., not_before_ms: _Optional[int] = ..., not_after_ms: _Optional[int] = ...) -> None: ...

class Principal(_message.Message):
    __slots__ = ("principal_id", "kind", "grants", "expires_at_ms", "state", "version", "created_at_ms", "created_by", "token_issued_at_ms", "revoked_at_ms", "revoked_by", "revoke_reason", "token_fingerprint")
    PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    GRANTS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    CREATED_BY_FIELD_NUMBER: _ClassVar[int]
    TOKEN_ISSUED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    REVOKED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    REVOKED_BY_FIELD_NUMBER: _ClassVar[int]
    REVOKE_REASON_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FINGERPRINT_FIELD_NUMBER: _ClassVar[int]
    principal_id: str
    kind: _common_pb2.PrincipalKind
    grants: _containers.RepeatedCompositeFieldContainer[Grant]
    expires_at_ms: int
    state: PrincipalState
    version: int
    created_at_ms: int
    created_by: str
    token_issued_at_ms: int
    revoked_at_ms: int
    revoked_by: str
    revoke_reason: str
    token_fingerprint: str
    def __init__(self, principal_id: _Optional[str] = ..., kind: _Optional[_Union[_common_pb2.PrincipalKind, str]] = ..., grants: _Optional[_Iterable[_Union[Grant, _Mapping]]] = ..., expires_at_ms: _Optional[int] = ..., state: _Optional[_Union[PrincipalState, str]] = ..., version: _Optional[int] = ..., created_at_ms: _Optional[int] = ..., created_by: _Optional[str] = ..., token_issued_at_ms: _Optional[int] = ..., revoked_at_ms: _Optional[int] = ..., revoked_by: _Optional[str] = ..., revoke_reason: _Optional[str] = ..., token_fingerprint: _Optional[str] = ...) -> None: ...

class PrincipalEvent(_message.Message):
    __slots__ = ("seq", "kind", "principal_id", "version", "actor_id", "at_ms", "reason", "token_fingerprint")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    ACTOR_ID_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FINGERPRINT_FIELD_NUMBER: _ClassVar[int]
    seq: int
    kind: PrincipalEventKind
    principal_id: str
    version: int
    actor_id: str
    at_ms: int
    reason: str
    token_fingerprint: str
    def __init__(self, seq: _Optional[int] = ..., kind: _Optional[_Union[PrincipalEventKind, str]] = ..., principal_id: _Optional[str] = ..., version: _Optional[int] = ..., actor_id: _Optional[str] = ..., at_ms: _Optional[int] = ..., reason: _Optional[str] = ..., token_fingerprint: _Optional[str] = ...) -> None: ...

class CreatePrincipalRequest(_message.Message):
    __slots__ = ("principal_id", "kind", "grants", "expires_at_ms")
    PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    GRANTS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    principal_id: str
    kind: _common_pb2.PrincipalKind
    grants: _containers.RepeatedCompositeFieldContainer[Grant]
    expires_at_ms: int
    def __init__(self, principal_id: _Optional[str] = ..., kind: _Optional[_Union[_common_pb2.PrincipalKind, str]] = ..., grants: _Optional[_Iterable[_Union[Grant, _Mapping]]] = ..., expires_at_ms: _Optional[int] = ...) -> None: ...

class CreatePrincipalResponse(_message.Message):
    __slots__ = ("principal", "token")
    PRINCIPAL_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    principal: Principal
    token: str
    def __init__(self, principal: _Optional[_Union[Principal, _Mapping]] = ..., token: _Optional[str] = ...) -> None: ...

class GetPrincipalRequest(_message.Message):
    __slots__ = ("principal_id",)
    PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    principal_id: str
    def __init__(self, principal_id: _Optional[str] = ...) -> None: ...

class GetPrincipalResponse(_message.Message):
    __slots__ = ("principal",)
    PRINCIPAL_FIELD_NUMBER: _ClassVar[int]
    principal: Principal
    def __init__(self, principal: _Optional[_Union[Principal, _Mapping]] = ...) -> None: ...

class ListPrincipalsRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "include_revoked")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_REVOKED_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    include_revoked: bool
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., include_revoked: bool = ...) -> None: ...

class ListPrincipalsResponse(_message.Message):
    __slots__ = ("principals", "next_page_token")
    PRINCIPALS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    principals: _containers.RepeatedCompositeFieldContainer[Principal]
    next_page_token: str
    def __init__(self, principals: _Optional[_Iterable[_Union[Principal, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RevokePrincipalRequest(_message.Message):
    __slots__ = ("principal_id", "reason", "expected_version")
    PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    principal_id: str
    reason: str
    expected_version: int
    def __init__(self, principal_id: _Optional[str] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RevokePrincipalResponse(_message.Message):
    __slots__ = ("principal",)
    PRINCIPAL_FIELD_NUMBER: _ClassVar[int]
    principal: Principal
    def __init__(self, principal: _Optional[_Union[Principal, _Mapping]] = ...) -> None: ...

class RotatePrincipalTokenRequest(_message.Message):
    __slots__ = ("principal_id", "expected_version")
    PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    principal_id: str
    expected_version: int
    def __init__(self, principal_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RotatePrincipalTokenResponse(_message.Message):
    __slots__ = ("principal", "token")
    PRINCIPAL_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    principal: Principal
    token: str
    def __init__(self, principal: _Optional[_Union[Principal, _Mapping]] = ..., token: _Optional[str] = ...) -> None: ...

class ListPrincipalHistoryRequest(_message.Message):
    __slots__ = ("principal_id", "after", "limit")
    PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    principal_id: str
    after: int
    limit: int
    def __init__(self, principal_id: _Optional[str] = ..., after: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class ListPrincipalHistoryResponse(_message.Message):
    __slots__ = ("events", "next_after", "has_more")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_AFTER_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[PrincipalEvent]
    next_after: int
    has_more: bool
    def __init__(self, events: _Optional[_Iterable[_Union[PrincipalEvent, _Mapping]]] = ..., next_after: _Optional[int] = ..., has_more: bool = ...) -> None: ...
