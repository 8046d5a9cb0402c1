"""An authorization wait in a real headless Chromium (issue 23 item 5): the inbox links to
the wait's page, which shows the exact action it authorises (node, model, operation id);
a human reviews the material of a payload (the input digest appears), approves it and
satisfies the wait in one step; the wait then shows the approval and the approved
digest, and the run page lists what each wait authorises."""

from __future__ import annotations

import hashlib
import html
import json
import re

from playwright.sync_api import Page, expect

from aiws.engine.v1 import run_pb2, task_pb2, wait_pb2
from praxis.core.run import operation_id
from tests.support.console import Console, csrf_of, shot
from tests.support.harness import token_of

MODEL = "m-authorize"
SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
GATED = {
    "version": 1,
    "nodes": {
        "approve": {
            "kind": "authorization",
            "wait": {"expires_in_ms": 3_600_000, "schema": SCHEMA, "on_expiry": "fail"},
        },
        "pay": {
            "agent": {"model": MODEL, "output": {"type": "json", "schema": {"type": "object"}}},
            "input": {"from": "node:approve"},
            "depends_on": ["approve"],
        },
    },
    "output": {"from": "node:pay"},
}


def test_an_authorization_is_reviewed_and_approved_from_the_console(
    page: Page, console: Console
) -> None:
    agent = console.harness.client("agent")
    agent.tasks.ClaimTasks(  # the engine learns the model
        task_pb2.ClaimTasksRequest(
            worker_id="w-a", models=[MODEL], max_tasks=1, lease_ms=1_000, wait_ms=0
        )
    )
    started = agent.runs.StartRun(
        run_pb2.StartRunRequest(
            request_id="authorize-1", definition_json=json.dumps(GATED), input_json="null"
        )
    )
    run_id = started.run.run_id
    op = operation_id(run_id, "pay")

    page.goto("/signin")
    page.get_by_label("Bearer token").fill(token_of("alice"))
    page.get_by_label("Bearer token").press("Enter")
    expect(page).to_have_url(f"{console.base_url}/inbox")
    row = page.locator("#inbox-items tr", has_text=run_id)
    expect(row).to_contain_text(f"authorises pay ({op})")
    row.get_by_role("link").click()

    expect(page.locator("#wait-state")).to_have_text("PENDING")
    actions = page.locator("#authorised-actions tbody tr")
    expect(actions).to_have_count(1)
    expect(actions).to_contain_text("pay")
    expect(actions).to_contain_text(MODEL)
    expect(actions).to_contain_text(op)
    expect(actions).to_contain_text("not known yet")
    shot(page, "authorization-1-wait")

    page.get_by_label("Payload (JSON)").fill('{"ok": true}')
    page.get_by_role("button", name="Review the action").click()
    input_digest = "sha256:" + hashlib.sha256(b'{"ok":true}').hexdigest()
    expect(page.locator("#material")).to_contain_text(input_digest)
    expect(page.locator("#material")).to_contain_text(op)
    expect(actions).to_contain_text(input_digest)
    expect(actions.locator(".action-input")).to_have_text('{\n  "ok": true\n}')  # readable
    digest = page.locator("#material-digest").inner_text()
    shot(page, "authorization-2-review")

    page.get_by_role("button", name="Approve and satisfy").click()
    expect(page.locator("#wait-state")).to_have_text("SATISFIED")
    expect(page.locator("#approved-digest")).to_have_text(digest)
    expect(page.locator("#satisfied")).to_contain_text("by alice")
    expect(page.locator("#satisfied")).to_contain_text("with approval")
    expect(actions).to_contain_text(input_digest)  # the action as approved
    shot(page, "authorization-3-satisfied")

    page.get_by_role("link", name=run_id).click()
    expect(page.locator("#waits .authorises")).to_contain_text(f"pay {op}")
    claimed = agent.tasks.ClaimTasks(
        task_pb2.ClaimTasksRequest(
            worker_id="w-a", models=[MODEL], max_tasks=1, lease_ms=30_000, wait_ms=5_000
        )
    )
    assert [t.operation_id for t in claimed.tasks] == [op]


def test_an_authorize_form_sent_twice_satisfies_the_wait_once(console: Console) -> None:
    agent = console.harness.client("agent")
    agent.tasks.ClaimTasks(  # the engine learns the model
        task_pb2.ClaimTasksRequest(
            worker_id="w-a", models=[MODEL], max_tasks=1, lease_ms=1_000, wait_ms=0
        )
    )
    run_id = agent.runs.StartRun(
        run_pb2.StartRunRequest(
            request_id="authorize-twice", definition_json=json.dumps(GATED), input_json="null"
        )
    ).run.run_id
    wait_id = (
        console.harness.client("alice")
        .waits.ListWaits(wait_pb2.ListWaitsRequest(run_id=run_id))
        .waits[0]
        .wait_id
    )
    alice = console.signed_in("alice")
    url = f"/runs/{run_id}/waits/{wait_id}"
    csrf = csrf_of(alice.get(url).text)
    reviewed = alice.post(
        f"{url}/review", data={"csrf_token": csrf, "payload_json": '{"ok": true}'}
    )
    assert reviewed.status_code == 200
    hidden = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', reviewed.text)
    form = {name: html.unescape(value) for name, value in hidden}
    # The second sending (a double click, a retry) finds the approval the first created
    # under the same id, though its expiry is computed anew, and the wait already satisfied.
    for _ in range(2):
        assert alice.post(f"{url}/authorize", data=form).status_code == 303
    wait = console.harness.client("alice").waits.GetWait(wait_pb2.GetWaitRequest(wait_id=wait_id))
    assert wait.wait.state == wait_pb2.WAIT_STATE_SATISFIED
