"""A stop is a request the worker's report settles, and unsettled work blocks a run's end
(issue 37, items 1 and 2), over gRPC on every backend."""

from __future__ import annotations

import json
import threading
import time

import grpc
import pytest

from aiws.engine.v1 import (
    assessment_pb2,
    common_pb2,
    event_pb2,
    reconciliation_pb2,
    run_pb2,
    task_pb2,
)
from tests.support.execution import fail_task, reconcile, run_of, settle, start_run
from tests.support.harness import Harness, expect_error
from tests.support.runtime import claim, definition, event_kinds, json_out, node, states

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")

LEASE = 30_000
NOT_APPLIED = common_pb2.EFFECT_OUTCOME_NOT_APPLIED
EVIDENCE = {"provider_log": "no such charge", "checked_by": "alice"}


def reconciliations(h: Harness, run_id: str) -> list[reconciliation_pb2.Reconciliation]:
    return list(
        h.client("agent")
        .reconciliations.ListReconciliations(
            reconciliation_pb2.ListReconciliationsRequest(run_id=run_id)
        )
        .reconciliations
    )


def heartbeat(h: Harness, task: task_pb2.Task) -> task_pb2.HeartbeatResponse:
    return h.client("agent").tasks.Heartbeat(  # type: ignore[no-any-return]
        task_pb2.HeartbeatRequest(attempt_id=task.attempt_id, worker_id="w1", lease_ms=LEASE)
    )


def stop(h: Harness, run_id: str) -> run_pb2.Run:
    return (
        h.client("agent").runs.StopRun(run_pb2.StopRunRequest(run_id=run_id, reason="enough")).run
    )


def sweep_past_leases(h: Harness) -> None:
    h.clock.advance(LEASE)
    h.server.engine.runs.sweep()


THREE = definition(
    "out",
    a=node(output=json_out(), effects="external"),
    b=node(output=json_out(), effects="external"),
    c=node(output=json_out(), effects="external"),
    out=node(["node:a", "node:b", "node:c"], ("a", "b", "c"), json_out()),
)


def test_a_stop_of_three_leaves_one_reconciliation_for_the_silent_one(model: Harness) -> None:
    run = start_run(model, THREE)
    tasks = {task.node_uid: task for task in claim(model, lease_ms=LEASE)}
    assert sorted(tasks) == ["a", "b", "c"]
    stopping = stop(model, run.run_id)
    assert stopping.state == run_pb2.RUN_STATE_CANCELLING
    assert stopping.finished_at_ms == 0
    assert states(stopping) == {
        "a": "STOPPING",
        "b": "STOPPING",
        "c": "STOPPING",
        "out": "CANCELLED",
    }
    assert reconciliations(model, run.run_id) == []  # nothing opens at the stop
    for task in tasks.values():
        beat = heartbeat(model, task)
        assert beat.cancelled and beat.lease_expires_at_ms == task.lease_expires_at_ms

    refused = fail_task(model, tasks["a"], NOT_APPLIED, retryable=True)
    assert not refused.will_retry
    settle(model, tasks["b"], {"sent": 1})
    middle = run_of(model, run.run_id)
    assert middle.state == run_pb2.RUN_STATE_CANCELLING  # c has not reported
    assert states(middle)["a"] == "CANCELLED" and states(middle)["b"] == "DONE"
    result = model.client("agent").runs.GetNodeResult(
        run_pb2.GetNodeResultRequest(run_id=run.run_id, node_uid="b")
    )
    assert json.loads(result.result_json) == {"sent": 1}
    events = model.client("agent").events.ListEvents(event_pb2.ListEventsRequest(run_id=run.run_id))
    settled_b = [json.loads(e.payload_json) for e in events.events if e.node_uid == "b"][-1]
    assert settled_b["effect"] == "APPLIED" and settled_b["after_stop"] is True
    assert reconciliations(model, run.run_id) == []

    sweep_past_leases(model)
    ended = run_of(model, run.run_id)
    assert ended.state == run_pb2.RUN_STATE_CANCELLED
    assert ended.finished_at_ms == model.clock.now_ms()
    assert states(ended)["c"] == "BLOCKED"
    [left] = reconciliations(model, run.run_id)
    assert left.attempt_id == tasks["c"].attempt_id
    assert left.state == reconciliation_pb2.RECONCILIATION_STATE_PENDING
    assert event_kinds(model, run.run_id).count("RUN_CANCELLED") == 1


def test_a_run_whose_orphan_still_runs_is_never_seen_completed_before_it_settles(
    model: Harness,
) -> None:
    document = definition(
        "out", out=node(output=json_out()), side=node(output=json_out(), effects="external")
    )
    run = start_run(model, document)
    tasks = {task.node_uid: task for task in claim(model, lease_ms=LEASE)}
    seen: list[run_pb2.Run] = []
    stream = model.client("agent").runs.WatchRun(run_pb2.WatchRunRequest(run_id=run.run_id))
    reader = threading.Thread(target=lambda: seen.extend(r.run for r in stream))
    reader.start()
    deadline = time.monotonic() + 10
    while not seen and time.monotonic() < deadline:  # the watch has begun
        time.sleep(0.01)
    settle(model, tasks["out"], {"answer": 42})
    completing = run_of(model, run.run_id)
    assert completing.state == run_pb2.RUN_STATE_COMPLETING
    assert json.loads(completing.result_json) == {"answer": 42}
    assert states(completing)["side"] == "STOPPING"
    assert "RUN_COMPLETED" not in event_kinds(model, run.run_id)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_NOT_COMPLETED"):
        model.client("alice").assessments.RecordAssessment(
            assessment_pb2.RecordAssessmentRequest(
                request_id="as-early",
                run_id=run.run_id,
                kind=assessment_pb2.ASSESSMENT_KIND_ACCEPTANCE,
                verdict=assessment_pb2.ASSESSMENT_VERDICT_PASS,
                subject_digest="sha256:" + "0" * 64,
                findings_json="{}",
            )
        )
    assert heartbeat(model, tasks["side"]).cancelled
    settle(model, tasks["side"], {"posted": True})  # the orphan's effect happened
    reader.join(timeout=10)
    assert not reader.is_alive()
    watched = [snapshot.state for snapshot in seen]
    assert watched[-1] == run_pb2.RUN_STATE_COMPLETED
    assert run_pb2.RUN_STATE_COMPLETING in watched
    first_completed = watched.index(run_pb2.RUN_STATE_COMPLETED)
    side = [states(snapshot)["side"] for snapshot in seen[: first_completed + 1]]
    assert side[-1] == "DONE" and "STOPPING" in side
    ended = run_of(model, run.run_id)
    assert ended.finished_at_ms == model.clock.now_ms()


def test_a_blocked_orphan_keeps_the_run_open_until_reconciled_and_is_not_run_again(
    model: Harness,
) -> None:
    document = definition(
        "out", out=node(output=json_out()), side=node(output=json_out(), effects="external")
    )
    run = start_run(model, document)
    tasks = {task.node_uid: task for task in claim(model, lease_ms=LEASE)}
    settle(model, tasks["out"], {"answer": 42})
    sweep_past_leases(model)  # the orphan never reports
    held = run_of(model, run.run_id)
    assert held.state == run_pb2.RUN_STATE_COMPLETING
    assert states(held)["side"] == "BLOCKED"
    [pending] = reconciliations(model, run.run_id)
    reconcile(
        model,
        pending.attempt_id,
        reconciliation_pb2.RECONCILIATION_DECISION_NOT_APPLIED,
        EVIDENCE,
        "ap-orphan",
    )
    done = run_of(model, run.run_id)
    assert done.state == run_pb2.RUN_STATE_COMPLETED
    assert states(done)["side"] == "CANCELLED"
    assert json.loads(done.result_json) == {"answer": 42}
    model.clock.advance(60_000)
    assert claim(model) == []  # the orphan was never offered again


def test_a_cancelling_run_is_neither_resumed_nor_stopped_again(model: Harness) -> None:
    run = start_run(model, THREE)
    claim(model, lease_ms=LEASE)
    first = stop(model, run.run_id)
    again = stop(model, run.run_id)
    assert again.version == first.version
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_NOT_RESUMABLE"):
        model.client("alice").runs.ResumeRun(
            run_pb2.ResumeRunRequest(run_id=run.run_id, request_id="too-soon", reason="go")
        )
