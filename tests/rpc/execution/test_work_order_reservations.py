"""Issue 42: dispatch reserves a running attempt's declared maximum cost against every
budgeted work order on its run's path until the attempt ends, so that concurrent runs in
one budgeted work order, or in two children of a budgeted parent, cannot together spend
beyond its budget. GetWorkOrderRecord reports what is reserved and counts it in what
remains."""

from __future__ import annotations

import threading
from collections.abc import Callable
from decimal import Decimal

import pytest

from aiws.engine.v1 import common_pb2, run_pb2, task_pb2
from aiws.engine.v1 import work_order_pb2 as pb
from praxis.store.controls import budgets
from tests.support.execution import fail_task, run_of, settle, start_run
from tests.support.harness import Harness
from tests.support.runtime import claim, definition, json_out, node

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")

ONE = {"attempts": 1, "backoff_ms": 10}
COSTLY = definition("a", a=node(output=json_out(), max_cost_microcredits="50", retry=ONE))
TIMED = definition(
    "a", a=node(output=json_out(), max_cost_microcredits="50", retry=ONE, timeout_ms=5_000)
)
LARGE = definition("a", a=node(output=json_out(), max_cost_microcredits="60", retry=ONE))


def _tree(h: Harness, mission_budget: str = "100", child_budget: str = "") -> None:
    """mission (budgeted) > left (``child_budget``), right (none of its own)."""
    client = h.client("alice").work_orders
    client.CreateWorkOrder(
        pb.CreateWorkOrderRequest(work_order_id="mission", budget_microcredits=mission_budget)
    )
    for child, budget in (("left", child_budget), ("right", "")):
        client.CreateWorkOrder(
            pb.CreateWorkOrderRequest(
                work_order_id=child, parent_id="mission", budget_microcredits=budget
            )
        )


def record(h: Harness, work_order_id: str) -> pb.WorkOrderRecord:
    request = pb.GetWorkOrderRecordRequest(work_order_id=work_order_id)
    return h.client("alice").work_orders.GetWorkOrderRecord(request).work_order


def held(h: Harness, work_order_id: str) -> Decimal:
    with h.server.engine.db.read() as connection:
        return budgets.reserved(connection, work_order_id)


def test_two_runs_in_two_children_race_for_the_last_of_their_parents_budget(
    model: Harness,
) -> None:
    _tree(model, "60")  # each racer may cost up to 50: together they would spend 100
    racers = [start_run(model, COSTLY, work_order_id=child).run_id for child in ("left", "right")]
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
    refused = run_of(model, loser)
    assert (refused.state, refused.result_reason) == (
        run_pb2.RUN_STATE_FAILED,
        "BUDGET_EXCEEDED",
    )
    mission = record(model, "mission")
    assert (mission.reserved_microcredits, mission.remaining_microcredits) == ("50", "10")
    assert held(model, "mission") == Decimal(50)
    settle(model, winner, cost="49.5", worker=name)
    mission = record(model, "mission")
    assert (mission.spent_microcredits, mission.reserved_microcredits) == ("49.5", "0")
    assert mission.remaining_microcredits == "10.5"
    assert run_of(model, winner.run_id).state == run_pb2.RUN_STATE_COMPLETED


def test_one_claim_does_not_dispatch_two_attempts_past_a_work_orders_budget(
    model: Harness,
) -> None:
    _tree(model, "100", child_budget="55")
    first = start_run(model, COSTLY, work_order_id="left")
    second = start_run(model, COSTLY, work_order_id="left")  # 50 + 50 > 55 in left
    third = start_run(model, COSTLY, work_order_id="right")  # 50 + 50 <= 100 in mission
    tasks = claim(model, max_tasks=3)
    assert sorted(task.run_id for task in tasks) == sorted([first.run_id, third.run_id])
    assert run_of(model, second.run_id).result_reason == "BUDGET_EXCEEDED"
    left, mission = record(model, "left"), record(model, "mission")
    assert (left.reserved_microcredits, left.remaining_microcredits) == ("50", "0")  # its parent's
    assert (mission.reserved_microcredits, mission.remaining_microcredits) == ("100", "0")
    assert record(model, "right").reserved_microcredits == "0"  # no budget of its own
    assert record(model, "right").remaining_microcredits == "0"  # its parent's
    for task in tasks:
        settle(model, task, cost="1")
    assert (held(model, "left"), held(model, "mission")) == (0, 0)
    assert record(model, "mission").remaining_microcredits == "98"


def _complete(h: Harness, task: task_pb2.Task) -> None:
    settle(h, task, cost="30")


def _fail(h: Harness, task: task_pb2.Task) -> None:
    fail_task(h, task, common_pb2.EFFECT_OUTCOME_NOT_APPLIED, retryable=False)


def _expire(h: Harness, _task: task_pb2.Task) -> None:
    h.clock.advance(30_001)
    assert h.server.engine.runs.sweep() == 1


def _time_out(h: Harness, _task: task_pb2.Task) -> None:
    h.clock.advance(5_001)  # the node's 5 s timeout, well inside its 30 s lease
    assert h.server.engine.runs.sweep() == 1


def _stop(h: Harness, task: task_pb2.Task) -> None:
    h.client("agent").runs.StopRun(run_pb2.StopRunRequest(run_id=task.run_id))
    fail_task(h, task, common_pb2.EFFECT_OUTCOME_NOT_APPLIED)  # the report ends the attempt


@pytest.mark.parametrize("end", [_complete, _fail, _expire, _time_out, _stop])
def test_a_work_order_reservation_lasts_until_its_attempt_ends(
    model: Harness, end: Callable[[Harness, task_pb2.Task], None]
) -> None:
    _tree(model, "100", child_budget="80")
    start_run(model, TIMED if end is _time_out else COSTLY, work_order_id="left")
    [task] = claim(model)
    assert (held(model, "left"), held(model, "mission")) == (50, 50)
    blocked = start_run(model, LARGE, work_order_id="right")  # 50 + 60 > 100
    assert claim(model) == []
    assert run_of(model, blocked.run_id).result_reason == "BUDGET_EXCEEDED"
    end(model, task)
    assert (held(model, "left"), held(model, "mission")) == (0, 0)
    spent = Decimal(record(model, "mission").spent_microcredits)
    assert spent in (0, 30)
    second = start_run(model, LARGE, work_order_id="right")  # 60 fits once 50 is released
    [again] = claim(model)
    assert again.run_id == second.run_id
    assert record(model, "mission").reserved_microcredits == "60"
    settle(model, again, cost="60")
    assert held(model, "mission") == 0
    assert Decimal(record(model, "mission").spent_microcredits) == spent + 60
