"""Ready work handed straight to a waiting long poll (issue 26 item 2, sync match).

The commit that readies an attempt leases it to a long poll parked in the same server
process, in the same transaction: the poll claims nothing itself. A poll that goes away
first gives back what it was handed: the node is ready again at once, its attempt not
counted, and nothing is handed twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import task_pb2
from praxis.store.runtime.matching import Waiter
from praxis.store.runtime.tasks import Claim
from tests.support.harness import Harness, expect_error
from tests.support.runtime import (
    claim,
    complete,
    definition,
    event_kinds,
    get_run,
    json_out,
    node,
    start,
    states,
)

pytestmark = pytest.mark.backends("sqlite", "postgres")  # one server: its own polls

CHAIN = definition("b", a=node(output=json_out()), b=node("node:a", ("a",)))


def until(check: Callable[[], Any], seconds: float = 10.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.01)
    raise AssertionError("not within the time")


def count_transactions(harness: Harness) -> list[int]:
    counted = [0]
    db = harness.server.engine.runs.db
    transact, transact_many = db.transact, db.transact_many

    def counting(body: Any, *args: Any, **kwargs: Any) -> Any:
        counted[0] += 1
        return transact(body, *args, **kwargs)

    def counting_many(bodies: Any, *args: Any, **kwargs: Any) -> Any:
        counted[0] += 1
        return transact_many(bodies, *args, **kwargs)

    db.transact = counting  # type: ignore[method-assign]
    db.transact_many = counting_many  # type: ignore[method-assign]
    return counted


def poll(harness: Harness, worker: str = "w-parked") -> Any:
    return harness.client("agent").tasks.ClaimTasks.future(
        task_pb2.ClaimTasksRequest(
            worker_id=worker, models=["echo"], max_tasks=1, lease_ms=30_000, wait_ms=20_000
        )
    )


def parked(harness: Harness) -> int:
    return harness.server.engine.tasks.waiters.parked()


def test_ready_work_is_leased_to_a_parked_poll_by_the_commit_that_readied_it(
    harness: Harness,
) -> None:
    waiting = poll(harness)
    until(lambda: parked(harness) == 1)
    counted = count_transactions(harness)
    run = start(harness, CHAIN).run
    assert counted == [1]  # StartRun's; the poll claimed nothing itself
    assert states(get_run(harness, run.run_id)) == {"a": "RUNNING", "b": "PENDING"}
    [task] = waiting.result(timeout=10).tasks
    assert (task.node_uid, task.attempt) == ("a", 1)
    assert counted == [1] and parked(harness) == 0

    second = poll(harness, "w-second")
    until(lambda: parked(harness) == 1)
    complete(harness, task, {}, worker="w-parked")  # readies b: handed in its commit
    [next_task] = second.result(timeout=10).tasks
    assert next_task.node_uid == "b" and counted == [2]


def test_who_gets_the_node_a_settle_and_claim_readied(harness: Harness) -> None:
    run = start(harness, CHAIN).run
    [a] = claim(harness)
    other = poll(harness, "w-other")
    until(lambda: parked(harness) == 1)
    response = harness.client("agent").tasks.SettleTasks(
        task_pb2.SettleTasksRequest(
            settlements=[
                task_pb2.Settlement(
                    complete=task_pb2.CompleteTaskRequest(
                        attempt_id=a.attempt_id, worker_id="w1", result_json="{}", effect=1
                    )
                )
            ],
            claim=task_pb2.ClaimTasksRequest(
                worker_id="w1", models=["echo"], max_tasks=1, lease_ms=30_000
            ),
        )
    )
    if harness.server.engine.runs.db.postgres:
        # Each command is its own transaction there: the settlement's commit hands b to
        # the parked poll before the claim's transaction begins.
        assert list(response.tasks) == []
        assert [t.node_uid for t in other.result(timeout=10).tasks] == ["b"]
    else:
        assert [t.node_uid for t in response.tasks] == ["b"]  # one commit: the claim's
        assert parked(harness) == 1 and not other.done()
        other.cancel()
    assert states(get_run(harness, run.run_id)) == {"a": "DONE", "b": "RUNNING"}


def test_a_cancelled_poll_leaves_and_is_handed_nothing(harness: Harness) -> None:
    waiting = poll(harness)
    until(lambda: parked(harness) == 1)
    waiting.cancel()
    until(lambda: parked(harness) == 0)
    run = start(harness, CHAIN).run
    assert states(get_run(harness, run.run_id))["a"] == "READY"
    [task] = claim(harness)
    assert (task.node_uid, task.attempt) == ("a", 1)


def test_what_a_poll_that_went_away_was_handed_is_given_back_at_once(
    harness: Harness,
) -> None:
    tasks = harness.server.engine.tasks
    agent = harness.server.engine.runs.authority.principal_of("agent", harness.clock.now_ms())
    handed: list[Any] = []

    def gone() -> None:  # the poll is cancelled just as its tasks arrive
        handed.append(waiter.tasks[0])
        tasks.waiters.abandon(waiter)

    waiter = tasks.waiters.park(
        Waiter(Claim("w-gone", ["echo"], 1, 30_000, "agent"), agent, lambda: True, gone)
    )
    run = start(harness, CHAIN).run
    until(lambda: states(get_run(harness, run.run_id))["a"] == "READY")
    [given] = handed
    assert event_kinds(harness, run.run_id) == ["RUN_STARTED", "NODE_DISPATCHED", "NODE_RETURNED"]
    [task] = claim(harness)  # ready again, for another worker, as a new attempt
    assert (task.node_uid, task.attempt) == ("a", 2) and task.attempt_id != given.attempt_id
    stale = task_pb2.Task(attempt_id=given.attempt_id)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORKER_MISMATCH"):
        complete(harness, stale, {}, worker="w1")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "ATTEMPT_SUPERSEDED"):
        complete(harness, stale, {}, worker="w-gone")
    assert parked(harness) == 0
