"""A principal's spending cap across its runs: dispatch reserves a node's declared maximum
cost against the principal that started the run until the attempt ends, so a capped
principal's concurrent runs cannot overspend its cap together. GetContract and
GetSpending report what is reserved."""

from __future__ import annotations

import threading
from collections.abc import Callable
from decimal import Decimal

import pytest

from aiws.engine.v1 import common_pb2, contract_pb2, run_pb2, task_pb2
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


CAPPED = "capped"  # its grant caps its spending at 100 (tests/support/execution.py)
ONE = {"attempts": 1, "backoff_ms": 10}
COSTLY = definition("a", a=node(output=json_out(), max_cost_microcredits="50", retry=ONE))
CHEAP = definition("a", a=node(output=json_out(), max_cost_microcredits="40", retry=ONE))
TIMED = definition(
    "a", a=node(output=json_out(), max_cost_microcredits="50", retry=ONE, timeout_ms=5_000)
)
LARGE = definition("a", a=node(output=json_out(), max_cost_microcredits="60", retry=ONE))


def held(h: Harness, principal_id: str = CAPPED) -> Decimal:
    with h.server.engine.db.read() as connection:
        return reservations.principal_reserved(connection, principal_id)


def spending(h: Harness, principal_id: str = CAPPED) -> contract_pb2.GetSpendingResponse:
    return h.client("alice").contracts.GetSpending(  # type: ignore[no-any-return]
        contract_pb2.GetSpendingRequest(principal_id=principal_id)
    )


def test_two_runs_of_a_capped_principal_race_for_the_last_of_its_cap(model: Harness) -> None:
    start_run(model, CHEAP, principal=CAPPED)
    [task] = claim(model)
    settle(model, task, cost="40")  # 60 of the cap remain; each racer may cost up to 50
    racers = [start_run(model, COSTLY, principal=CAPPED).run_id for _ in range(2)]
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
        "SPEND_CAP_EXCEEDED",
    )
    assert held(model) == Decimal(50)
    assert spending(model).reserved_microcredits == "50"
    settle(model, winner, cost="49.5", worker=name)
    assert held(model) == 0
    found = spending(model)
    assert (found.spent_microcredits, found.reserved_microcredits) == ("89.5", "0")
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


def _time_out(h: Harness, _task: task_pb2.Task) -> None:
    h.clock.advance(5_001)  # the node's 5 s timeout, well inside its 30 s lease
    assert h.server.engine.runs.sweep() == 1


def _stop(h: Harness, task: task_pb2.Task) -> None:
    h.client(CAPPED).runs.StopRun(run_pb2.StopRunRequest(run_id=task.run_id))
    fail_task(h, task, common_pb2.EFFECT_OUTCOME_NOT_APPLIED)  # the report ends the attempt


@pytest.mark.parametrize("end", [_complete, _fail, _uncertain, _expire, _time_out, _stop])
def test_a_cap_reservation_lasts_until_its_attempt_ends(
    model: Harness, end: Callable[[Harness, task_pb2.Task], None]
) -> None:
    start_run(model, TIMED if end is _time_out else COSTLY, principal=CAPPED)
    [task] = claim(model)
    assert held(model) == Decimal(50)
    end(model, task)
    assert held(model) == 0
    spent = Decimal(spending(model).spent_microcredits)
    assert spent in (0, 30)
    second = start_run(model, LARGE, principal=CAPPED)  # 60 fits only once 50 is released
    [again] = claim(model)
    assert again.run_id == second.run_id
    assert spending(model).reserved_microcredits == "60"
    settle(model, again, cost="60")
    assert held(model) == 0
    assert Decimal(spending(model).spent_microcredits) == spent + 60


def test_the_cap_counts_reserves_with_and_without_a_contract(model: Harness) -> None:
    create_contract(model, budget="1000")
    start_run(model, COSTLY, principal=CAPPED, contract_id="c-1")
    [task] = claim(model)
    other = start_run(model, LARGE, principal=CAPPED)  # no contract: 50 + 60 > 100
    assert claim(model) == []
    assert run_of(model, other.run_id).result_reason == "SPEND_CAP_EXCEEDED"
    assert get_contract(model).reserved_microcredits == "50"
    assert spending(model).reserved_microcredits == "50"
    settle(model, task, cost="1.25")
    assert get_contract(model).reserved_microcredits == "0"
    assert spending(model).reserved_microcredits == "0"


def test_an_uncapped_principals_runs_are_not_limited_by_their_reserves(model: Harness) -> None:
    for _ in range(3):
        start_run(model, LARGE)
    assert len(claim(model)) == 3
    assert spending(model, "agent").reserved_microcredits == "180"
    assert spending(model, "agent").cap_microcredits == ""


def test_get_contract_reports_what_running_attempts_reserve(model: Harness) -> None:
    created = create_contract(model, budget="100").contract
    assert (created.spent_microcredits, created.reserved_microcredits) == ("0", "0")
    pair = definition(
        "j",
        x=node(output=json_out(), max_cost_microcredits="0.25"),
        y=node(output=json_out(), max_cost_microcredits="30"),
        j=node(["node:x", "node:y"], ("x", "y"), json_out()),
    )
    start_run(model, pair, contract_id="c-1")
    x, y = sorted(claim(model), key=lambda task: task.node_id)
    contract = get_contract(model)
    assert (contract.reserved_microcredits, contract.remaining_microcredits) == ("30.25", "100")
    settle(model, x, cost="0.1")
    contract = get_contract(model)
    assert (contract.spent_microcredits, contract.reserved_microcredits) == ("0.1", "30")
    assert contract.remaining_microcredits == "99.9"
    settle(model, y, cost="0")
    assert get_contract(model).reserved_microcredits == "0"
