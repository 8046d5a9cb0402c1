from aiws.engine.v1 import common_pb2 as _common_pb2
from aiws.engine.v1 import config_pb2 as _config_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ControlState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CONTROL_STATE_UNSPECIFIED: _ClassVar[ControlState]
    CONTROL_STATE_ACTIVE: _ClassVar[ControlState]
    CONTROL_STATE_PAUSED: _ClassVar[ControlState]
    CONTROL_STATE_CANCELING: _ClassVar[ControlState]
    CONTROL_STATE_CANCELED: _ClassVar[ControlState]

class HoldKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HOLD_KIND_UNSPECIFIED: _ClassVar[HoldKind]
    HOLD_KIND_RESTORE: _ClassVar[HoldKind]
    HOLD_KIND_CLOCK_UNCERTAINTY: _ClassVar[HoldKind]

class EpochKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EPOCH_KIND_UNSPECIFIED: _ClassVar[EpochKind]
    EPOCH_KIND_OWNERSHIP: _ClassVar[EpochKind]
    EPOCH_KIND_AUTHORITY: _ClassVar[EpochKind]
CONTROL_STATE_UNSPECIFIED: ControlState
CONTROL_STATE_ACTIVE: ControlState
CONTROL_STATE_PAUSED: ControlState
CONTROL_STATE_CANCELING: ControlState
CONTROL_STATE_CANCELED: ControlState
HOLD_KIND_UNSPECIFIED: HoldKind
HOLD_KIND_RESTORE: HoldKind
HOLD_KIND_CLOCK_UNCERTAINTY: HoldKind
EPOCH_KIND_UNSPECIFIED: EpochKind
EPOCH_KIND_OWNERSHIP: EpochKind
EPOCH_KIND_AUTHORITY: EpochKind

class Hold(_message.Message):
    __slots__ = ("kind", "work_order_id", "reason", "placed_at_ms", "placed_by")
    KIND_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    PLACED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    PLACED_BY_FIELD_NUMBER: _ClassVar[int]
    kind: HoldKind
    work_order_id: str
    reason: str
    placed_at_ms: int
    placed_by: str
    def __init__(self, kind: _Optional[_Union[HoldKind, str]] = ..., work_order_id: _Optional[str] = ..., reason: _Optional[str] = ..., placed_at_ms: _Optional[int] = ..., placed_by: _Optional[str] = ...) -> None: ...

class WorkOrder(_message.Message):
    __slots__ = ("work_order_id", "control_state", "epochs", "holds")
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    CONTROL_STATE_FIELD_NUMBER: _ClassVar[int]
    EPOCHS_FIELD_NUMBER: _ClassVar[int]
    HOLDS_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    control_state: ControlState
    epochs: _common_pb2.Epochs
    holds: _containers.RepeatedCompositeFieldContainer[Hold]
    def __init__(self, work_order_id: _Optional[str] = ..., control_state: _Optional[_Union[ControlState, str]] = ..., epochs: _Optional[_Union[_common_pb2.Epochs, _Mapping]] = ..., holds: _Optional[_Iterable[_Union[Hold, _Mapping]]] = ...) -> None: ...

class GetWorkOrderRequest(_message.Message):
    __slots__ = ("work_order_id",)
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    def __init__(self, work_order_id: _Optional[str] = ...) -> None: ...

class GetWorkOrderResponse(_message.Message):
    __slots__ = ("work_order",)
    WORK_ORDER_FIELD_NUMBER: _ClassVar[int]
    work_order: WorkOrder
    def __init__(self, work_order: _Optional[_Union[WorkOrder, _Mapping]] = ...) -> None: ...

class PauseWorkOrderRequest(_message.Message):
    __slots__ = ("work_order_id", "reason")
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    reason: str
    def __init__(self, work_order_id: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class PauseWorkOrderResponse(_message.Message):
    __slots__ = ("work_order",)
    WORK_ORDER_FIELD_NUMBER: _ClassVar[int]
    work_order: WorkOrder
    def __init__(self, work_order: _Optional[_Union[WorkOrder, _Mapping]] = ...) -> None: ...

class ResumeWorkOrderRequest(_message.Message):
    __slots__ = ("work_order_id",)
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    def __init__(self, work_order_id: _Optional[str] = ...) -> None: ...

class ResumeWorkOrderResponse(_message.Message):
    __slots__ = ("work_order",)
    WORK_ORDER_FIELD_NUMBER: _ClassVar[int]
    work_order: WorkOrder
    def __init__(self, work_order: _Optional[_Union[WorkOrder, _Mapping]] = ...) -> None: ...

class CancelWorkOrderRequest(_message.Message):
    __slots__ = ("work_order_id", "reason")
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    reason: str
    def __init__(self, work_order_id: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class CancelWorkOrderResponse(_message.Message):
    __slots__ = ("work_order",)
    WORK_ORDER_FIELD_NUMBER: _ClassVar[int]
    work_order: WorkOrder
    def __init__(self, work_order: _Optional[_Union[WorkOrder, _Mapping]] = ...) -> None: ...

class PlaceHoldRequest(_message.Message):
    __slots__ = ("kind", "work_order_id", "reason")
    KIND_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    kind: HoldKind
    work_order_id: str
    reason: str
    def __init__(self, kind: _Optional[_Union[HoldKind, str]] = ..., work_order_id: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class PlaceHoldResponse(_message.Message):
    __slots__ = ("hold",)
    HOLD_FIELD_NUMBER: _ClassVar[int]
    hold: Hold
    def __init__(self, hold: _Optional[_Union[Hold, _Mapping]] = ...) -> None: ...

class ClearHoldRequest(_message.Message):
    __slots__ = ("kind", "work_order_id")
    KIND_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    kind: HoldKind
    work_order_id: str
    def __init__(self, kind: _Optional[_Union[HoldKind, str]] = ..., work_order_id: _Optional[str] = ...) -> None: ...

class ClearHoldResponse(_message.Message):
    __slots__ = ("hold",)
    HOLD_FIELD_NUMBER: _ClassVar[int]
    hold: Hold
    def __init__(self, hold: _Optional[_Union[Hold, _Mapping]] = ...) -> None: ...

class ListHoldsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListHoldsResponse(_message.Message):
    __slots__ = ("holds",)
    HOLDS_FIELD_NUMBER: _ClassVar[int]
    holds: _containers.RepeatedCompositeFieldContainer[Hold]
    def __init__(self, holds: _Optional[_Iterable[_Union[Hold, _Mapping]]] = ...) -> None: ...

class AdvanceEpochRequest(_message.Message):
    __slots__ = ("work_order_id", "kind", "expected_epoch")
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_EPOCH_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    kind: EpochKind
    expected_epoch: int
    def __init__(self, work_order_id: _Optional[str] = ..., kind: _Optional[_Union[EpochKind, str]] = ..., expected_epoch: _Optional[int] = ...) -> None: ...

class AdvanceEpochResponse(_message.Message):
    __slots__ = ("epochs",)
    EPOCHS_FIELD_NUMBER: _ClassVar[int]
    epochs: _common_pb2.Epochs
    def __init__(self, epochs: _Optional[_Union[_common_pb2.Epochs, _Mapping]] = ...) -> None: ...
