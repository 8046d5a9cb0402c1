from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ReloadConfigRequest(_message.Message):
    __slots__ = ("wait_ms",)
    WAIT_MS_FIELD_NUMBER: _ClassVar[int]
    wait_ms: int
    def __init__(self, wait_ms: _Optional[int] = ...) -> None: ...

class ConfigProcess(_message.Message):
    __slots__ = ("process_id", "version", "applied_at_ms", "answering")
    PROCESS_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    APPLIED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    ANSWERING_FIELD_NUMBER: _ClassVar[int]
    process_id: str
    version: str
    applied_at_ms: int
    answering: bool
    def __init__(self, process_id: _Optional[str] = ..., version: _Optional[str] = ..., applied_at_ms: _Optional[int] = ..., answering: bool = ...) -> None: ...

class ConfigReload(_message.Message):
    __slots__ = ("seq", "previous_version", "version", "reloaded_by", "reloaded_at_ms", "changed", "restart_required")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_VERSION_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    RELOADED_BY_FIELD_NUMBER: _ClassVar[int]
    RELOADED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    CHANGED_FIELD_NUMBER: _ClassVar[int]
    RESTART_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    seq: int
    previous_version: str
    version: str
    reloaded_by: str
    reloaded_at_ms: int
    changed: _containers.RepeatedScalarFieldContainer[str]
    restart_required: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seq: _Optional[int] = ..., previous_version: _Optional[str] = ..., version: _Optional[str] = ..., reloaded_by: _Optional[str] = ..., reloaded_at_ms: _Optional[int] = ..., changed: _Optional[_Iterable[str]] = ..., restart_required: _Optional[_Iterable[str]] = ...) -> None: ...

class ReloadConfigResponse(_message.Message):
    __slots__ = ("version", "previous_version", "changed", "restart_required", "processes", "converged")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_VERSION_FIELD_NUMBER: _ClassVar[int]
    CHANGED_FIELD_NUMBER: _ClassVar[int]
    RESTART_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    PROCESSES_FIELD_NUMBER: _ClassVar[int]
    CONVERGED_FIELD_NUMBER: _ClassVar[int]
    version: str
    previous_version: str
    changed: _containers.RepeatedScalarFieldContainer[str]
    restart_required: _containers.RepeatedScalarFieldContainer[str]
    processes: _containers.RepeatedCompositeFieldContainer[ConfigProcess]
    converged: bool
    def __init__(self, version: _Optional[str] = ..., previous_version: _Optional[str] = ..., changed: _Optional[_Iterable[str]] = ..., restart_required: _Optional[_Iterable[str]] = ..., processes: _Optional[_Iterable[_Union[ConfigProcess, _Mapping]]] = ..., converged: bool = ...) -> None: ...

class GetConfigStatusRequest(_message.Message):
    __slots__ = ("reload_limit",)
    RELOAD_LIMIT_FIELD_NUMBER: _ClassVar[int]
    reload_limit: int
    def __init__(self, reload_limit: _Optional[int] = ...) -> None: ...

class GetConfigStatusResponse(_message.Message):
    __slots__ = ("version", "processes", "reloads")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    PROCESSES_FIELD_NUMBER: _ClassVar[int]
    RELOADS_FIELD_NUMBER: _ClassVar[int]
    version: str
    processes: _containers.RepeatedCompositeFieldContainer[ConfigProcess]
    reloads: _containers.RepeatedCompositeFieldContainer[ConfigReload]
    def __init__(self, version: _Optional[str] = ..., processes: _Optional[_Iterable[_Union[ConfigProcess, _Mapping]]] = ..., reloads: _Optional[_Iterable[_Union[ConfigReload, _Mapping]]] = ...) -> None: ...
