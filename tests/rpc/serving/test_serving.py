"""The asyncio server: stream and long-poll limits, health under held streams, shutdown."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_status import rpc_status

from aiws.engine.v1 import admin_pb2, run_pb2, run_pb2_grpc, task_pb2, task_pb2_grpc
from praxis.limits import ServingLimits
from praxis_client import error_details
from tests.support.harness import Harness, start_server, token_of
from tests.support.runtime import definition, governed, json_out, node

CHAIN = definition("b", a=node(output=json_out()), b=node("node:a", ("a",), json_out()))
IDLE = definition("a", a=node(model="idle"))


def _metadata(principal_id: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token_of(principal_id)}")]


def _start_run(h: Harness, request_id: str, definition: dict[str, object] | None = None) -> str:
    response = h.client("alice").runs.StartRun(
        run_pb2.StartRunRequest(
            request_id=request_id,
            definition_json=json.dumps(definition or CHAIN),
            input_json="{}",
        )
    )
    return response.run.run_id


def _claim(wait_ms: int, worker: str = "w1") -> task_pb2.ClaimTasksRequest:
    return task_pb2.ClaimTasksRequest(
        worker_id=worker, models=["echo"], max_tasks=1, lease_ms=30_000, wait_ms=wait_ms
    )


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[Harness]:
    h = start_server(
        tmp_path / "praxis.db",
        serving=ServingLimits(
            max_streams=3,
            max_streams_per_principal=2,
            max_long_polls=2,
            max_long_polls_per_principal=1,
            max_service_streams=2,
        ),
    )
    try:
        yield h
    finally:
        h.close()


def _assert_refused(error: grpc.RpcError, reason: str, scope: str) -> None:
    details = error_details(error)
    assert (details.code, details.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, reason)
    assert details.domain == "engine.aiws"
    status = rpc_status.from_call(error)
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    assert info.metadata["scope"] == scope


def test_streams_past_the_limits_are_refused_with_a_reason(limited: Harness) -> None:
    run_id = _start_run(limited, "req-limits")
    with grpc.insecure_channel(limited.address) as channel:
        runs = run_pb2_grpc.RunServiceStub(channel)
        watch = run_pb2.WatchRunRequest(run_id=run_id)
        held = [runs.WatchRun(watch, metadata=_metadata("alice")) for _ in range(2)]
        for stream in held:
            assert next(stream).run.run_id == run_id  # open and answered
        third = runs.WatchRun(watch, metadata=_metadata("alice"))
        with pytest.raises(grpc.RpcError) as per_principal:
            next(third)
        _assert_refused(per_principal.value, "STREAM_LIMIT_REACHED", "principal")
        bobs = runs.WatchRun(watch, metadata=_metadata("bob"))
        assert next(bobs).run.run_id == run_id  # bob has his own allowance: 3 open in total
        with pytest.raises(grpc.RpcError) as total:
            next(runs.WatchRun(watch, metadata=_metadata("bob")))
        _assert_refused(total.value, "STREAM_LIMIT_REACHED", "total")
        held[0].cancel()
        time.sleep(0.2)  # the server sees the cancellation and frees the slot
        again = runs.WatchRun(watch, metadata=_metadata("bob"))
        assert next(again).run.run_id == run_id
        for stream in [*held, bobs, again]:
            stream.cancel()


def test_long_polls_past_the_limits_are_refused_and_waitless_claims_are_not(
    limited: Harness,
) -> None:
    with grpc.insecure_channel(limited.address) as channel:
        tasks = task_pb2_grpc.TaskServiceStub(channel)
        waiting = tasks.ClaimTasks.future(_claim(20_000), metadata=_metadata("agent"))
        time.sleep(0.3)  # it is waiting now
        with pytest.raises(grpc.RpcError) as refused:
            tasks.ClaimTasks(_claim(20_000, "w2"), metadata=_metadata("agent"))
        _assert_refused(refused.value, "LONG_POLL_LIMIT_REACHED", "principal")
        assert not tasks.ClaimTasks(_claim(0, "w2"), metadata=_metadata("agent")).tasks
        with pytest.raises(grpc.RpcError) as settling:  # SettleTasks waits in the same pool
            tasks.SettleTasks(
                task_pb2.SettleTasksRequest(claim=_claim(20_000, "w3")),
                metadata=_metadata("agent"),
            )
        _assert_refused(settling.value, "LONG_POLL_LIMIT_REACHED", "principal")
        _start_run(limited, "req-wake")  # wakes the waiting long poll, which frees its slot
        assert len(waiting.result(timeout=10).tasks) == 1
        tasks.ClaimTasks(_claim(50, "w2"), metadata=_metadata("agent"))  # a slot is free


def test_health_and_reflection_streams_have_gates_of_their_own(limited: Harness) -> None:
    """Issue 8: no number of other calls starves health or reflection. Other streams
    fill the stream limits; health Watch and reflection still open, each up to its own
    limit (``max_service_streams``: 2 here), and a full health gate refuses only health
    streams."""
    run_id = _start_run(limited, "req-services")
    watch = run_pb2.WatchRunRequest(run_id=run_id)
    with grpc.insecure_channel(limited.address) as channel:
        runs = run_pb2_grpc.RunServiceStub(channel)
        held = [runs.WatchRun(watch, metadata=_metadata(p)) for p in ("alice", "alice", "bob")]
        for stream in held:
            next(stream)
        with pytest.raises(grpc.RpcError) as full:
            next(runs.WatchRun(watch, metadata=_metadata("bob")))
        _assert_refused(full.value, "STREAM_LIMIT_REACHED", "total")  # the stream limit is full
        health = health_pb2_grpc.HealthStub(channel)
        watches = [health.Watch(health_pb2.HealthCheckRequest()) for _ in range(2)]
        for item in watches:
            assert next(item).status == health_pb2.HealthCheckResponse.SERVING
        with pytest.raises(grpc.RpcError) as refused:
            next(health.Watch(health_pb2.HealthCheckRequest()))
        _assert_refused(refused.value, "STREAM_LIMIT_REACHED", "total")
        assert health.Check(health_pb2.HealthCheckRequest()).status  # Check is no stream
        reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
        ask = reflection_pb2.ServerReflectionRequest(list_services="")
        listed = [
            next(reflection.ServerReflectionInfo(iter([ask]), timeout=5)) for _ in range(2)
        ]  # each a stream of its own, closed once answered
        names = {service.name for service in listed[0].list_services_response.service}
        assert "aiws.engine.v1.RunService" in names
        for stream in [*held, *watches]:
            stream.cancel()


def test_health_answers_promptly_while_hundreds_of_streams_and_long_polls_wait(
    tmp_path: Path,
) -> None:
    h = start_server(tmp_path / "praxis.db", models=("echo", "idle"))
    channels = [grpc.insecure_channel(h.address) for _ in range(8)]  # 100 streams each at most
    try:
        run_id = _start_run(h, "req-held", IDLE)
        watches, polls = [], []
        for index in range(200):
            channel = channels[index % 4]
            watches.append(
                run_pb2_grpc.RunServiceStub(channel).WatchRun(
                    run_pb2.WatchRunRequest(run_id=run_id), metadata=_metadata("alice")
                )
            )
            polls.append(
                task_pb2_grpc.TaskServiceStub(channels[4 + index % 4]).ClaimTasks.future(
                    _claim(60_000, f"idle-{index}"), metadata=_metadata("agent")
                )
            )
        for watch in watches:
            assert next(watch).run.run_id == run_id  # every stream is open and answered
        health = health_pb2_grpc.HealthStub(grpc.insecure_channel(h.address))
        latencies = []
        for _ in range(100):
            started = time.perf_counter()
            health.Check(health_pb2.HealthCheckRequest(), timeout=2)
            latencies.append(time.perf_counter() - started)
        runs = run_pb2_grpc.RunServiceStub(channels[0])
        get = runs.GetRun(run_pb2.GetRunRequest(run_id=run_id), metadata=_metadata("alice"))
        assert get.run.run_id == run_id  # unary calls still run beside the held calls
        assert not any(poll.done() for poll in polls)  # nothing woke them: nothing is ready
        p50 = statistics.median(latencies)
        assert p50 < 0.05, f"health p50 {p50 * 1000:.1f} ms with 400 held calls"
        for watch in watches:
            watch.cancel()
        for poll in polls:
            poll.cancel()
    finally:
        for channel in channels:
            channel.close()
        h.close()


def test_stopping_answers_long_polls_and_ends_streams_unavailable(tmp_path: Path) -> None:
    h = start_server(tmp_path / "praxis.db", models=("echo", "idle"))
    run_id = _start_run(h, "req-stop", IDLE)
    channel = grpc.insecure_channel(h.address)
    try:
        watch = run_pb2_grpc.RunServiceStub(channel).WatchRun(
            run_pb2.WatchRunRequest(run_id=run_id), metadata=_metadata("alice")
        )
        next(watch)
        poll = task_pb2_grpc.TaskServiceStub(channel).ClaimTasks.future(
            _claim(60_000), metadata=_metadata("agent")
        )
        time.sleep(0.3)
        started = time.monotonic()
        h.server.stop(5)
        assert time.monotonic() - started < 3  # nothing held the grace period
        assert not poll.result(timeout=5).tasks
        with pytest.raises(grpc.RpcError) as ended:
            next(watch)
        details = error_details(ended.value)
        assert (details.code, details.reason) == (
            grpc.StatusCode.UNAVAILABLE,
            "SERVER_UNAVAILABLE",
        )
    finally:
        channel.close()
        for client in h.clients.values():
            client.close()


def test_resuming_a_work_order_wakes_a_waiting_long_poll(tmp_path: Path) -> None:
    h = start_server(tmp_path / "praxis.db")
    try:
        run = governed(h)
        h.client("alice").admin.PauseWorkOrder(
            admin_pb2.PauseWorkOrderRequest(work_order_id="wo-1")
        )
        poll = h.client("agent").tasks.ClaimTasks.future(_claim(30_000))
        time.sleep(0.5)
        assert not poll.done()  # its run's ready node belongs to a paused work order
        h.client("alice").admin.ResumeWorkOrder(
            admin_pb2.ResumeWorkOrderRequest(work_order_id="wo-1")
        )
        resumed = time.monotonic()
        [task] = poll.result(timeout=10).tasks
        assert task.run_id == run.run_id
        assert time.monotonic() - resumed < 2  # woken by the resume, not the 10 s recheck
    finally:
        h.close()
