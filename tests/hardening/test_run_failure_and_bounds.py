"""Issue 13 items 3, 13 and 15: bounded task inputs and responses, lease deadlines from
the clock's high-water mark, and why a run failed (reason and failed node ids)."""

from __future__ import annotations

import json

from aiws.engine.v1 import run_pb2
from praxis.core import definition as d
from praxis.core import run as core
from praxis.store.runtime.tasks import MAX_BATCH_INPUT_BYTES
from tests.support.harness import Harness
from tests.support.run_sim import LEASE, T0, Sim
from tests.support.runtime import claim, complete, definition, fail, get_run, json_out, node, start

MIB = 1024 * 1024


# --- item 13: leases from the later of now and the run's high-water mark ------------


def test_lease_base_is_the_later_of_now_and_the_last_update() -> None:
    sim = Sim(definition("a", a=node()))
    assert sim.state.updated_at_ms == T0
    sim.now = T0 - 9_000  # the clock stepped back 9 s since the run's last update
    attempt = sim.dispatch("a")
    assert sim.state.nodes["a"].lease_expires_at_ms == T0 + LEASE  # not T0 + 1 s
    reply = sim.ok(core.Heartbeat(attempt, "w", LEASE)).reply
    assert reply.lease_expires_at_ms == T0 + LEASE
    sim2 = Sim(definition("a", a=node()))
    sim2.now = T0 + 5_000
    sim2.dispatch("a")
    assert sim2.state.nodes["a"].lease_expires_at_ms == T0 + 5_000 + LEASE


# --- item 15: a machine-readable reason and the failed node ids ----------------------


def test_required_node_failure_sets_node_failed_reason() -> None:
    sim = Sim(definition("a", a=node(retry={"attempts": 1})))
    sim.fail("a", retryable=False)
    assert sim.state.status is core.RunStatus.FAILED
    assert sim.state.result_reason == "NODE_FAILED"


def test_failed_run_and_orphans_are_reported_on_the_run(harness: Harness) -> None:
    document = definition(
        "b",
        a=node(retry={"attempts": 1}),  # an orphan branch: nothing depends on it
        b=node(retry={"attempts": 1}),
    )
    run = start(harness, document).run
    tasks = {task.node_id: task for task in claim(harness)}
    fail(harness, tasks["a"], retryable=False)
    went_on = get_run(harness, run.run_id)
    assert went_on.state == run_pb2.RUN_STATE_AWAITING_NODES  # the run goes on
    assert list(went_on.failed_node_ids) == ["a"]
    assert went_on.result_reason == ""
    complete(harness, tasks["b"], "ok")
    done = get_run(harness, run.run_id)
    assert done.state == run_pb2.RUN_STATE_COMPLETED
    assert list(done.failed_node_ids) == ["a"]  # the orphan's failure stays visible

    failing = start(harness, definition("x", x=node(retry={"attempts": 1}))).run
    (task,) = claim(harness)
    fail(harness, task, retryable=False)
    failed = get_run(harness, failing.run_id)
    assert failed.state == run_pb2.RUN_STATE_FAILED
    assert failed.result_reason == "NODE_FAILED"
    assert list(failed.failed_node_ids) == ["x"]
    listed = harness.client("agent").runs.ListRuns(run_pb2.ListRunsRequest(page_size=10))
    by_id = {r.run_id: r for r in listed.runs}
    assert list(by_id[failing.run_id].failed_node_ids) == ["x"]
    assert by_id[failing.run_id].result_reason == "NODE_FAILED"


# --- item 3: bounded inputs, batches and pages -------------------------------------


def test_input_over_the_cap_fails_the_node_instead_of_leasing_it() -> None:
    sim = Sim(definition("a", a=node()))
    outcome = sim.ok(
        core.Dispatch("a", "w", LEASE, input_bytes=d.DEFAULT_LIMITS.max_input_bytes + 1)
    )
    assert not outcome.attempts
    assert sim.status("a") is core.NodeStatus.FAILED
    assert sim.state.nodes["a"].error.startswith("INPUT_TOO_LARGE:")
    assert sim.state.status is core.RunStatus.FAILED
    assert sim.state.result_reason == "INPUT_TOO_LARGE"


def _big(seed: str, size: int) -> dict[str, str]:
    return {"blob": seed * size}


def test_join_over_the_input_cap_fails_with_a_reason(harness: Harness) -> None:
    document = definition(
        "j",
        a=node(output=json_out()),
        b=node(output=json_out()),
        c=node(output=json_out()),
        j=node(["node:a", "node:b", "node:c"], ("a", "b", "c"), json_out()),
    )
    run = start(harness, document).run
    for task in claim(harness):
        complete(harness, task, _big(task.node_id, MIB - 100))  # each under the 1 MiB cap
    assert claim(harness) == []  # the join is not leased (its input is about 3 MiB)
    failed = get_run(harness, run.run_id)
    assert failed.state == run_pb2.RUN_STATE_FAILED
    assert failed.result_reason == "INPUT_TOO_LARGE"
    assert list(failed.failed_node_ids) == ["j"]
    (j,) = [n for n in failed.nodes if n.node_id == "j"]
    assert j.error.startswith("INPUT_TOO_LARGE:") and j.attempts == 0


def test_claim_response_is_bounded_and_the_rest_stay_ready(harness: Harness) -> None:
    big = MIB - 100  # about 1 MiB inputs (the run input cap): three fit in one response
    runs = [start(harness, definition("a", a=node()), "x" * big).run for _ in range(4)]
    small = start(harness, definition("a", a=node()), "small").run
    first = claim(harness, max_tasks=10)
    total = sum(len(task.input_json) for task in first)
    assert total <= MAX_BATCH_INPUT_BYTES
    assert len(first) == 3
    rest = claim(harness, max_tasks=10)
    rest += claim(harness, max_tasks=10)
    claimed = {task.run_id for task in first + rest}
    assert claimed == {r.run_id for r in runs} | {small.run_id}
    assert len(first + rest) == 5  # each leased exactly once, none lost


def test_list_runs_pages_are_cut_by_size(harness: Harness) -> None:
    document = definition("a", a=node(output=json_out()))
    started = []
    for index in range(5):
        run = start(harness, document).run
        (task,) = claim(harness)
        complete(harness, task, _big(str(index), MIB - 100))
        started.append(run.run_id)
    runs = harness.client("agent").runs
    page = runs.ListRuns(run_pb2.ListRunsRequest(page_size=100))
    assert page.ByteSize() <= 3 * MIB + 64 * 1024
    assert 1 <= len(page.runs) < 5 and page.next_page_token
    seen = [r.run_id for r in page.runs]
    while page.next_page_token:
        page = runs.ListRuns(
            run_pb2.ListRunsRequest(page_size=100, page_token=page.next_page_token)
        )
        assert page.ByteSize() <= 3 * MIB + 64 * 1024
        seen += [r.run_id for r in page.runs]
    assert sorted(seen) == sorted(started)
    assert all(json.loads(r.result_json) for r in runs.ListRuns(run_pb2.ListRunsRequest()).runs)
