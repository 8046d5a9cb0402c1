"""The CLI and the console derive the same ids for the same human decision
(:mod:`praxis_client.conventions`): an assessment recorded from one and then from the
other is one record, and an approval renewed from one and then from the other is one
renewal."""

from __future__ import annotations

import json
import time
from pathlib import Path

from aiws.engine.v1 import (
    approval_pb2,
    assessment_pb2,
    common_pb2,
    contract_pb2,
    run_pb2,
    task_pb2,
)
from tests.support.cli_shell import Shell
from tests.support.console import Console, csrf_of, expiring_approval
from tests.support.runtime import definition, json_out, node

ONE = definition("a", a=node(output=json_out()))


def _completed_run_under_a_contract(console: Console, name: str) -> str:
    h = console.harness
    h.client("alice").contracts.CreateContract(
        contract_pb2.CreateContractRequest(
            contract_id=f"c-{name}", work_order_id=f"wo-{name}", criteria_json='{"must": [1]}',
            deadline_ms=int(time.time() * 1000) + 3_600_000, budget_microcredits="100",
            profile="aiws.v1",
        )
    )  # fmt: skip
    agent = h.client("agent")
    run = agent.runs.StartRun(
        run_pb2.StartRunRequest(
            request_id=f"r-{name}", definition_json=json.dumps(ONE), input_json="null",
            contract_id=f"c-{name}",
        )
    ).run  # fmt: skip
    claimed = agent.tasks.ClaimTasks(
        task_pb2.ClaimTasksRequest(
            worker_id="w", models=["echo"], max_tasks=1, lease_ms=30_000, wait_ms=5_000
        )
    )
    for task in claimed.tasks:
        agent.tasks.CompleteTask(
            task_pb2.CompleteTaskRequest(
                attempt_id=task.attempt_id, worker_id="w", result_json='{"ok": true}',
                effect=common_pb2.EFFECT_OUTCOME_APPLIED,
            )
        )  # fmt: skip
    got = agent.runs.GetRun(run_pb2.GetRunRequest(run_id=run.run_id)).run
    assert got.state == run_pb2.RUN_STATE_COMPLETED
    return run.run_id


def test_an_assessment_from_the_cli_then_the_console_is_one_record(
    console: Console, tmp_path: Path
) -> None:
    run_id = _completed_run_under_a_contract(console, "agree")
    shell = Shell(console.harness.address, tmp_path)
    shell.ok("assess", "verify", run_id, "--findings", '{"must": "met", "by": "alice"}')
    alice = console.signed_in("alice")
    page = alice.get(f"/runs/{run_id}/assessment").text
    subject = (
        console.harness.client("alice")
        .assessments.GetAcceptance(assessment_pb2.GetAcceptanceRequest(run_id=run_id))
        .subject_digest
    )
    form = {
        "csrf_token": csrf_of(page),
        "kind": "verification",
        "verdict": "pass",
        "subject_digest": subject,
        "findings_json": '{ "by": "alice", "must": "met" }',  # the same findings, spelt apart
    }
    recorded = alice.post(f"/runs/{run_id}/assessment", data=form)
    assert recorded.status_code == 303, recorded.text
    listed = console.harness.client("alice").assessments.ListAssessments(
        assessment_pb2.ListAssessmentsRequest(run_id=run_id)
    )
    assert [(a.kind, a.verdict) for a in listed.assessments] == [
        (assessment_pb2.ASSESSMENT_KIND_VERIFICATION, assessment_pb2.ASSESSMENT_VERDICT_PASS)
    ]


def test_an_approval_renewed_from_the_console_then_the_cli_is_one_renewal(
    console: Console, tmp_path: Path
) -> None:
    old = expiring_approval(console, "ap-agree", purpose="payments")
    alice = console.signed_in("alice")
    csrf = csrf_of(alice.get("/approvals/ap-agree").text)
    renewed = alice.post("/approvals/ap-agree/renew", data={"term": "1d", "csrf_token": csrf})
    assert renewed.status_code == 303, renewed.text
    from_console = renewed.headers["location"].split("/approvals/", 1)[1].split("?", 1)[0]
    shell = Shell(console.harness.address, tmp_path)
    from_cli = shell.ok("approvals", "renew", "ap-agree", "--json").json()
    assert from_cli["replayed"] is True
    assert from_cli["approval"]["approval_id"] == from_console
    made = console.harness.client("alice").approvals.GetApproval(
        approval_pb2.GetApprovalRequest(approval_id=from_console)
    )
    assert made.approval.material_digest == old.material_digest
    assert made.approval.approver_id == "alice"
