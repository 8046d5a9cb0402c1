"""Effects are declared, never assumed (issue 23 item 1): an attempt that ends without
the worker's report is retried automatically only on a node whose declared effects make
a repeat safe; otherwise its effect is UNCERTAIN and the node blocks for a human."""

from __future__ import annotations

from typing import Any

import pytest

from praxis.core import definition as d
from praxis.core import run as core
from praxis.core.rejection import Rejection
from tests.support.run_sim import LEASE, T0, Sim
from tests.support.runtime import definition, node

UNSAFE = [pytest.param({}, id="undeclared"), pytest.param({"effects": "external"}, id="external")]
SAFE = [pytest.param("none", id="none"), pytest.param("idempotent", id="idempotent")]


def one(**extra: Any) -> dict[str, Any]:
    return definition("a", a=node(retry={"attempts": 3, "backoff_ms": 0}, **extra))


def blocked_events(sim: Sim) -> list[core.Event]:
    return [e for e in sim.events if e.kind == "NODE_BLOCKED"]


@pytest.mark.parametrize("declared", UNSAFE)
def test_a_lost_lease_on_a_node_with_effects_blocks_it_with_an_uncertain_effect(
    declared: dict[str, str],
) -> None:
    sim = Sim(one(**declared))
    attempt = sim.dispatch("a")
    sim.now += LEASE
    sim.ok(core.Expire())
    ended = sim.attempts[attempt.attempt_id]
    assert ended.status is core.AttemptStatus.EXPIRED
    assert ended.effect == "UNCERTAIN"
    node_run = sim.state.nodes["a"]
    assert node_run.status is core.NodeStatus.BLOCKED
    assert node_run.error.startswith("RECONCILIATION_REQUIRED: the attempt's lease expired")
    assert sim.ready() == []  # no second attempt
    assert blocked_events(sim)[-1].payload["effect"] == "UNCERTAIN"
    assert sim.state.status is core.RunStatus.AWAITING_NODES
    late = sim.apply(core.Complete(ended, "w", "x", core.Effect.APPLIED))
    assert isinstance(late, Rejection) and late.reason == "LEASE_EXPIRED"


@pytest.mark.parametrize("declared", UNSAFE)
def test_a_timeout_on_a_node_with_effects_blocks_it(declared: dict[str, str]) -> None:
    sim = Sim(one(timeout_ms=500, **declared))
    attempt = sim.dispatch("a")
    sim.now += 500
    sim.ok(core.Expire())
    assert sim.attempts[attempt.attempt_id].status is core.AttemptStatus.TIMED_OUT
    assert sim.status("a") is core.NodeStatus.BLOCKED
    assert "timed out after 500 ms" in sim.state.nodes["a"].error


@pytest.mark.parametrize("effects", SAFE)
def test_a_lost_lease_on_a_retry_safe_node_runs_it_again(effects: str) -> None:
    sim = Sim(one(effects=effects))
    first = sim.dispatch("a")
    sim.now += LEASE
    sim.ok(core.Expire())
    assert sim.attempts[first.attempt_id].effect == ""
    assert sim.ready() == ["a"]
    second = sim.dispatch("a")
    assert second.number == 2
    assert blocked_events(sim) == []


def test_a_human_decision_not_applied_runs_the_node_again_under_its_operation() -> None:
    sim = Sim(one())
    first = sim.dispatch("a")
    sim.now += LEASE
    sim.ok(core.Expire())
    sim.ok(core.Reconcile("a", first.attempt_id, applied=False))
    second = sim.dispatch("a")
    assert second.attempt_id != first.attempt_id
    sim.ok(core.Complete(second, "w", "done", core.Effect.APPLIED))
    assert sim.state.status is core.RunStatus.COMPLETED


def test_a_human_decision_applied_never_repeats_the_effect() -> None:
    sim = Sim(one())
    first = sim.dispatch("a")
    sim.now += LEASE
    sim.ok(core.Expire())
    sim.ok(core.Reconcile("a", first.attempt_id, applied=True))
    assert sim.status("a") is core.NodeStatus.FAILED
    assert sim.ready() == []


@pytest.mark.parametrize("declared", UNSAFE)
def test_stopping_a_run_under_a_running_node_with_effects_blocks_it_once_its_lease_ends(
    declared: dict[str, str],
) -> None:
    sim = Sim(one(**declared))
    attempt = sim.dispatch("a")
    stop = sim.ok(core.Stop("operator"))
    # A stop is a request: nothing is uncertain (and no reconciliation opens) yet.
    assert sim.state.status is core.RunStatus.CANCELLING
    assert sim.status("a") is core.NodeStatus.STOPPING
    assert not stop.attempts and "RUN_CANCELLED" not in [e.kind for e in stop.events]
    beat = sim.ok(core.Heartbeat(sim.attempts[attempt.attempt_id], "w", LEASE))
    assert beat.reply.cancelled  # the worker is told to stop; the lease is not extended
    assert sim.state.nodes["a"].lease_expires_at_ms == T0 + LEASE
    sim.now = T0 + LEASE
    sim.ok(core.Expire())  # the lease ran out without a report: only now uncertain
    assert sim.state.status is core.RunStatus.CANCELLED
    assert sim.status("a") is core.NodeStatus.BLOCKED
    assert sim.attempts[attempt.attempt_id].status is core.AttemptStatus.EXPIRED
    assert sim.attempts[attempt.attempt_id].effect == "UNCERTAIN"
    sim.ok(core.Reconcile("a", attempt.attempt_id, applied=False))
    assert sim.status("a") is core.NodeStatus.CANCELLED


def test_stopping_a_run_under_a_retry_safe_node_cancels_it_once_its_lease_ends() -> None:
    sim = Sim(one(effects="idempotent"))
    attempt = sim.dispatch("a")
    sim.ok(core.Stop("operator"))
    assert sim.status("a") is core.NodeStatus.STOPPING
    sim.now = T0 + LEASE
    sim.ok(core.Expire())
    assert sim.status("a") is core.NodeStatus.CANCELLED
    assert sim.state.status is core.RunStatus.CANCELLED
    assert sim.attempts[attempt.attempt_id].effect == ""  # retry-safe: nothing to decide


def test_a_failed_fanout_item_asks_its_running_siblings_to_stop() -> None:
    items = {"type": "object", "properties": {"items": {"type": "array"}}}
    sim = Sim(
        definition(
            "m",
            a=node(output={"type": "json", "schema": items}, effects="none"),
            m=node("fanout_item", ("a",), fanout={"over": "node:a.items"}),
        )
    )
    sim.complete("a", {"items": [1, 2]})
    first = sim.dispatch("m#0")
    sim.dispatch("m#1")
    sim.ok(core.Fail(first, "w", "boom", False, core.Effect.NOT_APPLIED))
    assert sim.status("m") is core.NodeStatus.FAILED
    assert sim.status("m#1") is core.NodeStatus.STOPPING  # asked to stop, not uncertain
    assert sim.state.status is core.RunStatus.FAILING
    sim.now = T0 + LEASE
    sim.ok(core.Expire())
    assert sim.status("m#1") is core.NodeStatus.BLOCKED
    assert sim.state.status is core.RunStatus.FAILED


def test_the_declaration_is_part_of_the_node_and_checked() -> None:
    plain = d.parse(one(), None)
    external = d.parse(one(effects="external"), None)
    assert isinstance(plain, d.Definition) and isinstance(external, d.Definition)
    assert plain.nodes["a"].spec_digest != external.nodes["a"].spec_digest
    assert not plain.nodes["a"].retry_safe and not external.nodes["a"].retry_safe
    bad = d.parse(one(effects="sometimes"), None)
    assert isinstance(bad, Rejection) and bad.reason == "DEFINITION_INVALID"
    assert [v.field for v in bad.violations] == ["definition_json.nodes.a.effects"]
    wait = definition(
        "w",
        w={
            "kind": "human_input",
            "effects": "none",
            "wait": {"expires_in_ms": 1000, "schema": {}, "on_expiry": "fail"},
        },
    )
    refused = d.parse(wait, None)
    assert isinstance(refused, Rejection)
    assert [v.field for v in refused.violations] == ["definition_json.nodes.w.effects"]


@pytest.mark.parametrize("declared", [*UNSAFE, pytest.param({"effects": "none"}, id="none")])
def test_an_attempt_given_back_undelivered_is_ready_again_and_not_counted(
    declared: dict[str, str],
) -> None:
    sim = Sim(definition("a", a=node(retry={"attempts": 1}, **declared)))
    given = sim.dispatch("a", "w1")
    sim.ok(core.Return("a", given.attempt_id, "w1"))
    assert sim.attempts[given.attempt_id].status is core.AttemptStatus.CANCELLED
    assert sim.status("a") is core.NodeStatus.READY and blocked_events(sim) == []
    assert [e.payload["attempt_id"] for e in sim.events if e.kind == "NODE_RETURNED"] == [
        given.attempt_id
    ]
    late = sim.apply(core.Complete(given, "w1", "x", core.Effect.APPLIED))
    assert isinstance(late, Rejection) and late.reason == "ATTEMPT_SUPERSEDED"
    again = sim.apply(core.Return("a", given.attempt_id, "w1"))
    assert isinstance(again, Rejection) and again.reason == "ATTEMPT_SUPERSEDED"
    second = sim.dispatch("a", "w2")
    assert second.number == 2 and second.attempt_id != given.attempt_id
    other = sim.apply(core.Return("a", second.attempt_id, "w1"))  # not its worker's
    assert isinstance(other, Rejection) and other.reason == "ATTEMPT_SUPERSEDED"
    # the one counted attempt of `attempts: 1` fails: no retry is left
    sim.ok(core.Fail(second, "w2", "boom", True, core.Effect.NOT_APPLIED))
    assert sim.status("a") is core.NodeStatus.FAILED
