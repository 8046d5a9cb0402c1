from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

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

class DefinitionWarningKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DEFINITION_WARNING_KIND_UNSPECIFIED: _ClassVar[DefinitionWarningKind]
    DEFINITION_WARNING_KIND_EFFECTS_UNDECLARED: _ClassVar[DefinitionWarningKind]
PRINCIPAL_KIND_UNSPECIFIED: PrincipalKind
PRINCIPAL_KIND_HUMAN: PrincipalKind
PRINCIPAL_KIND_AGENT: PrincipalKind
PRINCIPAL_KIND_SERVICE: PrincipalKind
EFFECT_OUTCOME_UNSPECIFIED: EffectOutcome
EFFECT_OUTCOME_APPLIED: EffectOutcome
EFFECT_OUTCOME_NOT_APPLIED: EffectOutcome
EFFECT_OUTCOME_UNCERTAIN: EffectOutcome
DEFINITION_WARNING_KIND_UNSPECIFIED: DefinitionWarningKind
DEFINITION_WARNING_KIND_EFFECTS_UNDECLARED: DefinitionWarningKind

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

class DefinitionWarning(_message.Message):
    __slots__ = ("kind", "node_ids", "node_count", "message")
    KIND_FIELD_NUMBER: _ClassVar[int]
    NODE_IDS_FIELD_NUMBER: _ClassVar[int]
    NODE_COUNT_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    kind: DefinitionWarningKind
    node_ids: _containers.RepeatedScalarFieldContainer[str]
    node_count: int
    message: str
    def __init__(self, kind: _Optional[_Union[DefinitionWarningKind, str]] = ..., node_ids: _Optional[_Iterable[str]] = ..., node_count: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...
