"""OpenTelemetry traces: a run is one trace, each node dispatch and attempt a span.

Off unless the standard ``OTEL_*`` environment asks for it (see :func:`from_env`); when
off, nothing of the OpenTelemetry SDK is imported and the store's hot path does no span
work at all. When on, the server owns one SDK ``TracerProvider`` (its resource from
``OTEL_SERVICE_NAME`` and ``OTEL_RESOURCE_ATTRIBUTES``, its sampler from
``OTEL_TRACES_SAMPLER``) with a ``BatchSpanProcessor`` and the OTLP gRPC exporter (which
reads ``OTEL_EXPORTER_OTLP_*``). It is not installed as the process's global provider.

A run's spans outlive the process that opened them (a run lasts across restarts and any
server process may settle an attempt), so they are not SDK ``Span`` objects: their ids
and start times are stored (:mod:`praxis.store.run_traces`) and each span is handed to
the processor as a finished ``ReadableSpan`` when it ends, with its recorded start time.
Span ids are derived from the trace id and a stable key (:func:`derived_span_id`), so
every process computes the same id for the same node or attempt.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("praxis.tracing")

SCOPE = "praxis"
DEFAULT_SERVICE_NAME = "praxis"
_TRACEPARENT = re.compile(r"^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$")
MAX_TRACESTATE = 512  # W3C: 32 list members; a longer header is dropped, not stored


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
    return TraceContext(trace_id, span_id, int(flags_hex, 16), state[:MAX_TRACESTATE])


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
            kind=SpanKind.INTERNAL,
            status=status,
            start_time=span.start_ms * 1_000_000,
            end_time=max(span.end_ms, span.start_ms) * 1_000_000,
            instrumentation_scope=self.scope,
        )
        self.processor.on_end(readable)

    def flush(self, timeout_ms: int = 5_000) -> bool:
        """Exports what is queued now."""
        return bool(self.processor.force_flush(timeout_ms))

    def shutdown(self) -> None:
        """Exports what is queued and stops the processor's thread."""
        self.provider.shutdown()


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
