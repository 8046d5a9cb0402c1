"""Nothing hangs silently and failed runs resume (issue 23 items 3 and 4), in the pure
reducer: schedule-to-start timeouts, the run's deadline, and Resume."""

from __future__ import annotations

from typing import Any

import pytest

from praxis.core import definition as d
from praxis.core import resume
from praxis.core import run as core
from praxis.core.rejection import Rejection
from tests.support.run_sim import LEASE, T0, Sim
from tests.support.runtime import definition, json_out, node

HOUR = 3_600_000


def chain(**extra: Any) -> dict[str, Any]:
    return definition(
        "b",
        a=node(output=json_out(), retry={"attempts": 1}, **extra),
        b=node("node:a", ("a",), json_out(), retry={"attempts": 1}, **extra),
    )


def start(document: dict[str, Any], deadline_ms: int = 0) -> Sim:
    sim = Sim(document)
    if deadline_ms:
        parsed = d.parse(document, None)
        assert isinstance(parsed, d.Definition)
        outcome = core.apply(None, core.Start("run-1", parsed, 0, deadline_ms), sim.now)
        assert isinstance(outcome, core.Outcome)
        sim.state = outcome.state
    return sim


# --- schedule-to-start -----------------------------------------------------------------


def test_an_unclaimed_ready_node_fails_after_its_schedule_to_start_naming_its_model() -> None:
    sim = start(chain())
    assert sim.state.nodes["a"].deadline_ms == T0 + d.DEFAULT_SCHEDULE_TO_START_MS
    assert core.timer_entry(sim.state, "a") == T0 + HOUR
    sim.now += HOUR - 1
    assert sim.apply(core.Expire()).noop  # type: ignore[union-attr]
    sim.now += 1
    sim.ok(core.Expire())
    assert sim.state.status is core.RunStatus.FAILED
    assert sim.state.result_reason == "SCHEDULE_TO_START_TIMEOUT"
    error = sim.state.nodes["a"].error
    assert error.startswith("SCHEDULE_TO_START_TIMEOUT") and "'echo'" in error
    [event] = [e for e in sim.events if e.kind == "NODE_UNCLAIMED"]
    assert event.payload["model"] == "echo"


def test_schedule_to_start_is_declared_per_node_and_zero_waits_for_ever() -> None:
    sim = start(chain(schedule_to_start_ms=5_000))
    sim.now += 5_000
    sim.ok(core.Expire())
    assert sim.state.result_reason == "SCHEDULE_TO_START_TIMEOUT"
    forever = start(chain(schedule_to_start_ms=0))
    assert forever.state.nodes["a"].deadline_ms == 0
    assert core.timer_entry(forever.state, "a") is None


def test_a_claim_in_time_disarms_schedule_to_start_and_the_next_node_gets_its_own() -> None:
    sim = start(chain(schedule_to_start_ms=5_000))
    sim.now += 4_000
    sim.complete("a", {})
    assert sim.state.nodes["b"].deadline_ms == sim.now + 5_000
    sim.now += 4_000
    assert sim.apply(core.Expire()).noop  # type: ignore[union-attr]


def test_a_paused_work_order_rearms_schedule_to_start_instead_of_failing() -> None:
    sim = start(chain(schedule_to_start_ms=5_000))
    sim.now += 5_000
    sim.ok(core.Expire(held=True))
    assert sim.state.status is core.RunStatus.RUNNING
    assert sim.state.nodes["a"].deadline_ms == sim.now + 5_000


def test_schedule_to_start_counts_from_the_end_of_a_retry_backoff() -> None:
    document = definition("a", a=node(retry={"attempts": 2, "backoff_ms": 10_000}))
    sim = start(document)
    attempt = sim.dispatch("a")
    sim.ok(core.Fail(attempt, "w", "busy", True, core.Effect.NOT_APPLIED))
    node_run = sim.state.nodes["a"]
    assert node_run.deadline_ms == node_run.not_before_ms + HOUR


def test_the_declaration_is_checked() -> None:
    bad = d.parse(chain(schedule_to_start_ms=-1), None)
    assert isinstance(bad, Rejection)
    assert "definition_json.nodes.a.schedule_to_start_ms" in [v.field for v in bad.violations]


# --- the run's deadline ------------------------------------------------------------------


def test_a_run_past_its_deadline_fails_with_deadline_exceeded() -> None:
    sim = start(chain(effects="idempotent"), deadline_ms=T0 + 60_000)
    assert core.timer_entry(sim.state, core.RUN_TIMER) == T0 + 60_000
    sim.dispatch("a")
    sim.now += 60_000
    sim.ok(core.Expire())
    assert sim.state.status is core.RunStatus.FAILED
    assert sim.state.result_reason == "DEADLINE_EXCEEDED"
    # Its lease had run out before the deadline's sweep: settled by that sweep.
    assert sim.status("a") is core.NodeStatus.CANCELLED
    assert core.timer_entry(sim.state, core.RUN_TIMER) is None


def test_past_its_deadline_a_live_attempt_is_asked_to_stop_and_its_report_heard() -> None:
    sim = start(chain(), deadline_ms=T0 + 5_000)
    attempt = sim.dispatch("a")
    sim.now += 5_000
    sim.ok(core.Expire())
    assert sim.state.status is core.RunStatus.FAILING
    assert sim.status("a") is core.NodeStatus.STOPPING
    assert core.timer_entry(sim.state, core.RUN_TIMER) is None  # decided: no deadline
    sim.ok(core.Fail(attempt, "w", "stopped", False, core.Effect.NOT_APPLIED))
    assert sim.state.status is core.RunStatus.FAILED
    assert sim.state.result_reason == "DEADLINE_EXCEEDED"
    assert sim.status("a") is core.NodeStatus.CANCELLED


def test_past_its_deadline_an_effectful_running_node_becomes_a_reconciliation() -> None:
    sim = start(chain(), deadline_ms=T0 + 60_000)
    sim.dispatch("a")
    sim.now += 60_000
    sim.ok(core.Expire())
    assert sim.state.result_reason == "DEADLINE_EXCEEDED"
    assert sim.status("a") is core.NodeStatus.BLOCKED


# --- resume ------------------------------------------------------------------------------


def failed_chain(**extra: Any) -> Sim:
    sim = start(chain(**extra))
    sim.complete("a", {"n": 1})
    attempt = sim.dispatch("b")
    sim.ok(core.Fail(attempt, "w", "provider down", False, core.Effect.NOT_APPLIED))
    assert sim.state.status is core.RunStatus.FAILED
    return sim


def test_resume_runs_only_what_failed_and_keeps_what_is_done() -> None:
    sim = failed_chain()
    first_b = sim.state.nodes["b"].attempt_id
    a_result = sim.results["a"]
    sim.ok(core.Resume("provider back", "human"))
    assert sim.state.status is core.RunStatus.RUNNING
    assert sim.state.result_reason == "" and sim.state.result_error == ""
    assert sim.status("a") is core.NodeStatus.DONE and sim.results["a"] == a_result
    assert sim.ready() == ["b"]
    second = sim.dispatch("b")
    assert second.number == 2 and second.attempt_id != first_b
    sim.ok(core.Complete(second, "w", {"ok": True}, core.Effect.APPLIED))
    assert sim.state.status is core.RunStatus.COMPLETED
    [event] = [e for e in sim.events if e.kind == "RUN_RESUMED"]
    assert event.payload == {"by": "human", "reason": "provider back", "nodes": 1}


def test_resume_keeps_the_operation_only_where_the_effect_was_settled_not_applied() -> None:
    not_applied = failed_chain()
    plan = resume.again(not_applied.state)
    assert [(n.node_uid, n.new_operation) for n in plan] == [("b", False)]
    assert plan[0].operation_id == core.operation_id("run-1", "b")
    applied = start(chain())
    applied.complete("a", {})
    attempt = applied.dispatch("b")
    applied.ok(core.Fail(attempt, "w", "charged, then crashed", False, core.Effect.APPLIED))
    [again] = resume.again(applied.state)
    assert again.new_operation and again.operation_id == core.operation_id("run-1", "b", 1)
    applied.ok(core.Resume("retry the charge", "human"))
    assert applied.state.nodes["b"].operation == 1


def test_resume_gives_the_retry_policy_a_fresh_budget() -> None:
    sim = failed_chain()
    sim.ok(core.Resume("again", "human"))
    attempt = sim.dispatch("b")
    outcome = sim.ok(core.Fail(attempt, "w", "still down", False, core.Effect.NOT_APPLIED))
    assert not outcome.reply.will_retry  # the policy's one attempt, counted afresh
    assert sim.state.status is core.RunStatus.FAILED


def test_resume_of_a_stopped_run_runs_its_cancelled_nodes_again() -> None:
    sim = start(chain(effects="idempotent"))
    attempt = sim.dispatch("a")
    sim.ok(core.Stop("operator"))
    refused = sim.apply(core.Resume("go on", "human"))  # not ended until its report
    assert isinstance(refused, Rejection) and refused.reason == "RUN_NOT_RESUMABLE"
    sim.ok(core.Fail(attempt, "w", "stopped", False, core.Effect.NOT_APPLIED))
    sim.ok(core.Resume("go on", "human"))
    assert sim.ready() == ["a"]


def test_the_resume_material_lists_nodes_by_id_not_by_the_definitions_text_order() -> None:
    # As submitted, "z" comes before "a"; as stored (canonical JSON) after it: every
    # process must list the nodes a resume runs again in the same order.
    document = definition("z", z=node(output=json_out()), a=node(output=json_out()))
    assert list(document["nodes"]) == ["z", "a"]
    sim = start(document)
    sim.ok(core.Stop("operator"))
    assert [again.node_uid for again in resume.again(sim.state)] == ["a", "z"]


@pytest.mark.parametrize("status", ["RUNNING", "COMPLETED"])
def test_only_failed_or_cancelled_runs_resume(status: str) -> None:
    sim = start(chain())
    if status == "COMPLETED":
        sim.complete("a", {})
        sim.complete("b", {})
    refused = sim.apply(core.Resume("why", "human"))
    assert isinstance(refused, Rejection) and refused.reason == "RUN_NOT_RESUMABLE"


def test_a_run_with_a_pending_reconciliation_does_not_resume() -> None:
    sim = start(chain())
    sim.dispatch("a")
    sim.ok(core.Stop("operator"))
    sim.now += LEASE
    sim.ok(core.Expire())  # stopped, and its worker never reported
    assert sim.status("a") is core.NodeStatus.BLOCKED
    refused = sim.apply(core.Resume("why", "human"))
    assert isinstance(refused, Rejection) and refused.reason == "RECONCILIATION_REQUIRED"


def test_resume_reopens_a_failed_fanout_and_reruns_only_unfinished_items() -> None:
    items = {"type": "object", "properties": {"items": {"type": "array"}}}
    sim = start(
        definition(
            "m",
            a=node(output={"type": "json", "schema": items}),
            m=node("fanout_item", ("a",), retry={"attempts": 1}, fanout={"over": "node:a.items"}),
        )
    )
    sim.complete("a", {"items": [1, 2, 3]})
    sim.complete("m#0")
    sim.fail("m#1", retryable=False)
    assert sim.state.status is core.RunStatus.FAILED
    sim.ok(core.Resume("fixed", "human"))
    assert sim.status("m") is core.NodeStatus.EXPANDED
    assert sim.ready() == ["m#1", "m#2"]
    sim.complete("m#1")
    sim.complete("m#2")
    assert sim.state.status is core.RunStatus.COMPLETED


def test_resume_with_a_deadline_sets_it_and_a_past_one_is_refused() -> None:
    sim = failed_chain()
    refused = sim.apply(core.Resume("late", "human", sim.now))
    assert isinstance(refused, Rejection) and refused.reason == "DEADLINE_EXCEEDED"
    sim.ok(core.Resume("in time", "human", sim.now + LEASE))
    assert sim.state.deadline_ms == sim.now + LEASE


def test_a_claim_after_a_deadline_expires_instead_of_leasing() -> None:
    late_node = start(chain(schedule_to_start_ms=5_000))
    late_node.now += 5_000
    late_node.ok(core.Dispatch("a", "w", LEASE))  # before any sweep
    assert late_node.state.result_reason == "SCHEDULE_TO_START_TIMEOUT"
    late_run = start(chain(), deadline_ms=T0 + 1_000)
    late_run.now += 1_000
    late_run.ok(core.Dispatch("a", "w", LEASE))
    assert late_run.state.result_reason == "DEADLINE_EXCEEDED"
    assert late_run.state.nodes["a"].attempts == 0
