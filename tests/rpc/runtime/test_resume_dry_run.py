"""ResumeRun's dry run (issue 42, item 3): every check and the answer a resume would
give, refusals included, with nothing stored."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from aiws.engine.v1 import approval_pb2, run_pb2
from aiws.engine.v1 import common_pb2 as cpb
from tests.support.execution import fail_task, run_of, start_run
from tests.support.harness import Harness, expect_error
from tests.support.runtime import claim, definition, event_kinds, json_out, node, states

pytestmark = pytest.mark.backends("sqlite", "postgres")


def resume(
    h: Harness, run_id: str, request_id: str, principal: str = "agent", **fields: Any
) -> run_pb2.ResumeRunResponse:
    request = run_pb2.ResumeRunRequest(
        run_id=run_id, request_id=request_id, reason=fields.pop("reason", "again"), **fields
    )
    return h.client(principal).runs.ResumeRun(request)  # type: ignore[no-any-return]


def failed_run(h: Harness, effect: int = cpb.EFFECT_OUTCOME_NOT_APPLIED) -> run_pb2.Run:
    """A FAILED run of one node whose only attempt failed with ``effect``."""
    run = start_run(h, definition("a", a=node(output=json_out(), retry={"attempts": 1})))
    [task] = claim(h)
    fail_task(h, task, effect, retryable=False)
    failed = run_of(h, run.run_id)
    assert failed.state == run_pb2.RUN_STATE_FAILED
    return failed


def test_a_dry_run_resume_answers_like_a_resume_and_stores_nothing(model: Harness) -> None:
    before = failed_run(model)
    events = event_kinds(model, before.run_id)
    dry = resume(model, before.run_id, "r-1", dry_run=True)
    assert dry.dry_run and not dry.replayed
    assert dry.run.state == run_pb2.RUN_STATE_RUNNING
    assert states(dry.run) == {"a": "READY"}
    assert dry.run.version > before.version
    after = run_of(model, before.run_id)  # the stored run did not move
    assert (after.state, after.version) == (run_pb2.RUN_STATE_FAILED, before.version)
    assert states(after) == states(before)
    assert event_kinds(model, before.run_id) == events  # no RUN_RESUMED event
    assert claim(model) == []  # no attempt was made ready
    real = resume(model, before.run_id, "r-1")  # the request id was not used up
    assert not real.dry_run and not real.replayed
    assert real.run.state == run_pb2.RUN_STATE_RUNNING
    assert event_kinds(model, before.run_id)[-1] != events[-1]
    again = resume(model, before.run_id, "r-1", dry_run=True)  # a retry's answer
    assert again.dry_run and again.replayed and again.run.version == real.run.version
    [task] = claim(model)
    assert task.node_uid == "a"


def test_a_dry_run_resume_is_refused_exactly_like_a_resume(model: Harness) -> None:
    applied = failed_run(model, cpb.EFFECT_OUTCOME_APPLIED)
    running = start_run(model, definition("a", a=node(output=json_out())))
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_NOT_RESUMABLE"):
        resume(model, running.run_id, "r-running", dry_run=True)
    with expect_error(grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"):
        resume(model, "no-such-run", "r-none", dry_run=True)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "FIELD_REQUIRED"):
        resume(model, applied.run_id, "r-no-reason", reason="", dry_run=True)
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        resume(model, applied.run_id, "r-reader", principal="reader", dry_run=True)


def test_a_dry_run_resume_does_not_consume_its_approval(model: Harness) -> None:
    applied = failed_run(model, cpb.EFFECT_OUTCOME_APPLIED)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "REAPPROVAL_REQUIRED"):
        resume(model, applied.run_id, "r-0", dry_run=True)
    material = model.client("alice").runs.ReviewResume(
        run_pb2.ReviewResumeRequest(run_id=applied.run_id, reason="again")
    )
    model.client("alice").approvals.CreateApproval(
        approval_pb2.CreateApprovalRequest(
            approval_id="ap-1",
            material_digest=material.material_digest,
            expires_at_ms=model.clock.now_ms() + 600_000,
            work_order_id=material.material.work_order_id,
        )
    )
    dry = resume(model, applied.run_id, "r-1", approval_id="ap-1", dry_run=True)
    assert dry.dry_run and dry.run.state == run_pb2.RUN_STATE_RUNNING
    assert run_of(model, applied.run_id).version == applied.version
    # The approval is still unused: a second dry run and then the real resume accept it.
    resume(model, applied.run_id, "r-2", approval_id="ap-1", dry_run=True)
    real = resume(model, applied.run_id, "r-3", approval_id="ap-1")
    assert real.run.state == run_pb2.RUN_STATE_RUNNING
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_NOT_RESUMABLE"):
        resume(model, applied.run_id, "r-4", approval_id="ap-1", dry_run=True)
