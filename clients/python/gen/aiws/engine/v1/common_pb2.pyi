from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class PrincipalKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PRINCIPAL_KIND_UNSPECIFIED: _ClassVar[PrincipalKind]
    PRINCIPAL_KIND_HUMAN: _ClassVar[PrincipalKind]
    PRINCIPAL_KIND_AGENT: _ClassVar[PrincipalKind]
    PRINCIPAL_KIND_SERVICE: _ClassVar[PrincipalKind]

class EffectOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EFFECT_OUTCOME_UNSPECIFIED: _ClassVar[EffectOutcome]
    EFFECT_OUTCOME_APPLIED: _ClassVar[EffectOutcome]
    EFFECT_OUTCOME_NOT_APPLIED: _ClassVar[EffectOutcome]
    EFFECT_OUTCOME_UNCERTAIN: _ClassVar[EffectOutcome]
PRINCIPAL_KIND_UNSPECIFIED: PrincipalKind
PRINCIPAL_KIND_HUMAN: PrincipalKind
PRINCIPAL_KIND_AGENT: PrincipalKind
PRINCIPAL_KIND_SERVICE: PrincipalKind
EFFECT_OUTCOME_UNSPECIFIED: EffectOutcome
EFFECT_OUTCOME_APPLIED: EffectOutcome
EFFECT_OUTCOME_NOT_APPLIED: EffectOutcome
EFFECT_OUTCOME_UNCERTAIN: EffectOutcome

class WorkflowRef(_message.Message):
    __slots__ = ("work_order_id", "run_id")
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    run_id: str
    def __init__(self, work_order_id: _Optional[str] = ..., run_id: _Optional[str] = ...) -> None: ...

class Epochs(_message.Message):
    __slots__ = ("installation_id", "ownership_epoch", "authority_epoch")
    INSTALLATION_ID_FIELD_NUMBER: _ClassVar[int]
    OWNERSHIP_EPOCH_FIELD_NUMBER: _ClassVar[int]
    AUTHORITY_EPOCH_FIELD_NUMBER: _ClassVar[int]
    installation_id: str
    ownership_epoch: int
    authority_epoch: int
    def __init__(self, installation_id: _Optional[str] = ..., ownership_epoch: _Optional[int] = ..., authority_epoch: _Optional[int] = ...) -> None: ...
