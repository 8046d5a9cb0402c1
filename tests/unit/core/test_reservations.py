"""The pure core's side of budgets and caps across runs: other runs' reserves in the
allowance."""

from __future__ import annotations

from decimal import Decimal

from praxis.core import contract, journal
from praxis.core import definition as d
from praxis.core import run as core
from tests.support.runtime import definition, json_out, node

T0 = 1_000_000
PAIR = definition(
    "j",
    x=node(output=json_out(), max_cost_microcredits="30"),
    y=node(output=json_out(), max_cost_microcredits="30"),
    j=node(["node:x", "node:y"], ("x", "y"), json_out()),
)


def started() -> core.RunState:
    parsed = d.parse(PAIR, None)
    assert isinstance(parsed, d.Definition), parsed
    outcome = core.apply(None, core.Start("run-1", parsed), T0)
    assert isinstance(outcome, core.Outcome)
    return outcome.state


def test_other_runs_reserves_count_against_the_budget_not_the_cap() -> None:
    budget = contract.Allowance(Decimal(100), 0, None, Decimal("70.5"))
    found = contract.refusal(budget, Decimal(30), Decimal(0), 0, T0)
    assert found is not None and found[0] == "BUDGET_EXCEEDED"
    assert contract.refusal(budget, Decimal("29.5"), Decimal(0), 0, T0) is None
    cap = contract.Allowance(None, 0, Decimal(100), Decimal(90))
    assert contract.refusal(cap, Decimal(30), Decimal(0), 0, T0) is None


def test_the_starters_other_runs_reserves_count_against_the_cap_not_the_budget() -> None:
    cap = contract.Allowance(None, 0, Decimal(100), cap_reserved=Decimal("70.5"))
    found = contract.refusal(cap, Decimal(30), Decimal(0), 0, T0)
    assert found is not None and found[0] == "SPEND_CAP_EXCEEDED"
    assert contract.refusal(cap, Decimal("29.5"), Decimal(0), 0, T0) is None
    own = contract.refusal(cap, Decimal("29.5"), Decimal("0.1"), 0, T0)  # plus its own
    assert own is not None and own[0] == "SPEND_CAP_EXCEEDED"
    budget = contract.Allowance(Decimal(100), 0, None, cap_reserved=Decimal(90))
    assert contract.refusal(budget, Decimal(30), Decimal(0), 0, T0) is None


def test_the_allowance_carries_cap_reserves_only_with_a_cap() -> None:
    capped = contract.allowance(None, Decimal(0), Decimal(100), Decimal(10), Decimal(0), Decimal(5))
    assert (capped.cap_remaining, capped.cap_reserved) == (Decimal(90), Decimal(5))
    free = contract.allowance(None, Decimal(0), None, Decimal(10), Decimal(0), Decimal(5))
    assert (free.cap_remaining, free.cap_reserved) == (None, 0)


def test_the_allowance_carries_reserves_only_under_a_contract() -> None:
    terms = contract.Contract("c", "wo", {}, T0 + 1, Decimal(100), "p")
    bound = contract.allowance(terms, Decimal(10), None, Decimal(0), Decimal(5))
    assert (bound.remaining, bound.contract_reserved) == (Decimal(90), Decimal(5))
    free = contract.allowance(None, Decimal(0), Decimal(9), Decimal(0), Decimal(5))
    assert (free.remaining, free.contract_reserved) == (None, 0)


def test_a_run_counts_its_own_reserves_and_the_others() -> None:
    state = started()
    allowance = contract.Allowance(Decimal(100), 0, None, Decimal(40))
    first = core.apply(state, core.Dispatch("x", "w", 1_000, allowance), T0)
    assert isinstance(first, core.Outcome)
    assert first.state.nodes["x"].status is core.NodeStatus.RUNNING
    second = core.apply(first.state, core.Dispatch("y", "w", 1_000, allowance), T0)
    assert isinstance(second, core.Outcome)  # 40 elsewhere + 30 own + 30 = 100: fits
    assert second.state.nodes["y"].status is core.NodeStatus.RUNNING
    tighter = contract.Allowance(Decimal(100), 0, None, Decimal("40.1"))
    refused = core.apply(first.state, core.Dispatch("y", "w", 1_000, tighter), T0)
    assert isinstance(refused, core.Outcome)
    assert refused.state.result_reason == "BUDGET_EXCEEDED"


def test_the_journal_keeps_the_reserves_of_a_dispatch() -> None:
    state = started()
    allowance = contract.Allowance(Decimal(100), 0, Decimal(50), Decimal(7), Decimal("2.5"))
    command = core.Dispatch("x", "w", 1_000, allowance)
    decoded = journal.decode(journal.encode(command), {state.definition.digest: state.definition})
    assert decoded == command
    older = journal.encode(command)
    assert isinstance(older["allowance"], dict)
    del older["allowance"]["contract_reserved"]  # entries written before reservations
    del older["allowance"]["cap_reserved"]  # and before cap reservations
    legacy = journal.decode(older, {})
    assert isinstance(legacy, core.Dispatch) and legacy.allowance is not None
    assert (legacy.allowance.contract_reserved, legacy.allowance.cap_reserved) == (0, 0)
