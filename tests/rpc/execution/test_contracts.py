"""Contracts, budgets, exact costs and spending caps over gRPC."""

from __future__ import annotations

import grpc
import pytest

from aiws.engine.v1 import contract_pb2, run_pb2
from tests.support.execution import create_contract, get_contract, run_of, settle, start_run
from tests.support.harness import Harness, expect_error
from tests.support.runtime import claim, definition, json_out, node

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


CHAIN = definition(
    "b",
    a=node(output=json_out()),
    b=node("node:a", ("a",), json_out(), max_cost_microcredits="50"),
)


def test_contract_is_immutable_and_idempotent(model: Harness) -> None:
    created = create_contract(model).contract
    assert created.contract_id == "c-1" and created.work_order_id == "wo-1"
    assert (created.spent_microcredits, created.remaining_microcredits) == ("0", "100")
    assert created.digest.startswith("sha256:")
    again = model.client("alice").contracts.CreateContract(
        contract_pb2.CreateContractRequest(
            contract_id="c-1",
            work_order_id="wo-1",
            criteria_json=created.criteria_json,
            deadline_ms=created.deadline_ms,
            budget_microcredits="100",
            profile="aiws.v1",
        )
    )
    assert again.replayed and again.contract.digest == created.digest
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "CONTRACT_ALREADY_EXISTS"):
        create_contract(model, budget="200")
    assert get_contract(model).budget_microcredits == "100"


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("budget_microcredits", "1.50", "DECIMAL_NOT_CANONICAL"),
        ("budget_microcredits", "1e3", "DECIMAL_NOT_CANONICAL"),
        ("budget_microcredits", "+1", "DECIMAL_NOT_CANONICAL"),
        ("budget_microcredits", "-0", "DECIMAL_NOT_CANONICAL"),
        ("budget_microcredits", "-1", "COST_INVALID"),
        ("budget_microcredits", "1" + "0" * 19, "COST_INVALID"),
        ("criteria_json", "[1]", "DOCUMENT_MALFORMED"),
        ("criteria_json", '{"x": 1.5}', "DOCUMENT_NUMBER_FORBIDDEN"),
        ("deadline_ms", 1, "TIME_INVALID"),
        ("contract_id", "wo-1", "IDENTIFIER_INVALID"),
        ("profile", "", "FIELD_REQUIRED"),
    ],
)
def test_bad_contracts_are_refused_and_change_nothing(
    model: Harness, field: str, value: object, reason: str
) -> None:
    request = contract_pb2.CreateContractRequest(
        contract_id="c-bad",
        work_order_id="wo-1",
        criteria_json="{}",
        deadline_ms=model.clock.now_ms() + 60_000,
        budget_microcredits="10",
        profile="aiws.v1",
    )
    setattr(request, field, value)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, reason):
        model.client("alice").contracts.CreateContract(request)
    with expect_error(grpc.StatusCode.NOT_FOUND, "CONTRACT_NOT_FOUND"):
        get_contract(model, request.contract_id)


def test_agents_may_not_create_contracts(model: Harness) -> None:
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        create_contract(model, principal="agent")


def test_a_run_names_an_existing_contract(model: Harness) -> None:
    with expect_error(grpc.StatusCode.NOT_FOUND, "CONTRACT_NOT_FOUND"):
        start_run(model, CHAIN, contract_id="c-missing")
    assert not model.client("alice").runs.ListRuns(run_pb2.ListRunsRequest()).runs


def test_costs_are_summed_exactly_and_the_budget_stops_dispatch(model: Harness) -> None:
    create_contract(model, budget="100")
    run = start_run(model, CHAIN, contract_id="c-1")
    [a] = claim(model)
    settle(model, a, cost="60.1")
    contract = get_contract(model)
    assert (contract.spent_microcredits, contract.remaining_microcredits) == ("60.1", "39.9")
    assert claim(model) == []  # b may cost 50: more than remains
    done = run_of(model, run.run_id)
    assert done.state == run_pb2.RUN_STATE_FAILED
    assert done.result_reason == "BUDGET_EXCEEDED"
    assert get_contract(model).spent_microcredits == "60.1"


def test_many_small_costs_add_up_without_rounding(model: Harness) -> None:
    create_contract(model, budget="1")
    fan = definition("a", a=node(output=json_out()))
    for _ in range(3):
        start_run(model, fan, contract_id="c-1")
    for task in claim(model):
        settle(model, task, cost="0.1")
    assert get_contract(model).spent_microcredits == "0.3"
    assert get_contract(model).remaining_microcredits == "0.7"


@pytest.mark.parametrize(
    ("cost", "reason"),
    [
        ("1.0", "DECIMAL_NOT_CANONICAL"),
        ("1e2", "DECIMAL_NOT_CANONICAL"),
        ("01", "DECIMAL_NOT_CANONICAL"),
        ("0.5 ", "DECIMAL_NOT_CANONICAL"),
        ("-5", "COST_INVALID"),
        ("9" * 30, "COST_INVALID"),
    ],
)
def test_bad_costs_are_refused_and_the_attempt_stays_live(
    model: Harness, cost: str, reason: str
) -> None:
    create_contract(model)
    run = start_run(model, definition("a", a=node(output=json_out())), contract_id="c-1")
    [task] = claim(model)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, reason):
        settle(model, task, cost=cost)
    assert get_contract(model).spent_microcredits == "0"
    assert run_of(model, run.run_id).state == run_pb2.RUN_STATE_AWAITING_NODES
    settle(model, task, cost="7")
    assert get_contract(model).spent_microcredits == "7"


def test_an_attempt_past_the_deadline_is_not_dispatched(model: Harness) -> None:
    create_contract(model, deadline_in_ms=10_000)
    run = start_run(model, CHAIN, contract_id="c-1")
    model.clock.advance(10_000)
    assert claim(model) == []
    failed = run_of(model, run.run_id)
    assert failed.state == run_pb2.RUN_STATE_FAILED
    assert failed.result_reason == "DEADLINE_EXCEEDED"


def test_a_timeout_that_would_pass_the_deadline_is_not_dispatched(model: Harness) -> None:
    create_contract(model, deadline_in_ms=10_000)
    slow = definition("a", a=node(output=json_out(), timeout_ms=20_000))
    run = start_run(model, slow, contract_id="c-1")
    assert claim(model) == []
    assert run_of(model, run.run_id).result_reason == "DEADLINE_EXCEEDED"


def test_a_grant_caps_a_principals_spending(model: Harness) -> None:
    single = definition("a", a=node(output=json_out()))
    start_run(model, single, principal="capped")
    second = start_run(model, single, principal="capped")
    tasks = claim(model, max_tasks=1)
    settle(model, tasks[0], cost="100")
    spending = model.client("capped").contracts.GetSpending(contract_pb2.GetSpendingRequest())
    assert (spending.spent_microcredits, spending.cap_microcredits) == ("100", "100")
    assert claim(model) == []  # the cap is spent: the second run's attempt is refused
    assert run_of(model, second.run_id).result_reason == "SPEND_CAP_EXCEEDED"
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "SPEND_CAP_EXCEEDED"):
        start_run(model, single, principal="capped")
    uncapped = model.client("agent").contracts.GetSpending(contract_pb2.GetSpendingRequest())
    assert (uncapped.spent_microcredits, uncapped.cap_microcredits) == ("0", "")


def test_spend_rebuilt_from_the_event_log_equals_the_live_spend(model: Harness) -> None:
    from praxis.core import contract, money
    from praxis.store.execution.rows import requests as model_rows
    from praxis.store.execution.rows.contracts import load, principal_spent

    create_contract(model, "c-1", budget="1000")
    create_contract(model, "c-2", budget="1000")
    single = definition("a", a=node(output=json_out()))
    for index, (contract_id, starter) in enumerate(
        [("c-1", "agent"), ("c-2", "agent"), ("c-1", "capped"), ("", "agent2")]
    ):
        fields = {"contract_id": contract_id} if contract_id else {}
        start_run(model, single, principal=starter, **fields)
        [task] = claim(model)
        settle(model, task, cost=f"{index + 1}.25")
    with model.server.engine.db.read() as connection:
        by_contract, by_principal = contract.replay_spend(model_rows.events(connection))
        for contract_id, spent in by_contract.items():
            found = load(connection, contract_id)
            assert found is not None and found.spent == spent
        for principal_id, spent in by_principal.items():
            assert principal_spent(connection, principal_id) == spent
    assert {k: money.text(v) for k, v in by_contract.items()} == {"c-1": "4.5", "c-2": "2.25"}
    assert money.text(by_principal["agent2"]) == "4.25"
