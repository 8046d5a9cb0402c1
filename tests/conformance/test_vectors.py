"""The conformance vectors, run in Python twice: over gRPC against an in-process server
(the Python runner, as scripts/conformance.sh runs it), and in-process without gRPC,
straight through the servicers and stores. Plus the checks that keep the vector files
honest: the proto schema, the generator, names and counts, and the matcher itself.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import descriptor_pool, json_format, message_factory
from google.rpc import error_details_pb2, status_pb2

from aiws.engine.testing.v1 import clock_pb2  # noqa: F401  # registers the service
from aiws.engine.v1 import (  # noqa: F401  # registers the services
    admin_pb2,
    approval_pb2,
    assessment_pb2,
    contract_pb2,
    event_pb2,
    handoff_pb2,
    reconciliation_pb2,
    registry_pb2,
    run_pb2,
    task_pb2,
    wait_pb2,
)
from praxis.app import Engine, Server, Settings
from praxis.clock import TestClock
from praxis.core.rejection import Rejection
from praxis.rpc import auth
from praxis.rpc.admin import AdminServicer
from praxis.rpc.assessments import AssessmentServicer
from praxis.rpc.contracts import ContractServicer
from praxis.rpc.events import EventServicer
from praxis.rpc.handoffs import HandoffServicer
from praxis.rpc.inbox import InboxServicer
from praxis.rpc.notifications import NotificationServicer
from praxis.rpc.reconciliations import ReconciliationServicer
from praxis.rpc.registry import ApprovalServicer, RegistryServicer
from praxis.rpc.runs import RunServicer
from praxis.rpc.schedules import ScheduleServicer
from praxis.rpc.simulation import SimulationServicer
from praxis.rpc.tasks import TaskServicer
from praxis.rpc.testing import TestClockServicer
from praxis.rpc.waits import WaitServicer
from praxis.rpc.work_orders import WorkOrderServicer
from tests.support.conformance import authority, credentials, retention
from tests.support.harness import T0, Harness
from tests.support.vectors import CONFORMANCE, EXPECTED, VECTORS, load_module, runner_module

CREDENTIALS = credentials()
PARAMS = [
    pytest.param(
        index,
        vector,
        id=vector["name"],
        marks=[pytest.mark.xfail(strict=True)] if vector["name"] in EXPECTED else [],
    )
    for index, vector in enumerate(VECTORS)
]


# --- over gRPC: the Python runner against an in-process server ------------------------


@pytest.fixture(scope="module")
def grpc_runner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    clock = TestClock(T0)
    server = Server(
        Settings(
            database_url=f"sqlite:///{tmp_path_factory.mktemp('conformance') / 'praxis.db'}",
            authority=authority(),
            clock=clock,
            listen="127.0.0.1:0",
            retention=retention(),
        )
    )
    server.start()
    harness = Harness(server, clock, f"127.0.0.1:{server.port}")
    invoke, open_stream = runner_module.grpc_callers(harness.address, CREDENTIALS)
    runner = runner_module.Runner(invoke, open_stream=open_stream)
    runner.setup()
    try:
        yield runner
    finally:
        harness.close()


@pytest.mark.parametrize(("index", "vector"), PARAMS)
def test_vector_over_grpc(grpc_runner: Any, index: int, vector: dict[str, Any]) -> None:
    grpc_runner.run_vector(vector, index)


# --- in-process: the servicers and stores, no gRPC ------------------------------------


class _Aborted(Exception):
    def __init__(self, status: Any) -> None:
        super().__init__(status)
        self.status = status


@dataclass(frozen=True)
class _Status:
    code: Any
    trailing_metadata: Any


class _Context:
    """The part of the asyncio server's context for synchronous handlers that the
    servicers use."""

    def abort(self, code: Any, details: str = "", trailing_metadata: Any = ()) -> None:
        raise _Aborted(_Status(code, trailing_metadata))


class _AsyncContext:
    """The same for coroutine and async-generator handlers (streams, long polls)."""

    async def abort(self, code: Any, details: str = "", trailing_metadata: Any = ()) -> None:
        raise _Aborted(_Status(code, trailing_metadata))


def _reason(status: Any) -> str:
    for key, value in status.trailing_metadata or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    detail.Unpack(info)
                    return info.reason
    return ""


_END = object()


def inprocess_invoker(engine: Engine, clock: TestClock, loop: asyncio.AbstractEventLoop) -> Any:
    """An ``Invoke`` that calls the servicers directly, authenticating like the server.

    Synchronous methods run in the caller's thread; streams and long polls run on
    ``loop``, where the engine's wake-ups arrive. There is no sweeper thread in-process:
    every test-clock change sweeps synchronously (until nothing is due) and then wakes
    the long polls, as the server's sweeper would shortly after the same change.
    """

    def clock_changed() -> None:
        while engine.runs.sweep() + engine.schedules.sweep():
            pass
        engine.archive.archive_due()  # as the server's TestClockService settles
        engine.signals.everything()

    hub = engine.signals
    servicers = {
        "aiws.engine.v1.RegistryService": RegistryServicer(engine.registry, engine.registry_reads),
        "aiws.engine.v1.ApprovalService": ApprovalServicer(engine.approvals, clock),
        "aiws.engine.v1.AdminService": AdminServicer(engine.admin),
        "aiws.engine.v1.RunService": RunServicer(
            engine.runs, hub, engine.resumes, engine.segments.list
        ),
        "aiws.engine.v1.TaskService": TaskServicer(engine.tasks, hub, clock),
        "aiws.engine.v1.EventService": EventServicer(engine.events, hub),
        "aiws.engine.v1.ContractService": ContractServicer(engine.contracts),
        "aiws.engine.v1.ReconciliationService": ReconciliationServicer(engine.reconciliations),
        "aiws.engine.v1.WaitService": WaitServicer(engine.waits),
        "aiws.engine.v1.AssessmentService": AssessmentServicer(engine.assessments),
        "aiws.engine.v1.HandoffService": HandoffServicer(engine.handoffs),
        "aiws.engine.v1.InboxService": InboxServicer(engine.inbox, hub),
        "aiws.engine.v1.ScheduleService": ScheduleServicer(engine.schedules),
        "aiws.engine.v1.NotificationService": NotificationServicer(engine.notifications),
        "aiws.engine.v1.SimulationService": SimulationServicer(engine.simulations),
        "aiws.engine.v1.WorkOrderService": WorkOrderServicer(engine.work_orders),
        "aiws.engine.testing.v1.TestClockService": TestClockServicer(clock, clock_changed),
    }
    pool = descriptor_pool.Default()

    def resolve(service: str, method: str) -> tuple[str, Any]:
        full = (
            service
            if "." in service
            else next(
                f"{p}.{service}"
                for p in runner_module.SERVICE_PACKAGES
                if f"{p}.{service}" in servicers
            )
        )
        return full, pool.FindServiceByName(full).methods_by_name[method]

    def authenticate(principal: str) -> Any:
        token = CREDENTIALS[principal] if principal else None
        return engine.settings.authority.authenticate(token, clock.now_ms())

    def invoke(principal: str, service: str, method: str, request: Any) -> Any:
        full, descriptor = resolve(service, method)
        request_class = message_factory.GetMessageClass(descriptor.input_type)
        try:
            message = json_format.ParseDict(request, request_class())
        except json_format.ParseError as error:
            return runner_module.Outcome(client_error=str(error))
        found = authenticate(principal)
        if isinstance(found, Rejection):
            return runner_module.Outcome(code=found.code.value, reason=found.reason)
        behavior = getattr(servicers[full], method)
        try:
            if inspect.iscoroutinefunction(behavior):

                async def call() -> Any:
                    auth._principal.set(found)  # as the interceptor does for async handlers
                    auth._credential.set(auth.Credential(lambda: authenticate(principal), found))
                    return await behavior(message, _AsyncContext())

                response = asyncio.run_coroutine_threadsafe(call(), loop).result()
            else:
                auth._principal.set(found)
                response = behavior(message, _Context())
        except _Aborted as aborted:
            return runner_module.Outcome(
                code=aborted.status.code.name, reason=_reason(aborted.status)
            )
        return runner_module.Outcome(response=json_format.MessageToDict(response))

    def open_stream(principal: str, service: str, method: str, request: Any) -> Any:
        """A server-streaming servicer method is an async generator: a task on the loop
        drives it and hands each message to the reader through a queue; cancelling the
        stream cancels the task."""
        full, descriptor = resolve(service, method)
        request_class = message_factory.GetMessageClass(descriptor.input_type)
        try:
            message = json_format.ParseDict(request, request_class())
        except json_format.ParseError as error:
            return runner_module.Outcome(client_error=str(error))
        found = authenticate(principal)
        if isinstance(found, Rejection):
            return runner_module.ended_stream(runner_module.End(found.code.value, found.reason))
        items: queue.Queue[Any] = queue.Queue()

        async def drive() -> None:
            auth._principal.set(found)
            auth._credential.set(auth.Credential(lambda: authenticate(principal), found))
            try:
                async for response in getattr(servicers[full], method)(message, _AsyncContext()):
                    items.put(json_format.MessageToDict(response))
            except _Aborted as aborted:
                items.put(runner_module.End(aborted.status.code.name, _reason(aborted.status)))
            finally:
                items.put(_END)

        task = asyncio.run_coroutine_threadsafe(drive(), loop)

        def read() -> Iterator[Any]:
            while (item := items.get()) is not _END:
                yield item

        return runner_module.Stream(read(), task.cancel)

    return invoke, open_stream


@pytest.fixture(scope="module")
def inprocess_runner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    clock = TestClock(T0)
    engine = Engine(
        Settings(
            database_url=f"sqlite:///{tmp_path_factory.mktemp('inprocess') / 'praxis.db'}",
            authority=authority(),
            clock=clock,
            retention=retention(),
        )
    )
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    engine.signals.attach(loop)
    invoke, open_stream = inprocess_invoker(engine, clock, loop)
    runner = runner_module.Runner(invoke, ns_code="ip", open_stream=open_stream)
    runner.setup()
    try:
        yield runner
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        engine.close()


@pytest.mark.parametrize(("index", "vector"), PARAMS)
def test_vector_in_process(inprocess_runner: Any, index: int, vector: dict[str, Any]) -> None:
    inprocess_runner.run_vector(vector, index)


# --- the vector files -----------------------------------------------------------------


def test_vector_files_parse_as_the_proto_schema(tmp_path: Path) -> None:
    """Every file is strict proto-JSON of aiws.conformance.v1.VectorFile."""
    import grpc_tools

    includes = Path(grpc_tools.__file__).parent / "_proto"
    proto_root = CONFORMANCE / "proto"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "grpc_tools.protoc",
            f"-I{proto_root}",
            f"-I{includes}",
            f"--python_out={tmp_path}",
            "aiws/conformance/v1/vector.proto",
        ],
        check=True,
    )
    schema = load_module("conformance_vector_pb2", tmp_path / "aiws/conformance/v1/vector_pb2.py")
    for path in sorted((CONFORMANCE / "vectors").glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        parsed = json_format.ParseDict(document, schema.VectorFile())
        assert parsed.area == path.stem
        for vector in parsed.vectors:
            kept: set[str] = set()
            for step in vector.steps:
                has_call = bool(step.service)
                assert has_call == bool(step.method), vector.name
                resume = step.stream.resume if step.WhichOneof("expect") == "stream" else ""
                assert not (has_call and resume), vector.name  # a resumed stream: no call
                assert (has_call or bool(resume)) == (step.WhichOneof("expect") is not None)
                if step.WhichOneof("expect") == "stream":
                    stream = step.stream
                    assert not (stream.end and stream.HasField("error")), vector.name
                    assert not (stream.keep and (stream.end or stream.HasField("error")))
                    assert not (stream.keep and resume), vector.name
                    if resume:
                        assert resume in kept, f"{vector.name}: resumes {resume!r} unkept"
                        if stream.end or stream.HasField("error"):
                            kept.discard(resume)
                    if stream.keep:
                        kept.add(stream.keep)


def test_vector_files_are_what_the_generator_writes() -> None:
    builder = load_module("build_vectors", CONFORMANCE / "tools" / "build_vectors.py")
    for name, text in builder.build().items():
        assert (CONFORMANCE / "vectors" / name).read_text(encoding="utf-8") == text, name


def test_vector_names_are_unique_hyphenated_and_enough() -> None:
    names = [vector["name"] for vector in VECTORS]
    assert len(names) == len(set(names))
    assert len(names) >= 270
    runtime = {"run", "definition", "task", "lease", "result", "cost", "fanout", "events"}
    assert sum(name.partition("/")[0] in runtime for name in names) >= 60
    model = {"contract", "spending", "reconcile", "wait", "assess", "handoff"}
    assert sum(name.partition("/")[0] in model for name in names) >= 50
    for name in names:
        group, _, rest = name.partition("/")
        assert group and rest and name == name.lower() and " " not in name, name
    for listed in EXPECTED:
        assert listed in names, f"expected failure {listed!r} names no vector"


# --- the runner's matching rules ------------------------------------------------------


def test_matcher_rules() -> None:
    mismatch = runner_module.mismatch
    assert mismatch({"a": "1"}, {"a": "1", "b": 2}) is None  # extra response fields: ignored
    assert mismatch({"a": None}, {"b": 1}) is None  # null: must be absent
    assert mismatch({"a": None}, {"a": 0}) is not None  # a default printed is not absent
    assert mismatch({"a": "<any>"}, {}) is not None
    assert mismatch({"a": "1"}, {"a": 1}) is not None  # int64 as a number is a mismatch
    assert mismatch({"a": 1}, {"a": True}) is not None
    assert mismatch({"a": ["x"]}, {"a": ["x", "y"]}) is not None  # arrays: exact length
    assert mismatch({"a": [{"k": "v"}]}, {"a": [{"k": "v", "z": 1}]}) is None


def test_substitution_rules() -> None:
    substitute = runner_module.substitute
    variables = {"t0": "9007199254740993", "ns": "py-abc-0001"}
    assert substitute({"x": ["${t0+7}", "${ns}-ap1"]}, variables) == {
        "x": ["9007199254741000", "py-abc-0001-ap1"]
    }
    assert substitute("${t0-1000}", variables) == "9007199254739993"
    with pytest.raises(runner_module.VectorError):
        substitute("${nope}", variables)


def test_runner_reports_failures_and_unexpected_passes(tmp_path: Path) -> None:
    results = [
        {"vector": "a/x", "status": "pass", "message": ""},
        {"vector": "a/y", "status": "xfail", "message": "boom"},
        {"vector": "a/z", "status": "xpass", "message": ""},
    ]
    out = tmp_path / "out.txt"
    with out.open("w") as handle:
        code = runner_module.report(results, str(tmp_path / "r.jsonl"), handle)
    assert code == 1
    assert "1 passed, 1 failed, 1 expected failures" in out.read_text()
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 3


def test_stream_step_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream step reads exactly its messages, then the end it expects; keep/resume."""
    monkeypatch.setattr(runner_module, "STREAM_DEADLINE_S", 0.2)
    end, ok = runner_module.End, runner_module.End()
    scripts: list[Iterator[Any]] = []

    def forever() -> Iterator[Any]:
        threading.Event().wait(1)
        yield {"late": True}

    def open_stream(principal: str, service: str, method: str, request: Any) -> Any:
        return runner_module.Stream(scripts.pop(0), lambda: None)

    def clock(principal: str, service: str, method: str, request: Any) -> Any:
        return runner_module.Outcome(response={"nowMs": "1"})

    runner = runner_module.Runner(clock, open_stream=open_stream)

    def run(script: Iterator[Any], *steps: dict[str, Any]) -> str:
        """The vector's failure, or "" when it passes."""
        scripts.insert(0, script)
        try:
            runner.run_vector({"name": "t/x", "steps": list(steps)}, 0)
        except runner_module.VectorError as error:
            return str(error)
        finally:
            scripts.clear()
        return ""

    def opened(**stream: Any) -> dict[str, Any]:
        return {"service": "S", "method": "M", "request": {}, "stream": stream}

    one = [{"n": "1"}, {"n": "2"}]
    assert run(iter([*one, ok]), opened(messages=one, end=True)) == ""
    assert "ended with (OK" in run(iter([one[0], ok]), opened(messages=one))  # too few
    assert "expected the stream to end, got" in run(
        iter([*one, {"n": "3"}, ok]), opened(messages=one, end=True)
    )
    assert run(iter([*one, {"n": "3"}]), opened(messages=one)) == ""  # then cancelled
    assert "within" in run(forever(), opened(messages=[{}]))  # deadline
    assert (
        run(
            iter([end("NOT_FOUND", "RUN_NOT_FOUND")]),
            opened(error={"code": "NOT_FOUND", "reason": "RUN_NOT_FOUND"}),
        )
        == ""
    )
    assert "expected the stream to end with (NOT_FOUND, X)" in run(
        iter([ok]), opened(error={"code": "NOT_FOUND", "reason": "X"})
    )
    assert "messages.1.n" in run(iter([*one, ok]), opened(messages=[one[0], {"n": "9"}]))
    kept = [
        opened(messages=[one[0]], keep="w"),
        {"stream": {"resume": "w", "messages": [one[1]], "end": True}},
    ]
    assert run(iter([*one, ok]), *kept) == ""
    assert "no stream kept" in run(iter([ok]), {"stream": {"resume": "w", "messages": []}})
    captured = opened(messages=one) | {"captures": {"c": "1.n"}}
    scripts.append(iter([{"n": "2"}]))
    assert run(iter(one), captured, opened(messages=[{"n": "${c}"}])) == ""
