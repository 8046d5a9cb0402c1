"""Issue 8's "done when" items that had no test of their own (found by an audit):

- a ``SettleTasks`` batch mixing a valid settlement with a lease-expired attempt, an
  attempt already settled after a stop and another principal's attempt answers each on its own;
- long polls past the *total* limit (not only the per-principal one) are refused with
  ``RESOURCE_EXHAUSTED`` / ``LONG_POLL_LIMIT_REACHED`` and scope ``total``;
- ``WatchRun`` of a wide run streams the summary (``items_omitted``), not every item;
- health and reflection answer while every executor thread is busy.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from aiws.engine.v1 import common_pb2, run_pb2, run_pb2_grpc, task_pb2
from praxis.limits import ServingLimits
from praxis.store.runtime import records
from praxis_client import error_details
from tests.support.harness import Harness, start_server, token_of
from tests.support.runtime import (
    claim,
    completion,
    definition,
    expanded,
    fail,
    get_run,
    json_out,
    node,
    start,
    states,
)

pytestmark = pytest.mark.backends("sqlite", "postgres")

APPLIED = common_pb2.EFFECT_OUTCOME_APPLIED


def _claim_one(
    h: Harness, model: str, worker: str, principal: str = "agent", lease_ms: int = 60_000
) -> task_pb2.Task:
    response = h.client(principal).tasks.ClaimTasks(
        task_pb2.ClaimTasksRequest(
            worker_id=worker, models=[model], max_tasks=1, lease_ms=lease_ms, wait_ms=0
        )
    )
    [task] = response.tasks
    return task


def _wait_ready(h: Harness, run_id: str) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if get_run(h, run_id).nodes[0].state == run_pb2.NODE_STATE_READY:
            return
        time.sleep(0.05)
    raise AssertionError("the expired lease was not re-offered")


def test_a_batch_with_expired_superseded_and_foreign_attempts_answers_each(
    harness: Harness,
) -> None:
    for model in ("m-exp", "m-stop", "m-rogue", "m-ok"):
        assert not claim(harness, models=(model,))  # makes the model known
    retried = definition(
        "a", a=node(model="m-exp", retry={"attempts": 2, "backoff_ms": 0}, effects="idempotent")
    )
    expiring = start(harness, retried).run.run_id
    stale = _claim_one(harness, "m-exp", "w1", lease_ms=5_000)
    stopped = start(harness, definition("a", a=node(model="m-stop", effects="none"))).run.run_id
    settled_early = _claim_one(harness, "m-stop", "w1")
    foreign_run = start(harness, definition("a", a=node(model="m-rogue"))).run.run_id
    foreign = _claim_one(harness, "m-rogue", "w1", principal="rogue")  # same worker id
    valid_run = start(harness, definition("a", a=node(model="m-ok"))).run.run_id
    harness.client("alice").runs.StopRun(run_pb2.StopRunRequest(run_id=stopped))
    fail(harness, settled_early, "stopped")  # the stop is settled by this report
    harness.clock.advance(5_000)  # the m-exp lease expires (the others last 60 s)...
    harness.server.engine.signals.everything()  # ...as TestClockService.Advance wakes
    _wait_ready(harness, expiring)
    valid = _claim_one(harness, "m-ok", "w1")
    again = _claim_one(harness, "m-exp", "w2")
    assert again.attempt == 2
    response = harness.client("agent").tasks.SettleTasks(
        task_pb2.SettleTasksRequest(
            settlements=[
                completion(stale, "late", "w1"),
                completion(valid, "fine", "w1"),
                completion(settled_early, "late", "w1"),
                completion(foreign, "forged", "w1"),
            ]
        )
    )
    answers = [
        (r.attempt_id, r.WhichOneof("result"), r.error.code, r.error.reason)
        for r in response.results
    ]
    assert answers == [
        (stale.attempt_id, "error", grpc.StatusCode.FAILED_PRECONDITION.value[0], "LEASE_EXPIRED"),
        (valid.attempt_id, "complete", 0, ""),
        (
            settled_early.attempt_id,
            "error",
            grpc.StatusCode.ALREADY_EXISTS.value[0],
            "ATTEMPT_ALREADY_SETTLED",
        ),
        (
            foreign.attempt_id,
            "error",
            grpc.StatusCode.PERMISSION_DENIED.value[0],
            "ATTEMPT_NOT_YOURS",
        ),
    ]
    assert not response.results[1].complete.replayed
    done = get_run(harness, valid_run)
    assert done.state == run_pb2.RUN_STATE_COMPLETED and json.loads(done.result_json) == "fine"
    retrying = get_run(harness, expiring)  # the second attempt still holds the node
    assert states(retrying)["a"] == "RUNNING" and retrying.nodes[0].attempt_id == again.attempt_id
    assert get_run(harness, stopped).state == run_pb2.RUN_STATE_CANCELLED
    untouched = get_run(harness, foreign_run)  # still leased to rogue, nothing stored
    assert states(untouched)["a"] == "RUNNING" and not untouched.result_json
    assert untouched.nodes[0].attempt_id == foreign.attempt_id


@pytest.fixture
def two_long_polls(tmp_path: Path) -> Iterator[Harness]:
    h = start_server(
        tmp_path / "praxis.db",
        serving=ServingLimits(max_long_polls=2, max_long_polls_per_principal=1),
    )
    try:
        yield h
    finally:
        h.close()


def _waiting_claim(worker: str) -> task_pb2.ClaimTasksRequest:
    return task_pb2.ClaimTasksRequest(
        worker_id=worker, models=["echo"], max_tasks=1, lease_ms=30_000, wait_ms=20_000
    )


def test_long_polls_past_the_total_limit_are_refused_with_scope_total(
    two_long_polls: Harness,
) -> None:
    h = two_long_polls
    waiting = [
        h.client(principal).tasks.ClaimTasks.future(_waiting_claim(f"w-{principal}"))
        for principal in ("agent", "rogue")  # one each: the per-principal limit is 1
    ]
    time.sleep(0.3)  # both wait now: the total (2) is reached
    assert not any(poll.done() for poll in waiting)
    with pytest.raises(grpc.RpcError) as refused:
        h.client("alice").tasks.ClaimTasks(_waiting_claim("w-alice"))  # alice holds none
    details = error_details(refused.value)
    assert (details.code, details.reason) == (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "LONG_POLL_LIMIT_REACHED",
    )
    assert "total: 2" in details.message
    waiting[0].cancel()
    time.sleep(0.3)  # the server sees the cancellation and frees the slot
    third = h.client("alice").tasks.ClaimTasks.future(_waiting_claim("w-alice"))
    time.sleep(0.3)
    assert not third.done()  # admitted: it waits like the others
    start(h, definition("a", a=node(output=json_out())))  # one ready node
    deadline = time.monotonic() + 10
    while not (waiting[1].done() or third.done()) and time.monotonic() < deadline:
        time.sleep(0.02)
    woken = [poll for poll in (waiting[1], third) if poll.done()]
    assert len(woken) == 1 and len(woken[0].result().tasks) == 1  # the ready node, once
    for poll in (waiting[1], third):
        poll.cancel()


def test_watch_run_of_a_wide_run_streams_the_summary(harness: Harness) -> None:
    limit = records.SNAPSHOT_NODES_MAX
    run_id = expanded(harness, limit + 500)  # 1,503 nodes and items
    stream = harness.client("agent").runs.WatchRun(run_pb2.WatchRunRequest(run_id=run_id))
    try:
        first = next(stream).run
        assert first.items_omitted and first.node_count == limit + 503
        assert [n.node_uid for n in first.nodes] == ["split", "each", "join"]
        assert first.nodes[1].fanout_items == limit + 500
        [task] = claim(harness, max_tasks=1)
        harness.client("agent").tasks.CompleteTask(
            task_pb2.CompleteTaskRequest(
                attempt_id=task.attempt_id, worker_id="w1", result_json="{}", effect=APPLIED
            )
        )
        update = next(stream).run
        while update.nodes[1].fanout_items_done < 1:  # the claim's snapshot came first
            update = next(stream).run
        assert update.items_omitted and len(update.nodes) == 3
        assert update.nodes[1].fanout_items_done == 1
    finally:
        stream.cancel()


@pytest.mark.parametrize("shared", [False, True], ids=["one-process", "several-processes"])
def test_health_and_reflection_answer_while_every_executor_thread_is_busy(
    tmp_path: Path, shared: bool
) -> None:
    """Issue 8: health and reflection are never starved by other calls. Every thread of
    the bounded executor is taken (as by slow unary calls), yet both answer at once.
    Issue 40: on SQLite the hot calls (StartRun, GetRun, SettleTasks) run on the event
    loop and answer at once too; a listing waits for a pool thread."""
    h = start_server(
        tmp_path / "praxis.db",
        serving=ServingLimits(executor_threads=2),
        decide_ahead=shared,  # as when other processes write the same file
    )
    release = threading.Event()
    busy = [h.server.executor.submit(release.wait, 30) for _ in range(2)]
    alice = [("authorization", f"Bearer {token_of('alice')}")]
    try:
        with grpc.insecure_channel(h.address) as channel:
            runs = run_pb2_grpc.RunServiceStub(channel)
            queued = runs.ListRuns.future(run_pb2.ListRunsRequest(), metadata=alice)
            health = health_pb2_grpc.HealthStub(channel)
            reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
            for _ in range(5):
                began = time.perf_counter()
                assert health.Check(health_pb2.HealthCheckRequest(), timeout=2).status == (
                    health_pb2.HealthCheckResponse.SERVING
                )
                ask = reflection_pb2.ServerReflectionRequest(list_services="")
                answer = next(reflection.ServerReflectionInfo(iter([ask]), timeout=2))
                assert answer.list_services_response.service
                assert time.perf_counter() - began < 1.0
            started = runs.StartRun(
                run_pb2.StartRunRequest(
                    request_id="r1", definition_json=json.dumps(definition("a", a=node()))
                ),
                metadata=alice,
                timeout=2,
            ).run
            got = runs.GetRun(run_pb2.GetRunRequest(run_id=started.run_id), metadata=alice)
            assert got.run.run_id == started.run_id
            with pytest.raises(grpc.RpcError) as missing:  # refused on the loop, at once
                runs.GetRun(run_pb2.GetRunRequest(run_id="run-x"), metadata=alice, timeout=2)
            assert error_details(missing.value).reason == "RUN_NOT_FOUND"
            assert not queued.done()  # the listing waits for a thread
            release.set()
            assert [r.run_id for r in queued.result(timeout=10).runs] == [started.run_id]
    finally:
        release.set()
        for future in busy:
            future.result(timeout=5)
        h.close()
