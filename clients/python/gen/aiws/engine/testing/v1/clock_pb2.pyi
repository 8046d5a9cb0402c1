from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class SetTimeRequest(_message.Message):
    __slots__ = ("now_ms",)
    NOW_MS_FIELD_NUMBER: _ClassVar[int]
    now_ms: int
    def __init__(self, now_ms: _Optional[int] = ...) -> None: ...

class SetTimeResponse(_message.Message):
    __slots__ = ("now_ms",)
    NOW_MS_FIELD_NUMBER: _ClassVar[int]
    now_ms: int
    def __init__(self, now_ms: _Optional[int] = ...) -> None: ...

class AdvanceRequest(_message.Message):
    __slots__ = ("by_ms",)
    BY_MS_FIELD_NUMBER: _ClassVar[int]
    by_ms: int
    def __init__(self, by_ms: _Optional[int] = ...) -> None: ...

class AdvanceResponse(_message.Message):
    __slots__ = ("now_ms",)
    NOW_MS_FIELD_NUMBER: _ClassVar[int]
    now_ms: int
    def __init__(self, now_ms: _Optional[int] = ...) -> None: ...
