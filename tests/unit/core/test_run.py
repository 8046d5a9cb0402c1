"""The run reducer in isolation: semantics and invariants, without I/O."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from praxis.core import definition as d
from praxis.core import run as core
from praxis.core.rejection import Rejection
from tests.support.run_sim import LEASE, T0, Sim
from tests.support.runtime import definition, diamond, json_out, node

ARRAY = {"type": "object", "properties": {"items": {"type": "array"}}}


def fanout_def(
    output: str = "m", schema: dict[str, Any] = ARRAY, **extra: dict[str, Any]
) -> dict[str, Any]:
    return definition(
        output,
        a=node(output=json_out(schema)),
        m=node("fanout_item", ("a",), json_out(), fanout={"over": "node:a.items"}),
        **extra,
    )


def test_diamond_runs_in_dependency_order() -> None:
    sim = Sim(diamond())
    assert sim.ready() == ["a"]
    sim.complete("a")
    assert sorted(sim.ready()) == ["b", "c"]
    sim.complete("b")
    assert sim.ready() == ["c"]
    assert sim.state.status is core.RunStatus.RUNNING
    sim.complete("c")
    sim.complete("d")
    assert sim.state.status is core.RunStatus.COMPLETED
    assert [e.kind for e in sim.events][-1] == "RUN_COMPLETED"


def test_fanout_expands_in_item_order_and_completes() -> None:
    sim = Sim(fanout_def())
    sim.complete("a", {"items": list(range(12))})
    assert sim.status("m") is core.NodeStatus.EXPANDED
    assert sim.ready() == [f"m#{i}" for i in range(12)]
    for index in reversed(range(12)):
        sim.complete(f"m#{index}")
    assert sim.status("m") is core.NodeStatus.DONE
    assert sim.state.status is core.RunStatus.COMPLETED


def test_empty_fanout_completes_at_once() -> None:
    sim = Sim(fanout_def())
    sim.complete("a", {"items": []})
    assert sim.status("m") is core.NodeStatus.DONE
    assert sim.state.status is core.RunStatus.COMPLETED


def test_fanout_over_a_non_array_fails_the_run_naming_node_and_path() -> None:
    sim = Sim(fanout_def(schema={"type": "object"}))  # the schema cannot prove it
    sim.complete("a", {"items": "nope"})
    assert sim.state.status is core.RunStatus.FAILED
    assert "node:a.items" in sim.state.result_error
    assert "not an array" in sim.state.result_error


def test_fanout_cap_fails_the_node() -> None:
    sim = Sim(fanout_def(), d.Limits(max_fanout_items=3))
    sim.complete("a", {"items": [1, 2, 3, 4]})
    assert sim.state.status is core.RunStatus.FAILED
    assert "cap" in sim.state.result_error


def test_a_failed_side_branch_neither_blocks_nor_fails_the_run() -> None:
    sim = Sim(
        definition(
            "b",
            a=node(output=json_out()),
            b=node("node:a", ("a",)),
            side=node("node:a", ("a",), json_out()),
            after=node("node:side", ("side",)),
        )
    )
    sim.complete("a")
    sim.fail("side", retryable=False)
    assert sim.status("after") is core.NodeStatus.CANCELLED
    assert sim.state.status is core.RunStatus.RUNNING
    sim.complete("b")
    assert sim.state.status is core.RunStatus.COMPLETED


def test_live_side_branches_are_cancelled_when_the_run_ends() -> None:
    sim = Sim(definition("b", b=node(), side=node(effects="idempotent")))
    side = sim.dispatch("side")
    sim.complete("b")
    # The side branch's attempt is asked to stop; the run completes once it settled.
    assert sim.state.status is core.RunStatus.COMPLETING
    assert sim.status("side") is core.NodeStatus.STOPPING
    sim.ok(core.Fail(side, "w", "stopped", False, core.Effect.NOT_APPLIED))
    assert sim.status("side") is core.NodeStatus.CANCELLED
    assert sim.state.status is core.RunStatus.COMPLETED
    settled = sim.attempts[side.attempt_id]
    late = sim.apply(core.Complete(settled, "w", "x", core.Effect.APPLIED))
    assert isinstance(late, Rejection) and late.reason == "ATTEMPT_ALREADY_SETTLED"


def test_a_failed_required_node_fails_the_run_with_a_summary() -> None:
    sim = Sim(diamond())
    sim.complete("a")
    sim.fail("b", retryable=False)
    assert sim.state.status is core.RunStatus.FAILED
    assert "b: boom" in sim.state.result_error
    assert sim.status("c") is core.NodeStatus.CANCELLED


def test_retries_with_backoff_and_new_attempt_ids_then_fails() -> None:
    document = definition("a", a=node(retry={"attempts": 3, "backoff_ms": 100}))
    sim = Sim(document)
    seen = set()
    for expected_delay in (100, 200):
        attempt = sim.dispatch("a")
        seen.add(attempt.attempt_id)
        outcome = sim.ok(core.Fail(attempt, "w", "boom", True, core.Effect.NOT_APPLIED))
        assert outcome.reply.will_retry
        assert sim.state.nodes["a"].not_before_ms == sim.now + expected_delay
        assert sim.ready() == []
        sim.now += expected_delay
    attempt = sim.dispatch("a")
    seen.add(attempt.attempt_id)
    outcome = sim.ok(core.Fail(attempt, "w", "boom", True, core.Effect.NOT_APPLIED))
    assert not outcome.reply.will_retry
    assert len(seen) == 3
    assert sim.state.status is core.RunStatus.FAILED


def test_uncertain_effects_are_not_retried_automatically() -> None:
    sim = Sim(definition("a", a=node()))
    attempt = sim.dispatch("a")
    outcome = sim.ok(core.Fail(attempt, "w", "?", True, core.Effect.UNCERTAIN))
    assert not outcome.reply.will_retry


def test_lease_expiry_redispatches_and_rejects_the_stale_result() -> None:
    sim = Sim(definition("a", a=node(retry={"attempts": 2, "backoff_ms": 0}, effects="none")))
    first = sim.dispatch("a")
    sim.now += LEASE - 1
    assert sim.apply(core.Expire()).noop  # type: ignore[union-attr]
    sim.now += 1
    sim.ok(core.Expire())
    assert sim.attempts[first.attempt_id].status is core.AttemptStatus.EXPIRED
    second = sim.dispatch("a")
    assert second.attempt_id != first.attempt_id
    stale = sim.apply(core.Complete(sim.attempts[first.attempt_id], "w", "x", core.Effect.APPLIED))
    assert isinstance(stale, Rejection) and stale.reason == "LEASE_EXPIRED"
    sim.ok(core.Complete(second, "w", "x", core.Effect.APPLIED))
    assert sim.state.status is core.RunStatus.COMPLETED


def test_timeouts_retry_like_expired_leases() -> None:
    sim = Sim(definition("a", a=node(timeout_ms=500, retry={"attempts": 1}, effects="none")))
    sim.dispatch("a")
    sim.now += 500
    sim.ok(core.Expire())
    assert sim.state.status is core.RunStatus.FAILED
    assert "timed out" in sim.state.result_error


def test_a_clock_stepping_backwards_never_expires_early() -> None:
    sim = Sim(definition("a", a=node()))
    attempt = sim.dispatch("a")
    sim.now -= 60_000
    assert sim.apply(core.Expire()).noop  # type: ignore[union-attr]
    beat = sim.ok(core.Heartbeat(attempt, "w", 1_000))
    assert beat.reply.lease_expires_at_ms == T0 + LEASE  # never shortened
    sim.now = T0 + LEASE - 1
    assert sim.apply(core.Expire()).noop  # type: ignore[union-attr]


def test_settling_is_idempotent_for_the_same_payload_only() -> None:
    sim = Sim(definition("a", a=node(), b=node()))
    attempt = sim.dispatch("a")
    sim.ok(core.Complete(attempt, "w", "x", core.Effect.APPLIED))
    settled = sim.attempts[attempt.attempt_id]
    again = sim.ok(core.Complete(settled, "w", "x", core.Effect.APPLIED))
    assert again.reply.replayed and again.noop
    other = sim.apply(core.Complete(settled, "w", "y", core.Effect.APPLIED))
    assert isinstance(other, Rejection) and other.reason == "ATTEMPT_ALREADY_SETTLED"
    failed = sim.apply(core.Fail(settled, "w", "boom", True, core.Effect.NOT_APPLIED))
    assert isinstance(failed, Rejection) and failed.reason == "ATTEMPT_ALREADY_SETTLED"


def test_another_workers_result_is_refused() -> None:
    sim = Sim(definition("a", a=node()))
    attempt = sim.dispatch("a")
    other = sim.apply(core.Complete(attempt, "intruder", "x", core.Effect.APPLIED))
    assert isinstance(other, Rejection) and other.reason == "WORKER_MISMATCH"


def test_results_must_meet_the_output_contract() -> None:
    schema = {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}
    sim = Sim(definition("a", a=node(output=json_out(schema))))
    attempt = sim.dispatch("a")
    bad = sim.apply(core.Complete(attempt, "w", {"n": "1"}, core.Effect.APPLIED))
    assert isinstance(bad, Rejection) and bad.reason == "RESULT_CONTRACT_VIOLATION"
    sim.ok(core.Complete(attempt, "w", {"n": 1}, core.Effect.APPLIED))
    text = Sim(definition("t", t=node()))
    attempt = text.dispatch("t")
    bad = text.apply(core.Complete(attempt, "w", {"not": "text"}, core.Effect.APPLIED))
    assert isinstance(bad, Rejection) and bad.reason == "RESULT_CONTRACT_VIOLATION"


def test_stop_cancels_live_attempts_and_heartbeats_report_it() -> None:
    sim = Sim(definition("a", a=node(), b=node()))
    attempt = sim.dispatch("a")
    sim.ok(core.Stop("enough"))
    assert sim.state.status is core.RunStatus.CANCELLING
    assert sim.status("b") is core.NodeStatus.CANCELLED  # never dispatched: at once
    beat = sim.ok(core.Heartbeat(sim.attempts[attempt.attempt_id], "w", 1_000))
    assert beat.reply.cancelled
    assert sim.apply(core.Stop("again")).noop  # type: ignore[union-attr]
    sim.ok(core.Fail(attempt, "w", "stopped", False, core.Effect.NOT_APPLIED))
    assert sim.state.status is core.RunStatus.CANCELLED
    assert sim.attempts[attempt.attempt_id].status is core.AttemptStatus.FAILED


def test_revision_applies_to_nodes_not_dispatched() -> None:
    sim = Sim(diamond())
    sim.complete("a")
    changed = diamond()
    changed["nodes"]["d"]["agent"]["model"] = "gpt-test"
    revised = d.parse(changed, None)
    assert isinstance(revised, d.Definition)
    sim.ok(core.Revise(revised, 2))
    assert sim.state.revision == 2
    assert sim.state.nodes["d"].revision == 2
    assert sim.state.nodes["a"].revision == 0
    assert core.ready_entry(sim.state, "b") == ("echo", 0)


def test_revision_changing_a_dispatched_node_conflicts() -> None:
    sim = Sim(diamond())
    sim.dispatch("a")
    changed = diamond()
    changed["nodes"]["a"]["agent"]["system_prompt"] = "new"
    revised = d.parse(changed, None)
    assert isinstance(revised, d.Definition)
    conflict = sim.apply(core.Revise(revised, 2))
    assert isinstance(conflict, Rejection) and conflict.reason == "REVISION_CONFLICT"
    assert [v.field for v in conflict.violations] == ["nodes.a"]


def test_attempt_ids_are_deterministic() -> None:
    assert core.attempt_id("r", "n#1", 2) == core.attempt_id("r", "n#1", 2)
    assert core.attempt_id("r", "n#1", 2) != core.attempt_id("r", "n#1", 3)
    assert core.attempt_id("r", "n#1", 2).startswith("att_")


# --- properties -----------------------------------------------------------------------


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[dict[str, Any], list[int]]:
    count = draw(st.integers(1, 8))
    nodes: dict[str, Any] = {}
    for index in range(count):
        deps = (
            draw(st.lists(st.sampled_from(range(index)), unique=True, max_size=3)) if index else []
        )
        names = tuple(f"n{dep}" for dep in deps)
        if not names:
            source: Any = "run_input"
        elif len(names) == 1:
            source = f"node:{names[0]}"
        else:
            source = [f"node:{name}" for name in names]
        effects = draw(st.sampled_from([{}, {"effects": "external"}, {"effects": "idempotent"}]))
        retry = {"attempts": 2, "backoff_ms": 0}
        nodes[f"n{index}"] = node(source, names, json_out(), retry=retry, **effects)
    output = draw(st.integers(0, count - 1))
    moves = draw(st.lists(st.integers(0, 3), min_size=40, max_size=40))
    return definition(f"n{output}", **nodes), moves


@settings(max_examples=80, deadline=None)
@given(scenarios())
def test_runs_always_end_and_keep_their_invariants(
    scenario: tuple[dict[str, Any], list[int]],
) -> None:
    document, moves = scenario
    sim = Sim(document)
    replay = Sim(document)
    for move in moves * 3:
        blocked = [n for n in sim.state.nodes.values() if n.status is core.NodeStatus.BLOCKED]
        if blocked:  # a lease lost on a node with effects: a human decides
            node_run = min(blocked, key=lambda n: n.uid)
            applied = move % 2 == 0
            sim.ok(core.Reconcile(node_run.uid, node_run.attempt_id, applied))
            continue
        if sim.state.status in core.TERMINAL:
            break
        ready = sim.ready()
        if not ready:
            sim.now += LEASE
            sim.ok(core.Expire())
            continue
        uid = ready[move % len(ready)]
        attempt = sim.dispatch(uid)
        if move == 0:
            sim.ok(core.Fail(attempt, "w", "boom", True, core.Effect.NOT_APPLIED))
        elif move == 1:
            sim.now += LEASE  # the lease runs out; the sweeper expires it
            sim.ok(core.Expire())
        else:
            sim.ok(core.Complete(attempt, "w", {"ok": move}, core.Effect.APPLIED))
    _check_invariants(sim)
    _check_determinism(sim, replay)


def _check_invariants(sim: Sim) -> None:
    state = sim.state
    ids = [a.attempt_id for a in sim.attempts.values()]
    assert len(ids) == len(set(ids))
    if state.status in core.TERMINAL:
        assert all(n.status not in core.LIVE for n in state.nodes.values())
        assert all(core.ready_entry(state, uid) is None for uid in state.nodes)
    if state.status is core.RunStatus.COMPLETED:
        assert state.definition.output in sim.results
    for uid, n in state.nodes.items():
        assert (uid in sim.results) == (n.status is core.NodeStatus.DONE)
    # The incrementally kept counts equal a recount of every node.
    recounted = replace(state, tally=None, timed=None, reserved=None)
    assert recounted.tally == state.tally
    assert recounted.timed == state.timed
    assert recounted.reserved == state.reserved
    assert sorted(core.ordered_uids(state.definition, state.nodes)) == sorted(state.nodes)
    kinds = [e.kind for e in sim.events]
    assert kinds[0] == "RUN_STARTED"
    ends = [k for k in kinds if k in ("RUN_COMPLETED", "RUN_FAILED", "RUN_CANCELLED")]
    assert len(ends) == (1 if state.status in core.TERMINAL else 0)


def _check_determinism(sim: Sim, replay: Sim) -> None:
    assert set(replay.state.nodes.keys()) == set(sim.state.nodes.keys())
    again = core.apply(None, core.Start("run-1", sim.state.definition), T0)
    first = core.apply(None, core.Start("run-1", sim.state.definition), T0)
    assert again == first
