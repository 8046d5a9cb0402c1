"""The pure rules of work orders as a tree (issue 42, item 1)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from praxis.core import work_orders as core
from praxis.core.records import Control
from praxis.core.rejection import Rejection


def _node(work_order_id: str, *ancestors: str, **fields: object) -> core.Node:
    return core.Node(work_order_id, ancestors=tuple(ancestors), **fields)  # type: ignore[arg-type]


def _request(budget: str = "", actions: tuple[str, ...] = ()) -> core.Request:
    found = core.check_request("child", "parent", "", {}, budget, list(actions))
    assert isinstance(found, core.Request)
    return found


@pytest.mark.parametrize(
    ("own", "inherited", "applied"),
    [
        (Control.ACTIVE, Control.ACTIVE, Control.ACTIVE),
        (Control.ACTIVE, Control.PAUSED, Control.PAUSED),
        (Control.PAUSED, Control.ACTIVE, Control.PAUSED),
        (Control.PAUSED, Control.CANCELED, Control.CANCELED),
        (Control.CANCELED, Control.PAUSED, Control.CANCELED),
    ],
)
def test_the_most_restrictive_control_applies(
    own: Control, inherited: Control, applied: Control
) -> None:
    assert core.effective(own, inherited) is applied


@pytest.mark.parametrize(
    ("parent", "pattern", "covered"),
    [
        (["run.*"], "run.start", True),
        (["run.*"], "run.*", True),
        (["*"], "registry.*", True),
        (["run.start"], "run.*", False),
        (["run.*"], "r*", False),
        (["run.start", "run.read"], "run.read", True),
        (["task.*"], "run.start", False),
    ],
)
def test_a_childs_action_is_covered_only_when_every_name_it_permits_is(
    parent: list[str], pattern: str, covered: bool
) -> None:
    assert core.covers(parent, pattern) is covered


def test_what_is_left_is_the_least_of_the_chain_exactly() -> None:
    root = _node("root", budget=Decimal("100"), spent=Decimal("99.25"))
    middle = _node("middle", "root")  # no budget of its own
    leaf = _node("leaf", "root", "middle", budget=Decimal("5"), spent=Decimal("0.1"))
    assert core.remaining([root, middle, leaf]) == Decimal("0.75")
    assert core.remaining([middle]) is None
    overspent = _node("o", budget=Decimal("1"), spent=Decimal("1.000001"))
    assert core.remaining([overspent]) == Decimal("-0.000001")


def test_a_child_is_refused_past_the_limits_and_the_parents_budget_and_actions() -> None:
    root = _node("root", budget=Decimal("10"), spent=Decimal("4"), actions=("run.*",))
    assert core.check_child([root], 0, _request("6", ("run.start",))) is None
    reasons = {
        "budget": core.check_child([root], 0, _request("6.000001")),
        "actions": core.check_child([root], 0, _request(actions=("task.*",))),
        "fan-out": core.check_child([root], core.MAX_CHILDREN, _request()),
        "depth": core.check_child(
            [_node("deep", *[f"a{i}" for i in range(core.MAX_LEVELS - 1)])], 0, _request()
        ),
        "closed": core.check_child([_node("shut", closed_at_ms=5)], 0, _request()),
        "cancelled": core.check_child([_node("gone", control=Control.CANCELED)], 0, _request()),
    }
    assert {name: r.reason for name, r in reasons.items() if isinstance(r, Rejection)} == {
        "budget": "WORK_ORDER_BUDGET_EXCEEDS_PARENT",
        "actions": "WORK_ORDER_ACTIONS_WIDENED",
        "fan-out": "WORK_ORDER_TOO_MANY_CHILDREN",
        "depth": "WORK_ORDER_TOO_DEEP",
        "closed": "WORK_ORDER_CLOSED",
        "cancelled": "WORK_ORDER_CLOSED",
    }


def test_state_from_names_the_highest_work_order_that_set_the_control() -> None:
    root = _node("root", own=Control.PAUSED, control=Control.PAUSED)
    middle = _node("middle", "root", own=Control.PAUSED, control=Control.PAUSED)
    leaf = _node("leaf", "root", "middle", control=Control.PAUSED)
    assert core.state_from([root, middle, leaf]) == "root"
    assert leaf.state is core.State.PAUSED
    assert core.state_from([_node("open")]) == "open"


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"work_order_id": "bad id"}, "IDENTIFIER_INVALID"),
        ({"parent_id": "same", "work_order_id": "same"}, "IDENTIFIER_INVALID"),
        ({"budget_text": "-1"}, "COST_INVALID"),
        ({"budget_text": "1.50"}, "DECIMAL_NOT_CANONICAL"),
        ({"actions": ["run.*.x*"]}, "GRANT_INVALID"),
        ({"title": "t" * 1001}, "TEXT_TOO_LONG"),
    ],
)
def test_a_request_is_validated(fields: dict[str, object], reason: str) -> None:
    arguments: dict[str, object] = {
        "work_order_id": "wo",
        "parent_id": "",
        "title": "",
        "labels": {},
        "budget_text": "",
        "actions": [],
    }
    arguments.update(fields)
    found = core.check_request(**arguments)  # type: ignore[arg-type]
    assert isinstance(found, Rejection) and found.reason == reason


def test_reservations_count_as_spent_in_what_remains() -> None:
    root = _node("root", budget=Decimal(100), spent=Decimal("10.5"))
    child = _node("child", "root", budget=Decimal(40))
    chain = [root, child]
    assert core.remaining(chain) == Decimal(40)
    assert core.remaining(chain, {"root": Decimal(60)}) == Decimal("29.5")
    assert core.remaining(chain, {"child": Decimal("39.75")}) == Decimal("0.25")
    assert core.budgeted(chain) == ("root", "child")
    assert core.budgeted([_node("bare")]) == ()


def test_a_proposal_admits_nothing_until_approved_and_is_decided_once() -> None:
    pending = _node("p", "root", proposal=core.Proposal.PROPOSED)
    assert pending.state is core.State.PROPOSED
    refused = core.not_approved(pending)
    assert isinstance(refused, Rejection) and refused.reason == "WORK_ORDER_NOT_APPROVED"
    under = core.check_child([_node("root"), pending], 0, _request())
    assert isinstance(under, Rejection) and under.reason == "WORK_ORDER_NOT_APPROVED"
    assert core.check_decision(pending, True) is None
    assert core.check_decision(pending, False) is None
    approved = _node("p", "root", proposal=core.Proposal.APPROVED)
    assert approved.state is core.State.OPEN and core.not_approved(approved) is None
    assert core.check_decision(approved, True) is None  # the same decision: a replay
    other = core.check_decision(approved, False)
    assert isinstance(other, Rejection) and other.reason == "WORK_ORDER_PROPOSAL_DECIDED"
    declined = _node("p", "root", proposal=core.Proposal.DECLINED, control=Control.PAUSED)
    assert declined.state is core.State.DECLINED  # before an inherited pause
    direct = core.check_decision(_node("d"), True)
    assert isinstance(direct, Rejection) and direct.reason == "WORK_ORDER_PROPOSAL_DECIDED"
    assert core.check_proposals("root", core.MAX_CHILDREN - 1) is None
    full = core.check_proposals("root", core.MAX_CHILDREN)
    assert isinstance(full, Rejection) and full.reason == "WORK_ORDER_TOO_MANY_CHILDREN"
