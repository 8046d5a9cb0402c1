"""A stop is a request and the worker's report settles it; unsettled work blocks the
run's end (issue 37, items 1 and 2), in the pure reducer."""

from __future__ import annotations

from typing import Any

import pytest

from praxis.core import run as core
from praxis.core.rejection import Rejection
from tests.support.run_sim import LEASE, T0, Sim
from tests.support.runtime import definition, json_out, node


def three(**extra: Any) -> dict[str, Any]:
    """Three independent external nodes; ``out`` reads all of them."""
    return definition(
        "out",
        a=node(effects="external", output=json_out(), **extra),
        b=node(effects="external", output=json_out(), **extra),
        c=node(effects="external", output=json_out(), **extra),
        out=node(["node:a", "node:b", "node:c"], ("a", "b", "c")),
    )


def kinds(sim: Sim, kind: str) -> list[core.Event]:
    return [event for event in sim.events if event.kind == kind]


def uncertain(sim: Sim) -> list[core.Attempt]:
    return [a for a in sim.attempts.values() if a.effect == core.Effect.UNCERTAIN.value]


def test_a_stop_is_settled_by_each_report_and_only_silence_becomes_uncertain() -> None:
    sim = Sim(three())
    a, b, c = sim.dispatch("a"), sim.dispatch("b"), sim.dispatch("c")
    stop = sim.ok(core.Stop("operator"))
    assert sim.state.status is core.RunStatus.CANCELLING
    assert [sim.status(uid) for uid in "abc"] == [core.NodeStatus.STOPPING] * 3
    assert sim.status("out") is core.NodeStatus.CANCELLED
    assert not stop.attempts and not uncertain(sim)  # nothing opens at the stop
    assert not kinds(sim, "RUN_CANCELLED") and sim.state.finished_at_ms == 0
    [ending] = kinds(sim, "RUN_ENDING")
    assert ending.payload == {
        "status": "CANCELLED",
        "result_error": "operator",
        "stopping": 3,
        "blocked": 0,
    }
    for attempt in (a, b, c):
        beat = sim.ok(core.Heartbeat(sim.attempts[attempt.attempt_id], "w", LEASE))
        assert beat.reply.cancelled

    sim.now += 100
    sim.ok(core.Fail(a, "w", "stopped before calling out", False, core.Effect.NOT_APPLIED))
    assert sim.status("a") is core.NodeStatus.CANCELLED
    assert sim.state.nodes["a"].effect == "NOT_APPLIED"
    assert sim.attempts[a.attempt_id].status is core.AttemptStatus.FAILED

    sim.ok(core.Complete(b, "w", {"sent": True}, core.Effect.APPLIED))
    settled_b = sim.state.nodes["b"]
    assert settled_b.status is core.NodeStatus.DONE and settled_b.has_result
    assert settled_b.effect == "APPLIED" and sim.results["b"] == {"sent": True}
    assert sim.attempts[b.attempt_id].effect == "APPLIED"
    completed = [e for e in kinds(sim, "NODE_COMPLETED") if e.node_uid == "b"][-1]
    assert completed.payload["effect"] == "APPLIED" and completed.payload["after_stop"] is True
    assert sim.status("out") is core.NodeStatus.CANCELLED  # the run went no further
    assert sim.state.status is core.RunStatus.CANCELLING  # c has not settled
    assert not uncertain(sim)

    sim.now = T0 + LEASE
    sim.ok(core.Expire())  # c's lease ran out without a report
    assert sim.state.status is core.RunStatus.CANCELLED
    assert sim.state.finished_at_ms == T0 + LEASE
    assert [att.node_uid for att in uncertain(sim)] == ["c"]
    assert sim.status("c") is core.NodeStatus.BLOCKED
    assert len(kinds(sim, "RUN_CANCELLED")) == 1


def test_a_stopping_attempt_may_report_an_uncertain_effect_which_blocks_it() -> None:
    sim = Sim(three())
    a = sim.dispatch("a")
    sim.ok(core.Stop("operator"))
    sim.ok(core.Fail(a, "w", "killed mid-call", False, core.Effect.UNCERTAIN))
    assert sim.status("a") is core.NodeStatus.BLOCKED
    assert [att.node_uid for att in uncertain(sim)] == ["a"]
    assert sim.state.status is core.RunStatus.CANCELLED  # blocked work does not hold a stop


def test_a_stopping_attempt_that_failed_after_applying_is_failed_and_not_retried() -> None:
    sim = Sim(three(retry={"attempts": 3, "backoff_ms": 0}))
    a = sim.dispatch("a")
    sim.ok(core.Stop("operator"))
    reply = sim.ok(core.Fail(a, "w", "charged, then crashed", True, core.Effect.APPLIED))
    assert not reply.reply.will_retry
    assert sim.status("a") is core.NodeStatus.FAILED
    assert sim.state.nodes["a"].effect == "APPLIED"
    assert sim.state.status is core.RunStatus.CANCELLED


def test_a_stopping_attempts_lease_is_not_extended_and_a_late_report_is_refused() -> None:
    sim = Sim(three())
    a = sim.dispatch("a")
    sim.ok(core.Stop("operator"))
    sim.now += LEASE - 1
    beat = sim.ok(core.Heartbeat(sim.attempts[a.attempt_id], "w", LEASE))
    assert beat.reply.cancelled
    assert sim.state.nodes["a"].lease_expires_at_ms == T0 + LEASE
    sim.now += 1
    late = sim.apply(core.Complete(a, "w", {}, core.Effect.APPLIED))
    assert isinstance(late, Rejection) and late.reason == "LEASE_EXPIRED"


def test_an_attempt_given_back_undelivered_after_a_stop_is_cancelled() -> None:
    sim = Sim(three())
    a = sim.dispatch("a")
    sim.ok(core.Stop("operator"))
    sim.ok(core.Return("a", a.attempt_id, "w"))
    assert sim.status("a") is core.NodeStatus.CANCELLED
    assert sim.state.status is core.RunStatus.CANCELLED
    assert not uncertain(sim)


def orphaned() -> Sim:
    """Output ``out`` and an orphan branch ``side`` (external), both running."""
    sim = Sim(definition("out", out=node(), side=node(effects="external")))
    return sim


def test_a_run_whose_orphan_still_runs_is_completing_until_the_orphan_reports() -> None:
    sim = orphaned()
    side = sim.dispatch("side")
    sim.complete("out")
    assert sim.state.status is core.RunStatus.COMPLETING
    assert sim.status("side") is core.NodeStatus.STOPPING
    assert not kinds(sim, "RUN_COMPLETED") and sim.state.finished_at_ms == 0
    assert sim.apply(core.Stop("too late")).noop  # type: ignore[union-attr]
    sim.now += 50
    sim.ok(core.Complete(side, "w", "sent", core.Effect.APPLIED))
    assert sim.status("side") is core.NodeStatus.DONE
    assert sim.state.status is core.RunStatus.COMPLETED
    assert sim.state.finished_at_ms == T0 + 50
    assert len(kinds(sim, "RUN_COMPLETED")) == 1


def test_a_blocked_orphan_holds_completion_until_reconciled_and_is_not_run_again() -> None:
    sim = orphaned()
    side = sim.dispatch("side")
    sim.complete("out")
    sim.now = T0 + LEASE
    sim.ok(core.Expire())
    assert sim.status("side") is core.NodeStatus.BLOCKED
    assert sim.state.status is core.RunStatus.COMPLETING  # not COMPLETED, not acceptable
    assert not kinds(sim, "RUN_COMPLETED")
    sim.ok(core.Reconcile("side", side.attempt_id, applied=False))
    assert sim.status("side") is core.NodeStatus.CANCELLED
    assert sim.ready() == []  # the orphan is settled, never run again
    assert sim.state.status is core.RunStatus.COMPLETED
    assert len(kinds(sim, "RUN_COMPLETED")) == 1


def test_a_fanout_orphan_blocked_before_the_output_finished_holds_completion_too() -> None:
    items = {"type": "object", "properties": {"items": {"type": "array"}}}
    sim = Sim(
        definition(
            "out",
            src=node(output={"type": "json", "schema": items}, effects="none"),
            m=node("fanout_item", ("src",), fanout={"over": "node:src.items"}),
            out=node(),
        )
    )
    sim.complete("src", {"items": [1]})
    item = sim.dispatch("m#0")
    sim.now = T0 + LEASE
    sim.ok(core.Expire())
    assert sim.status("m#0") is core.NodeStatus.BLOCKED
    sim.complete("out")
    assert sim.state.status is core.RunStatus.COMPLETING  # one path, one answer
    sim.ok(core.Reconcile("m#0", item.attempt_id, applied=True, result="x", completed=True))
    assert sim.status("m#0") is core.NodeStatus.DONE
    assert sim.state.status is core.RunStatus.COMPLETED


@pytest.mark.parametrize("effects", ["none", "idempotent"])
def test_a_retry_safe_orphan_is_heard_too_and_cancelled_when_its_lease_ends(effects: str) -> None:
    sim = Sim(definition("out", out=node(), side=node(effects=effects)))
    side = sim.dispatch("side")
    sim.complete("out")
    assert sim.state.status is core.RunStatus.COMPLETING
    sim.now = T0 + LEASE
    sim.ok(core.Expire())
    assert sim.status("side") is core.NodeStatus.CANCELLED
    assert sim.attempts[side.attempt_id].status is core.AttemptStatus.EXPIRED
    assert sim.state.status is core.RunStatus.COMPLETED
    assert not uncertain(sim)


def test_a_failed_run_ends_failed_once_its_other_attempts_settled() -> None:
    sim = Sim(definition("out", out=node(), side=node(effects="external")))
    side = sim.dispatch("side")
    out = sim.dispatch("out")
    sim.ok(core.Fail(out, "w", "boom", False, core.Effect.NOT_APPLIED))
    assert sim.state.status is core.RunStatus.FAILING
    assert sim.state.result_reason == "NODE_FAILED"
    assert not kinds(sim, "RUN_FAILED")
    sim.ok(core.Fail(side, "w", "stopped", False, core.Effect.NOT_APPLIED))
    assert sim.state.status is core.RunStatus.FAILED
    assert sim.state.result_reason == "NODE_FAILED"
    assert len(kinds(sim, "RUN_FAILED")) == 1
