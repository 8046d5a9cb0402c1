"""Governed execution over the wire (issue 23): nothing hangs silently (schedule-to-start,
run deadlines), failed runs resume, and a governed ref runs once."""

from __future__ import annotations

import json

import grpc
import pytest

from aiws.engine.v1 import (
    admin_pb2,
    approval_pb2,
    common_pb2,
    contract_pb2,
    event_pb2,
    run_pb2,
    task_pb2,
)
from tests.support.harness import Harness, expect_error
from tests.support.runtime import (
    claim,
    complete,
    definition,
    event_kinds,
    fail,
    get_run,
    governed,
    json_out,
    node,
    start,
    states,
)

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")

HOUR = 3_600_000
CHAIN = definition(
    "b",
    a=node(output=json_out(), retry={"attempts": 1}),
    b=node("node:a", ("a",), json_out(), retry={"attempts": 1}),
)


def expire(h: Harness, by_ms: int) -> None:
    h.clock.advance(by_ms)
    h.server.engine.runs.sweep()


def test_a_run_whose_model_no_worker_serves_fails_naming_the_model(harness: Harness) -> None:
    run = start(harness, CHAIN).run
    expire(harness, HOUR - 1)
    assert get_run(harness, run.run_id).state == run_pb2.RUN_STATE_RUNNING
    expire(harness, 1)
    done = get_run(harness, run.run_id)
    assert done.state == run_pb2.RUN_STATE_FAILED
    assert done.result_reason == "SCHEDULE_TO_START_TIMEOUT"
    assert "'echo'" in done.nodes[0].error and list(done.failed_node_ids) == ["a"]


def test_a_paused_work_order_does_not_time_out_its_ready_nodes(harness: Harness) -> None:
    run = governed(harness, "paused-run")
    admin = harness.client("alice").admin
    admin.PauseWorkOrder(admin_pb2.PauseWorkOrderRequest(work_order_id="wo-1", reason="audit"))
    expire(harness, HOUR)
    assert get_run(harness, run.run_id).state == run_pb2.RUN_STATE_RUNNING
    expire(harness, 3 * HOUR)
    assert get_run(harness, run.run_id).state == run_pb2.RUN_STATE_RUNNING


def test_a_run_past_its_own_deadline_fails_once_its_told_worker_reported(
    harness: Harness,
) -> None:
    document = definition("a", a=node(effects="idempotent"))
    run = start(harness, document, run_timeout_ms=60_000).run
    assert run.deadline_ms == harness.clock.now_ms() + 60_000
    [task] = claim(harness, lease_ms=120_000)
    expire(harness, 60_000)
    failing = get_run(harness, run.run_id)
    assert (failing.state, failing.result_reason) == (
        run_pb2.RUN_STATE_FAILING,
        "DEADLINE_EXCEEDED",
    )
    assert failing.finished_at_ms == 0
    complete(harness, task, "late")  # the report is heard: the result is kept
    done = get_run(harness, run.run_id)
    assert (done.state, done.result_reason) == (run_pb2.RUN_STATE_FAILED, "DEADLINE_EXCEEDED")
    assert states(done)["a"] == "DONE"


def test_a_run_honours_its_contracts_deadline(harness: Harness) -> None:
    deadline = harness.clock.now_ms() + 30_000
    harness.client("alice").contracts.CreateContract(
        contract_pb2.CreateContractRequest(
            contract_id="c-deadline",
            work_order_id="wo-1",
            criteria_json="{}",
            deadline_ms=deadline,
            budget_microcredits="100",
            profile="aiws.v1",
        )
    )
    run = start(harness, CHAIN, contract_id="c-deadline", run_timeout_ms=HOUR).run
    assert run.deadline_ms == deadline
    expire(harness, 30_000)
    assert get_run(harness, run.run_id).result_reason == "DEADLINE_EXCEEDED"


def test_run_timeout_is_bounded(harness: Harness) -> None:
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "TIME_INVALID"):
        start(harness, CHAIN, run_timeout_ms=-1)


def resume(
    h: Harness, run_id: str, request_id: str = "resume-1", reason: str = "fixed", **fields: str
) -> run_pb2.ResumeRunResponse:
    request = run_pb2.ResumeRunRequest(
        run_id=run_id, request_id=request_id, reason=reason, **fields
    )
    return h.client("agent").runs.ResumeRun(request)  # type: ignore[no-any-return]


def test_resume_of_a_failed_ad_hoc_run_reruns_only_what_failed(harness: Harness) -> None:
    run = start(harness, CHAIN).run
    [a] = claim(harness)
    complete(harness, a, {"n": 1})
    [b] = claim(harness)
    fail(harness, b, "provider down", retryable=False)
    assert get_run(harness, run.run_id).state == run_pb2.RUN_STATE_FAILED
    resumed = resume(harness, run.run_id)
    assert not resumed.replayed and resumed.run.state == run_pb2.RUN_STATE_RUNNING
    assert states(resumed.run) == {"a": "DONE", "b": "READY"}
    assert resume(harness, run.run_id).replayed  # same request: the same answer
    [again] = claim(harness)
    assert (again.node_uid, again.attempt) == ("b", 2)
    assert again.operation_id == b.operation_id  # its effect was settled as not applied
    complete(harness, again, {"ok": True})
    done = get_run(harness, run.run_id)
    assert done.state == run_pb2.RUN_STATE_COMPLETED and json.loads(done.result_json) == {
        "ok": True
    }
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_NOT_RESUMABLE"):
        resume(harness, run.run_id, "resume-2")


def test_the_events_of_an_unclaimed_node_and_a_resume_are_served(harness: Harness) -> None:
    run = start(harness, CHAIN).run
    expire(harness, HOUR)
    assert get_run(harness, run.run_id).state == run_pb2.RUN_STATE_FAILED
    resume(harness, run.run_id)
    assert event_kinds(harness, run.run_id) == [
        "RUN_STARTED",
        "NODE_UNCLAIMED",
        "NODE_FAILED",
        "RUN_FAILED",
        "RUN_RESUMED",
    ]
    page = harness.client("agent").events.ListEvents(
        event_pb2.ListEventsRequest(run_id=run.run_id, limit=2)
    )
    unclaimed = json.loads(page.events[1].payload_json)
    assert unclaimed["model"] == "echo" and page.events[1].node_uid == "a"


def test_resume_needs_a_reason_and_a_resumable_run(harness: Harness) -> None:
    run = start(harness, CHAIN).run
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "FIELD_REQUIRED"):
        resume(harness, run.run_id, reason="")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_NOT_RESUMABLE"):
        resume(harness, run.run_id)
    with expect_error(grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"):
        resume(harness, "run_nope")


def stopped_governed(h: Harness, name: str) -> run_pb2.Run:
    run = governed(h, name)
    h.client("alice").runs.StopRun(run_pb2.StopRunRequest(run_id=run.run_id, reason="halt"))
    return run


def test_a_second_start_of_a_governed_ref_is_refused_naming_the_run(harness: Harness) -> None:
    run = governed(harness, "once")
    again = run_pb2.StartRunRequest(request_id="start-once", ref=run.ref)
    assert harness.client("agent").runs.StartRun(again).run.run_id == run.run_id  # same request
    other = run_pb2.StartRunRequest(request_id="start-twice", ref=run.ref)
    with pytest.raises(grpc.RpcError) as raised:
        harness.client("agent").runs.StartRun(other)
    from praxis_client import error_details

    details = error_details(raised.value)
    assert raised.value.code() == grpc.StatusCode.ALREADY_EXISTS
    assert details.reason == "REF_ALREADY_RUN" and details.metadata["run_id"] == run.run_id


def test_resuming_a_governed_run_needs_a_human_approval_of_its_material(harness: Harness) -> None:
    run = stopped_governed(harness, "gov-resume")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_REQUIRED"):
        resume(harness, run.run_id, "r-none", reason="restart it")
    review = harness.client("alice").runs.ReviewResume(
        run_pb2.ReviewResumeRequest(run_id=run.run_id, reason="restart it")
    )
    assert review.material.run_version == get_run(harness, run.run_id).version
    assert review.material.node_count >= 1 and review.material_digest.startswith("sha256:")
    harness.client("alice").approvals.CreateApproval(
        approval_pb2.CreateApprovalRequest(
            approval_id="ap-resume",
            material_digest=review.material_digest,
            expires_at_ms=harness.clock.now_ms() + 600_000,
            work_order_id="wo-1",
        )
    )
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_MISMATCH"):
        resume(harness, run.run_id, "r-other", reason="another reason", approval_id="ap-resume")
    resumed = resume(harness, run.run_id, "r-ok", reason="restart it", approval_id="ap-resume")
    assert resumed.run.state == run_pb2.RUN_STATE_RUNNING
    harness.client("alice").runs.StopRun(run_pb2.StopRunRequest(run_id=run.run_id, reason="x"))
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_CONSUMED"):
        resume(harness, run.run_id, "r-again", reason="restart it", approval_id="ap-resume")


def test_a_node_run_again_under_a_new_operation_carries_it_everywhere(harness: Harness) -> None:
    run = start(harness, CHAIN).run
    [a] = claim(harness)
    complete(harness, a, {"n": 1})
    [b] = claim(harness)
    harness.client("agent").tasks.FailTask(
        task_pb2.FailTaskRequest(
            attempt_id=b.attempt_id,
            worker_id="w1",
            error="charged, then crashed",
            effect=common_pb2.EFFECT_OUTCOME_APPLIED,
        )
    )
    # Its effect was applied: an agent's resume alone never runs it again (issue 37).
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "REAPPROVAL_REQUIRED"):
        resume(harness, run.run_id, "r-agent", reason="charge again")
    review = harness.client("alice").runs.ReviewResume(
        run_pb2.ReviewResumeRequest(run_id=run.run_id, reason="charge again")
    )
    [node] = review.material.nodes
    assert node.new_operation and node.operation_id != b.operation_id
    assert node.needs_approval and node.effect_applied and not node.authorized
    harness.client("alice").approvals.CreateApproval(
        approval_pb2.CreateApprovalRequest(
            approval_id="ap-charge-again",
            material_digest=review.material_digest,
            expires_at_ms=harness.clock.now_ms() + 600_000,
            work_order_id=review.material.work_order_id,
        )
    )
    resume(harness, run.run_id, reason="charge again", approval_id="ap-charge-again")
    [again] = claim(harness)
    assert again.operation_id == node.operation_id  # the worker sees the new operation
    listed = {n.node_uid: n for n in get_run(harness, run.run_id).nodes}
    assert listed["b"].operation_id == node.operation_id
