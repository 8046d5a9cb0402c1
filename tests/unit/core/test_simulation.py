"""Dry runs (praxis.core.simulation): the reducer driven by a script of outcomes."""

from __future__ import annotations

from typing import Any

import pytest

from praxis.core import definition as d
from praxis.core import run as core
from praxis.core import simulation as sim
from praxis.core.rejection import Rejection
from tests.support.runtime import definition, json_out, node

T0 = 1_700_000_000_000
Kind = sim.Kind


def parsed(document: dict[str, Any]) -> d.Definition:
    found = d.parse(document, None)
    assert isinstance(found, d.Definition), found
    return found


def play(document: dict[str, Any], *script: sim.Scripted, **options: Any) -> sim.Simulation:
    plan = parsed(document)
    assert sim.check_script(plan, list(script)) is None
    return sim.simulate(plan, list(script), T0, **options)


def kinds(simulation: sim.Simulation) -> list[str]:
    return [event.kind for step in simulation.steps for event in step.events]


CHAIN = definition("b", a=node(output=json_out()), b=node("node:a", ("a",)))


def test_a_chain_completes_with_the_scripted_results_and_inputs() -> None:
    done = play(
        CHAIN,
        sim.Scripted("a", Kind.COMPLETE, {"x": 1}, duration_ms=500),
        sim.Scripted("b", Kind.COMPLETE, "report", duration_ms=250),
        run_input={"topic": "tides"},
    )
    assert done.end is sim.End.RUN_ENDED and done.state.status is core.RunStatus.COMPLETED
    assert done.result == "report"
    dispatches = [s for s in done.steps if s.action is sim.Action.DISPATCH]
    assert [(s.node_uid, s.input, s.at_ms) for s in dispatches] == [
        ("a", {"topic": "tides"}, T0),
        ("b", {"x": 1}, T0 + 500),
    ]
    assert done.steps[-1].at_ms == T0 + 750
    assert kinds(done)[0] == "RUN_STARTED" and kinds(done)[-1] == "RUN_COMPLETED"


def test_the_same_script_gives_the_same_steps() -> None:
    script = [sim.Scripted("a", Kind.COMPLETE, {}), sim.Scripted("b", Kind.COMPLETE, "r")]
    first = sim.simulate(parsed(CHAIN), script, T0)
    again = sim.simulate(parsed(CHAIN), script, T0)
    assert first.steps == again.steps and first.attempts == again.attempts


def test_a_retryable_failure_waits_its_backoff_then_runs_again() -> None:
    plan = definition("a", a=node(retry={"attempts": 2, "backoff_ms": 1000}))
    done = play(
        plan,
        sim.Scripted("a", Kind.FAIL, error="flaky", duration_ms=10),
        sim.Scripted("a", Kind.COMPLETE, "ok", duration_ms=10),
    )
    assert done.state.status is core.RunStatus.COMPLETED
    dispatches = [s for s in done.steps if s.action is sim.Action.DISPATCH]
    assert [(s.attempt, s.at_ms) for s in dispatches] == [(1, T0), (2, T0 + 10 + 1000)]


def test_a_silent_worker_on_an_undeclared_node_blocks_until_reconciled() -> None:
    plan = definition("a", a=node())
    stuck = play(plan, sim.Scripted("a", Kind.LEASE_LOST), lease_ms=5_000)
    assert stuck.end is sim.End.NEEDS_SCRIPT and stuck.waiting_on == "a"
    assert stuck.state.nodes["a"].status is core.NodeStatus.BLOCKED
    assert stuck.steps[-1].action is sim.Action.EXPIRE and stuck.steps[-1].at_ms == T0 + 5_000
    settled = play(
        plan,
        sim.Scripted("a", Kind.LEASE_LOST),
        sim.Scripted("a", Kind.RECONCILE, applied=False),
        sim.Scripted("a", Kind.COMPLETE, "second"),
        lease_ms=5_000,
    )
    assert settled.state.status is core.RunStatus.COMPLETED and settled.result == "second"
    assert "NODE_RECONCILED" in kinds(settled)


def test_an_idempotent_node_retries_after_a_lost_lease() -> None:
    plan = definition("a", a=node(effects="idempotent", retry={"attempts": 2, "backoff_ms": 0}))
    done = play(plan, sim.Scripted("a", Kind.LEASE_LOST), sim.Scripted("a", Kind.COMPLETE, "ok"))
    assert done.state.status is core.RunStatus.COMPLETED


def test_an_uncertain_completion_reconciled_as_applied_keeps_its_result() -> None:
    done = play(
        definition("a", a=node(output=json_out())),
        sim.Scripted("a", Kind.UNCERTAIN, {"charged": 1}),
        sim.Scripted("a", Kind.RECONCILE, applied=True),
    )
    assert done.state.status is core.RunStatus.COMPLETED and done.result == {"charged": 1}


def test_a_human_answers_a_wait_and_an_unanswered_wait_expires() -> None:
    plan = definition(
        "ask",
        ask={
            "kind": "human_input",
            "wait": {"expires_in_ms": 60_000, "schema": {"type": "string"}, "on_expiry": "fail"},
        },
    )
    answered = play(plan, sim.Scripted("ask", Kind.ANSWER, "yes", duration_ms=30_000))
    assert answered.result == "yes" and answered.steps[-1].at_ms == T0 + 30_000
    unanswered = play(plan)
    assert unanswered.state.status is core.RunStatus.FAILED
    assert unanswered.steps[-1].at_ms == T0 + 60_000


def test_a_fan_out_gives_each_item_its_input_and_joins_in_item_order() -> None:
    plan = definition(
        "each",
        split=node(output=json_out()),
        each=node("fanout_item", ("split",), fanout={"over": "node:split.items"}),
    )
    done = play(
        plan,
        sim.Scripted("split", Kind.COMPLETE, {"items": ["p", "q"]}),
        sim.Scripted("each#1", Kind.COMPLETE, "Q"),
        sim.Scripted("each", Kind.COMPLETE, "P"),
    )
    assert done.result == ["P", "Q"]
    inputs = {s.node_uid: s.input for s in done.steps if s.action is sim.Action.DISPATCH}
    assert inputs == {"split": None, "each#0": "p", "each#1": "q"}


def test_a_result_that_breaks_the_contract_is_refused_and_the_lease_runs_out() -> None:
    plan = definition("a", a=node(output=json_out(), effects="none"))
    done = play(
        plan,
        sim.Scripted("a", Kind.COMPLETE, "not an object"),
        sim.Scripted("a", Kind.COMPLETE, {"ok": True}),
        lease_ms=1_000,
    )
    refused = [s for s in done.steps if s.action is sim.Action.REFUSED]
    assert [s.refusal.reason for s in refused if s.refusal] == ["RESULT_CONTRACT_VIOLATION"]
    assert done.state.status is core.RunStatus.COMPLETED and done.result == {"ok": True}


def test_a_ready_node_without_a_scripted_outcome_ends_the_simulation() -> None:
    stopped = play(CHAIN, sim.Scripted("a", Kind.COMPLETE, {}))
    assert (stopped.end, stopped.waiting_on) == (sim.End.NEEDS_SCRIPT, "b")
    assert stopped.state.status is core.RunStatus.RUNNING


@pytest.mark.parametrize(
    ("entry", "path"),
    [
        (sim.Scripted("zzz", Kind.COMPLETE), "script[0].node"),
        (sim.Scripted("a", Kind.ANSWER, "x"), "script[0].kind"),
        (sim.Scripted("a", Kind.COMPLETE, duration_ms=-1), "script[0].duration_ms"),
    ],
)
def test_a_bad_script_is_refused_naming_the_entry(entry: sim.Scripted, path: str) -> None:
    problem = sim.check_script(parsed(CHAIN), [entry])
    assert isinstance(problem, Rejection) and problem.reason == "SCRIPT_INVALID"
    assert [v.field for v in problem.violations] == [path]


def test_a_script_has_a_bound() -> None:
    entries = [sim.Scripted("a", Kind.COMPLETE)] * (sim.MAX_SCRIPT + 1)
    problem = sim.check_script(parsed(CHAIN), entries)
    assert isinstance(problem, Rejection) and problem.reason == "SCRIPT_INVALID"
