"""OpenTelemetry traces: a run is one trace, each node dispatch and attempt a span.

Off unless the standard ``OTEL_*`` environment asks for it (see :func:`from_env`); when
off, nothing of the OpenTelemetry SDK is imported and the store's hot path does no span
work at all. When on, the server owns one SDK ``TracerProvider`` (its resource from
``OTEL_SERVICE_NAME`` and ``OTEL_RESOURCE_ATTRIBUTES``, its sampler from
``OTEL_TRACES_SAMPLER``) with a ``BatchSpanProcessor`` and the OTLP gRPC exporter (which
reads ``OTEL_EXPORTER_OTLP_*``). It is not installed as the process's global provider.

A run's spans outlive the process that opened them (a run lasts across restarts and any
server process may settle an attempt), so they are not SDK ``Span`` objects: their ids
and start times are stored (:mod:`praxis.store.runtime.traces`) and each span is handed to
the processor as a finished ``ReadableSpan`` when it ends, with its recorded start time.
Span ids are derived from the trace id and a stable key (:func:`derived_span_id`), so
every process computes the same id for the same node or attempt.
"""

from __future__ import annotations

import contextvars
import hashlib
import logging
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("praxis.observability.tracing")

SCOPE = "praxis"
DEFAULT_SERVICE_NAME = "praxis"
_TRACEPARENT = re.compile(r"^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$")
MAX_TRACESTATE = 512  # W3C: at most 32 list members and 512 characters kept
MAX_TRACESTATE_MEMBERS = 32
LONG_TRACESTATE_MEMBER = 128  # W3C: members this long go first when truncating
EXCLUDED_ENV = "OTEL_PYTHON_GRPC_EXCLUDED_SERVICES"
DEFAULT_EXCLUDED = frozenset(
    {
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
    }
)
"""Services whose calls get no span unless :data:`EXCLUDED_ENV` says otherwise."""
CALLER_TRACED_ONLY = frozenset({"aiws.engine.v1.TaskService"})
"""Services whose calls get a span only within a caller's trace (a ``traceparent``): the
worker protocol, whose claim, settle and heartbeat loop would otherwise begin one trace
per call. The attempt's own span is in the run's trace either way."""
# The server's error codes of the OpenTelemetry RPC conventions: a server span's status is
# ERROR for these; a refusal of the caller's request (NOT_FOUND, INVALID_ARGUMENT, ...) is
# recorded in rpc.grpc.status_code and praxis.error_reason with the status left unset.
SERVER_ERRORS = frozenset(
    {"UNKNOWN", "DEADLINE_EXCEEDED", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS"}
)
_CODES = {
    "OK": 0, "CANCELLED": 1, "UNKNOWN": 2, "INVALID_ARGUMENT": 3, "DEADLINE_EXCEEDED": 4,
    "NOT_FOUND": 5, "ALREADY_EXISTS": 6, "PERMISSION_DENIED": 7, "RESOURCE_EXHAUSTED": 8,
    "FAILED_PRECONDITION": 9, "ABORTED": 10, "OUT_OF_RANGE": 11, "UNIMPLEMENTED": 12,
    "INTERNAL": 13, "UNAVAILABLE": 14, "DATA_LOSS": 15, "UNAUTHENTICATED": 16,
}  # fmt: skip


class TracingConfigError(ValueError):
    """The ``OTEL_*`` environment asks for something this server cannot do."""


@dataclass(frozen=True)
class TraceContext:
    """A W3C trace context: ids as integers, flags as the low byte."""

    trace_id: int
    span_id: int
    flags: int = 1
    state: str = ""

    @property
    def sampled(self) -> bool:
        """The W3C ``sampled`` flag."""
        return bool(self.flags & 1)

    def traceparent(self) -> str:
        """The ``traceparent`` header value."""
        return format_traceparent(self.trace_id, self.span_id, self.flags)


def parse_traceparent(value: str, state: str = "") -> TraceContext | None:
    """A ``traceparent`` header value, or ``None`` when it is absent or invalid.

    Follows the W3C rules: version ``ff`` and all-zero ids are invalid; a future
    version is read by its first four fields.
    """
    match = _TRACEPARENT.match(value.strip().lower())
    if match is None:
        return None
    version, trace_hex, span_hex, flags_hex, rest = match.groups()
    if version == "ff" or (version == "00" and rest):
        return None
    trace_id, span_id = int(trace_hex, 16), int(span_hex, 16)
    if trace_id == 0 or span_id == 0:
        return None
    return TraceContext(trace_id, span_id, int(flags_hex, 16), bounded_tracestate(state))


def bounded_tracestate(state: str) -> str:
    """``tracestate`` within the W3C limits, truncated by whole list members (never in the
    middle of one): at most 32 members; past 512 characters, members longer than 128
    characters go first, then members from the end."""
    members = [member.strip() for member in state.split(",") if member.strip()]
    members = members[:MAX_TRACESTATE_MEMBERS]

    def size(kept: list[str]) -> int:
        return len(",".join(kept))

    if size(members) > MAX_TRACESTATE:
        members = [m for m in members if len(m) <= LONG_TRACESTATE_MEMBER]
    while members and size(members) > MAX_TRACESTATE:
        members.pop()
    return ",".join(members)


def format_traceparent(trace_id: int, span_id: int, flags: int) -> str:
    """``00-<trace id>-<span id>-<flags>``."""
    return f"00-{trace_id:032x}-{span_id:016x}-{flags & 0xFF:02x}"


def derived_span_id(trace_id: int, key: str) -> int:
    """The span id of ``key`` (``run``, ``node:<uid>``, ``attempt:<id>``) in a trace."""
    digest = hashlib.sha256(f"{trace_id:032x}\x00{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") or 1


def metadata_context(metadata: Any) -> TraceContext | None:
    """The caller's trace context from gRPC metadata (``traceparent``, ``tracestate``)."""
    parent, state = "", ""
    for key, value in metadata or ():
        if key == "traceparent" and isinstance(value, str):
            parent = value
        elif key == "tracestate" and isinstance(value, str):
            state = value
    return parse_traceparent(parent, state) if parent else None


_rpc: contextvars.ContextVar[TraceContext | None] = contextvars.ContextVar(
    "praxis_rpc_span", default=None
)


def current_rpc() -> TraceContext | None:
    """The span of the RPC being handled (tracing on), or ``None``."""
    return _rpc.get()


def enter_rpc(span: RpcSpan) -> contextvars.Token[TraceContext | None]:
    """Makes ``span`` the current RPC span (see :func:`leave_rpc`)."""
    return _rpc.set(span.context)


def leave_rpc(token: contextvars.Token[TraceContext | None]) -> None:
    """Ends what :func:`enter_rpc` began, in the same thread."""
    _rpc.reset(token)


def excluded_services(environ: Mapping[str, str]) -> frozenset[str]:
    """The services whose calls get no span: ``OTEL_PYTHON_GRPC_EXCLUDED_SERVICES``
    (comma-separated full names; empty: none) or, unset, health and reflection."""
    value = environ.get(EXCLUDED_ENV)
    if value is None:
        return DEFAULT_EXCLUDED
    return frozenset(name.strip() for name in value.split(",") if name.strip())


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() == "true"


def wanted(environ: Mapping[str, str]) -> bool:
    """Whether the environment turns tracing on.

    On when ``OTEL_SDK_DISABLED`` is not ``true`` and either ``OTEL_TRACES_EXPORTER``
    names ``otlp`` or (with ``OTEL_TRACES_EXPORTER`` unset) an OTLP endpoint is set
    (``OTEL_EXPORTER_OTLP_ENDPOINT`` or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``).

    Raises:
        TracingConfigError: An exporter other than ``otlp`` or ``none`` is named.
    """
    if _truthy(environ.get("OTEL_SDK_DISABLED")):
        return False
    names = [
        name.strip().lower()
        for name in environ.get("OTEL_TRACES_EXPORTER", "").split(",")
        if name.strip()
    ]
    unknown = sorted(set(names) - {"otlp", "none"})
    if unknown:
        raise TracingConfigError(
            f"OTEL_TRACES_EXPORTER names {unknown}: this server exports traces with otlp only"
        )
    if names:
        return "otlp" in names
    return bool(
        environ.get("OTEL_EXPORTER_OTLP_ENDPOINT")
        or environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    )


def from_env(environ: Mapping[str, str]) -> Exporter | None:
    """The span exporter the environment configures, or ``None`` (tracing off).

    Raises:
        TracingConfigError: The environment asks for an exporter or protocol this server
            does not ship (only OTLP over gRPC).
    """
    if not wanted(environ):
        return None
    protocol = (
        environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
        or environ.get("OTEL_EXPORTER_OTLP_PROTOCOL")
        or "grpc"
    )
    if protocol.strip().lower() != "grpc":
        raise TracingConfigError(
            f"OTEL_EXPORTER_OTLP_PROTOCOL {protocol!r}: this server exports OTLP over grpc only"
        )
    return Exporter(environ)


class Exporter:
    """The SDK pieces: provider (resource, sampler, ids), batch processor, OTLP exporter."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        # Imported here: with tracing off the SDK is never loaded.
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import SERVICE_NAME, Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
        from opentelemetry.sdk.util.instrumentation import InstrumentationScope

        attributes = {} if environ.get("OTEL_SERVICE_NAME") else {SERVICE_NAME: "praxis"}
        self.provider = TracerProvider(resource=Resource.create(attributes))
        self.processor = BatchSpanProcessor(OTLPSpanExporter())
        self.provider.add_span_processor(self.processor)
        self.scope = InstrumentationScope(SCOPE)

    def new_trace_id(self) -> int:
        """A random trace id (the SDK's id generator)."""
        return int(self.provider.id_generator.generate_trace_id())

    def sample(self, parent: TraceContext | None, trace_id: int) -> bool:
        """The configured sampler's decision for a new run span (parent-based by default)."""
        from opentelemetry import trace
        from opentelemetry.sdk.trace.sampling import Decision
        from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags

        context = None
        if parent is not None:
            remote = SpanContext(
                parent.trace_id, parent.span_id, True, TraceFlags(parent.flags & 0xFF)
            )
            context = trace.set_span_in_context(NonRecordingSpan(remote))
        result = self.provider.sampler.should_sample(context, trace_id, "praxis.run")
        return result.decision is Decision.RECORD_AND_SAMPLE

    def export(self, span: SpanRecord) -> None:
        """Hands a finished span to the batch processor (exported in the background)."""
        from opentelemetry.sdk.trace import ReadableSpan
        from opentelemetry.trace import SpanContext, SpanKind, Status, StatusCode, TraceFlags
        from opentelemetry.trace.span import TraceState

        state = TraceState.from_header([span.trace_state]) if span.trace_state else None
        flags = TraceFlags(span.flags & 0xFF)
        context = SpanContext(span.trace_id, span.span_id, False, flags, state)
        parent = None
        if span.parent_span_id:
            parent = SpanContext(
                span.trace_id, span.parent_span_id, span.remote_parent, flags, state
            )
        status = Status(StatusCode.UNSET)
        if span.error is not None:
            status = Status(StatusCode.ERROR, span.error or None)
        readable = ReadableSpan(
            name=span.name,
            context=context,
            parent=parent,
            resource=self.provider.resource,
            attributes=dict(span.attributes),
            kind=SpanKind.SERVER if span.server else SpanKind.INTERNAL,
            status=status,
            start_time=span.start_ns or span.start_ms * 1_000_000,
            end_time=span.end_ns or max(span.end_ms, span.start_ms) * 1_000_000,
            instrumentation_scope=self.scope,
        )
        self.processor.on_end(readable)

    def flush(self, timeout_ms: int = 5_000) -> bool:
        """Exports what is queued now."""
        return bool(self.processor.force_flush(timeout_ms))

    def shutdown(self) -> None:
        """Exports what is queued and stops the processor's thread."""
        self.provider.shutdown()


class RpcSpan:
    """One call's span while it runs: its context (what log lines and a started run see)."""

    __slots__ = ("context", "name", "parent", "started_ns")

    def __init__(
        self, name: str, context: TraceContext, parent: TraceContext | None, started_ns: int
    ) -> None:
        self.name = name
        self.context = context
        self.parent = parent
        self.started_ns = started_ns


class RpcSpans:
    """Starts and ends the SERVER span of each RPC (OpenTelemetry RPC conventions).

    A span is named ``package.Service/Method`` and carries ``rpc.system`` (``grpc``),
    ``rpc.service``, ``rpc.method`` and, at its end, ``rpc.grpc.status_code`` (and
    ``praxis.error_reason``, the ``ErrorInfo`` reason of a refusal); its parent is the
    caller's ``traceparent`` (a new trace otherwise), sampled by the server's sampler.

    A call's span is handed to the batch processor as a finished ``ReadableSpan`` when the
    call ends, like the run's spans: no SDK ``Span`` object (its locks, attribute
    validation and context plumbing cost more than the call's own work on a fast RPC).
    With the default sampler (``parentbased_always_on``) the decision is the caller's
    sampled flag, or sampled for a new trace; another sampler is asked for each call.
    """

    def __init__(self, exporter: Exporter, excluded: frozenset[str] = DEFAULT_EXCLUDED) -> None:
        from opentelemetry.sdk.trace.sampling import ALWAYS_ON, ParentBased

        self._exporter = exporter
        self._excluded = excluded
        self._ids = exporter.provider.id_generator
        default = ParentBased(ALWAYS_ON)
        self._follow_parent = exporter.provider.sampler.get_description() == _describe(default)

    def traces(self, service: str) -> bool:
        """Whether calls of ``service`` get a span."""
        return service not in self._excluded

    def start(self, service: str, method: str, metadata: Any) -> RpcSpan:
        """Starts the span of a call (its caller's trace context read from ``metadata``)."""
        started = time.time_ns()
        caller = metadata_context(metadata)
        if caller is not None:
            trace_id, flags, state = caller.trace_id, caller.flags, caller.state
        else:
            trace_id, flags, state = self._ids.generate_trace_id(), 0, ""
        if caller is None and service in CALLER_TRACED_ONLY:
            sampled = False
        elif self._follow_parent:
            sampled = caller.sampled if caller is not None else True
        else:
            sampled = self._exporter.sample(caller, trace_id)
        context = TraceContext(
            trace_id, self._ids.generate_span_id(), (flags & ~1) | int(sampled), state
        )
        return RpcSpan(f"{service}/{method}", context, caller, started)

    def end(self, call: RpcSpan, code: str, trailing: Any = None) -> None:
        """Ends the span of a call that ended with status ``code`` (a name)."""
        if not call.context.sampled:
            return
        service, _, method = call.name.rpartition("/")
        attributes: list[tuple[str, str | int | bool]] = [
            ("rpc.system", "grpc"),
            ("rpc.service", service),
            ("rpc.method", method),
            ("rpc.grpc.status_code", _CODES.get(code, 2)),
        ]
        reason = error_reason(trailing) if code != "OK" else ""
        if reason:
            attributes.append(("praxis.error_reason", reason))
        context, parent = call.context, call.parent
        self._exporter.export(
            SpanRecord(
                name=call.name,
                trace_id=context.trace_id,
                span_id=context.span_id,
                parent_span_id=parent.span_id if parent is not None else 0,
                flags=context.flags,
                start_ms=0,
                end_ms=0,
                attributes=tuple(attributes),
                error=code if code in SERVER_ERRORS else None,
                trace_state=context.state,
                remote_parent=parent is not None,
                server=True,
                start_ns=call.started_ns,
                end_ns=time.time_ns(),
            )
        )


def _describe(sampler: Any) -> str:
    """A sampler's description (the SDK leaves ``ParentBased``'s untyped)."""
    return str(sampler.get_description())


def error_reason(trailing: Any) -> str:
    """The ``google.rpc.ErrorInfo`` reason in a call's trailing metadata, or ''."""
    for key, value in trailing or ():
        if key != "grpc-status-details-bin" or not isinstance(value, bytes):
            continue
        from google.rpc import error_details_pb2, status_pb2

        status = status_pb2.Status()
        try:
            status.ParseFromString(value)
        except Exception:  # not a Status: no reason
            return ""
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                return str(info.reason)
    return ""


@dataclass(frozen=True)
class SpanRecord:
    """One finished span, as :meth:`Exporter.export` takes it."""

    name: str
    trace_id: int
    span_id: int
    parent_span_id: int
    flags: int
    start_ms: int
    end_ms: int
    attributes: tuple[tuple[str, str | int | bool], ...] = ()
    error: str | None = None
    """``None``: status unset; a string (possibly empty): status ERROR with it."""
    trace_state: str = ""
    remote_parent: bool = False
    server: bool = False
    """A SERVER span (an RPC's); INTERNAL otherwise."""
    start_ns: int = 0
    end_ns: int = 0
    """Nanosecond times (an RPC's, from the system clock), used instead of the ``*_ms``."""
