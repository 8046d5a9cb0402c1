"""What a finished run is owed, in a real headless Chromium: the inbox lists the
verification and acceptance of a completed run under a contract, a handoff addressed to
the signed-in human and an approval about to expire; each links to a page that settles
it, and the inbox empties live as they are settled; an expiring approval is settled by
renewing it."""

from __future__ import annotations

import json
import re
import time

import grpc
import pytest
from playwright.sync_api import Page, expect

from aiws.engine.v1 import approval_pb2, common_pb2, contract_pb2, handoff_pb2, run_pb2, task_pb2
from praxis_client.conventions import renewal_ids
from tests.support.console import Console, csrf_of, expiring_approval, shot
from tests.support.harness import token_of
from tests.support.runtime import definition, json_out, node

CHAIN = definition("b", a=node(output=json_out()), b=node("node:a", ("a",), json_out()))


def _finished_run_under_a_contract(console: Console) -> str:
    h = console.harness
    h.client("alice").contracts.CreateContract(
        contract_pb2.CreateContractRequest(
            contract_id="c-owed", work_order_id="wo-owed", criteria_json='{"must": ["work"]}',
            deadline_ms=int(time.time() * 1000) + 3_600_000, budget_microcredits="100",
            profile="aiws.v1",
        )
    )  # fmt: skip
    run = h.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(
            request_id="owed-1", definition_json=json.dumps(CHAIN), input_json="null",
            contract_id="c-owed",
        )
    ).run  # fmt: skip
    for _ in range(2):
        claimed = h.client("agent").tasks.ClaimTasks(
            task_pb2.ClaimTasksRequest(
                worker_id="w", models=["echo"], max_tasks=5, lease_ms=30_000, wait_ms=5_000
            )
        )
        for task in claimed.tasks:
            h.client("agent").tasks.CompleteTask(
                task_pb2.CompleteTaskRequest(
                    attempt_id=task.attempt_id,
                    worker_id="w",
                    result_json='{"ok": true}',
                    effect=common_pb2.EFFECT_OUTCOME_APPLIED,
                )
            )
    return run.run_id


def test_the_owed_decisions_are_listed_and_settled(page: Page, console: Console) -> None:
    run_id = _finished_run_under_a_contract(console)
    h = console.harness
    delivery = (
        h.client("bob")
        .handoffs.CreateHandoff(
            handoff_pb2.CreateHandoffRequest(
                request_id="h-owed", run_id=run_id, node_uid="a", to_principal_id="alice",
                note="the draft is yours",
            )
        )
        .handoff.delivery_id
    )  # fmt: skip
    h.client("alice").approvals.CreateApproval(
        approval_pb2.CreateApprovalRequest(
            approval_id="ap-owed", material_digest="sha256:" + "ab" * 32,
            expires_at_ms=int(time.time() * 1000) + 1_800_000,
        )
    )  # fmt: skip

    page.goto("/signin")
    page.get_by_label("Bearer token").fill(token_of("alice"))
    page.get_by_label("Bearer token").press("Enter")
    expect(page).to_have_url(f"{console.base_url}/inbox")
    for kind in ("ACCEPTANCE", "VERIFICATION", "HANDOFF", "APPROVAL_EXPIRING"):
        expect(page.locator(f'.count[data-kind="{kind}"]')).to_have_text("1")
    rows = page.locator("#inbox-items tr")
    expect(rows.filter(has_text="Expiring approval")).to_contain_text("ap-owed")
    shot(page, "30-inbox-owed")

    rows.filter(has_text="Verification").get_by_role("link").click()
    expect(page).to_have_url(f"{console.base_url}/runs/{run_id}/assessment")
    expect(page.locator("#accepted")).to_have_text("not accepted")
    form = page.locator("#verification-form")
    form.get_by_label("It meets them").check()
    form.get_by_label("Findings (JSON, optional)").fill('{"must": "met"}')
    form.get_by_role("button").click()
    expect(page.locator("#recorded")).to_have_text("Recorded the verification.")
    expect(page.locator("#assessments")).to_contain_text('{"must":"met"}')
    acceptance = page.locator("#acceptance-form")
    acceptance.get_by_label("Accept", exact=True).check()
    acceptance.get_by_role("button").click()
    expect(page.locator("#accepted")).to_have_text("accepted")
    shot(page, "31-assessment-accepted")

    page.goto("/inbox")
    expect(page.locator('.count[data-kind="ACCEPTANCE"]')).to_have_text("0")
    expect(page.locator('.count[data-kind="VERIFICATION"]')).to_have_text("0")
    page.locator("#inbox-items tr", has_text="Handoff").get_by_role("link").click()
    expect(page).to_have_url(f"{console.base_url}/handoffs/{delivery}")
    expect(page.locator("#handoff-state")).to_have_text("OFFERED")
    expect(page.locator("#work")).to_have_text("ad hoc run")  # the work it comes from
    shot(page, "31-handoff-offered")
    page.get_by_role("button", name="Acknowledge").click()
    expect(page.locator("#handoff-state")).to_have_text("ACKNOWLEDGED")

    page.goto("/inbox")
    expect(page.locator('.count[data-kind="HANDOFF"]')).to_have_text("0")
    page.locator("#inbox-items tr", has_text="ap-owed").get_by_role("link").click()
    expect(page.locator("#approval-state")).to_have_text("ACTIVE")
    expect(page.locator("main")).to_contain_text("use it before then")


def test_an_expiring_approval_is_renewed_from_its_page(page: Page, console: Console) -> None:
    old = expiring_approval(console, "ap-renew-me", purpose="payments")
    page.goto("/signin")
    page.get_by_label("Bearer token").fill(token_of("alice"))
    page.get_by_label("Bearer token").press("Enter")
    rows = page.locator("#inbox-items tr", has_text="ap-renew-me")
    expect(rows).to_have_count(1)
    rows.get_by_role("link").click()
    expect(page.locator("#material")).to_have_text(old.material_digest)
    expect(page.locator("#purpose")).to_have_text("payments")
    page.get_by_label("Renewal lasts").select_option("3d")
    page.get_by_role("button", name="Renew").click()
    expect(page).to_have_url(re.compile(r"/approvals/ap-renew-[0-9a-f]{20}\?renewed_from="))
    expect(page.locator("#renewed")).to_contain_text("ap-renew-me")
    expect(page.locator("#approval-state")).to_have_text("ACTIVE")
    expect(page.locator("#material")).to_have_text(old.material_digest)
    expect(page.locator("#purpose")).to_have_text("payments")
    expect(page.locator("#approver")).to_have_text("alice")
    shot(page, "32-approval-renewed")
    renewal_id = page.url.split("/approvals/", 1)[1].split("?", 1)[0]
    renewal = (
        console.harness.client("alice")
        .approvals.GetApproval(approval_pb2.GetApprovalRequest(approval_id=renewal_id))
        .approval
    )
    assert renewal.expires_at_ms - int(time.time() * 1000) > 71 * 3_600_000
    assert renewal.proof_digest == old.proof_digest  # one human's decision, one proof
    page.goto("/inbox")
    expect(page.locator("#inbox-items tr", has_text="ap-renew-me")).to_have_count(0)


def test_renewing_needs_the_sessions_csrf_token(console: Console) -> None:
    expiring_approval(console, "ap-csrf")
    alice = console.signed_in("alice")
    csrf = csrf_of(alice.get("/approvals/ap-csrf").text)
    form = {"term": "1d"}
    assert alice.post("/approvals/ap-csrf/renew", data=form).status_code == 403
    derived = next(renewal_ids("ap-csrf", token_of("alice")))  # the id a renewal takes
    lookup = approval_pb2.GetApprovalRequest(approval_id=derived)
    with pytest.raises(grpc.RpcError):  # nothing was created by the refused request
        console.harness.client("alice").approvals.GetApproval(lookup)
    renewed = alice.post("/approvals/ap-csrf/renew", data={**form, "csrf_token": csrf})
    assert renewed.status_code == 303
    again = alice.post("/approvals/ap-csrf/renew", data={**form, "csrf_token": csrf})
    assert again.status_code == 303  # a resubmitted form shows the renewal it made
    assert again.headers["location"] == renewed.headers["location"]
    assert console.harness.client("alice").approvals.GetApproval(lookup).approval.approver_id == (
        "alice"
    )
    bob = console.signed_in("bob")
    bob_csrf = csrf_of(bob.get("/approvals/ap-csrf").text)
    taken = bob.post("/approvals/ap-csrf/renew", data={**form, "csrf_token": bob_csrf})
    assert derived not in taken.headers.get("location", "")  # never alice's renewal
