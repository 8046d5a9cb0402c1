"""The Python worker runtime against docs/workers.md: outcomes, cost, async handlers,
unserialisable results, loud start failures, batch settle and its fallback, draining."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import run_pb2
from praxis_client import connect
from praxis_client.client import Client
from praxis_client.worker import (
    Applied,
    NotApplied,
    TaskContext,
    Uncertain,
    Worker,
    WorkerError,
)
from tests.support.execution import create_contract, get_contract
from tests.support.harness import Harness
from tests.support.runtime import TERMINAL, definition, get_run, json_out, node, start

pytestmark = pytest.mark.backends("sqlite")

RETRY3 = {"attempts": 3, "backoff_ms": 0}


def wait_for(h: Harness, run_id: str, done: Callable[[run_pb2.Run], bool]) -> run_pb2.Run:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        run = get_run(h, run_id)
        if done(run):
            return run
        time.sleep(0.02)
    raise AssertionError(f"condition not reached: {get_run(h, run_id)}")


def eventually(condition: Callable[[], bool], timeout_s: float = 5) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def ended(h: Harness, run_id: str) -> run_pb2.Run:
    return wait_for(h, run_id, lambda r: r.state in TERMINAL)


def blocked(h: Harness, run_id: str) -> run_pb2.Run:
    return wait_for(h, run_id, lambda r: r.nodes[0].state == run_pb2.NODE_STATE_BLOCKED)


def one(**extra: Any) -> dict[str, Any]:
    return definition("a", a=node(output=json_out(), **extra))


class CountingTasks:
    """Delegates to a TaskService stub, counting calls; ``broken`` methods answer
    UNIMPLEMENTED for real (they call a method the server does not have)."""

    def __init__(self, client: Client, broken: tuple[str, ...] = ()) -> None:
        self._stub = client.tasks
        self._channel = client.channel
        self.calls: Counter[str] = Counter()
        self.broken = broken

    def __getattr__(self, name: str) -> Any:
        self.calls[name] += 1
        if name in self.broken:
            return self._channel.unary_unary(
                f"/aiws.engine.v1.TaskService/{name}Missing",
                request_serializer=lambda message: message.SerializeToString(),
            )
        return getattr(self._stub, name)


@pytest.fixture
def running(harness: Harness) -> Iterator[Callable[..., Worker]]:
    started: list[Worker] = []

    def make(handler: Callable[[TaskContext], Any], **options: Any) -> Worker:
        client = options.pop("client", None) or harness.client("agent")
        worker = Worker(client, ["echo"], handler, poll_ms=200, **options).start()
        started.append(worker)
        return worker

    yield make
    for worker in started:
        worker.stop(5)


def scripted(task: TaskContext) -> Any:
    spec = task.input
    kind = spec["do"]
    if kind == "applied":
        return Applied({"ok": 1})
    if kind == "not-applied":
        return NotApplied("refused", retryable=spec["retryable"])
    if kind == "raise-not-applied":
        raise NotApplied("refused loudly", retryable=spec["retryable"])
    if kind == "uncertain":
        raise Uncertain("timed out mid-write")
    if kind == "uncertain-result":
        return Uncertain("unsure", result={"maybe": True})
    if kind == "crash":
        raise ValueError("a bug")
    if kind == "set":
        return {"tags": {"a", "b"}}
    if kind == "float-cost":
        return Applied({"ok": 1}, cost=0.5)
    if kind == "not-an-object":
        return "plain text"
    raise AssertionError(kind)


def test_each_outcome_settles_with_its_effect(
    harness: Harness, running: Callable[..., Worker]
) -> None:
    worker = running(scripted, concurrency=4)
    runs = {
        name: start(harness, one(retry=RETRY3), {"do": name, "retryable": retryable}).run.run_id
        for name, retryable in [
            ("applied", False),
            ("not-applied", False),
            ("raise-not-applied", True),
        ]
    }
    # An uncaught error is retried only on a node that declares a repeat safe.
    runs["crash"] = start(
        harness, one(retry=RETRY3, effects="idempotent"), {"do": "crash"}
    ).run.run_id
    applied = ended(harness, runs["applied"])
    assert applied.state == run_pb2.RUN_STATE_COMPLETED
    assert json.loads(applied.result_json) == {"ok": 1}
    refused = ended(harness, runs["not-applied"])
    assert refused.state == run_pb2.RUN_STATE_FAILED and refused.nodes[0].attempts == 1
    retried = ended(harness, runs["raise-not-applied"])
    assert retried.nodes[0].attempts == 3 and "refused loudly" in retried.nodes[0].error
    crashed = ended(harness, runs["crash"])  # uncaught, idempotent node: retryable NOT_APPLIED
    assert crashed.nodes[0].attempts == 3 and "ValueError: a bug" in crashed.nodes[0].error
    # uncertain outcomes, and an uncaught error on a node that declares nothing: UNCERTAIN
    for kind in ("uncertain", "uncertain-result", "crash"):
        run = start(harness, one(retry=RETRY3), {"do": kind}).run
        stuck = blocked(harness, run.run_id)
        assert stuck.nodes[0].attempts == 1 and stuck.state not in TERMINAL
    # the worker books an answer just after the server committed it
    counted = eventually(
        lambda: (
            (worker.counters.uncertain, worker.counters.completed, worker.counters.failed)
            == (3, 1, 1 + 3 + 3)
        )
    )
    assert counted, worker.counters


def test_unserialisable_results_and_bad_costs_fail_at_once(
    harness: Harness, running: Callable[..., Worker]
) -> None:
    running(scripted)
    for kind, text in [("set", "result is not JSON-serialisable"), ("float-cost", "invalid cost")]:
        began = time.monotonic()
        run = ended(harness, start(harness, one(retry=RETRY3), {"do": kind}).run.run_id)
        assert run.state == run_pb2.RUN_STATE_FAILED
        assert run.nodes[0].attempts == 1
        assert run.nodes[0].error.startswith(text)
        assert time.monotonic() - began < 5


def test_a_result_the_contract_refuses_is_failed_not_left_to_expire(
    harness: Harness, running: Callable[..., Worker]
) -> None:
    running(scripted)
    run = start(harness, one(retry=RETRY3), {"do": "not-an-object"}).run
    done = ended(harness, run.run_id)
    assert done.state == run_pb2.RUN_STATE_FAILED
    assert done.nodes[0].attempts == 3  # RESULT_CONTRACT_VIOLATION is retryable
    assert done.nodes[0].error.startswith("result rejected: RESULT_CONTRACT_VIOLATION")


def test_costs_reach_the_contract(model: Harness) -> None:  # the fixture
    create_contract(model, budget="100")
    worker = Worker(
        model.client("agent"),
        ["echo"],
        lambda task: Applied({"ok": True}, cost=Decimal("60.50")),
        poll_ms=200,
    ).start()
    try:
        run = start(model, one(), None, contract_id="c-1").run
        assert ended(model, run.run_id).state == run_pb2.RUN_STATE_COMPLETED
        assert get_contract(model).spent_microcredits == "60.5"
    finally:
        worker.stop(5)


def test_async_handlers_complete_and_see_cancellation(
    harness: Harness, running: Callable[..., Worker]
) -> None:
    cancelled = threading.Event()

    async def handle(task: TaskContext) -> Any:
        if task.input == "wait":
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                cancelled.set()
                raise
        await asyncio.sleep(0.01)
        return {"async": task.input}

    running(handle, concurrency=2, lease_ms=1_000)
    quick = ended(harness, start(harness, one(), "now").run.run_id)
    assert quick.state == run_pb2.RUN_STATE_COMPLETED
    assert json.loads(quick.result_json) == {"async": "now"}
    slow = start(harness, one(), "wait").run
    wait_for(harness, slow.run_id, lambda r: r.nodes[0].state == run_pb2.NODE_STATE_RUNNING)
    harness.client("agent").runs.StopRun(run_pb2.StopRunRequest(run_id=slow.run_id))
    assert cancelled.wait(5)


def test_a_bad_token_fails_start_loudly(harness: Harness) -> None:
    worker = Worker(connect(harness.address, "token-of-nobody"), ["echo"], scripted)
    with pytest.raises(WorkerError) as raised:
        worker.start()
    assert raised.value.details is not None
    assert raised.value.details.code == grpc.StatusCode.UNAUTHENTICATED
    assert raised.value.details.reason == "CREDENTIAL_INVALID"
    assert not worker._threads  # nothing keeps running


def test_batch_settle_through_settle_tasks(
    harness: Harness, running: Callable[..., Worker]
) -> None:
    client = harness.client("agent")
    tasks = CountingTasks(client)
    client.tasks = tasks  # type: ignore[assignment]
    worker = running(lambda task: {"n": task.input}, client=client, concurrency=4)
    runs = [start(harness, one(), i).run.run_id for i in range(6)]
    assert all(ended(harness, r).state == run_pb2.RUN_STATE_COMPLETED for r in runs)
    assert eventually(lambda: worker.counters.completed == 6)
    assert worker.batch_settle
    assert tasks.calls["SettleTasks"] >= 1
    assert tasks.calls["CompleteTask"] == 0


def test_fallback_to_complete_and_fail_when_settle_tasks_is_unimplemented(
    harness: Harness, running: Callable[..., Worker]
) -> None:
    client = harness.client("agent")
    tasks = CountingTasks(client, broken=("SettleTasks",))
    client.tasks = tasks  # type: ignore[assignment]
    worker = running(scripted, client=client, concurrency=2)
    good = start(harness, one(), {"do": "applied"}).run.run_id
    bad = start(harness, one(), {"do": "not-applied", "retryable": False}).run.run_id
    assert ended(harness, good).state == run_pb2.RUN_STATE_COMPLETED
    assert ended(harness, bad).state == run_pb2.RUN_STATE_FAILED
    assert eventually(lambda: (worker.counters.completed, worker.counters.failed) == (1, 1))
    assert not worker.batch_settle  # switched once, for good
    assert tasks.calls["SettleTasks"] == 1
    assert tasks.calls["CompleteTask"] == 1 and tasks.calls["FailTask"] == 1


def test_stop_drains_the_tasks_in_hand(harness: Harness) -> None:
    began = threading.Event()

    def slow(task: TaskContext) -> Any:
        began.set()
        time.sleep(0.8)
        return {"slept": True}

    worker = Worker(harness.client("agent"), ["echo"], slow, poll_ms=5_000).start()
    run = start(harness, one(), None).run
    assert began.wait(5)
    stopped_at = time.monotonic()
    worker.stop()
    assert time.monotonic() - stopped_at < 5  # the 5 s long poll was cancelled
    assert get_run(harness, run.run_id).state == run_pb2.RUN_STATE_COMPLETED
    assert worker.counters.completed == 1 and worker.counters.in_flight == 0
    assert not any(t.is_alive() for t in worker._threads)


def test_run_returns_after_request_stop(harness: Harness) -> None:
    worker = Worker(harness.client("agent"), ["echo"], lambda task: task.input, poll_ms=5_000)
    thread = threading.Thread(target=worker.run)
    thread.start()
    run = start(harness, one(), {"x": 1}).run
    assert ended(harness, run.run_id).state == run_pb2.RUN_STATE_COMPLETED
    worker.request_stop()
    thread.join(10)
    assert not thread.is_alive()


def test_progress_rides_on_rate_limited_heartbeats(
    harness: Harness, running: Callable[..., Worker]
) -> None:
    client = harness.client("agent")
    tasks = CountingTasks(client)
    client.tasks = tasks  # type: ignore[assignment]
    release = threading.Event()

    def handle(task: TaskContext) -> Any:
        for step in range(1, 11):
            task.progress(f"step {step} of 10", {"done": step, "total": 10})
        release.wait(10)
        return {"ok": True}

    running(handle, client=client, lease_ms=60_000)  # regular heartbeats every 20 s
    run = start(harness, one()).run

    def shown(r: run_pb2.Run) -> bool:
        return r.nodes[0].progress.text == "step 10 of 10"

    seen = wait_for(harness, run.run_id, shown).nodes[0].progress
    assert json.loads(seen.data_json) == {"done": 10, "total": 10}
    assert seen.reports <= 2  # the reports waiting were coalesced, never one call each
    assert tasks.calls["Heartbeat"] <= 2
    release.set()
    assert ended(harness, run.run_id).nodes[0].progress.text == "step 10 of 10"


@pytest.mark.parametrize(
    ("text", "data"),
    [
        ("x" * 513, None),
        ("é" * 257, None),
        ("", {"log": "y" * 1_100}),
        ("", {1, 2}),
        ("", {"ratio": 0.5}),
        ("", [2**53]),
    ],
)
def test_progress_past_the_server_caps_is_refused_in_the_handler(
    harness: Harness, running: Callable[..., Worker], text: str, data: Any
) -> None:
    refused: list[Exception] = []

    def handle(task: TaskContext) -> Any:
        try:
            task.progress(text, data)
        except ValueError as error:
            refused.append(error)
        task.progress("x" * 512, {"log": "y" * 1_000})  # at the caps: accepted
        return {"ok": True}

    running(handle)
    assert ended(harness, start(harness, one()).run.run_id).state == run_pb2.RUN_STATE_COMPLETED
    assert len(refused) == 1
