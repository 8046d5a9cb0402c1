"""Traces (issue 14): a run is one trace; node and attempt spans; the worker's spans
under the attempt; nothing at all without the OTEL_* environment; log fields."""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from opentelemetry import trace as trace_api
from opentelemetry.sdk.trace import TracerProvider

from aiws.engine.v1 import common_pb2, contract_pb2, run_pb2, task_pb2
from praxis.observability import logs
from praxis.observability.tracing import TracingConfigError, from_env, parse_traceparent, wanted
from praxis.rpc.auth import _bind_log_fields
from praxis_client.worker import Worker
from tests.support.harness import Harness, start_server
from tests.support.runtime import claim, complete, definition, fail, json_out, node
from tests.support.traces import (
    CALLER_SPAN,
    CALLER_TRACE,
    FANOUT_UIDS,
    SERVER,
    TRACEPARENT,
    Receiver,
    Span,
    check_one_trace,
    fanout,
    otel_env,
    receiving,
    start_traced,
    traced_handler,
    wait_ended,
)

pytestmark = pytest.mark.backends("sqlite")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    import os

    for key in list(os.environ):
        if key.startswith("OTEL_"):
            monkeypatch.delenv(key)
    return monkeypatch


def run_fanout_with_worker(h: Harness, endpoint: str) -> str:
    provider, traced = traced_handler(endpoint)
    worker = Worker(h.client("agent"), ["echo"], traced, concurrency=2, poll_ms=200)
    worker.start()
    try:
        run_id = start_traced(h.client("agent").runs, fanout())
        assert wait_ended(h.client("agent").runs, run_id).state == run_pb2.RUN_STATE_COMPLETED
    finally:
        worker.stop(10)
        provider.shutdown()
    return run_id


def test_a_fanout_run_is_one_trace_in_process(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    with receiving() as (receiver, endpoint):
        for key, value in otel_env(endpoint).items():
            clean_env.setenv(key, value)
        h = start_server(tmp_path / "praxis.db")
        try:
            assert h.server.engine.tracing is not None
            run_id = run_fanout_with_worker(h, endpoint)
        finally:
            h.close()  # flushes the batch processor
        check_one_trace(receiver, run_id, FANOUT_UIDS, handled=len(FANOUT_UIDS))
        # Nothing is left open: the run's trace rows went with its run span.
        check = start_server(tmp_path / "praxis.db")
        try:
            with check.server.engine.db.read() as connection:
                left = connection.exec_driver_sql(
                    "SELECT (SELECT count(*) FROM run_traces)"
                    " + (SELECT count(*) FROM run_trace_spans)"
                ).scalar()
            assert left == 0
        finally:
            check.close()


def test_without_otel_env_nothing_is_exported(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    with receiving() as (receiver, endpoint):
        # An endpoint, but the SDK disabled: off.
        clean_env.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", endpoint)
        clean_env.setenv("OTEL_SDK_DISABLED", "true")
        h = start_server(tmp_path / "praxis.db")
        try:
            assert h.server.engine.tracing is None and h.server.engine.runs.unit.trace is None
            run_id = start_traced(h.client("agent").runs, fanout())
            tasks = claim(h)
            assert tasks and all(task.traceparent == "" for task in tasks)
            assert run_id
        finally:
            h.close()
        time.sleep(0.3)
        assert receiver.requests == 0 and receiver.spans == []
    # No provider is installed as the global one, ever.
    assert not isinstance(trace_api.get_tracer_provider(), TracerProvider)


def test_with_no_otel_env_the_sdk_is_never_loaded(tmp_path: Path) -> None:
    script = f"""
import os, sys
for key in list(os.environ):
    if key.startswith("OTEL_"):
        del os.environ[key]
from praxis.app import Engine, Settings
from praxis.clock import TestClock
from tests.support.harness import authority
engine = Engine(Settings(database_url="sqlite:///{tmp_path / "p.db"}", authority=authority(),
                         clock=TestClock(1_800_000_000_000)))
assert engine.tracing is None and engine.runs.unit.trace is None
loaded = sorted(name for name in sys.modules if name.startswith("opentelemetry"))
engine.close()
print(loaded)
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    assert out.strip() == "[]", out


@pytest.mark.parametrize(
    ("environ", "on"),
    [
        ({}, False),
        ({"OTEL_SERVICE_NAME": "x"}, False),
        ({"OTEL_TRACES_EXPORTER": "otlp"}, True),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317"}, True),
        ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4317"}, True),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://h:4317", "OTEL_TRACES_EXPORTER": "none"}, False),
        ({"OTEL_TRACES_EXPORTER": "otlp", "OTEL_SDK_DISABLED": "true"}, False),
        ({"OTEL_TRACES_EXPORTER": "otlp", "OTEL_SDK_DISABLED": "false"}, True),
    ],
)
def test_which_environment_turns_tracing_on(environ: dict[str, str], on: bool) -> None:
    assert wanted(environ) is on


@pytest.mark.parametrize(
    "environ",
    [
        {"OTEL_TRACES_EXPORTER": "zipkin"},
        {"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"},
    ],
)
def test_an_exporter_this_server_lacks_is_refused(environ: dict[str, str]) -> None:
    with pytest.raises(TracingConfigError):
        from_env(environ)


@pytest.mark.parametrize(
    ("header", "valid"),
    [
        (TRACEPARENT, True),
        (TRACEPARENT.upper(), True),
        ("01-" + TRACEPARENT[3:] + "-future", True),
        ("00-" + TRACEPARENT[3:] + "-extra", False),
        ("ff-" + TRACEPARENT[3:], False),
        (f"00-{'0' * 32}-{CALLER_SPAN}-01", False),
        (f"00-{CALLER_TRACE}-{'0' * 16}-01", False),
        ("00-abc-def-01", False),
        ("", False),
    ],
)
def test_traceparent_parsing_follows_w3c(header: str, valid: bool) -> None:
    assert (parse_traceparent(header) is not None) is valid


class _Context:
    def __init__(self, metadata: list[tuple[str, str]]) -> None:
        self._metadata = metadata

    def invocation_metadata(self) -> list[tuple[str, str]]:
        return self._metadata


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter())
    logger = logging.getLogger("praxis.rpc")
    logger.addHandler(handler)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)
        logs.bind({})


def test_log_lines_carry_trace_span_run_and_attempt_ids(json_lines: io.StringIO) -> None:
    request = task_pb2.CompleteTaskRequest(attempt_id="att_1", worker_id="w")
    _bind_log_fields(request, _Context([("traceparent", TRACEPARENT)]))
    logging.getLogger("praxis.rpc").warning("something")
    logs.add(run_id="run_1")
    logging.getLogger("praxis.rpc").warning("more")
    first, second = (json.loads(line) for line in json_lines.getvalue().splitlines())
    assert first["trace_id"] == CALLER_TRACE and first["span_id"] == CALLER_SPAN
    assert first["attempt_id"] == "att_1" and "run_id" not in first
    assert second["run_id"] == "run_1" and second["attempt_id"] == "att_1"
    # The next call on the same thread starts clean.
    _bind_log_fields(run_pb2.GetRunRequest(run_id="run_2"), _Context([]))
    logging.getLogger("praxis.rpc").warning("next")
    third = json.loads(json_lines.getvalue().splitlines()[2])
    assert third["run_id"] == "run_2"
    assert not {"trace_id", "span_id", "attempt_id"} & set(third)


def test_a_served_call_logs_with_its_trace_ids(harness: Harness, json_lines: io.StringIO) -> None:
    channel = harness.client("agent").channel
    with pytest.raises(grpc.RpcError):
        channel.unary_unary("/aiws.engine.v1.RunService/GetRun")(
            b"\xff\xff\xff\xff", timeout=10, metadata=[("traceparent", TRACEPARENT)]
        )
    (line,) = (json.loads(text) for text in json_lines.getvalue().splitlines())
    assert "malformed" in line["msg"]
    assert (line["trace_id"], line["span_id"]) == (CALLER_TRACE, CALLER_SPAN)


def test_an_unsampled_run_records_nothing_and_a_stopped_run_closes_its_spans(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    unsampled_trace = "a" * 32
    with receiving() as (receiver, endpoint):
        for key, value in otel_env(endpoint).items():
            clean_env.setenv(key, value)
        h = start_server(tmp_path / "praxis.db")
        runs = h.client("agent").runs
        try:
            one_node = definition("a", a=node(output=json_out(), effects="idempotent"))
            quiet = runs.StartRun(
                run_pb2.StartRunRequest(
                    request_id="quiet", definition_json=json.dumps(one_node), input_json="{}"
                ),
                metadata=[("traceparent", f"00-{unsampled_trace}-{CALLER_SPAN}-00")],
            ).run.run_id
            (task,) = claim(h)
            assert task.run_id == quiet
            assert task.traceparent.startswith(f"00-{unsampled_trace}-")
            assert task.traceparent.endswith("-00")
            stopped = start_traced(runs, one_node)
            (task,) = claim(h)
            assert task.traceparent.startswith(f"00-{CALLER_TRACE}-")
            runs.StopRun(run_pb2.StopRunRequest(run_id=stopped, reason="enough"))
            h.client("agent").tasks.FailTask(  # the stop is settled by the worker's report
                task_pb2.FailTaskRequest(
                    attempt_id=task.attempt_id,
                    worker_id="w1",
                    error="stopped",
                    effect=common_pb2.EFFECT_OUTCOME_NOT_APPLIED,
                )
            )
        finally:
            h.close()
        (run,) = receiver.wait_for("praxis.run", 1)
        (node_span,) = receiver.wait_for("praxis.node ", 1)
        (attempt,) = receiver.wait_for("praxis.attempt ", 1)
        assert {run.trace_id, node_span.trace_id, attempt.trace_id} == {CALLER_TRACE}
        assert run.attributes["praxis.run_id"] == stopped
        assert run.attributes["praxis.run.status"] == "CANCELLED"
        assert node_span.parent_span_id == run.span_id
        assert attempt.parent_span_id == node_span.span_id
        assert task.traceparent == f"00-{CALLER_TRACE}-{attempt.span_id}-01"
        error = 2  # opentelemetry.proto.trace.v1.Status.STATUS_CODE_ERROR
        assert run.status_code == node_span.status_code == attempt.status_code == error
        assert len(receiver.named("praxis.")) == 3
        # The unsampled caller's StartRun span is not recorded either.
        assert all(span.trace_id != unsampled_trace for span in receiver.spans)


def test_the_worker_context_follows_the_traceparent_only_with_the_api(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from praxis_client import tracing as client_tracing

    def current() -> str:
        return f"{trace_api.get_current_span().get_span_context().trace_id:032x}"

    with client_tracing.attempt_context(TRACEPARENT):
        assert current() == CALLER_TRACE
    assert current() == "0" * 32
    with client_tracing.attempt_context(""):
        assert current() == "0" * 32
    monkeypatch.setattr(client_tracing, "_api", client_tracing._MISSING)  # no opentelemetry-api
    assert not client_tracing.available()
    with client_tracing.attempt_context(TRACEPARENT):
        assert current() == "0" * 32


def test_a_retried_node_is_one_span_over_its_attempts_and_an_expiry_ends_one(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    with receiving() as (receiver, endpoint):
        for key, value in otel_env(endpoint).items():
            clean_env.setenv(key, value)
        h = start_server(tmp_path / "praxis.db")
        try:
            retried = definition(
                "a",
                a=node(
                    output=json_out(), retry={"attempts": 3, "backoff_ms": 0}, effects="idempotent"
                ),
            )
            start_traced(h.client("agent").runs, retried)
            (first,) = claim(h, lease_ms=1_000)
            h.clock.advance(1_500)  # the lease expires: the sweeper ends attempt 1
            deadline = time.monotonic() + 10
            second: list[task_pb2.Task] = []
            while not second and time.monotonic() < deadline:
                second = claim(h)
                time.sleep(0.05)
            (task,) = second
            h.clock.advance(100)
            fail(h, task, "transient", retryable=True)
            h.clock.advance(100)
            (third,) = claim(h)
            h.clock.advance(100)
            complete(h, third, {"ok": True})
        finally:
            h.close()
        (node_span,) = receiver.wait_for("praxis.node ", 1)
        attempts = sorted(
            receiver.wait_for("praxis.attempt ", 3), key=lambda s: s.attributes["praxis.attempt"]
        )
        assert [s.attributes["praxis.attempt.status"] for s in attempts] == [
            "EXPIRED",
            "FAILED",
            "COMPLETED",
        ]
        assert [s.attributes["praxis.attempt_id"] for s in attempts] == [
            first.attempt_id,
            task.attempt_id,
            third.attempt_id,
        ]
        assert all(s.parent_span_id == node_span.span_id for s in attempts)
        assert node_span.start_ns == attempts[0].start_ns  # stored when attempt 1 ended
        assert node_span.end_ns == attempts[2].end_ns
        assert attempts[0].end_ns - attempts[0].start_ns >= 1_500 * 1_000_000
        assert attempts[1].attributes["praxis.will_retry"] is True
        assert attempts[1].status_code == 2 and attempts[2].status_code != 2
        assert node_span.attributes["praxis.node.attempts"] == 3


RUNS = "aiws.engine.v1.RunService"


def by_name(receiver: Receiver, name: str, count: int = 1) -> list[Span]:
    return [s for s in receiver.wait_for(name, count) if s.name == name]


def test_every_rpc_is_a_server_span_under_its_caller(
    tmp_path: Path, clean_env: pytest.MonkeyPatch, json_lines: io.StringIO
) -> None:
    """RPC semantic conventions: names, kind, parent, attributes, status codes; a stream
    and a long poll are one span over the call; health is left out; logs carry the ids."""
    caller = [("traceparent", TRACEPARENT)]
    with receiving() as (receiver, endpoint):
        for key, value in otel_env(endpoint).items():
            clean_env.setenv(key, value)
        h = start_server(tmp_path / "praxis.db")
        agent = h.client("agent")
        try:
            run_id = start_traced(agent.runs, definition("a", a=node(output=json_out())))
            with pytest.raises(grpc.RpcError) as missing:  # refused: the caller's error
                agent.runs.GetRun(run_pb2.GetRunRequest(run_id="run_none"), metadata=caller)
            assert missing.value.code() is grpc.StatusCode.NOT_FOUND

            def broken(*args: object) -> object:
                raise RuntimeError("a bug")

            clean_env.setattr(h.server.engine.runs, "get_run", broken)
            with pytest.raises(grpc.RpcError) as fault:  # a server fault: INTERNAL
                agent.runs.GetRun(run_pb2.GetRunRequest(run_id=run_id), metadata=caller)
            assert fault.value.code() is grpc.StatusCode.INTERNAL
            clean_env.undo()  # (also restores the OTEL_* environment; the server has read it)
            watch = agent.runs.WatchRun(run_pb2.WatchRunRequest(run_id=run_id), metadata=caller)
            assert next(watch).run.run_id == run_id
            waited = time.monotonic()
            assert not agent.tasks.ClaimTasks(  # a long poll that waits its full time
                task_pb2.ClaimTasksRequest(
                    worker_id="w", models=["other"], max_tasks=1, lease_ms=1_000, wait_ms=300
                ),
                metadata=caller,
            ).tasks
            assert time.monotonic() - waited >= 0.3
            agent.runs.StopRun(
                run_pb2.StopRunRequest(run_id=run_id, reason="enough"), metadata=caller
            )
            assert list(watch)[-1].run.state == run_pb2.RUN_STATE_CANCELLED  # the stream ends
            with grpc.insecure_channel(h.address) as channel:
                health = health_pb2_grpc.HealthStub(channel)
                health.Check(health_pb2.HealthCheckRequest(), metadata=caller)
        finally:
            h.close()
        (start,) = by_name(receiver, f"{RUNS}/StartRun")
        missing_span, fault_span = sorted(
            by_name(receiver, f"{RUNS}/GetRun", 2), key=lambda s: s.start_ns
        )
        (watch_span,) = by_name(receiver, f"{RUNS}/WatchRun")
        (claim_span,) = by_name(receiver, "aiws.engine.v1.TaskService/ClaimTasks")
        (stop,) = by_name(receiver, f"{RUNS}/StopRun")
        calls = [start, missing_span, fault_span, watch_span, claim_span, stop]
        for span in calls:
            service, _, method = span.name.rpartition("/")
            assert span.kind == SERVER and span.scope == "praxis"
            assert (span.trace_id, span.parent_span_id) == (CALLER_TRACE, CALLER_SPAN)
            assert span.attributes["rpc.system"] == "grpc"
            assert (span.attributes["rpc.service"], span.attributes["rpc.method"]) == (
                service,
                method,
            )
        assert [span.attributes["rpc.grpc.status_code"] for span in calls] == [0, 5, 13, 0, 0, 0]
        unset, error = 0, 2  # opentelemetry.proto.trace.v1.Status.StatusCode
        # Only a server error sets the status (the conventions for server spans); a
        # refusal keeps its reason.
        assert [span.status_code for span in calls] == [unset, unset, error, unset, unset, unset]
        assert missing_span.attributes["praxis.error_reason"] == "RUN_NOT_FOUND"
        assert fault_span.attributes["praxis.error_reason"] == "INTERNAL_FAULT"
        assert claim_span.end_ns - claim_span.start_ns >= 300 * 1_000_000
        assert watch_span.start_ns < claim_span.start_ns < stop.start_ns <= watch_span.end_ns
        assert not [s for s in receiver.spans if "Health" in s.name or "Reflection" in s.name]
        # The run's span is the StartRun span's child (the run, node and attempt spans).
        (run,) = receiver.wait_for("praxis.run", 1)
        assert run.parent_span_id == start.span_id and run.trace_id == CALLER_TRACE
        # The fault's log line carries its call's span, not the caller's.
        (line,) = (
            json.loads(text)
            for text in json_lines.getvalue().splitlines()
            if "unexpected error" in json.loads(text)["msg"]
        )
        assert (line["trace_id"], line["span_id"]) == (CALLER_TRACE, fault_span.span_id)
        assert line["run_id"] == run_id


def test_a_call_without_a_caller_trace_begins_one_and_excluded_services_follow_the_env(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    with receiving() as (receiver, endpoint):
        for key, value in otel_env(endpoint).items():
            clean_env.setenv(key, value)
        clean_env.setenv("OTEL_PYTHON_GRPC_EXCLUDED_SERVICES", f"{RUNS}, ")
        h = start_server(tmp_path / "praxis.db")
        try:
            with grpc.insecure_channel(h.address) as channel:
                health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
            with pytest.raises(grpc.RpcError):
                h.client("agent").runs.GetRun(run_pb2.GetRunRequest(run_id="run_none"))
            with pytest.raises(grpc.RpcError):  # refused (no grant), spanned all the same
                h.client("agent").contracts.ListContracts(contract_pb2.ListContractsRequest())
            claim(h)  # the worker protocol: spanned only within a caller's trace
        finally:
            h.close()
        (health,) = by_name(receiver, "grpc.health.v1.Health/Check")
        (listed,) = by_name(receiver, "aiws.engine.v1.ContractService/ListContracts")
        for span in (health, listed):
            assert span.parent_span_id == "" and span.trace_id != CALLER_TRACE
        assert health.trace_id != listed.trace_id
        assert not [s for s in receiver.spans if s.name.startswith(RUNS)]
        assert not [s for s in receiver.spans if "TaskService" in s.name]


def test_rpc_spans_follow_the_configured_sampler(clean_env: pytest.MonkeyPatch) -> None:
    import os

    from praxis.observability.tracing import RpcSpans

    clean_env.setenv("OTEL_TRACES_EXPORTER", "otlp")
    clean_env.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://127.0.0.1:9")
    unsampled = [("traceparent", f"00-{CALLER_TRACE}-{CALLER_SPAN}-00")]
    sampled = [("traceparent", TRACEPARENT)]
    for sampler, decisions in (
        ("parentbased_always_on", (True, True, False)),  # the default: the caller's flag
        ("parentbased_traceidratio", (False, True, False)),  # ratio 0 for new traces
        ("always_off", (False, False, False)),
    ):
        clean_env.setenv("OTEL_TRACES_SAMPLER", sampler)
        clean_env.setenv("OTEL_TRACES_SAMPLER_ARG", "0")
        exporter = from_env(os.environ)
        assert exporter is not None
        try:
            spans = RpcSpans(exporter)
            calls = [spans.start("p.S", "M", metadata) for metadata in ([], sampled, unsampled)]
            assert tuple(call.context.sampled for call in calls) == decisions, sampler
            assert [f"{call.context.trace_id:032x}" for call in calls[1:]] == [CALLER_TRACE] * 2
            assert calls[1].parent is not None and calls[1].parent.span_id == int(CALLER_SPAN, 16)
        finally:
            exporter.shutdown()
