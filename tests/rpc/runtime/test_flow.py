"""The workflow runtime over gRPC: DAG semantics, retries, leases and stop."""

from __future__ import annotations

import json
import time

import grpc
import pytest

from aiws.engine.v1 import run_pb2, task_pb2
from tests.support.harness import Harness, expect_error
from tests.support.runtime import (
    claim,
    complete,
    definition,
    diamond,
    drive,
    fail,
    get_run,
    json_out,
    node,
    start,
    states,
)

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")

ITEMS = {"type": "object", "properties": {"items": {"type": "array"}}}


def fanout_definition() -> dict[str, object]:
    return definition(
        "join",
        split=node(output=json_out(ITEMS)),
        each=node("fanout_item", ("split",), json_out(), fanout={"over": "node:split.items"}),
        join=node("node:each", ("each",), json_out({"type": "array"})),
    )


def wait_for(h: Harness, run_id: str, predicate: object, timeout_s: float = 5.0) -> run_pb2.Run:
    deadline = time.monotonic() + timeout_s
    while True:
        run = get_run(h, run_id)
        if predicate(run):  # type: ignore[operator]
            return run
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not reached: {run}")
        time.sleep(0.02)


def test_diamond_joins_both_branches(harness: Harness) -> None:
    run = start(harness, diamond(), {"x": 1}).run
    assert [n.node_uid for n in run.nodes] == ["a", "b", "c", "d"]
    assert states(run) == {"a": "READY", "b": "PENDING", "c": "PENDING", "d": "PENDING"}
    done = drive(harness, run.run_id)
    assert done.state == run_pb2.RUN_STATE_COMPLETED
    result = json.loads(done.result_json)
    assert result["node"] == "d"
    assert set(result["input"]) == {"b", "c"}
    assert result["input"]["b"]["input"] == {"input": {"x": 1}, "node": "a"}
    assert all(n.has_result and n.attempts == 1 for n in done.nodes)


def test_fanout_and_fanin_keep_numeric_item_order(harness: Harness) -> None:
    items = [f"item-{i}" for i in range(13)]
    run = start(harness, fanout_definition()).run
    [split] = claim(harness)
    complete(harness, split, {"items": items})
    tasks = claim(harness)
    assert sorted(t.node_uid for t in tasks) == sorted(f"each#{i}" for i in range(13))
    for task in reversed(tasks):  # finish out of order
        assert json.loads(task.input_json) == items[int(task.node_uid.split("#")[1])]
        complete(harness, task, {"echo": json.loads(task.input_json)})
    [join] = claim(harness)
    assert [x["echo"] for x in json.loads(join.input_json)] == items
    complete(harness, join, ["ok"])
    done = get_run(harness, run.run_id)
    assert done.state == run_pb2.RUN_STATE_COMPLETED
    uids = [n.node_uid for n in done.nodes]
    assert uids == ["split", "each", *[f"each#{i}" for i in range(13)], "join"]
    each = next(n for n in done.nodes if n.node_uid == "each")
    assert each.fanout_items == 13 and each.state == run_pb2.NODE_STATE_DONE
    group = harness.client("agent").runs.GetNodeResult(
        run_pb2.GetNodeResultRequest(run_id=run.run_id, node_uid="each")
    )
    assert [x["echo"] for x in json.loads(group.result_json)] == items


def test_empty_fanout_completes(harness: Harness) -> None:
    run = start(harness, fanout_definition()).run
    [split] = claim(harness)
    complete(harness, split, {"items": []})
    [join] = claim(harness)
    assert json.loads(join.input_json) == []
    complete(harness, join, [])
    done = get_run(harness, run.run_id)
    assert done.state == run_pb2.RUN_STATE_COMPLETED
    assert states(done)["each"] == "DONE"


def test_fanout_over_a_non_array_fails_the_run(harness: Harness) -> None:
    document = fanout_definition()
    document["nodes"]["split"]["agent"]["output"] = json_out()  # type: ignore[index]
    run = start(harness, document).run
    [split] = claim(harness)
    complete(harness, split, {"items": {"not": "an array"}})
    done = get_run(harness, run.run_id)
    assert done.state == run_pb2.RUN_STATE_FAILED
    assert "node:split.items" in done.result_error


def test_orphan_branch_failure_is_ignored(harness: Harness) -> None:
    document = definition(
        "main",
        main=node(),
        orphan=node(retry={"attempts": 1}),
    )
    run = start(harness, document).run
    tasks = {t.node_uid: t for t in claim(harness)}
    assert not fail(harness, tasks["orphan"], retryable=False).will_retry
    assert get_run(harness, run.run_id).state == run_pb2.RUN_STATE_AWAITING_NODES
    complete(harness, tasks["main"], "fine")
    done = get_run(harness, run.run_id)
    assert done.state == run_pb2.RUN_STATE_COMPLETED
    assert json.loads(done.result_json) == "fine"
    orphan = next(n for n in done.nodes if n.node_uid == "orphan")
    assert orphan.state == run_pb2.NODE_STATE_FAILED and orphan.error == "boom"


def test_required_branch_failure_fails_the_run(harness: Harness) -> None:
    run = start(harness, diamond()).run
    [a] = claim(harness)
    complete(harness, a, {})
    tasks = {t.node_uid: t for t in claim(harness)}
    fail(harness, tasks["b"], "model refused", retryable=False)
    done = get_run(harness, run.run_id)
    assert done.state == run_pb2.RUN_STATE_FAILING
    assert "b: model refused" in done.result_error
    # c was running and declares no effects: it is asked to stop and its report heard.
    assert states(done)["c"] == "STOPPING"
    complete(harness, tasks["c"], {})
    done = get_run(harness, run.run_id)
    assert done.state == run_pb2.RUN_STATE_FAILED
    assert states(done)["c"] == "DONE"


def test_stop_while_nodes_run(harness: Harness) -> None:
    safe = node(effects="idempotent")
    run = start(harness, definition("a", a=safe, b=safe)).run
    tasks = claim(harness)
    assert len(tasks) == 2
    stopped = (
        harness.client("agent")
        .runs.StopRun(run_pb2.StopRunRequest(run_id=run.run_id, reason="operator stop"))
        .run
    )
    assert stopped.state == run_pb2.RUN_STATE_CANCELLING
    assert stopped.result_error == "operator stop"
    assert set(states(stopped).values()) == {"STOPPING"}
    beat = harness.client("agent").tasks.Heartbeat(
        task_pb2.HeartbeatRequest(attempt_id=tasks[0].attempt_id, worker_id="w1", lease_ms=5_000)
    )
    assert beat.cancelled
    again = harness.client("agent").runs.StopRun(run_pb2.StopRunRequest(run_id=run.run_id)).run
    assert again.version == stopped.version  # a decided run is returned unchanged
    complete(harness, tasks[1], "late")  # heard: kept as applied
    fail(harness, tasks[0], "stopped", retryable=True)  # not applied: cancelled
    ended = get_run(harness, run.run_id)
    assert ended.state == run_pb2.RUN_STATE_CANCELLED
    assert states(ended) == {tasks[1].node_uid: "DONE", tasks[0].node_uid: "CANCELLED"}
    assert claim(harness) == []


def test_retry_with_backoff_then_failure_once_the_budget_is_spent(harness: Harness) -> None:
    document = definition("a", a=node(retry={"attempts": 3, "backoff_ms": 1_000}))
    run = start(harness, document).run
    attempt_ids = []
    for backoff in (1_000, 2_000):
        [task] = claim(harness)
        attempt_ids.append(task.attempt_id)
        assert fail(harness, task).will_retry
        snapshot = get_run(harness, run.run_id)
        assert snapshot.nodes[0].not_before_ms == harness.clock.now_ms() + backoff
        assert claim(harness) == []  # still backing off
        harness.clock.advance(backoff)
    [task] = claim(harness)
    assert task.attempt == 3
    attempt_ids.append(task.attempt_id)
    assert len(set(attempt_ids)) == 3
    assert not fail(harness, task).will_retry
    done = get_run(harness, run.run_id)
    assert done.state == run_pb2.RUN_STATE_FAILED
    assert done.nodes[0].attempts == 3


def test_lease_expiry_redispatches_and_rejects_the_stale_result(harness: Harness) -> None:
    document = definition("a", a=node(retry={"attempts": 2, "backoff_ms": 0}, effects="none"))
    run = start(harness, document).run
    [first] = claim(harness, worker="w1", lease_ms=5_000)
    harness.clock.advance(5_000)
    harness.server.engine.signals.everything()  # as TestClockService.Advance does
    wait_for(harness, run.run_id, lambda r: r.nodes[0].state == run_pb2.NODE_STATE_READY)
    [second] = claim(harness, worker="w2")
    assert second.attempt == 2 and second.attempt_id != first.attempt_id
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "LEASE_EXPIRED"):
        complete(harness, first, "stale")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "LEASE_EXPIRED"):
        harness.client("agent").tasks.Heartbeat(
            task_pb2.HeartbeatRequest(attempt_id=first.attempt_id, worker_id="w1", lease_ms=5_000)
        )
    complete(harness, second, "fresh", worker="w2")
    done = get_run(harness, run.run_id)
    assert json.loads(done.result_json) == "fresh"


def test_heartbeat_extends_the_lease(harness: Harness) -> None:
    run = start(harness, definition("a", a=node())).run
    [task] = claim(harness, lease_ms=5_000)
    harness.clock.advance(4_000)
    beat = harness.client("agent").tasks.Heartbeat(
        task_pb2.HeartbeatRequest(attempt_id=task.attempt_id, worker_id="w1", lease_ms=5_000)
    )
    assert beat.lease_expires_at_ms == harness.clock.now_ms() + 5_000 and not beat.cancelled
    harness.clock.advance(4_000)
    assert harness.server.engine.runs.sweep() == 0
    complete(harness, task, "ok")
    assert get_run(harness, run.run_id).state == run_pb2.RUN_STATE_COMPLETED


def test_settling_twice_with_the_same_payload_is_a_replay(harness: Harness) -> None:
    start(harness, definition("a", a=node(), b=node()))
    tasks = {t.node_uid: t for t in claim(harness)}
    assert fail(harness, tasks["b"], retryable=False).will_retry is False
    assert fail(harness, tasks["b"], retryable=False).replayed
    assert not complete(harness, tasks["a"], "x").replayed
    assert complete(harness, tasks["a"], "x").replayed
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "ATTEMPT_ALREADY_SETTLED"):
        complete(harness, tasks["a"], "y")


def test_task_carries_agent_input_template_and_deadline(harness: Harness) -> None:
    document = definition(
        "a",
        a={
            "agent": {"model": "echo", "system_prompt": "be brief", "functions": ["search"]},
            "input": {"from": "run_input", "template": "Summarize:"},
            "timeout_ms": 60_000,
        },
    )
    start(harness, document, {"text": "hello"})
    [task] = claim(harness, lease_ms=10_000)
    now = harness.clock.now_ms()
    assert task.agent.model == "echo" and task.agent.system_prompt == "be brief"
    assert json.loads(task.agent.functions_json) == {"allow": ["search"], "deny": []}
    assert json.loads(task.agent.output_json) == {"type": "text"}
    assert json.loads(task.input_json) == {"text": "hello"}
    assert task.template == "Summarize:"
    assert (task.deadline_ms, task.lease_expires_at_ms) == (now + 60_000, now + 10_000)
    assert task.operation_id.startswith("op_") and task.attempt_id.startswith("att_")


def test_node_results_and_list_runs(harness: Harness) -> None:
    finished = start(harness, definition("a", a=node())).run
    [task] = claim(harness)
    complete(harness, task, "hi")
    harness.clock.advance(1)
    live = start(harness, definition("a", a=node())).run
    runs = harness.client("agent").runs
    result = runs.GetNodeResult(run_pb2.GetNodeResultRequest(run_id=finished.run_id, node_uid="a"))
    assert result.present and json.loads(result.result_json) == "hi"
    empty = runs.GetNodeResult(run_pb2.GetNodeResultRequest(run_id=live.run_id, node_uid="a"))
    assert not empty.present
    with expect_error(grpc.StatusCode.NOT_FOUND, "NODE_NOT_FOUND"):
        runs.GetNodeResult(run_pb2.GetNodeResultRequest(run_id=live.run_id, node_uid="zz"))
    page = runs.ListRuns(run_pb2.ListRunsRequest(page_size=1))
    assert [r.run_id for r in page.runs] == [live.run_id] and page.next_page_token
    page = runs.ListRuns(run_pb2.ListRunsRequest(page_size=1, page_token=page.next_page_token))
    assert [r.run_id for r in page.runs] == [finished.run_id] and not page.next_page_token
    done = runs.ListRuns(run_pb2.ListRunsRequest(state=run_pb2.RUN_STATE_COMPLETED))
    assert [r.run_id for r in done.runs] == [finished.run_id]


def test_long_poll_wakes_when_work_arrives(harness: Harness) -> None:
    import threading

    claimed: list[task_pb2.Task] = []
    waiter = threading.Thread(target=lambda: claimed.extend(claim(harness, wait_ms=10_000)))
    began = time.monotonic()
    waiter.start()
    time.sleep(0.1)
    start(harness, definition("a", a=node()))
    waiter.join(timeout=5)
    assert len(claimed) == 1
    assert time.monotonic() - began < 2.0
