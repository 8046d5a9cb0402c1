from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DeliveryState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DELIVERY_STATE_UNSPECIFIED: _ClassVar[DeliveryState]
    DELIVERY_STATE_PENDING: _ClassVar[DeliveryState]
    DELIVERY_STATE_FAILED: _ClassVar[DeliveryState]
    DELIVERY_STATE_DELIVERED: _ClassVar[DeliveryState]
    DELIVERY_STATE_DEAD: _ClassVar[DeliveryState]
DELIVERY_STATE_UNSPECIFIED: DeliveryState
DELIVERY_STATE_PENDING: DeliveryState
DELIVERY_STATE_FAILED: DeliveryState
DELIVERY_STATE_DELIVERED: DeliveryState
DELIVERY_STATE_DEAD: DeliveryState

class Delivery(_message.Message):
    __slots__ = ("delivery_id", "run_id", "destination", "event_type", "state", "attempts", "next_attempt_at_ms", "last_error", "last_status", "created_at_ms", "delivered_at_ms")
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    DESTINATION_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_ATTEMPT_AT_MS_FIELD_NUMBER: _ClassVar[int]
    LAST_ERROR_FIELD_NUMBER: _ClassVar[int]
    LAST_STATUS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    DELIVERED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    delivery_id: str
    run_id: str
    destination: str
    event_type: str
    state: DeliveryState
    attempts: int
    next_attempt_at_ms: int
    last_error: str
    last_status: int
    created_at_ms: int
    delivered_at_ms: int
    def __init__(self, delivery_id: _Optional[str] = ..., run_id: _Optional[str] = ..., destination: _Optional[str] = ..., event_type: _Optional[str] = ..., state: _Optional[_Union[DeliveryState, str]] = ..., attempts: _Optional[int] = ..., next_attempt_at_ms: _Optional[int] = ..., last_error: _Optional[str] = ..., last_status: _Optional[int] = ..., created_at_ms: _Optional[int] = ..., delivered_at_ms: _Optional[int] = ...) -> None: ...

class ListDeliveriesRequest(_message.Message):
    __slots__ = ("state", "run_id", "destination", "page_size", "page_token")
    STATE_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    DESTINATION_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    state: DeliveryState
    run_id: str
    destination: str
    page_size: int
    page_token: str
    def __init__(self, state: _Optional[_Union[DeliveryState, str]] = ..., run_id: _Optional[str] = ..., destination: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListDeliveriesResponse(_message.Message):
    __slots__ = ("deliveries", "next_page_token", "pending", "failed", "dead")
    DELIVERIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    DEAD_FIELD_NUMBER: _ClassVar[int]
    deliveries: _containers.RepeatedCompositeFieldContainer[Delivery]
    next_page_token: str
    pending: int
    failed: int
    dead: int
    def __init__(self, deliveries: _Optional[_Iterable[_Union[Delivery, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., pending: _Optional[int] = ..., failed: _Optional[int] = ..., dead: _Optional[int] = ...) -> None: ...

class RedeliverDeliveryRequest(_message.Message):
    __slots__ = ("delivery_id",)
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    delivery_id: str
    def __init__(self, delivery_id: _Optional[str] = ...) -> None: ...

class RedeliverDeliveryResponse(_message.Message):
    __slots__ = ("delivery",)
    DELIVERY_FIELD_NUMBER: _ClassVar[int]
    delivery: Delivery
    def __init__(self, delivery: _Optional[_Union[Delivery, _Mapping]] = ...) -> None: ...
