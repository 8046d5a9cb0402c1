"""A resume reviewed in a real headless Chromium (issue 37, items 3 and 8): a failed
governed run's resume page asks why and whether to resume onto the ref's head; its
review lists the action a human approves again (a node whose effect was applied, with its
operation and input digest) and shows each node the head replaces side by side; one
button approves the material and resumes, and the run then executes the head's revision.
An ad hoc run with nothing to approve again resumes without an approval."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from playwright.sync_api import Page, expect

from aiws.engine.v1 import common_pb2, run_pb2, task_pb2
from tests.support.console import Console, csrf_of, propose, register, shot
from tests.support.console import page as get_page
from tests.support.harness import Harness, token_of
from tests.support.registry import activate_cmd, approve, execute, ref

MODEL = "m-resume"
OUT = {"type": "json", "schema": {"type": "object"}}
CHAIN: dict[str, Any] = {
    "version": 1,
    "nodes": {
        "fetch": {"agent": {"model": MODEL, "output": OUT}, "input": {"from": "run_input"},
                  "retry": {"attempts": 1}},
        "charge": {"agent": {"model": MODEL, "output": OUT}, "input": {"from": "node:fetch"},
                   "depends_on": ["fetch"], "retry": {"attempts": 1}, "effects": "external"},
    },
    "output": {"from": "node:charge"},
}  # fmt: skip
FIXED = json.loads(json.dumps(CHAIN))
FIXED["nodes"]["charge"]["agent"]["system_prompt"] = "Charge once, in euros."


def _claim(h: Harness) -> task_pb2.Task:
    [task] = (
        h.client("agent")
        .tasks.ClaimTasks(
            task_pb2.ClaimTasksRequest(
                worker_id="w-r", models=[MODEL], max_tasks=1, lease_ms=30_000, wait_ms=2_000
            )
        )
        .tasks
    )
    return task


def _fetch_done_charge_failed(h: Harness, run_id: str, effect: int) -> None:
    fetch = _claim(h)
    h.client("agent").tasks.CompleteTask(
        task_pb2.CompleteTaskRequest(
            attempt_id=fetch.attempt_id, worker_id="w-r", result_json='{"amount": 5}',
            effect=common_pb2.EFFECT_OUTCOME_APPLIED,
        )
    )  # fmt: skip
    charge = _claim(h)
    h.client("agent").tasks.FailTask(
        task_pb2.FailTaskRequest(
            attempt_id=charge.attempt_id, worker_id="w-r", error="charged, then the reply was lost",
            retryable=False, effect=effect,
        )
    )  # fmt: skip
    assert h.client("alice").runs.GetRun(run_pb2.GetRunRequest(run_id=run_id)).run.state == (
        run_pb2.RUN_STATE_FAILED
    )


def test_a_failed_governed_run_is_resumed_onto_the_head_from_the_console(
    page: Page, console: Console
) -> None:
    h = console.harness
    h.client("agent").tasks.ClaimTasks(  # the engine learns the model
        task_pb2.ClaimTasksRequest(
            worker_id="w-r", models=[MODEL], max_tasks=1, lease_ms=1_000, wait_ms=0
        )
    )
    register(h, "wo-resume", "plan", CHAIN)
    r = ref("wo-resume", "plan")
    started = h.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(request_id="resume-gov", ref=r, input_json="{}")
    )
    run_id = started.run.run_id
    _fetch_done_charge_failed(h, run_id, common_pb2.EFFECT_OUTCOME_APPLIED)
    propose(h, "wo-resume", "plan", "p-fix", FIXED, summary="say the currency")
    command = activate_cmd(r, "p-fix", 1, "wo-resume-act")
    approve(h, command, "wo-resume-act", epochs=h.epochs("wo-resume"))
    execute(h, "alice", "wo-resume-act-req", command)

    page.goto("/signin")
    page.get_by_label("Bearer token").fill(token_of("alice"))
    page.get_by_label("Bearer token").press("Enter")
    page.goto(f"/runs/{run_id}")
    page.locator("#resume-reason").fill("the charge node says the currency now")
    page.get_by_label("Onto the ref's current head").check()
    shot(page, "resume-1-form")
    page.get_by_role("button", name="Review and resume").click()

    expect(page.locator("#to-revision")).to_have_text("2")
    again = page.locator("#reapprove tbody tr")
    expect(again).to_have_count(1)
    expect(again).to_contain_text("charge")
    expect(again).to_contain_text("its effect was applied")
    amount = "sha256:" + hashlib.sha256(b'{"amount":5}').hexdigest()
    expect(again).to_contain_text(amount)  # the input the new attempt carries
    expect(page.locator("#changes-summary")).to_contain_text("1 node replaced")
    added = page.locator("#diff-charge tr.row-added, #diff-charge tr.row-changed")
    expect(added.filter(has_text="Charge once, in euros.")).to_have_count(1)
    expect(page.locator("#material-digest")).to_contain_text("sha256:")
    shot(page, "resume-2-review")

    page.get_by_role("button", name="Approve and resume").click()
    expect(page).to_have_url(f"{console.base_url}/runs/{run_id}?resumed=1")
    run = h.client("alice").runs.GetRun(run_pb2.GetRunRequest(run_id=run_id)).run
    assert (run.state, run.revision) == (run_pb2.RUN_STATE_RUNNING, 2)
    retry = _claim(h)
    assert retry.node_uid == "charge" and retry.revision == 2
    assert retry.agent.system_prompt == "Charge once, in euros."
    shot(page, "resume-3-run")


def test_an_ad_hoc_run_with_nothing_to_approve_again_resumes_without_an_approval(
    console: Console,
) -> None:
    h = console.harness
    h.client("agent").tasks.ClaimTasks(
        task_pb2.ClaimTasksRequest(
            worker_id="w-r", models=[MODEL], max_tasks=1, lease_ms=1_000, wait_ms=0
        )
    )
    plain = json.loads(json.dumps(CHAIN))
    del plain["nodes"]["charge"]["effects"]
    started = h.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(
            request_id="resume-ad-hoc", definition_json=json.dumps(plain), input_json="{}"
        )
    )
    run_id = started.run.run_id
    _fetch_done_charge_failed(h, run_id, common_pb2.EFFECT_OUTCOME_NOT_APPLIED)
    client = console.signed_in("alice")
    text = get_page(client, f"/runs/{run_id}")
    posted = client.post(
        f"/runs/{run_id}/resume",
        data={"csrf_token": csrf_of(text), "request_id": "console-plain", "reason": "retry"},
    )
    assert posted.status_code == 303, posted.text[:2000]
    assert posted.headers["location"].endswith("?resumed=1")  # resumed at once, no review
    run = h.client("alice").runs.GetRun(run_pb2.GetRunRequest(run_id=run_id)).run
    assert run.state == run_pb2.RUN_STATE_RUNNING


def test_an_ad_hoc_run_that_runs_an_applied_action_again_goes_to_its_review(
    console: Console,
) -> None:
    h = console.harness
    h.client("agent").tasks.ClaimTasks(
        task_pb2.ClaimTasksRequest(
            worker_id="w-r", models=[MODEL], max_tasks=1, lease_ms=1_000, wait_ms=0
        )
    )
    started = h.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(
            request_id="resume-ad-hoc-applied", definition_json=json.dumps(CHAIN), input_json="{}"
        )
    )
    run_id = started.run.run_id
    _fetch_done_charge_failed(h, run_id, common_pb2.EFFECT_OUTCOME_APPLIED)
    client = console.signed_in("alice")
    text = get_page(client, f"/runs/{run_id}")
    posted = client.post(
        f"/runs/{run_id}/resume",
        data={"csrf_token": csrf_of(text), "request_id": "console-applied", "reason": "again"},
    )
    assert posted.status_code == 303 and "/resume?reason=again" in posted.headers["location"]
    review = get_page(client, posted.headers["location"])
    assert 'id="reapprove"' in review and "its effect was applied" in review
    run = h.client("alice").runs.GetRun(run_pb2.GetRunRequest(run_id=run_id)).run
    assert run.state == run_pb2.RUN_STATE_FAILED  # nothing resumed without the approval
