"""Operations, attempts and uncertain effects reconciled through a reviewed approval."""

from __future__ import annotations

import json

import grpc
import pytest

from aiws.engine.v1 import (
    approval_pb2,
    common_pb2,
    reconciliation_pb2,
    run_pb2,
)
from tests.support.execution import fail_task, reconcile, run_of, settle, start_run
from tests.support.harness import Harness, expect_error
from tests.support.runtime import claim, definition, json_out, node, states

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


APPLIED = reconciliation_pb2.RECONCILIATION_DECISION_APPLIED
NOT_APPLIED = reconciliation_pb2.RECONCILIATION_DECISION_NOT_APPLIED
UNCERTAIN = common_pb2.EFFECT_OUTCOME_UNCERTAIN
SINGLE = definition("a", a=node(output=json_out()))
EVIDENCE = {"provider_log": "charge ch_1 found", "checked_by": "alice"}


def reconciliations(h: Harness, run_id: str) -> list[reconciliation_pb2.Reconciliation]:
    return list(
        h.client("agent")
        .reconciliations.ListReconciliations(
            reconciliation_pb2.ListReconciliationsRequest(run_id=run_id)
        )
        .reconciliations
    )


def test_operation_id_survives_retries_and_attempt_ids_do_not(model: Harness) -> None:
    run = start_run(model, definition("a", a=node(output=json_out(), retry={"backoff_ms": 0})))
    [first] = claim(model)
    assert fail_task(model, first, common_pb2.EFFECT_OUTCOME_NOT_APPLIED).will_retry
    [second] = claim(model)
    assert second.operation_id == first.operation_id
    assert second.attempt_id != first.attempt_id
    assert len({first.operation_id, first.attempt_id, second.attempt_id}) == 3
    settle(model, second)
    assert run_of(model, run.run_id).state == run_pb2.RUN_STATE_COMPLETED


def test_uncertain_completion_blocks_until_reconciled_applied(model: Harness) -> None:
    run = start_run(model, SINGLE)
    [task] = claim(model)
    settle(model, task, {"charged": True}, effect=UNCERTAIN)
    blocked = run_of(model, run.run_id)
    assert states(blocked) == {"a": "BLOCKED"}
    assert blocked.state == run_pb2.RUN_STATE_AWAITING_NODES
    [pending] = reconciliations(model, run.run_id)
    assert pending.state == reconciliation_pb2.RECONCILIATION_STATE_PENDING
    assert (pending.attempt_id, pending.operation_id) == (task.attempt_id, task.operation_id)
    done = reconcile(model, task.attempt_id, APPLIED, EVIDENCE, "ap-rec-1", request_id="r-1")
    assert done.reconciliation.state == reconciliation_pb2.RECONCILIATION_STATE_RESOLVED
    assert done.reconciliation.decided_by == "alice"
    finished = run_of(model, run.run_id)
    assert finished.state == run_pb2.RUN_STATE_COMPLETED
    assert json.loads(finished.result_json) == {"charged": True}
    again = reconcile(model, task.attempt_id, APPLIED, EVIDENCE, "ap-rec-1", "r-1", approve=False)
    assert again.replayed
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RECONCILIATION_NOT_PENDING"):
        reconcile(model, task.attempt_id, APPLIED, EVIDENCE, "ap-rec-2")


def test_uncertain_failure_retries_under_the_same_operation_after_not_applied(
    model: Harness,
) -> None:
    run = start_run(model, SINGLE)
    [task] = claim(model)
    assert not fail_task(model, task, UNCERTAIN).will_retry
    assert claim(model) == []  # never retried automatically
    reconcile(model, task.attempt_id, NOT_APPLIED, EVIDENCE, "ap-rec-1")
    model.clock.advance(1_000)  # the retry's backoff
    [retry] = claim(model)
    assert retry.operation_id == task.operation_id and retry.attempt_id != task.attempt_id
    settle(model, retry)
    assert run_of(model, run.run_id).state == run_pb2.RUN_STATE_COMPLETED


def test_applied_failure_fails_the_node_for_good(model: Harness) -> None:
    run = start_run(model, SINGLE)
    [task] = claim(model)
    fail_task(model, task, UNCERTAIN)
    reconcile(model, task.attempt_id, APPLIED, EVIDENCE, "ap-rec-1")
    assert claim(model) == []
    assert run_of(model, run.run_id).state == run_pb2.RUN_STATE_FAILED


def test_a_blocked_branch_outside_the_output_still_blocks_completion(model: Harness) -> None:
    document = definition("a", a=node(output=json_out()), side=node(output=json_out()))
    run = start_run(model, document)
    tasks = {task.node_uid: task for task in claim(model)}
    settle(model, tasks["side"], effect=UNCERTAIN)
    settle(model, tasks["a"])
    # The output is done: the outcome is decided, the blocked orphan holds its end.
    assert run_of(model, run.run_id).state == run_pb2.RUN_STATE_COMPLETING
    reconcile(model, tasks["side"].attempt_id, APPLIED, EVIDENCE, "ap-rec-1")
    assert run_of(model, run.run_id).state == run_pb2.RUN_STATE_COMPLETED


def test_reconcile_needs_a_human_approval_of_the_exact_material(model: Harness) -> None:
    run = start_run(model, SINGLE)
    [task] = claim(model)
    settle(model, task, effect=UNCERTAIN)
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "HUMAN_REQUIRED"):
        reconcile(model, task.attempt_id, APPLIED, EVIDENCE, "ap-agent", approver="rogue")
    # Approved NOT_APPLIED, then asked to record APPLIED: the material differs.
    reconcile_review = model.client("alice").reconciliations.ReviewReconciliation(
        reconciliation_pb2.ReviewReconciliationRequest(
            epochs=common_pb2.Epochs(
                installation_id=model.installation_id, ownership_epoch=1, authority_epoch=1
            ),
            attempt_id=task.attempt_id,
            decision=NOT_APPLIED,
            evidence_json=json.dumps(EVIDENCE),
        )
    )
    assert reconcile_review.material.operation_id == task.operation_id
    model.client("alice").approvals.CreateApproval(
        approval_pb2.CreateApprovalRequest(
            approval_id="ap-other",
            material_digest=reconcile_review.material_digest,
            expires_at_ms=model.clock.now_ms() + 60_000,
        )
    )
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_MISMATCH"):
        reconcile(model, task.attempt_id, APPLIED, EVIDENCE, "ap-other", approve=False)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_NOT_FOUND"):
        reconcile(model, task.attempt_id, APPLIED, EVIDENCE, "ap-none", approve=False)
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        reconcile(model, task.attempt_id, NOT_APPLIED, EVIDENCE, "ap-other", caller="agent",
                  approve=False)  # fmt: skip
    model.clock.advance(60_000)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_EXPIRED"):
        reconcile(model, task.attempt_id, NOT_APPLIED, EVIDENCE, "ap-other", approve=False)
    assert states(run_of(model, run.run_id)) == {"a": "BLOCKED"}
    assert reconciliations(model, run.run_id)[0].state == (
        reconciliation_pb2.RECONCILIATION_STATE_PENDING
    )


def test_a_consumed_approval_cannot_be_replayed(model: Harness) -> None:
    start_run(model, definition("a", a=node(output=json_out()), b=node(output=json_out())))
    tasks = claim(model)
    for task in tasks:
        settle(model, task, effect=UNCERTAIN)
    reconcile(model, tasks[0].attempt_id, APPLIED, EVIDENCE, "ap-1")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_CONSUMED"):
        reconcile(model, tasks[1].attempt_id, APPLIED, EVIDENCE, "ap-1", approve=False)


def test_bad_reconciliation_requests(model: Harness) -> None:
    start_run(model, SINGLE)
    [task] = claim(model)
    settle(model, task, effect=UNCERTAIN)
    reviews = model.client("alice").reconciliations
    epochs = common_pb2.Epochs(
        installation_id=model.installation_id, ownership_epoch=1, authority_epoch=1
    )
    cases = [
        (dict(decision=0, evidence_json="{}"), grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"),
        (dict(decision=APPLIED), grpc.StatusCode.INVALID_ARGUMENT, "FIELD_REQUIRED"),
        (dict(decision=APPLIED, evidence_json="{"), grpc.StatusCode.INVALID_ARGUMENT,
         "DOCUMENT_MALFORMED"),
        (dict(decision=APPLIED, evidence_json="{}", attempt_id="att_unknown"),
         grpc.StatusCode.NOT_FOUND, "ATTEMPT_NOT_FOUND"),
        (dict(decision=APPLIED, evidence_json="{}",
              epochs=common_pb2.Epochs(installation_id=model.installation_id,
                                       ownership_epoch=2, authority_epoch=1)),
         grpc.StatusCode.FAILED_PRECONDITION, "EPOCH_MISMATCH"),
    ]  # fmt: skip
    for fields, code, reason in cases:
        request = reconciliation_pb2.ReviewReconciliationRequest(
            epochs=epochs, attempt_id=task.attempt_id
        )
        for key, value in fields.items():
            if key == "epochs":
                request.epochs.CopyFrom(value)
            else:
                setattr(request, key, value)
        with expect_error(code, reason):
            reviews.ReviewReconciliation(request)


def lost_lease(h: Harness) -> tuple[run_pb2.Run, str]:
    """A run whose only node (no effects declared) lost its lease: BLOCKED."""
    run = start_run(h, SINGLE)
    [task] = claim(h, lease_ms=5_000)
    h.clock.advance(5_000)
    h.server.engine.runs.sweep()
    assert states(run_of(h, run.run_id)) == {"a": "BLOCKED"}
    return run, task.attempt_id


def test_a_lost_lease_on_an_undeclared_node_waits_for_a_human(model: Harness) -> None:
    run, attempt_id = lost_lease(model)
    assert claim(model) == []  # no second attempt
    [pending] = reconciliations(model, run.run_id)
    assert pending.attempt_id == attempt_id and not pending.completed
    assert "lease expired before the worker reported" in pending.error
    reconcile(model, attempt_id, NOT_APPLIED, EVIDENCE, "ap-lease-1")
    model.clock.advance(1_000)  # the retry's backoff
    [again] = claim(model)
    assert again.attempt == 2


def test_applied_with_the_result_the_human_established_completes_the_node(
    model: Harness,
) -> None:
    run, attempt_id = lost_lease(model)
    done = reconcile(
        model, attempt_id, APPLIED, EVIDENCE, "ap-lease-2", result_json='{"charged": true}'
    )
    assert done.reconciliation.state == reconciliation_pb2.RECONCILIATION_STATE_RESOLVED
    finished = run_of(model, run.run_id)
    assert finished.state == run_pb2.RUN_STATE_COMPLETED
    assert json.loads(finished.result_json) == {"charged": True}
    assert claim(model) == []  # never run again


def test_a_supplied_result_is_checked(model: Harness) -> None:
    run, attempt_id = lost_lease(model)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "RESULT_NOT_EXPECTED"):
        reconcile(model, attempt_id, NOT_APPLIED, EVIDENCE, "ap-r-1", result_json="{}")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "RESULT_CONTRACT_VIOLATION"):
        reconcile(model, attempt_id, APPLIED, EVIDENCE, "ap-r-2", result_json='"text"')
    other = start_run(model, SINGLE)
    [task] = [t for t in claim(model) if t.run_id == other.run_id]
    settle(model, task, {"charged": True}, effect=UNCERTAIN)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "RESULT_NOT_EXPECTED"):
        reconcile(model, task.attempt_id, APPLIED, EVIDENCE, "ap-r-3", result_json="{}")
    assert states(run_of(model, run.run_id)) == {"a": "BLOCKED"}  # nothing changed
