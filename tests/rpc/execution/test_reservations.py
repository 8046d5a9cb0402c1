"""A contract's budget across runs: dispatch reserves a node's declared maximum cost until
the attempt ends, so runs sharing a contract cannot overspend it together."""

from __future__ import annotations

import threading
from collections.abc import Callable
from decimal import Decimal

import pytest

from aiws.engine.v1 import common_pb2, run_pb2, task_pb2
from praxis.store.runtime.rows import reservations
from tests.support.execution import (
    create_contract,
    fail_task,
    get_contract,
    run_of,
    settle,
    start_run,
)
from tests.support.harness import Harness
from tests.support.runtime import claim, definition, json_out, node

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


ONE = {"attempts": 1, "backoff_ms": 10}
COSTLY = definition("a", a=node(output=json_out(), max_cost_microcredits="50", retry=ONE))
CHEAP = definition("a", a=node(output=json_out(), max_cost_microcredits="40", retry=ONE))


def reserved(h: Harness, contract_id: str = "c-1") -> Decimal:
    with h.server.engine.db.read() as connection:
        return reservations.reserved(connection, contract_id)


def test_two_runs_on_one_contract_race_for_the_last_of_the_budget(model: Harness) -> None:
    create_contract(model, budget="100")
    start_run(model, CHEAP, contract_id="c-1")
    [task] = claim(model)
    settle(model, task, cost="40")  # 60 remain; each racer may cost up to 50
    racers = [start_run(model, COSTLY, contract_id="c-1").run_id for _ in range(2)]
    barrier = threading.Barrier(2)
    claimed: list[tuple[str, task_pb2.Task]] = []

    def worker(name: str) -> None:
        barrier.wait()
        claimed.extend((name, found) for found in claim(model, worker=name, max_tasks=1))

    threads = [threading.Thread(target=worker, args=(f"w{i}",)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(claimed) == 1  # without the reservation both would run: 50 + 50 > 60
    [(name, winner)] = claimed
    [loser] = [run_id for run_id in racers if run_id != winner.run_id]
    if run_of(model, loser).state == run_pb2.RUN_STATE_RUNNING:
        # Over two replicas the loser's claim may have found the other run's row locked
        # by the winner's claim (SKIP LOCKED) and claimed nothing: the next claim refuses it.
        assert claim(model, worker="w2", max_tasks=1) == []
    refused = run_of(model, loser)
    assert (refused.state, refused.result_reason) == (run_pb2.RUN_STATE_FAILED, "BUDGET_EXCEEDED")
    assert reserved(model) == Decimal(50)
    settle(model, winner, cost="49.5", worker=name)
    assert reserved(model) == 0
    contract = get_contract(model)
    assert (contract.spent_microcredits, contract.remaining_microcredits) == ("89.5", "10.5")
    assert run_of(model, winner.run_id).state == run_pb2.RUN_STATE_COMPLETED


def _complete(h: Harness, task: task_pb2.Task) -> None:
    settle(h, task, cost="30")


def _fail(h: Harness, task: task_pb2.Task) -> None:
    fail_task(h, task, common_pb2.EFFECT_OUTCOME_NOT_APPLIED, retryable=False)


def _uncertain(h: Harness, task: task_pb2.Task) -> None:
    settle(h, task, cost="30", effect=common_pb2.EFFECT_OUTCOME_UNCERTAIN)


def _expire(h: Harness, _task: task_pb2.Task) -> None:
    h.clock.advance(30_001)
    assert h.server.engine.runs.sweep() == 1


def _stop(h: Harness, task: task_pb2.Task) -> None:
    h.client("agent").runs.StopRun(run_pb2.StopRunRequest(run_id=task.run_id))
    assert reserved(h) == Decimal(50)  # asked to stop, the attempt still runs
    fail_task(h, task, common_pb2.EFFECT_OUTCOME_NOT_APPLIED)  # its report ends it


@pytest.mark.parametrize("end", [_complete, _fail, _uncertain, _expire, _stop])
def test_a_reservation_lasts_until_its_attempt_ends(
    model: Harness, end: Callable[[Harness, task_pb2.Task], None]
) -> None:
    create_contract(model, budget="90")
    start_run(model, COSTLY, contract_id="c-1")
    [task] = claim(model)
    assert reserved(model) == Decimal(50)
    end(model, task)
    assert reserved(model) == 0
    spent = Decimal(get_contract(model).spent_microcredits)
    assert spent in (0, 30)
    second = start_run(model, CHEAP, contract_id="c-1")  # 40 fits only once 50 is released
    [again] = claim(model)
    assert again.run_id == second.run_id
    assert reserved(model) == Decimal(40)
    settle(model, again, cost="40")
    assert reserved(model) == 0
    assert Decimal(get_contract(model).spent_microcredits) == spent + 40


def test_a_running_attempt_of_the_same_run_counts_once(model: Harness) -> None:
    create_contract(model, budget="100")
    pair = definition(
        "j",
        x=node(output=json_out(), max_cost_microcredits="50"),
        y=node(output=json_out(), max_cost_microcredits="50"),
        j=node(["node:x", "node:y"], ("x", "y"), json_out()),
    )
    start_run(model, pair, contract_id="c-1")
    assert len(claim(model)) == 2  # 50 + 50 fits 100 exactly: nothing is counted twice
    assert reserved(model) == Decimal(100)
