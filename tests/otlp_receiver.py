"""A test OTLP trace receiver: the collector's gRPC ``TraceService`` on loopback."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc


@dataclass(frozen=True)
class Span:
    """One received span, ids as hex."""

    name: str
    trace_id: str
    span_id: str
    parent_span_id: str
    attributes: dict[str, Any]
    start_ns: int
    end_ns: int
    status_code: int
    service: str
    scope: str


def _value(any_value: Any) -> Any:
    kind = any_value.WhichOneof("value")
    return getattr(any_value, kind) if kind else None


class Receiver(trace_service_pb2_grpc.TraceServiceServicer):
    """Keeps every span it is sent."""

    def __init__(self) -> None:
        self.spans: list[Span] = []
        self.requests = 0
        self._lock = threading.Lock()

    def Export(  # gRPC method name
        self, request: trace_service_pb2.ExportTraceServiceRequest, context: Any
    ) -> trace_service_pb2.ExportTraceServiceResponse:
        received = []
        for resource_spans in request.resource_spans:
            resource = {a.key: _value(a.value) for a in resource_spans.resource.attributes}
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    received.append(
                        Span(
                            name=span.name,
                            trace_id=span.trace_id.hex(),
                            span_id=span.span_id.hex(),
                            parent_span_id=span.parent_span_id.hex(),
                            attributes={a.key: _value(a.value) for a in span.attributes},
                            start_ns=span.start_time_unix_nano,
                            end_ns=span.end_time_unix_nano,
                            status_code=span.status.code,
                            service=str(resource.get("service.name", "")),
                            scope=scope_spans.scope.name,
                        )
                    )
        with self._lock:
            self.requests += 1
            self.spans.extend(received)
        return trace_service_pb2.ExportTraceServiceResponse()

    def named(self, prefix: str) -> list[Span]:
        with self._lock:
            return [span for span in self.spans if span.name.startswith(prefix)]

    def wait_for(self, prefix: str, count: int, timeout_s: float = 20.0) -> list[Span]:
        """The spans named ``prefix...`` once at least ``count`` arrived."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            found = self.named(prefix)
            if len(found) >= count:
                return found
            time.sleep(0.05)
        raise AssertionError(f"{len(self.named(prefix))} {prefix!r} spans, wanted {count}")


@contextmanager
def receiving() -> Iterator[tuple[Receiver, str]]:
    """A running receiver and its ``http://127.0.0.1:<port>`` endpoint."""
    receiver = Receiver()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(receiver, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield receiver, f"http://127.0.0.1:{port}"
    finally:
        server.stop(0)


def otel_env(endpoint: str) -> dict[str, str]:
    """The environment that turns a server's tracing on, pointed at ``endpoint``."""
    return {
        "OTEL_TRACES_EXPORTER": "otlp",
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": endpoint,
        "OTEL_SERVICE_NAME": "praxis-test",
        "OTEL_BSP_SCHEDULE_DELAY": "50",
    }
