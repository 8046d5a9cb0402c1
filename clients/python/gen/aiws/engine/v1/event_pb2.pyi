from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class EventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_KIND_UNSPECIFIED: _ClassVar[EventKind]
    EVENT_KIND_RUN_STARTED: _ClassVar[EventKind]
    EVENT_KIND_NODE_DISPATCHED: _ClassVar[EventKind]
    EVENT_KIND_NODE_COMPLETED: _ClassVar[EventKind]
    EVENT_KIND_NODE_FAILED: _ClassVar[EventKind]
    EVENT_KIND_NODE_EXPANDED: _ClassVar[EventKind]
    EVENT_KIND_RUN_COMPLETED: _ClassVar[EventKind]
    EVENT_KIND_RUN_FAILED: _ClassVar[EventKind]
    EVENT_KIND_RUN_CANCELLED: _ClassVar[EventKind]
    EVENT_KIND_RUN_REVISED: _ClassVar[EventKind]
    EVENT_KIND_NODE_BLOCKED: _ClassVar[EventKind]
    EVENT_KIND_NODE_WAITING: _ClassVar[EventKind]
    EVENT_KIND_WAIT_SATISFIED: _ClassVar[EventKind]
    EVENT_KIND_WAIT_EXPIRED: _ClassVar[EventKind]
    EVENT_KIND_NODE_RECONCILED: _ClassVar[EventKind]
    EVENT_KIND_DISPATCH_REFUSED: _ClassVar[EventKind]
    EVENT_KIND_RUN_REPLY: _ClassVar[EventKind]
    EVENT_KIND_NODE_UNCLAIMED: _ClassVar[EventKind]
    EVENT_KIND_RUN_RESUMED: _ClassVar[EventKind]
    EVENT_KIND_NODE_RETURNED: _ClassVar[EventKind]
    EVENT_KIND_RUN_ENDING: _ClassVar[EventKind]
EVENT_KIND_UNSPECIFIED: EventKind
EVENT_KIND_RUN_STARTED: EventKind
EVENT_KIND_NODE_DISPATCHED: EventKind
EVENT_KIND_NODE_COMPLETED: EventKind
EVENT_KIND_NODE_FAILED: EventKind
EVENT_KIND_NODE_EXPANDED: EventKind
EVENT_KIND_RUN_COMPLETED: EventKind
EVENT_KIND_RUN_FAILED: EventKind
EVENT_KIND_RUN_CANCELLED: EventKind
EVENT_KIND_RUN_REVISED: EventKind
EVENT_KIND_NODE_BLOCKED: EventKind
EVENT_KIND_NODE_WAITING: EventKind
EVENT_KIND_WAIT_SATISFIED: EventKind
EVENT_KIND_WAIT_EXPIRED: EventKind
EVENT_KIND_NODE_RECONCILED: EventKind
EVENT_KIND_DISPATCH_REFUSED: EventKind
EVENT_KIND_RUN_REPLY: EventKind
EVENT_KIND_NODE_UNCLAIMED: EventKind
EVENT_KIND_RUN_RESUMED: EventKind
EVENT_KIND_NODE_RETURNED: EventKind
EVENT_KIND_RUN_ENDING: EventKind

class Event(_message.Message):
    __slots__ = ("seq", "kind", "run_id", "node_uid", "at_ms", "payload_json")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    NODE_UID_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_JSON_FIELD_NUMBER: _ClassVar[int]
    seq: int
    kind: EventKind
    run_id: str
    node_uid: str
    at_ms: int
    payload_json: str
    def __init__(self, seq: _Optional[int] = ..., kind: _Optional[_Union[EventKind, str]] = ..., run_id: _Optional[str] = ..., node_uid: _Optional[str] = ..., at_ms: _Optional[int] = ..., payload_json: _Optional[str] = ...) -> None: ...

class ListEventsRequest(_message.Message):
    __slots__ = ("after", "limit", "run_id", "subscriber")
    AFTER_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIBER_FIELD_NUMBER: _ClassVar[int]
    after: int
    limit: int
    run_id: str
    subscriber: str
    def __init__(self, after: _Optional[int] = ..., limit: _Optional[int] = ..., run_id: _Optional[str] = ..., subscriber: _Optional[str] = ...) -> None: ...

class ListEventsResponse(_message.Message):
    __slots__ = ("events", "next_after")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_AFTER_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    next_after: int
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., next_after: _Optional[int] = ...) -> None: ...

class StreamEventsRequest(_message.Message):
    __slots__ = ("after", "subscriber", "run_id")
    AFTER_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIBER_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    after: int
    subscriber: str
    run_id: str
    def __init__(self, after: _Optional[int] = ..., subscriber: _Optional[str] = ..., run_id: _Optional[str] = ...) -> None: ...

class StreamEventsResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: Event
    def __init__(self, event: _Optional[_Union[Event, _Mapping]] = ...) -> None: ...

class AckEventsRequest(_message.Message):
    __slots__ = ("subscriber", "cursor")
    SUBSCRIBER_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    subscriber: str
    cursor: int
    def __init__(self, subscriber: _Optional[str] = ..., cursor: _Optional[int] = ...) -> None: ...

class AckEventsResponse(_message.Message):
    __slots__ = ("cursor",)
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    cursor: int
    def __init__(self, cursor: _Optional[int] = ...) -> None: ...
