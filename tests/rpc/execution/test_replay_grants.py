"""Every replay checks today's grant: a request id repeated after the caller's grant
lapsed (or narrowed to reads) is refused as a fresh call would be, never answered from
the stored result.

The caller is ``fading``, a human created at runtime whose grant of every action ends one
minute after T0 and who keeps, after it, only reads (``run.read``, ``wait.read``, ...). Each
test makes one command as ``fading``, moves the clock past the window, repeats the same
request (same id, same content) and sends a fresh one: both must get the same refusal.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import (
    approval_pb2,
    assessment_pb2,
    common_pb2,
    contract_pb2,
    handoff_pb2,
    principal_pb2,
    reconciliation_pb2,
    registry_pb2,
    run_pb2,
    schedule_pb2,
    task_pb2,
    wait_pb2,
)
from praxis_client import Client, connect, error_details
from tests.support.execution import run_of, settle, start_run
from tests.support.harness import ROUND_ROBIN, T0, Harness
from tests.support.registry import ref, register_cmd
from tests.support.runtime import claim, definition, json_out, node
from tests.support.schedules import spec

pytestmark = pytest.mark.backends("sqlite", "postgres")

WINDOW_MS = 60_000
DENIED = (grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED")
SINGLE = definition("a", a=node(output=json_out()))
UNCERTAIN = common_pb2.EFFECT_OUTCOME_UNCERTAIN
APPROVAL = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
WAITING = definition(
    "use",
    ask={
        "kind": "human_input",
        "wait": {"expires_in_ms": 3_600_000, "schema": APPROVAL, "on_expiry": "fail"},
    },
    use=node("node:ask", ("ask",), json_out()),
)


@pytest.fixture
def fading(model: Harness) -> Iterator[Client]:
    """A client of ``fading``: every action until T0 + 1 min, then reads only."""
    everything = principal_pb2.Grant(actions=["*"], not_after_ms=T0 + WINDOW_MS)
    reads = principal_pb2.Grant(
        actions=["run.read", "wait.read", "approval.read", "reconcile.read", "assess.read"]
    )
    created = model.client("alice").principals.CreatePrincipal(
        principal_pb2.CreatePrincipalRequest(
            principal_id="fading",
            kind=common_pb2.PRINCIPAL_KIND_HUMAN,
            grants=[everything, reads],
        )
    )
    if len(model.replicas) > 1:
        client = connect(model.address, created.token, insecure=True, options=ROUND_ROBIN)
    else:
        client = connect(model.address, created.token)
    try:
        yield client
    finally:
        client.close()


def refusal(call: Callable[[], Any]) -> tuple[grpc.StatusCode, str]:
    """``(code, reason)`` of a call that must fail."""
    with pytest.raises(grpc.RpcError) as caught:
        call()
    details = error_details(caught.value)
    return details.code, details.reason


def lapse(h: Harness) -> None:
    """Moves the clock past the end of ``fading``'s wide grant."""
    h.clock.advance(T0 + WINDOW_MS - h.clock.now_ms())


def assert_replay_refused(
    h: Harness, replay: Callable[[], Any], fresh: Callable[[], Any], expected: Any = DENIED
) -> None:
    """After the grant lapsed, the replay gets the fresh call's refusal."""
    lapse(h)
    answer = refusal(replay)
    assert answer == refusal(fresh)
    assert answer == expected


def test_a_resume_replay_checks_todays_grant(model: Harness, fading: Client) -> None:
    run = fading.runs.StartRun(
        run_pb2.StartRunRequest(request_id="st-1", definition_json=json.dumps(SINGLE))
    ).run
    fading.runs.StopRun(run_pb2.StopRunRequest(run_id=run.run_id, reason="pause it"))

    def resume(request_id: str) -> run_pb2.ResumeRunResponse:
        return fading.runs.ResumeRun(  # type: ignore[no-any-return]
            run_pb2.ResumeRunRequest(run_id=run.run_id, request_id=request_id, reason="again")
        )

    assert not resume("rs-1").replayed
    assert resume("rs-1").replayed  # inside the window the replay answers
    assert_replay_refused(model, lambda: resume("rs-1"), lambda: resume("rs-2"))


def test_a_start_replay_checks_todays_grant(model: Harness, fading: Client) -> None:
    def start(request_id: str) -> run_pb2.StartRunResponse:
        return fading.runs.StartRun(  # type: ignore[no-any-return]
            run_pb2.StartRunRequest(request_id=request_id, definition_json=json.dumps(SINGLE))
        )

    assert start("st-1").created
    assert not start("st-1").created
    assert_replay_refused(
        model,
        lambda: start("st-1"),
        lambda: start("st-2"),
        (grpc.StatusCode.PERMISSION_DENIED, "GRANT_OUTSIDE_WINDOW"),
    )


def test_a_wait_satisfaction_replay_checks_todays_grant(model: Harness, fading: Client) -> None:
    run = start_run(model, WAITING)
    [wait] = (
        model.client("alice").waits.ListWaits(wait_pb2.ListWaitsRequest(run_id=run.run_id)).waits
    )

    def satisfy(request_id: str) -> wait_pb2.SatisfyWaitResponse:
        return fading.waits.SatisfyWait(  # type: ignore[no-any-return]
            wait_pb2.SatisfyWaitRequest(
                request_id=request_id, wait_id=wait.wait_id, payload_json='{"ok": true}'
            )
        )

    assert not satisfy("s-1").replayed
    assert satisfy("s-1").replayed
    # A fresh SatisfyWait names the window it missed; so does its replay.
    assert_replay_refused(
        model,
        lambda: satisfy("s-1"),
        lambda: satisfy("s-2"),
        (grpc.StatusCode.PERMISSION_DENIED, "GRANT_OUTSIDE_WINDOW"),
    )


def test_a_reconciliation_replay_checks_todays_grant(model: Harness, fading: Client) -> None:
    run = start_run(model, SINGLE)
    [task] = claim(model)
    settle(model, task, {"charged": True}, effect=UNCERTAIN)
    epochs = common_pb2.Epochs(
        installation_id=model.installation_id, ownership_epoch=1, authority_epoch=1
    )
    decision = {
        "epochs": epochs,
        "attempt_id": task.attempt_id,
        "decision": reconciliation_pb2.RECONCILIATION_DECISION_APPLIED,
        "evidence_json": '{"provider_log": "charged"}',
    }
    review = fading.reconciliations.ReviewReconciliation(
        reconciliation_pb2.ReviewReconciliationRequest(**decision)
    )
    fading.approvals.CreateApproval(
        approval_pb2.CreateApprovalRequest(
            approval_id="ap-rec",
            material_digest=review.material_digest,
            expires_at_ms=model.clock.now_ms() + 600_000,
        )
    )

    def decide(request_id: str) -> reconciliation_pb2.ReconcileResponse:
        return fading.reconciliations.Reconcile(  # type: ignore[no-any-return]
            reconciliation_pb2.ReconcileRequest(
                request_id=request_id, approval_id="ap-rec", **decision
            )
        )

    assert not decide("r-1").replayed
    assert decide("r-1").replayed
    assert run_of(model, run.run_id).state == run_pb2.RUN_STATE_COMPLETED
    assert_replay_refused(model, lambda: decide("r-1"), lambda: decide("r-2"))


def test_a_handoff_replay_checks_todays_grant(model: Harness, fading: Client) -> None:
    run = fading.runs.StartRun(
        run_pb2.StartRunRequest(request_id="st-h", definition_json=json.dumps(SINGLE))
    ).run
    [task] = claim(model)
    settle(model, task, {"draft": "text"})

    def offer(request_id: str) -> handoff_pb2.CreateHandoffResponse:
        return fading.handoffs.CreateHandoff(  # type: ignore[no-any-return]
            handoff_pb2.CreateHandoffRequest(
                request_id=request_id, run_id=run.run_id, node_uid="a", to_principal_id="agent2"
            )
        )

    assert not offer("h-1").replayed
    assert offer("h-1").replayed
    assert_replay_refused(model, lambda: offer("h-1"), lambda: offer("h-2"))


def test_an_assessment_replay_checks_todays_grant(model: Harness, fading: Client) -> None:
    run = start_run(model, SINGLE)
    [task] = claim(model)
    settle(model, task, {"answer": 42})
    subject = (
        model.client("alice")
        .assessments.GetAcceptance(assessment_pb2.GetAcceptanceRequest(run_id=run.run_id))
        .subject_digest
    )

    def assess(request_id: str) -> assessment_pb2.RecordAssessmentResponse:
        return fading.assessments.RecordAssessment(  # type: ignore[no-any-return]
            assessment_pb2.RecordAssessmentRequest(
                request_id=request_id,
                run_id=run.run_id,
                kind=assessment_pb2.ASSESSMENT_KIND_VERIFICATION,
                verdict=assessment_pb2.ASSESSMENT_VERDICT_PASS,
                subject_digest=subject,
                findings_json='{"must": "met"}',
            )
        )

    assert not assess("as-1").replayed
    assert assess("as-1").replayed
    assert_replay_refused(model, lambda: assess("as-1"), lambda: assess("as-2"))


def test_a_registry_replay_checks_todays_grant(model: Harness, fading: Client) -> None:
    command = register_cmd(ref("wo-fade"), "ap-fade")
    epochs = model.epochs("wo-fade")
    review = fading.registry.Review(registry_pb2.ReviewRequest(epochs=epochs, command=command))
    fading.approvals.CreateApproval(
        approval_pb2.CreateApprovalRequest(
            approval_id="ap-fade",
            material_digest=review.material_digest,
            expires_at_ms=model.clock.now_ms() + 600_000,
            work_order_id="wo-fade",
        )
    )

    def execute(request_id: str) -> registry_pb2.ExecuteResponse:
        return fading.registry.Execute(  # type: ignore[no-any-return]
            registry_pb2.ExecuteRequest(epochs=epochs, request_id=request_id, command=command)
        )

    assert not execute("x-1").replayed
    assert execute("x-1").replayed
    assert_replay_refused(
        model,
        lambda: execute("x-1"),
        lambda: execute("x-2"),
        (grpc.StatusCode.PERMISSION_DENIED, "GRANT_OUTSIDE_WINDOW"),
    )


def test_a_contract_replay_checks_todays_grant(model: Harness, fading: Client) -> None:
    deadline = model.clock.now_ms() + 3_600_000

    def create(contract_id: str) -> contract_pb2.CreateContractResponse:
        return fading.contracts.CreateContract(  # type: ignore[no-any-return]
            contract_pb2.CreateContractRequest(
                contract_id=contract_id,
                work_order_id="wo-1",
                criteria_json='{"must": ["be correct"]}',
                deadline_ms=deadline,
                budget_microcredits="100",
                profile="aiws.v1",
            )
        )

    assert not create("c-fade").replayed
    assert create("c-fade").replayed
    assert_replay_refused(
        model,
        lambda: create("c-fade"),
        lambda: create("c-fresh"),
        (grpc.StatusCode.PERMISSION_DENIED, "GRANT_OUTSIDE_WINDOW"),
    )


def test_an_approval_replay_checks_todays_grant(model: Harness, fading: Client) -> None:
    expires = model.clock.now_ms() + 3_600_000

    def approve(approval_id: str) -> approval_pb2.CreateApprovalResponse:
        return fading.approvals.CreateApproval(  # type: ignore[no-any-return]
            approval_pb2.CreateApprovalRequest(
                approval_id=approval_id,
                material_digest="sha256:" + "b" * 64,
                expires_at_ms=expires,
            )
        )

    assert not approve("ap-1").replayed
    assert approve("ap-1").replayed
    assert_replay_refused(
        model,
        lambda: approve("ap-1"),
        lambda: approve("ap-2"),
        (grpc.StatusCode.PERMISSION_DENIED, "GRANT_OUTSIDE_WINDOW"),
    )


def test_a_schedule_replay_checks_todays_grant(model: Harness, fading: Client) -> None:
    found = spec("sch-fade")

    def create(schedule_id: str) -> schedule_pb2.CreateScheduleResponse:
        found.schedule_id = schedule_id
        return fading.schedules.CreateSchedule(  # type: ignore[no-any-return]
            schedule_pb2.CreateScheduleRequest(spec=found)
        )

    assert not create("sch-fade").replayed
    assert create("sch-fade").replayed
    assert_replay_refused(
        model,
        lambda: create("sch-fade"),
        lambda: create("sch-fresh"),
        (grpc.StatusCode.PERMISSION_DENIED, "GRANT_OUTSIDE_WINDOW"),
    )


def test_a_settlement_replay_checks_todays_grant(model: Harness, fading: Client) -> None:
    start_run(model, SINGLE)
    start_run(model, SINGLE)
    claimed = fading.tasks.ClaimTasks(
        task_pb2.ClaimTasksRequest(
            worker_id="w-fade", models=["echo"], max_tasks=2, lease_ms=3_600_000
        )
    ).tasks
    [first, second] = claimed

    def complete(task: task_pb2.Task) -> task_pb2.CompleteTaskResponse:
        return fading.tasks.CompleteTask(  # type: ignore[no-any-return]
            task_pb2.CompleteTaskRequest(
                attempt_id=task.attempt_id,
                worker_id="w-fade",
                result_json='{"ok": true}',
                effect=common_pb2.EFFECT_OUTCOME_APPLIED,
            )
        )

    assert not complete(first).replayed
    assert complete(first).replayed
    assert_replay_refused(
        model,
        lambda: complete(first),
        lambda: complete(second),
        (grpc.StatusCode.PERMISSION_DENIED, "GRANT_OUTSIDE_WINDOW"),
    )
