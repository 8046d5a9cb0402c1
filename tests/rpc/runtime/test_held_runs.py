"""Issue 40 item 4: a run held in the process (:mod:`praxis.store.runtime.held`).

Claims and settlements decide on the copy of a run this process wrote or read, without
reading the run, its attempt or a node's input; the save's compare-and-swap on the run's
version checks the copy. Here two servers share one SQLite file (as ``praxis serve
--processes 2`` does): a command on a copy that the other server has since changed is
decided again on the stored run, with the answer and rows the other server gives.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest

from aiws.engine.v1 import run_pb2, task_pb2
from praxis.clock import TestClock
from praxis.observability import metrics
from praxis.store.runtime.held import HeldRuns
from praxis.store.runtime.rows import loading
from praxis.store.runtime.rows.attempts import load_attempt
from praxis_client import error_details
from tests.support.harness import T0, Harness, start_server
from tests.support.runtime import (
    claim,
    complete,
    definition,
    fail,
    get_run,
    json_out,
    node,
    start,
)

CHAIN = definition(
    "c",
    a=node(output=json_out(), effects="idempotent"),
    b=node("node:a", ("a",), json_out(), effects="idempotent"),
    c=node("node:b", ("b",), json_out(), effects="idempotent"),
)


def two_servers(path: Path, **settings: object) -> Iterator[tuple[Harness, Harness]]:
    """Two servers on one SQLite file and one clock."""
    clock = TestClock(T0)
    first = start_server(path, clock, sweeper=False, metrics=True, **settings)
    try:
        second = start_server(path, clock, sweeper=False, metrics=True, **settings)
        try:
            yield first, second
        finally:
            second.close()
    finally:
        first.close()


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[Harness, Harness]]:
    """Two servers on one SQLite file, each deciding on the copies it holds unread."""
    yield from two_servers(tmp_path / "praxis.db")


@pytest.fixture
def deciding_ahead(tmp_path: Path) -> Iterator[tuple[Harness, Harness]]:
    """Two servers as ``praxis serve --processes 2`` runs them: deciding heartbeats and
    settlements ahead of the writers' turn."""
    yield from two_servers(tmp_path / "praxis.db", decide_ahead=True)


def stale_copies() -> Callable[[], float]:
    """How many commands decided on a stale copy (and again on the stored run) since."""

    def value() -> float:
        return metrics.REGISTRY.get_sample_value("praxis_stale_copies_total") or 0.0

    before = value()
    return lambda: value() - before


def held(h: Harness) -> HeldRuns:
    found: HeldRuns = h.server.engine.context.unit.snapshots
    return found


def answer(call: object) -> tuple[object, ...]:
    """A call's response, or its error's code and reason."""
    try:
        return ("ok", call())  # type: ignore[operator]
    except grpc.RpcError as error:
        details = error_details(error)
        return ("error", details.code, details.reason)


def test_a_settlement_on_a_copy_another_server_changed_is_decided_on_the_stored_run(
    pair: tuple[Harness, Harness],
) -> None:
    a, b = pair
    run_id = start(a, CHAIN, {"x": 1}).run.run_id
    [task] = claim(a)
    assert held(a).attempt(task.attempt_id) is not None  # a decides on it without a read
    complete(b, task, {"v": 1})  # the other server settles it: a's copy is stale
    stale = stale_copies()
    duplicate = answer(lambda: complete(a, task, {"v": 2}))
    assert stale() == 1  # decided on the copy, found stale, decided again
    assert duplicate == answer(lambda: complete(b, task, {"v": 2}))
    assert duplicate[0] == "error"  # a different payload for a settled attempt
    [next_task] = claim(a)
    assert next_task.node_id == "b"
    assert json.loads(next_task.input_json) == {"v": 1}  # the stored result, not the copy's
    complete(a, next_task, {"v": 3})
    [last] = claim(a)
    complete(a, last, {"v": 4})
    run = get_run(b, run_id)
    assert run.state == run_pb2.RUN_STATE_COMPLETED
    assert json.loads(run.result_json) == {"v": 4}


def test_a_claim_on_a_copy_another_server_changed_leases_what_is_stored(
    pair: tuple[Harness, Harness],
) -> None:
    a, b = pair
    run_id = start(a, CHAIN, {"x": 1}).run.run_id
    [task] = claim(a)
    complete(b, task, {"v": 1})  # readies b; a holds the run with b still pending
    assert held(a).record(run_id) is not None
    assert held(a).record(run_id).state.nodes["b"].status.value == "PENDING"  # type: ignore[union-attr]
    stale = stale_copies()
    [next_task] = claim(a)  # the copy refuses b: the claim reads the run and leases it
    assert stale() == 1
    assert next_task.node_id == "b"
    assert json.loads(next_task.input_json) == {"v": 1}
    assert get_run(b, run_id).nodes[1].state == run_pb2.NODE_STATE_RUNNING


def test_a_heartbeat_and_a_failure_on_stale_copies_answer_as_the_other_server_does(
    pair: tuple[Harness, Harness],
) -> None:
    a, b = pair
    run_id = start(a, CHAIN, {"x": 1}).run.run_id
    [task] = claim(a)
    fail(b, task, retryable=True)  # the attempt ends on the other server
    assert held(a).attempt(task.attempt_id) is not None  # a's copy says it is live
    beat = task_pb2.HeartbeatRequest(attempt_id=task.attempt_id, worker_id="w1", lease_ms=30_000)
    stale = stale_copies()
    on_a = answer(lambda: a.client("agent").tasks.Heartbeat(beat))
    assert stale() == 1
    assert on_a == answer(lambda: b.client("agent").tasks.Heartbeat(beat))
    assert on_a == answer(lambda: a.client("agent").tasks.Heartbeat(beat))  # read now
    assert get_run(a, run_id) == get_run(b, run_id)


def copy_attempt(h: Harness, attempt_id: str) -> object:
    with h.server.engine.db.read() as connection:
        return load_attempt(connection, attempt_id)


def test_the_copy_held_is_the_run_as_stored(pair: tuple[Harness, Harness]) -> None:
    a, _ = pair
    run_id = start(a, CHAIN, {"x": 1}, labels={"team": "x"}).run.run_id
    unit = a.server.engine.context.unit

    def stored() -> object:
        with unit.db.read() as connection:
            return loading.load(connection, run_id, unit.definition)

    for _ in range(3):
        [task] = claim(a)
        copy = held(a).record(run_id)
        assert copy is not None and copy == stored()
        assert held(a).attempt(task.attempt_id) == (copy, copy_attempt(a, task.attempt_id))
        complete(a, task, {"n": task.node_id})
        assert held(a).record(run_id) == stored()
        assert held(a).attempt(task.attempt_id) is None  # settled: no longer held


def test_a_poll_woken_by_the_other_server_claims_what_is_stored(
    pair: tuple[Harness, Harness],
) -> None:
    a, b = pair
    first = start(a, CHAIN, {"x": 1}).run.run_id
    [task] = claim(a)  # a holds the run with b pending
    waiting = a.client("agent").tasks.ClaimTasks.future(
        task_pb2.ClaimTasksRequest(
            worker_id="w-parked", models=["echo"], max_tasks=1, lease_ms=30_000, wait_ms=10_000
        )
    )
    deadline = time.monotonic() + 10
    while a.server.engine.tasks.waiters.parked() != 1:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    stale = stale_copies()
    complete(b, task, {"v": 1})  # readies b on the other server, which wakes the poll
    [woken] = waiting.result(timeout=10).tasks
    assert stale() == 1  # its claim met the stale copy, and claimed on the stored run
    assert (woken.run_id, woken.node_id) == (first, "b")
    assert json.loads(woken.input_json) == {"v": 1}
    second = start(a, CHAIN, {"x": 2}).run.run_id
    [then] = claim(a)
    assert (then.run_id, then.node_id) == (second, "a")


def test_a_settle_and_claim_on_stale_copies_answers_as_on_the_stored_run(
    pair: tuple[Harness, Harness],
) -> None:
    a, b = pair
    run_id = start(a, CHAIN, {"x": 1}).run.run_id
    [task] = claim(a)
    complete(b, task, {"v": 1})  # a holds the run with the attempt live and b pending
    stale = stale_copies()
    response = a.client("agent").tasks.SettleTasks(
        task_pb2.SettleTasksRequest(
            settlements=[
                task_pb2.Settlement(
                    complete=task_pb2.CompleteTaskRequest(
                        attempt_id=task.attempt_id,
                        worker_id="w1",
                        result_json=json.dumps({"v": 1}),
                        effect=1,
                    )
                )
            ],
            claim=task_pb2.ClaimTasksRequest(
                worker_id="w1", models=["echo"], max_tasks=1, lease_ms=30_000
            ),
        )
    )
    assert stale() == 2  # the settlement and the claim, each decided again on its own
    [result] = response.results
    assert result.complete.replayed  # the same payload again: a replay, as stored
    [next_task] = response.tasks
    assert (next_task.run_id, next_task.node_id) == (run_id, "b")
    assert json.loads(next_task.input_json) == {"v": 1}
    assert get_run(a, run_id) == get_run(b, run_id)


def test_servers_deciding_ahead_decide_on_their_copies_as_one_process_does(
    deciding_ahead: tuple[Harness, Harness],
) -> None:
    a, b = deciding_ahead
    run_id = start(a, CHAIN, {"x": 1}).run.run_id
    [task] = claim(a)
    assert held(a).record(run_id) is not None
    complete(b, task, {"v": 1})  # decided ahead on b, which read the run
    stale = stale_copies()
    [next_task] = claim(a)  # on a's stale copy: decided again on the stored run
    assert stale() == 1
    assert (next_task.node_id, json.loads(next_task.input_json)) == ("b", {"v": 1})
    complete(a, next_task, {"v": 2})  # on the copy a wrote: current
    [last] = claim(a)
    assert json.loads(last.input_json) == {"v": 2}
    assert stale() == 1
    assert get_run(a, run_id) == get_run(b, run_id)
