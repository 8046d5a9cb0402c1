from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ApprovalState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    APPROVAL_STATE_UNSPECIFIED: _ClassVar[ApprovalState]
    APPROVAL_STATE_ACTIVE: _ClassVar[ApprovalState]
    APPROVAL_STATE_CONSUMED: _ClassVar[ApprovalState]
    APPROVAL_STATE_EXPIRED: _ClassVar[ApprovalState]
APPROVAL_STATE_UNSPECIFIED: ApprovalState
APPROVAL_STATE_ACTIVE: ApprovalState
APPROVAL_STATE_CONSUMED: ApprovalState
APPROVAL_STATE_EXPIRED: ApprovalState

class Approval(_message.Message):
    __slots__ = ("approval_id", "material_digest", "approver_id", "proof_digest", "created_at_ms", "expires_at_ms", "state", "consumed_at_ms", "consumed_by_request_id", "purpose")
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    MATERIAL_DIGEST_FIELD_NUMBER: _ClassVar[int]
    APPROVER_ID_FIELD_NUMBER: _ClassVar[int]
    PROOF_DIGEST_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    CONSUMED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    CONSUMED_BY_REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    approval_id: str
    material_digest: str
    approver_id: str
    proof_digest: str
    created_at_ms: int
    expires_at_ms: int
    state: ApprovalState
    consumed_at_ms: int
    consumed_by_request_id: str
    purpose: str
    def __init__(self, approval_id: _Optional[str] = ..., material_digest: _Optional[str] = ..., approver_id: _Optional[str] = ..., proof_digest: _Optional[str] = ..., created_at_ms: _Optional[int] = ..., expires_at_ms: _Optional[int] = ..., state: _Optional[_Union[ApprovalState, str]] = ..., consumed_at_ms: _Optional[int] = ..., consumed_by_request_id: _Optional[str] = ..., purpose: _Optional[str] = ...) -> None: ...

class CreateApprovalRequest(_message.Message):
    __slots__ = ("approval_id", "material_digest", "expires_at_ms", "work_order_id", "purpose")
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    MATERIAL_DIGEST_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    approval_id: str
    material_digest: str
    expires_at_ms: int
    work_order_id: str
    purpose: str
    def __init__(self, approval_id: _Optional[str] = ..., material_digest: _Optional[str] = ..., expires_at_ms: _Optional[int] = ..., work_order_id: _Optional[str] = ..., purpose: _Optional[str] = ...) -> None: ...

class CreateApprovalResponse(_message.Message):
    __slots__ = ("approval", "replayed")
    APPROVAL_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    approval: Approval
    replayed: bool
    def __init__(self, approval: _Optional[_Union[Approval, _Mapping]] = ..., replayed: bool = ...) -> None: ...

class GetApprovalRequest(_message.Message):
    __slots__ = ("approval_id",)
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    approval_id: str
    def __init__(self, approval_id: _Optional[str] = ...) -> None: ...

class GetApprovalResponse(_message.Message):
    __slots__ = ("approval",)
    APPROVAL_FIELD_NUMBER: _ClassVar[int]
    approval: Approval
    def __init__(self, approval: _Optional[_Union[Approval, _Mapping]] = ...) -> None: ...
