"""Trace tests' support: an OTLP receiver (the collector's gRPC ``TraceService`` on
loopback), a traced fan-out run, and the checks of its one trace."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import grpc
from opentelemetry import trace as trace_api
from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor

from aiws.engine.v1 import run_pb2, run_pb2_grpc
from praxis_client.worker import TaskContext
from tests.support.runtime import TERMINAL, definition, json_out, node


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
    kind: int = 0
    """``opentelemetry.proto.trace.v1.Span.SpanKind`` (1 internal, 2 server)."""


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
                            kind=span.kind,
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


ITEMS = {"type": "object", "properties": {"items": {"type": "array"}}}
CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"
TRACEPARENT = f"00-{CALLER_TRACE}-{CALLER_SPAN}-01"


def fanout() -> dict[str, object]:
    return definition(
        "join",
        split=node(output=json_out(ITEMS)),
        each=node("fanout_item", ("split",), json_out(), fanout={"over": "node:split.items"}),
        join=node("node:each", ("each",), json_out({"type": "array"})),
    )


def handle(ctx: TaskContext) -> Any:
    if ctx.proto.node_id == "split":
        return {"items": [1, 2, 3]}
    if ctx.proto.node_id == "each":
        return {"item": ctx.input}
    return list(ctx.input) if isinstance(ctx.input, list) else [ctx.input]


def start_traced(
    runs: run_pb2_grpc.RunServiceStub,
    document: dict[str, object],
    metadata: tuple[tuple[str, str], ...] = (),
) -> str:
    request = run_pb2.StartRunRequest(
        request_id="traced-1", definition_json=json.dumps(document), input_json="null"
    )
    response = runs.StartRun(request, metadata=[*metadata, ("traceparent", TRACEPARENT)])
    return response.run.run_id


def wait_ended(
    runs: run_pb2_grpc.RunServiceStub, run_id: str, metadata: tuple[tuple[str, str], ...] = ()
) -> run_pb2.Run:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        run = runs.GetRun(run_pb2.GetRunRequest(run_id=run_id), metadata=metadata).run
        if run.state in TERMINAL:
            return run
        time.sleep(0.02)
    raise AssertionError(f"run {run_id} did not end")


def worker_tracer(endpoint: str) -> tuple[TracerProvider, trace_api.Tracer]:
    """The worker's own SDK (not the global one), exporting to the same receiver."""
    provider = TracerProvider(resource=Resource.create({"service.name": "worker"}))
    provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(endpoint=endpoint)))
    return provider, provider.get_tracer("tests.worker")


def check_one_trace(receiver: Receiver, run_id: str, uids: list[str], handled: int) -> None:
    """The run, node, attempt and worker spans: one trace with the expected parents."""
    runs = receiver.wait_for("praxis.run", 1)
    nodes = receiver.wait_for("praxis.node ", len(uids))
    attempts = receiver.wait_for("praxis.attempt ", len(uids))
    handlers = receiver.wait_for("handler ", handled)
    every = runs + nodes + attempts + handlers
    assert {span.trace_id for span in every} == {CALLER_TRACE}
    (run,) = runs
    # The run is a child of the StartRun call's SERVER span, itself the caller's child.
    (start,) = [s for s in receiver.named(START_RUN) if s.span_id == run.parent_span_id]
    assert start.parent_span_id == CALLER_SPAN and start.trace_id == CALLER_TRACE
    assert start.kind == SERVER and run.kind == INTERNAL
    assert start.attributes["rpc.grpc.status_code"] == 0
    assert run.service == "praxis-test" and run.scope == "praxis"
    assert run.attributes["praxis.run_id"] == run_id
    assert run.attributes["praxis.run.status"] == "COMPLETED"
    node_of = {span.attributes["praxis.node_uid"]: span for span in nodes}
    assert sorted(node_of) == sorted(uids)
    for span in nodes:
        assert span.parent_span_id == run.span_id
        assert run.start_ns <= span.start_ns <= span.end_ns <= run.end_ns
        assert span.attributes["praxis.node.status"] == "DONE"
    attempt_of = {span.attributes["praxis.attempt_id"]: span for span in attempts}
    assert len(attempt_of) == len(uids)
    for span in attempts:
        parent = node_of[span.attributes["praxis.node_uid"]]
        assert span.parent_span_id == parent.span_id
        assert parent.start_ns <= span.start_ns <= span.end_ns <= parent.end_ns
        assert span.attributes["praxis.run_id"] == run_id
        assert span.attributes["praxis.attempt"] == 1
        assert span.attributes["praxis.model"] == "echo"
        assert span.attributes["praxis.effect"] == "APPLIED"
        assert span.attributes["praxis.attempt.status"] == "COMPLETED"
    for span in handlers:
        attempt = attempt_of[span.attributes["attempt_id"]]
        assert span.parent_span_id == attempt.span_id
        assert span.attributes["traceparent"] == (f"00-{CALLER_TRACE}-{attempt.span_id}-01")


START_RUN = "aiws.engine.v1.RunService/StartRun"
INTERNAL, SERVER = 1, 2  # opentelemetry.proto.trace.v1.Span.SpanKind
FANOUT_UIDS = ["split", "each#0", "each#1", "each#2", "join"]


def traced_handler(endpoint: str) -> tuple[TracerProvider, Callable[[TaskContext], Any]]:
    """A worker handler recording one span of its own, exported to ``endpoint``."""
    provider, tracer = worker_tracer(endpoint)

    def traced(ctx: TaskContext) -> Any:
        with tracer.start_as_current_span("handler " + ctx.proto.node_id) as span:
            span.set_attribute("attempt_id", ctx.attempt_id)
            span.set_attribute("traceparent", ctx.traceparent)
            return handle(ctx)

    return provider, traced
